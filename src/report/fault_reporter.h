// FaultReporter: the output of `tierbench lab --fault` (lab/lab_fault.h),
// behind the Reporter interface (record/reporter.h, event OnFault):
// fault.csv, report.html and summary.md (present/pages/scenario_report.h)
// in the run folder and one console paragraph per layer.
//
// fault.csv (schema_version 1; every column documented in
// results/README.md), one row per layer in the order the lab ran them;
// block counts are of the checked region (`blocks` blocks of
// `block_bytes`, generation 2 written over generation 1, acknowledged and
// dirty in the cache when the fault came):
//   schema_version, layer, fault, device, blocks, block_bytes,
//   dirty_bytes_at_fault, dirty_at_fault, writer_blocks, writer_errors,
//   writer_first_error, writer_hung, state_after, device_after,
//   stack_intact, stack_stale, stack_lost, stack_corrupt,
//   silent_corruption, recovery, recovery_ms, recovered_state,
//   recovered_intact, recovered_stale, recovered_lost, recovered_corrupt,
//   usable_again_ms, origin_intact, origin_stale, origin_lost,
//   origin_corrupt, kernel_log, result
// `result` is FaultVerdict().
//
// Errors: OnFault throws SysError naming fault.csv when it cannot be
// written. Not thread-safe.
#ifndef TIERBENCH_REPORT_FAULT_REPORTER_H_
#define TIERBENCH_REPORT_FAULT_REPORTER_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "record/reporter.h"

namespace tierbench {

inline constexpr int kFaultCsvSchemaVersion = 1;

// One read of the checked region (workload/block_check.h). A read of a
// device that was gone counts every block as lost (the reader got an
// error), with `gone` set; so does a read that never returned (stuck in
// the kernel), with `hung` set.
struct FaultBlocks {
  uint64_t intact = 0;
  uint64_t stale = 0;    // an older acknowledged version (generation 1)
  uint64_t lost = 0;     // the read returned an error
  uint64_t corrupt = 0;  // read without error, but no acknowledged version
  bool gone = false;
  bool hung = false;
  std::string first_error;
  uint64_t total() const { return intact + stale + lost + corrupt; }
  // What a reader could not tell from good data.
  uint64_t silent() const { return stale + corrupt; }
};

// One cache layer through one fault.
struct FaultLayer {
  std::string layer;  // lab layer name, e.g. "bcache"
  std::string fault;  // "cache-fail", "origin-errors"
  std::string device;
  uint64_t blocks = 0;  // of the checked region, all acknowledged
  uint64_t block_bytes = 0;
  uint64_t dirty_bytes_at_fault = 0;
  std::string dirty_at_fault;  // as the layer shows it
  // The writer on the second region, over its passes during and after the
  // fault: blocks it tried, writes that failed (a failed pass-closing
  // fdatasync counts its pass's blocks), its first error; hung when it did
  // not return within 30 s of being told to stop.
  uint64_t writer_blocks = 0;
  uint64_t writer_errors = 0;
  std::string writer_first_error;
  bool writer_hung = false;
  std::string state_after;  // bcache state / dm status after the fault
  FaultBlocks stack;        // read through the stack after the fault
  std::string recovery;     // the recovery path taken
  double recovery_ms = 0;
  std::string recovered_state;
  FaultBlocks recovered;  // read through the stack after the recovery
  // From the fault until the recovered stack read the whole region without
  // an error; nullopt when it never did within the run.
  std::optional<double> usable_again_ms;
  FaultBlocks origin;      // the bare origin after the stack was taken down
  std::string kernel_log;  // the kernel's first lines after the fault
};

struct FaultRun {
  std::string run_dir;
  std::string fault;
  double guest_seconds = 0;
  std::vector<FaultLayer> layers;
};

// Of the read through the stack as the kernel left it after the fault (no
// one's recovery yet): "silent" when a block came back without an error but
// not as its last acknowledged version (fault.csv silent_corruption > 0);
// "errors" when the stack returned errors for the blocks it could not serve
// and nothing silent; "intact" when every block read back as acknowledged;
// "unproven" when nothing was dirty at the fault. What a recovery path then
// serves is in the recovered_* columns (a path that gives the dirty blocks
// up serves the origin's older versions: stale, by the user's choice).
std::string FaultVerdict(const FaultLayer& layer);

// The column names of fault.csv after schema_version, in order.
std::vector<std::string> FaultCsvColumns();

// The console lines of one layer, e.g. "fault: cache-fail on bcache
// (/dev/bcache0), 8.0M dirty: the writer saw 256 of 512 writes fail; the
// stack: gone; ...".
std::string FaultConsoleLines(const FaultLayer& layer);

class FaultReporter : public Reporter {
 public:
  // Writes <run_dir>/fault.csv; console lines go to `console`.
  FaultReporter(std::string run_dir, std::ostream& console);

  void OnFault(const FaultRun& run) override;

 private:
  std::string run_dir_;
  std::ostream& console_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_FAULT_REPORTER_H_
