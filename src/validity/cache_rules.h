// The validity rules every cache layer shares, around the layer's own
// (CacheLayer::Diagnose), for a finished cache cell. Rule ids:
//   dirty-before    (invalid) dirty data was left before the cell (the
//                   drain timed out): writeback of earlier cells competed;
//   <the layer's rules, in their order>
//   cold-reads      (invalid) the mode caches reads, the cache was not
//                   settled (cold, as-is, or a warm-up that ran out of
//                   time), and >= kColdFillingReadPct of the bytes read
//                   from the stack came from the origin: the cell measured
//                   the cache filling up (>= kColdOriginReadPct: the
//                   origin), not the settled cache. A skewed workload on a
//                   cold cache hits more and more as it runs (Zipf reads in
//                   the lab: 44% served by the cache in the first 3 s, 92%
//                   after 15), so "mostly missed" would pass a cell that
//                   measured the warm-up (a cold Zipf cell in the lab
//                   test: 22% from the HDD; warmed: 1.5%). Skipped when the
//                   layer already
//                   reported the same as its own invalid "<layer>.cold";
//   working-set     (caution) a random job's region is larger than the
//                   cache: at most cache/region of it can be cached;
//   dirty-after     (caution) dirty data still left when the post-cell
//                   drain timed out: the next cell competes with it;
//   counters-reset  (unknown) a counter went backwards during the cell:
//                   the layer's counters are not trustworthy;
//   counters-lag    (unknown) the counters of a lagging layer (bcache) were
//                   read at the wait's limit without a fold seen: they may
//                   miss the end of the cell.
// Raw cells (no layer) get none of these.
//
// Thread-safety: pure functions (the layer's rules are const).
#ifndef TIERBENCH_VALIDITY_CACHE_RULES_H_
#define TIERBENCH_VALIDITY_CACHE_RULES_H_

#include <functional>
#include <vector>

#include "cache/cell_observation.h"
#include "util/finding.h"

namespace tierbench {

inline constexpr double kColdOriginReadPct = 80.0;
inline constexpr double kColdFillingReadPct = 10.0;
// Reads below this many bytes are not judged by cold-reads.
inline constexpr uint64_t kColdMinReadBytes = 1ull << 20;

using LayerRulesFn =
    std::function<std::vector<Finding>(const CellObservation&)>;

// All findings of a cache cell, in the order above. `layer_rules` may be
// empty (a layer without rules of its own).
std::vector<Finding> CacheFindings(const CellObservation& obs,
                                   const LayerRulesFn& layer_rules);

}  // namespace tierbench

#endif  // TIERBENCH_VALIDITY_CACHE_RULES_H_
