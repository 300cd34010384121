// bcache's own diagnosis rules (reference-notes §3.4 and §7(c)): pure
// functions from a cell's observation (cache/cell_observation.h) to warnings
// a reader of the comparison needs, as Findings (util/finding.h) with rule
// ids "bcache.<name>" and the severity after the name. Each rule is
// unit-tested.
//   no-cache   (invalid) state "no cache": every mode passes straight to
//              the HDD.
//   full       (caution) cache_available_percent <= kCacheFullPct: bcache
//              bypasses.
//   cutoff     (caution: what bcache does with that setting) bypassed bytes beyond what the mode bypasses by design are
//              >= kBypassWarnPct of the cell's bytes while
//              sequential_cutoff > 0 and the workload has sequential IO.
//   congestion (caution) the same bypass with sequential_cutoff = 0 or purely random
//              IO while a congested_*_threshold_us is > 0.
//   warm       (invalid) read hits in `none` (always) or `writearound` (unless the
//              cache was reset cold): reads were served by earlier cells'
//              data.
//   degraded   (caution) writeback, the workload wrote, dirty data did not grow.
//   unaligned  (caution) a job's block sizes, blockalign or offset are not multiples
//              of the cache set block_size: such IO bypasses the cache.
// Settings read: sequential_cutoff, congested_read_threshold_us,
// congested_write_threshold_us; extras: bypass_hits,
// cache_available_percent. Thread-safe (pure).
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_DIAGNOSIS_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_DIAGNOSIS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cache/cell_observation.h"
#include "util/finding.h"

namespace tierbench {

inline constexpr double kBypassWarnPct = 3.0;
inline constexpr int kCacheFullPct = 5;
// Below this growth per written byte, writeback is considered degraded.
inline constexpr double kDirtyGrowthMinFraction = 0.01;

// Every bcache rule, in the order above; each warning one line without ';'.
std::vector<Finding> DiagnoseBcache(const CellObservation& obs);

// Formats bytes as bcache prints them ("0", "512", "4.0k", "51.4M").
std::string FormatBcacheSize(uint64_t bytes);

// The first of the job's sizes (block sizes, blockalign, offset) that is not
// a multiple of `block`, or 0; *what names it ("block size", ...).
uint64_t FirstUnalignedSize(const JobSpec& job, uint64_t block,
                            std::string* what);

// True when a job of the list is not purely random (DB workloads, with no
// list, count as sequential: WAL and checkpoints).
bool HasSequentialIo(const std::vector<JobSpec>& jobs);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_DIAGNOSIS_H_
