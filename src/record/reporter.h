// Reporter: the one interface every output of tierbench goes through
// (google/benchmark's BenchmarkReporter: ReportContext, ReportRuns,
// Finalize). A reporter receives events and writes its format; the code
// that measures never names a file or a format.
//
// Events, in order:
//   `tierbench run` / `pgbench`: OnRun once, with the finished run.
//   `tierbench compare`: OnCompareStart (planned, before any change);
//   OnOriginalSettings (the stacks' settings, captured before the first
//   change; only when there are stacks); with --verify, per stack
//   OnVerifyStart then OnVerifyStep per step done (before the cells);
//   OnCell per finished cell;
//   OnCompareEnd on every exit path after the cells started (also after
//   an error or an interrupt, from the finished cells); Finalize last.
//   `tierbench lab --power-cut`: OnPowerCut once, with every layer's
//   outcome (report/power_cut_reporter.h).
//   `tierbench lab --fault`: OnFault once, with every layer's outcome
//   (report/fault_reporter.h).
//   `tierbench lab --scenario fill`: OnFill once (report/fill_reporter.h).
//   A reporter handles the events that concern it; the others do nothing.
// The records of the events sit here, beside the interface (google/
// benchmark's BenchmarkReporter and its Run): what orchestrate produces and
// the reporters of report/ consume. The command picks its reporters (cli/,
// with report/reporters.h) and hands them in.
// Errors: a reporter throws SysError naming a file it cannot write. Not
// thread-safe (one reporter per command, driven by one thread).
#ifndef TIERBENCH_RECORD_REPORTER_H_
#define TIERBENCH_RECORD_REPORTER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "record/comparison_row.h"
#include "trace/read_hit_curve.h"
#include "util/finding.h"
#include "workload/job_result.h"

namespace tierbench {

struct CellRecord;
struct CompareOptions;
struct CompareSetup;
struct FaultRun;
struct FillRun;
struct PowerCutRun;
class Sysfs;

// A planned compare: its validated options and setup, the tree its devices
// are read from and the number of cells of the plan.
struct CompareStart {
  const CompareOptions& options;
  const CompareSetup& setup;
  const Sysfs& sysfs;
  size_t planned_cells;
};

// One stack's original mode and settings (CacheLayer::OriginalJson).
struct OriginalSettings {
  std::string device;
  nlohmann::json settings;
};

// What became of the restore of the original settings at the end.
struct RestoreOutcome {
  bool attempted = false;  // false: no stack was captured
  bool ok = true;
  std::vector<std::string> failures;  // "<device>: <what failed>"
};

// compare --verify (orchestrate/verify_runner.h): one stack's data check is
// about to start.
struct VerifyStart {
  std::string device;
  std::string layer;
  uint64_t bytes = 0;   // checked region, from LBA 0
  uint64_t blocks = 0;  // 4 KiB blocks
  // The steps in order: "write", then the modes of the layer's
  // LayerKind::verify_order, "cold" and "warm".
  std::vector<std::string> steps;
};

// One step of a data check: the check data was written ("write") or, after
// switching to a mode or emptying the cache, read back and checked.
struct VerifyStep {
  std::string device;
  std::string layer;
  std::string step;
  std::string mode;          // the cache mode read back during the step
  uint64_t blocks = 0;       // written or checked
  uint64_t errors = 0;       // blocks that differ
  int64_t dirty_bytes = -1;  // the layer's dirty bytes after it; -1 unknown
  double seconds = 0;
  std::vector<std::string> notes;  // steps the layer took (e.g. a drain)
  // The first few differences: "LBA N (byte B): expected ..., found ...".
  std::vector<std::string> mismatches;
};

// A stack's data check as it ended (complete or stopped at a bad step).
struct VerifyOutcome {
  std::string device;
  std::string layer;
  uint64_t bytes = 0;
  uint64_t blocks = 0;
  uint64_t errors = 0;  // over every step
  uint64_t nonce = 0;   // mixed into every block's seed
  int64_t dirty_bytes_after_write = -1;
  double seconds = 0;
  bool complete = false;  // every step ran
  std::vector<VerifyStep> steps;
  bool verified() const { return complete && errors == 0; }
};

// compare --precondition: the raw SSD written sequentially before the
// first cell (orchestrate/precondition.h).
struct PreconditionOutcome {
  std::string device;
  uint64_t range_bytes = 0;  // [0, range_bytes) written per pass
  uint32_t passes = 0;       // passes done
  uint64_t bytes = 0;        // written in all
  double seconds = 0;
  std::vector<double> pass_mib_s;  // each pass's write throughput
};

// A compare at its end, complete or stopped early.
struct CompareEnd {
  // "complete", "complete with failed cells", "interrupted" or
  // "failed: <error>".
  std::string status;
  bool all_cells_ran;  // false: stopped early by an error or a signal
  size_t planned_cells;
  size_t finished_cells;
  size_t failed_cells;  // finished, but the workload failed
  const std::vector<ComparisonRow>& comparison;
  RestoreOutcome restore;
  // compare --verify: one per stack checked (empty without --verify).
  std::vector<VerifyOutcome> verify;
  // The run-level validity findings per workload (record/comparison.h
  // WorkloadFindings), already in `comparison`; runs.csv adds them to the
  // cells of those workloads.
  std::map<std::string, std::vector<Finding>> workload_findings;
  // compare --precondition (nullopt without it, or when it did not run).
  std::optional<PreconditionOutcome> precondition;
};

class Reporter {
 public:
  virtual ~Reporter() = default;

  // `tierbench run`: one fio-style run finished.
  virtual void OnRun(const RunResult& /*run*/) {}
  // `tierbench compare` (see the header comment for the order).
  virtual void OnCompareStart(const CompareStart& /*start*/) {}
  virtual void OnOriginalSettings(
      const std::vector<OriginalSettings>& /*stacks*/) {}
  virtual void OnVerifyStart(const VerifyStart& /*start*/) {}
  virtual void OnVerifyStep(const VerifyStep& /*step*/) {}
  virtual void OnCell(const CellRecord& /*cell*/) {}
  // compare --capture-replay: read hit curves of a replay prepared after
  // its capture (orchestrate/capture_replay.h), after that cell's OnCell;
  // more than the setup's (CompareStart::setup.read_hit_curves).
  virtual void OnReadHitCurves(const std::vector<ReadHitCurve>& /*more*/) {}
  virtual void OnCompareEnd(const CompareEnd& /*end*/) {}
  // `tierbench lab --power-cut`: the power cut and its recovery.
  virtual void OnPowerCut(const PowerCutRun& /*run*/) {}
  virtual void OnFault(const FaultRun& /*run*/) {}
  virtual void OnFill(const FillRun& /*run*/) {}
  // After every reporter's last other event.
  virtual void Finalize() {}
};

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_REPORTER_H_
