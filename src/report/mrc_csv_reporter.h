// mrc.csv of a compare run: the LRU and OPT read hit curves of the
// workloads whose stream is known (record/compare_setup.h
// read_hit_curves; trace/read_hit_curve.h has the columns, results/
// README.md documents them), written at the start, before the first cell,
// and again with the curves of each --capture-replay replay once its
// capture is made (OnReadHitCurves). No file when there is no curve.
// Errors: SysError naming the file when it cannot be written. Not
// thread-safe.
#ifndef TIERBENCH_REPORT_MRC_CSV_REPORTER_H_
#define TIERBENCH_REPORT_MRC_CSV_REPORTER_H_

#include <string>
#include <vector>

#include "record/reporter.h"
#include "trace/read_hit_curve.h"

namespace tierbench {

class MrcCsvReporter : public Reporter {
 public:
  void OnCompareStart(const CompareStart& start) override;
  void OnReadHitCurves(const std::vector<ReadHitCurve>& more) override;

 private:
  void Write() const;

  std::string run_dir_;
  std::vector<ReadHitCurve> curves_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_MRC_CSV_REPORTER_H_
