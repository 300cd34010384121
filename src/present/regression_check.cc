#include "present/regression_check.h"

#include <cstdio>
#include <vector>

#include "present/merged_runs.h"

namespace tierbench {
namespace {

std::string CheckNumber(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

bool HasNonPositive(const std::vector<double>& values) {
  for (double v : values) {
    if (!(v > 0)) return true;
  }
  return false;
}

// How many repetitions of `mode` on `workload` failed in `run`.
int FailedRepetitions(const RunFolder& run, const std::string& mode,
                      const std::string& workload) {
  int n = 0;
  for (const FailedCell& f : run.failures()) {
    n += f.mode == mode && f.workload == workload ? 1 : 0;
  }
  return n;
}

// The error of the first failed repetition of `mode` on `workload`.
std::string FirstFailure(const RunFolder& run, const std::string& mode,
                         const std::string& workload) {
  for (const FailedCell& f : run.failures()) {
    if (f.mode == mode && f.workload == workload) return f.error;
  }
  return "";
}

std::string CheckPct(double v) {
  return (v >= 0 ? "+" : "") + CheckNumber(v, 1) + "%";
}

}  // namespace

std::string CheckCase::Name() const {
  return mode + " on " + workload + (series.empty() ? "" : " " + series);
}

const char* CheckStatusName(CheckCase::Status s) {
  switch (s) {
    case CheckCase::Status::kRegressed:
      return "regressed";
    case CheckCase::Status::kPassed:
      return "passed";
    case CheckCase::Status::kMissing:
      return "missing";
    case CheckCase::Status::kNotJudged:
      return "not judged";
    case CheckCase::Status::kNew:
      return "new";
  }
  return "?";
}

int CheckResult::Count(CheckCase::Status s) const {
  int n = 0;
  for (const CheckCase& c : cases) n += c.status == s ? 1 : 0;
  return n;
}

bool CheckResult::Passed() const {
  return Count(CheckCase::Status::kRegressed) == 0 &&
         Count(CheckCase::Status::kMissing) == 0 &&
         Count(CheckCase::Status::kPassed) > 0;
}

CheckResult CheckAgainstBaseline(const RunFolder& baseline,
                                 const RunFolder& run,
                                 double max_regression_pct) {
  using S = CheckCase::Status;
  CheckResult result;
  result.max_regression_pct = max_regression_pct;
  const MergedRuns merged({&baseline, &run});
  for (const MergedRow& row : merged.rows()) {
    CheckCase c;
    c.layer = row.layer;
    c.mode = row.mode;
    c.workload = row.workload;
    c.series = row.series;
    // runs.csv's unit: "io" (IOPS) or a DB workload's transactions.
    c.unit = row.unit == "io"   ? "IOPS"
             : row.unit == "tx" ? "tps"
                                : row.unit + "/s";
    const MergedCell& base = row.runs[0];
    const MergedCell& now = row.runs[1];
    if (base.figure != nullptr) c.baseline_median = base.figure->iops_median;
    if (now.figure != nullptr) c.run_median = now.figure->iops_median;
    const std::string figures = CheckNumber(c.baseline_median, 1) + " -> " +
                                CheckNumber(c.run_median, 1) + " " + c.unit;
    const int run_failed = FailedRepetitions(run, row.mode, row.workload);
    const int base_failed = FailedRepetitions(baseline, row.mode, row.workload);
    if (base.figure == nullptr) {
      c.status = S::kNew;
      c.why = "not in the baseline (" + base.status + "); " +
              CheckNumber(c.run_median, 1) + " " + c.unit;
    } else if (now.figure == nullptr) {
      c.status = S::kMissing;
      c.why = "in the baseline (" + CheckNumber(c.baseline_median, 1) + " " +
              c.unit + "), " + now.status + " in the run";
    } else if (run_failed > base_failed) {
      // A repetition that failed is no figure: the run lost what the
      // baseline measured.
      c.status = S::kMissing;
      c.why = figures + "; " + std::to_string(run_failed) +
              " of its repetitions failed in the run (" +
              std::to_string(base_failed) +
              " in the baseline): " + FirstFailure(run, row.mode, row.workload);
    } else if (now.figure->n >= static_cast<int>(kMinRepetitionsForInterval) &&
               base.figure->n >= static_cast<int>(kMinRepetitionsForInterval) &&
               !now.vs_first_ci && HasNonPositive(now.figure->iops_values)) {
      c.status = S::kRegressed;
      c.why = figures + "; a repetition of the run measured 0 " + c.unit;
    } else if (base.figure->Invalid() || now.figure->Invalid()) {
      c.status = S::kNotJudged;
      c.why = figures + "; marked invalid in the " +
              std::string(base.figure->Invalid() ? "baseline" : "run") + ": " +
              (base.figure->Invalid() ? base.figure->invalid_reasons
                                      : now.figure->invalid_reasons);
    } else if (!now.vs_first_ci) {
      c.status = S::kNotJudged;
      c.why = figures + "; " +
              (HasNonPositive(base.figure->iops_values)
                   ? std::string("a repetition of the baseline measured 0")
                   : std::to_string(base.figure->n) + " and " +
                         std::to_string(now.figure->n) +
                         " repetitions: an interval needs " +
                         std::to_string(kMinRepetitionsForInterval) +
                         " on each side (compare --repeat " +
                         std::to_string(kMinRepetitionsForInterval) + ")");
    } else {
      c.change = now.vs_first_ci;
      const ChangeInterval& ci = *c.change;
      const std::string interval = CheckPct(ci.estimate_pct) + " (95% CI " +
                                   CheckPct(ci.low_pct) + " to " +
                                   CheckPct(ci.high_pct) + ")";
      if (ci.high_pct < 0 && ci.estimate_pct < -max_regression_pct) {
        c.status = S::kRegressed;
        c.why = figures + ", " + interval + ": slower beyond the " +
                CheckNumber(max_regression_pct, 1) + "% allowed";
      } else {
        c.status = S::kPassed;
        c.why =
            figures + ", " + interval +
            (ci.significant()
                 ? (ci.low_pct > 0
                        ? ": faster"
                        : ": slower, within the " +
                              CheckNumber(max_regression_pct, 1) + "% allowed")
                 : ": within noise");
      }
    }
    result.cases.push_back(c);
  }
  return result;
}

}  // namespace tierbench
