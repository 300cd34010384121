// The counters every cache layer reports, in one shape, and their difference
// over a cell's measured window.
//
// Common counters (a layer that does not report one leaves it at -1, which
// becomes an empty CSV cell, never a 0):
//   read_hits / read_misses     reads served by / missing the cache
//   write_hits / write_misses   writes to cached / uncached blocks
//   bypassed_ios / _bytes       IO the layer deliberately sent past the cache
//   promotions / demotions      blocks moved into / out of the cache
//   dirty_bytes                 a GAUGE: data in the cache not yet on the
//                               origin (not a counter: the delta keeps
//                               before and after)
// Block-layer counters (/sys/class/block/<dev>/stat) of the stack device,
// the origin (HDD side) and the cache device(s) (SSD side) show where IO
// really went, whatever the layer claims.
// Layer-only counters go into `extra`, each declared by the layer with its
// kind (cache/layer_kind.h ExtraColumn): counters are differenced, gauges
// keep the "after" value.
//
// Value types and pure functions; thread-safe.
#ifndef TIERBENCH_CACHE_LAYER_COUNTERS_H_
#define TIERBENCH_CACHE_LAYER_COUNTERS_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cache/block_stat.h"

namespace tierbench {

struct CommonCounters {
  int64_t read_hits = -1;
  int64_t read_misses = -1;
  int64_t write_hits = -1;
  int64_t write_misses = -1;
  int64_t bypassed_ios = -1;
  int64_t bypassed_bytes = -1;
  int64_t promotions = -1;
  int64_t demotions = -1;

  bool operator==(const CommonCounters&) const = default;
};

struct LayerCounters {
  uint64_t taken_ns = 0;  // CLOCK_MONOTONIC
  CommonCounters common;
  int64_t dirty_bytes = -1;    // gauge; -1 when the layer cannot tell
  std::string state;           // layer's short state ("clean", "dirty", ...)
  std::string cache_identity;  // changes when the cache device changed
  BlockStat stack;             // IO submitted to the stack device
  BlockStat origin;            // IO that reached the HDD side
  BlockStat cache;             // IO that reached the SSD side (all parts)
  std::map<std::string, int64_t> extra;  // layer-only, see ExtraColumn
  // A lagging layer's FOLD WITNESS: a text that changes at every fold of
  // its counters, whether or not it counted anything new since the last
  // one (bcache: its five-minute averages, which decay at each fold).
  // Empty when the layer has none; it may also stay the same across a
  // fold (nothing left to decay), never change without one.
  std::string fold_mark;
  // The layer's counters as the kernel printed them, for the evidence file
  // (evidence.jsonl): a dm target's status line ("start length type
  // params"), bcache's stats_total files as "name=value" lines. Not
  // parsed again by tierbench itself; tests replay it through the layers'
  // parsers.
  std::string raw;
};

struct LayerDelta {
  double seconds = 0;
  CommonCounters common;  // after - before; -1 where not reported
  int64_t dirty_before_bytes = -1;
  int64_t dirty_after_bytes = -1;
  BlockStat stack;
  BlockStat origin;
  BlockStat cache;
  std::map<std::string, int64_t> extra;
  // A counter went backwards (reset, re-registration, a table reload that
  // re-created the target) or the cache device changed: not trustworthy.
  bool counters_reset = false;

  // after - before of dirty data; 0 when either is unknown.
  int64_t dirty_growth_bytes() const;
  // 100 * read_hits / (read_hits + read_misses), or -1 when unknown/none.
  double read_hit_ratio_pct() const;
  nlohmann::json ToJson() const;
};

// Differences `after - before`. Extra names in `gauges` keep the after
// value; the others are counters.
LayerDelta DiffLayerCounters(const LayerCounters& before,
                             const LayerCounters& after,
                             const std::set<std::string>& gauges = {});

// True when one of the layer's own counters (`common`, and the `extra`
// names not in `gauges`) or its non-empty `fold_mark` differs between `a`
// and `b`; the block counters and the gauges do not count. A layer whose
// counters lag (CacheLayer::CounterLagSeconds() > 0) moves them only when
// it folds what it counted into them, so two readings that differ bracket
// a fold.
bool LayerOwnCountersMoved(const LayerCounters& a, const LayerCounters& b,
                           const std::set<std::string>& gauges = {});

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_LAYER_COUNTERS_H_
