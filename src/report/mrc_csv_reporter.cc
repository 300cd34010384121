#include "report/mrc_csv_reporter.h"

#include <sstream>

#include "record/compare_setup.h"
#include "trace/read_hit_curve.h"
#include "util/result_dir.h"

namespace tierbench {

void MrcCsvReporter::OnCompareStart(const CompareStart& start) {
  run_dir_ = start.setup.run_dir;
  curves_ = start.setup.read_hit_curves;
  Write();
}

void MrcCsvReporter::OnReadHitCurves(const std::vector<ReadHitCurve>& more) {
  curves_.insert(curves_.end(), more.begin(), more.end());
  Write();
}

void MrcCsvReporter::Write() const {
  if (curves_.empty()) return;
  std::ostringstream out;
  ReadHitCurvesTable(curves_).Write(out);
  ResultDir(run_dir_).Write("mrc.csv", out.str());
}

}  // namespace tierbench
