// CompareRunner: `tierbench compare` from validated options to result files.
//
//   1. PrepareCompare() validates everything (nothing is touched before);
//   2. tells the reporters it was handed (record/reporter.h; `tierbench
//      compare` hands in report/reporters.h MakeCompareReporters) that it
//      starts: they create <results>/<run-id>/ and write manifest.json
//      (status "running") and the CSV headers;
//   3. captures every stack's original mode and settings ONCE
//      (CacheLayer::CaptureOriginal), hands them to the reporters and
//      writes them to the restore state file (orchestrate/restore_state.h;
//      removed after a successful restore, kept for `tierbench restore`
//      otherwise); they are restored at the end, after an error and after
//      SIGINT/SIGTERM (the interrupt flag of util/interrupt.h stops the
//      current cell at its next safe point; a second signal aborts at once
//      without restoring);
//   4. with --verify, checks every stack's data across its modes
//      (orchestrate/verify_runner.h; OnVerifyStart/OnVerifyStep); blocks
//      that differ end the run with a RunError (exit 1) after the restore;
//   5. runs every cell of the plan (run_plan.h) through CellRunner and
//      hands each finished cell to the reporters (runs.csv grows, one log
//      line per cell);
//   6. compares the finished cells (record/comparison.h) and tells
//      the reporters the end (status, restore outcome; also when the run
//      stopped early): comparison.csv, the final manifest.json, and when
//      every cell ran the console table and the HTML report.
// This file names no output format: every file and console line is a
// reporter's.
//
// Errors: whatever PrepareCompare and the cells throw (after the restore and
// the result files); Run() returns normally when every cell ran, with
// `failed_cells` counting cells whose workload failed (exit code 1).
// Not thread-safe.
#ifndef TIERBENCH_ORCHESTRATE_COMPARE_RUNNER_H_
#define TIERBENCH_ORCHESTRATE_COMPARE_RUNNER_H_

#include <memory>
#include <string>
#include <vector>

#include "orchestrate/compare_hooks.h"
#include "orchestrate/prepare_compare.h"
#include "record/compare_options.h"
#include "record/comparison.h"
#include "record/reporter.h"
#include "util/host.h"

namespace tierbench {

struct CompareSummary {
  std::string run_dir;
  size_t planned_cells = 0;
  size_t finished_cells = 0;
  size_t failed_cells = 0;  // finished, but the workload failed
  bool restore_attempted = false;
  bool restore_ok = true;
  std::vector<ComparisonRow> comparison;
};

class CompareRunner {
 public:
  // On the machine: RealHost(options.sysfs_root).
  explicit CompareRunner(CompareOptions options);
  // On `host` (util/host.h; tests hand in fakes), with test seams `hooks`.
  CompareRunner(CompareOptions options, Host host, CompareHooks hooks = {});

  // Runs the whole compare, telling `reporters` every event in order.
  CompareSummary Run(std::vector<std::unique_ptr<Reporter>> reporters);

 private:
  // --verify: each stack in turn; appends its outcome to *outcomes, throws
  // RunError at the first stack whose data differs.
  void VerifyStacks(const CompareSetup& setup,
                    const std::vector<std::unique_ptr<Reporter>>& reporters,
                    std::vector<VerifyOutcome>* outcomes) const;

  CompareOptions options_;
  Host host_;
  CompareHooks hooks_;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_COMPARE_RUNNER_H_
