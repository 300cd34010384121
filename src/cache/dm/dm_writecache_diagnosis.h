// dm-writecache's own diagnosis rules (writecache.rst; reference-notes §4),
// as Findings (util/finding.h) with rule ids "dm-writecache.<name>", all
// of severity caution (each is what the target does, for the reader):
//   reads      reads missed: dm-writecache does not cache reads of blocks
//              it did not write, so they measured the origin;
//   watermark  the cache reached high_watermark during the cell (or writes
//              waited for free blocks): it wrote back while the cell ran,
//              and writes stall once the freelist is empty;
//   around     writes went around the cache (bypassed).
// Settings read: high_watermark (default 50); extras: free_blocks,
// total_blocks, writes_blocked_on_freelist. Thread-safe (pure).
#ifndef TIERBENCH_CACHE_DM_DM_WRITECACHE_DIAGNOSIS_H_
#define TIERBENCH_CACHE_DM_DM_WRITECACHE_DIAGNOSIS_H_

#include <string>
#include <vector>

#include "cache/cell_observation.h"
#include "util/finding.h"

namespace tierbench {

// The kernel's default high_watermark (percent of blocks in use).
inline constexpr int kDmWritecacheDefaultHighWatermark = 50;
// Reads below this many bytes in a cell are not judged.
inline constexpr uint64_t kDmWritecacheMinReadBytes = 1 << 20;
// Read misses above this share of reads are flagged.
inline constexpr double kDmWritecacheReadMissPct = 50.0;

std::vector<Finding> DiagnoseDmWritecache(const CellObservation& obs);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_WRITECACHE_DIAGNOSIS_H_
