// Diagnosis: pure rules that turn what one compare cell observed (mode, knobs
// as read back, counter deltas, the workload's jobs and measured bytes) into
// warnings a reader of the comparison needs: "this cell did not measure what
// its mode name says, and here is why".
//
// The rules (reference-notes §3.4 and §7(c); each is unit-tested):
//   no-cache     state "no cache": every mode passes straight to the HDD.
//   cutoff       bypassed bytes beyond what the mode bypasses by design are
//                >= kBypassWarnPct of the cell's bytes while
//                sequential_cutoff > 0 and the workload has sequential IO:
//                "N% of IO bypassed the cache (sequential_cutoff = 4.0M): ..."
//   congestion   the same bypass with sequential_cutoff = 0 or purely random
//                IO while a congested_*_threshold_us is > 0.
//   full         cache_available_percent <= kCacheFullPct: bcache bypasses.
//   warm         hits in `none` (always) or `writearound` (unless the cache
//                was reset cold): reads were served by data of earlier cells.
//   degraded     writeback mode, the workload wrote, dirty data did not grow:
//                writes were not cached dirty (behaves like writethrough).
//   unaligned    a job's block sizes, blockalign or offset are not multiples
//                of the cache set block_size: such IO bypasses the cache.
//   dirty-before dirty data was left before the cell (drain timed out).
//   dirty-after  dirty data still left when the post-cell drain timed out.
// Raw cells (layer "raw") get no counter rules.
//
// Thread-safety: pure functions.
#ifndef TIERBENCH_ORCHESTRATE_DIAGNOSIS_H_
#define TIERBENCH_ORCHESTRATE_DIAGNOSIS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "workload/job_spec.h"

namespace tierbench {

inline constexpr double kBypassWarnPct = 3.0;
inline constexpr int kCacheFullPct = 5;
// Below this growth per written byte, writeback is considered degraded.
inline constexpr double kDirtyGrowthMinFraction = 0.01;

// What one cell observed; plain values so the rules stay independent of how
// they were read. Sizes in bytes. A negative value means "not known".
struct CellObservation {
  std::string layer;         // "bcache" or "raw"
  std::string cache_mode;    // read back: writethrough|writeback|...
  std::string state_before;  // bcache `state` before the run
  std::string cache_state;   // cold|warm|as-is (what the cell asked for)
  int64_t sequential_cutoff = -1;
  int64_t congested_read_threshold_us = -1;
  int64_t congested_write_threshold_us = -1;
  int cache_available_percent = -1;
  int64_t cache_block_size = -1;  // cache set block_size
  // Counter deltas over the measured window (stats_total).
  uint64_t cache_hits = 0;
  uint64_t cache_misses = 0;
  uint64_t bypass_hits = 0;
  uint64_t bypass_misses = 0;
  uint64_t bypassed_bytes = 0;
  // dirty_data of the backing device right before and after the run.
  uint64_t dirty_before = 0;
  uint64_t dirty_after = 0;
  bool drain_before_timed_out = false;
  bool drain_after_timed_out = false;
  uint64_t dirty_left_after_drain = 0;
  // What the workload did (all jobs, measured window plus ramp).
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  std::vector<JobSpec> jobs;  // empty for DB workloads
};

// All warnings for the cell, in rule order, each one line without ";".
std::vector<std::string> Diagnose(const CellObservation& obs);

// Formats bytes as bcache prints them ("0", "512", "4.0k", "51.4M").
std::string FormatBcacheSize(uint64_t bytes);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_DIAGNOSIS_H_
