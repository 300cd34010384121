// The report of a finished compare (report.html, charts/*.svg, summary.md;
// present/pages/report_writer.h) written into its run folder once every cell
// ran, from the files the earlier reporters wrote; its path is printed on `out`
// under the other result files. A report that cannot be written does not
// fail the measured run: a warning (util/log.h) says why. Nothing is written
// for a compare that stopped early (`tierbench report` can still render
// it). Not thread-safe.
#ifndef TIERBENCH_REPORT_HTML_REPORT_REPORTER_H_
#define TIERBENCH_REPORT_HTML_REPORT_REPORTER_H_

#include <ostream>
#include <string>

#include "record/reporter.h"

namespace tierbench {

class HtmlReportReporter : public Reporter {
 public:
  explicit HtmlReportReporter(std::ostream& out) : out_(out) {}

  void OnCompareStart(const CompareStart& start) override;
  void OnCompareEnd(const CompareEnd& end) override;

 private:
  std::ostream& out_;
  std::string run_dir_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_HTML_REPORT_REPORTER_H_
