#include "report/mrc_csv_reporter.h"

#include <sstream>

#include "record/compare_setup.h"
#include "trace/read_hit_curve.h"
#include "util/result_dir.h"

namespace tierbench {

void MrcCsvReporter::OnCompareStart(const CompareStart& start) {
  if (start.setup.read_hit_curves.empty()) return;
  std::ostringstream out;
  ReadHitCurvesTable(start.setup.read_hit_curves).Write(out);
  ResultDir(start.setup.run_dir).Write("mrc.csv", out.str());
}

}  // namespace tierbench
