// RegressionCheck: `tierbench check RUN --baseline BASE`, the CI gate that
// fails when a cell got significantly slower than it was in a baseline run.
//
// The two run folders are aligned as the fleet report aligns them
// (present/merged_runs.h: layer, mode, workload, job and direction; the
// baseline first). Each aligned row is one case:
//   regressed   both sides have >= 3 repetitions, the 95 % interval of the
//               change of IOPS (or tps) against the baseline (Welch's t on
//               the logs, stats/confidence.h) lies entirely below 0, and
//               its estimate (the ratio of the geometric means) fell by
//               more than `max_regression_pct`;
//   passed      judged (both sides >= 3 repetitions, both valid), and not
//               regressed: faster, within noise, or slower by no more than
//               the allowance;
//   missing     in the baseline but absent in the run, or more of its
//               repetitions failed in the run than in the baseline: the
//               run no longer measures what the baseline did (a run
//               repetition that measured 0 while the baseline has 3 is
//               "regressed");
//   not judged  fewer than 3 repetitions on a side (no interval), or the
//               cell is marked invalid (comparison.csv valid=no) on either
//               side: listed with why, never a pass or a failure;
//   new         only in the run: listed.
// The check passes when no case regressed or went missing and at least one
// was judged (a gate that judged nothing must not pass silently).
// Thread-safety: pure.
#ifndef TIERBENCH_PRESENT_REGRESSION_CHECK_H_
#define TIERBENCH_PRESENT_REGRESSION_CHECK_H_

#include <optional>
#include <string>
#include <vector>

#include "present/run_folder.h"
#include "stats/confidence.h"

namespace tierbench {

struct CheckCase {
  enum class Status { kRegressed, kPassed, kMissing, kNotJudged, kNew };
  Status status = Status::kNotJudged;
  std::string layer, mode, workload, series;   // series: "" or its label
  std::string unit;                            // "IOPS", "tps"
  double baseline_median = 0, run_median = 0;  // 0 when that side is absent
  std::optional<ChangeInterval> change;        // judged cases only
  std::string why;  // one line: the figures and the reason of the status
  // "mode on workload[ series]": the case's name in lists and JUnit.
  std::string Name() const;
};

const char* CheckStatusName(CheckCase::Status s);

struct CheckResult {
  std::vector<CheckCase> cases;  // in aligned-row order
  double max_regression_pct = 0;
  int Count(CheckCase::Status s) const;
  bool Passed() const;
};

// The cases of `run` against `baseline` (see above). `max_regression_pct`
// >= 0.
CheckResult CheckAgainstBaseline(const RunFolder& baseline,
                                 const RunFolder& run,
                                 double max_regression_pct);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_REGRESSION_CHECK_H_
