// Snapshots of bcache's accounting and of the block counters of the three
// devices of a stack. BcacheLayer maps them onto LayerCounters; their
// difference over a run window is DiffLayerCounters (cache/layer_counters.h).
//
// COUNTER LAG: bcache folds its per-IO counters into stats_total only every
// 300 s / 22 ~= 13.6 s. A snapshot taken right after IO misses up to that much
// of the run. Callers (the orchestrator) must wait kStatsLagSeconds after the
// IO stops before taking the "after" snapshot; that wait is theirs so tests
// can skip it. The /sys/block stat counters and dirty_data have no such lag.
//
// FOLD WITNESS: the same timer that folds the counters into stats_total also
// decays stats_five_minute by 1/32 (stats.c: scale_stats, weight 32), and
// nothing else changes those files. So while a five-minute count is 32 or
// more (any IO counted in the last few minutes), every fold shows there even
// when the cell counted nothing new, as with writethrough's writes.
//
// Hits and misses are counted on the READ path only (a partial hit is a miss);
// never present cache_hits/(hits+misses) as a write hit rate. `bypassed_bytes`
// covers every bypassed bio, reads and writes.
//
// Value types; thread-safe.
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_COUNTERS_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_COUNTERS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cache/block_stat.h"

namespace tierbench {

// Seconds to wait after the IO of a run before reading stats_total.
inline constexpr int kStatsLagSeconds = 15;

// sys/block/bcacheN/bcache/stats_total/* (backing device scope).
struct BcacheStatsTotal {
  uint64_t cache_hits = 0;
  uint64_t cache_misses = 0;
  uint64_t cache_bypass_hits = 0;
  uint64_t cache_bypass_misses = 0;
  uint64_t cache_miss_collisions = 0;
  uint64_t cache_readaheads = 0;
  uint64_t bypassed_bytes = 0;  // "bypassed", a human size (+-5 % precision).
};

struct CounterSnapshot {
  uint64_t taken_ns = 0;  // CLOCK_MONOTONIC.
  BcacheStatsTotal stats;
  // stats_five_minute's cache_hits, cache_misses, cache_bypass_hits,
  // cache_bypass_misses and bypassed as read, joined by spaces: a text that
  // changes at every fold while they are not ~0 (FOLD WITNESS above). Empty
  // when the directory is absent.
  std::string five_minute;
  // stats_total's files as read, one "name=value" line each (the evidence
  // file's raw text).
  std::string raw;
  uint64_t dirty_bytes = 0;  // Backing device dirty_data.
  std::string state;         // "clean", "dirty", "no cache", ...
  std::string bcache_name;   // "bcache0"
  std::string backing_name;  // "vda"
  std::string cache_name;    // "vdb"; empty when no cache is attached.
  BlockStat bcache;          // IO submitted to /dev/bcacheN.
  BlockStat backing;         // IO that reached the HDD.
  BlockStat cache;           // IO that reached the SSD (zero when none).
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_COUNTERS_H_
