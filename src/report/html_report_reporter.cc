#include "report/html_report_reporter.h"

#include "present/pages/report_writer.h"
#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "util/log.h"

namespace tierbench {

void HtmlReportReporter::OnCompareStart(const CompareStart& start) {
  run_dir_ = start.setup.run_dir;
}

void HtmlReportReporter::OnCompareEnd(const CompareEnd& end) {
  if (!end.all_cells_ran) return;
  try {
    out_ << "         " << WriteReport(run_dir_, "", true).html << "\n";
  } catch (const std::exception& e) {
    LogWarning(std::string("could not write the report: ") + e.what());
  }
}

}  // namespace tierbench
