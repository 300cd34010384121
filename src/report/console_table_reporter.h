// What `tierbench compare` prints (ConsoleTableReporter):
//   - per finished cell one notice on stderr (util/log.h), e.g. "cell 3/12
//     writeback/randwrite-4k #1: randwrite write 5123 IOPS p99 800us
//     (sustained 1600) time to clean 52.0s", then one warning per warning
//     of the cell;
//   - compare --verify: one notice per stack at its start and per step
//     ("verify /dev/bcache0 after writethrough (mode writethrough): 1024
//     blocks, 0 differ, dirty 3.7M, 0.2s"), one warning per difference
//     kept (LBA, expected, found), and at the end one line per stack on
//     `out` ("Verified: ..." or "VERIFY FAILED: ...");
//   - when every cell ran: the comparison table and the paths of the result
//     files on `out` (report.html's follows from HtmlReportReporter), and,
//     last, a warning when the original settings were not all restored.
//
// The comparison table (PrintComparisonTable): one line per
// mode x workload x job x direction, aligned columns
//   mode  workload  job/dir  IOPS  MiB/s  p99  vs HDD  vs SSD  warnings
// (IOPS is tps and MiB/s "-" for DB workloads; p99 is the clat p99, or the
// transaction latency p99). Warnings are numbered footnotes ("[1]") listed
// under the table, so long texts do not break the alignment. A change whose
// 95 % interval includes 0 (with fewer than 3 repetitions: whose min-max
// ranges overlap) reads "within noise" instead of a signed percentage; one
// line under the table says what that rests on, or, with one repetition,
// that no interval can be given.
// Thread-safety: PrintComparisonTable is a pure function; the reporter is
// not thread-safe.
#ifndef TIERBENCH_REPORT_CONSOLE_TABLE_REPORTER_H_
#define TIERBENCH_REPORT_CONSOLE_TABLE_REPORTER_H_

#include <ostream>
#include <string>
#include <vector>

#include "record/comparison.h"
#include "record/reporter.h"

namespace tierbench {

void PrintComparisonTable(const std::vector<ComparisonRow>& rows,
                          std::ostream& out);

// What a finished run ends with on the console: the verdict of the run
// folder `run_dir` (present/verdict.h; a warning when it cannot be read),
// the comparison table of `rows` and the paths of the result files. Also
// `tierbench lab --guests` after its merge.
void PrintVerdictAndTable(const std::string& run_dir,
                          const std::vector<ComparisonRow>& rows,
                          std::ostream& out);

class ConsoleTableReporter : public Reporter {
 public:
  explicit ConsoleTableReporter(std::ostream& out) : out_(out) {}

  void OnCompareStart(const CompareStart& start) override;
  void OnVerifyStart(const VerifyStart& start) override;
  void OnVerifyStep(const VerifyStep& step) override;
  void OnCell(const CellRecord& rec) override;
  void OnCompareEnd(const CompareEnd& end) override;
  void Finalize() override;

 private:
  std::ostream& out_;
  std::string run_dir_;
  size_t planned_cells_ = 0;
  size_t cells_seen_ = 0;
  bool drain_after_flush_ = false;  // --drain-after flush
  bool restore_warning_ = false;    // print the restore warning at the end
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_CONSOLE_TABLE_REPORTER_H_
