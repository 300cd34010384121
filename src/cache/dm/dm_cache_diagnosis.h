// dm-cache's own diagnosis rules (reference-notes §4 and pitfall 28): pure
// functions from a cell's observation to Findings (util/finding.h), rule
// ids "dm-cache.<name>", severity after the name.
//   cold      (invalid) most IO missed the cache in a caching mode: smq promotes
//             gradually, a write to an unpromoted block goes to the origin
//             with the promotion traffic on top, so the cell measured the
//             origin (and can be slower than the bare HDD);
//   throttled (caution) misses without promotions: migration_threshold (and smq's
//             gradual promotion) held promotion back;
//   block     (note) IO smaller than the cache block: every promotion copies a
//             whole block (read-modify-write of whole chunks);
//   split     (note) IO larger than the cache block: the target splits it per
//             block (its max_io_len), in every mode.
// Settings read: migration_threshold. Thread-safe (pure).
#ifndef TIERBENCH_CACHE_DM_DM_CACHE_DIAGNOSIS_H_
#define TIERBENCH_CACHE_DM_DM_CACHE_DIAGNOSIS_H_

#include <string>
#include <vector>

#include "cache/cell_observation.h"
#include "util/finding.h"

namespace tierbench {

// Below this share of hits among all hits and misses a caching-mode cell is
// flagged as having measured the origin.
inline constexpr double kDmCacheColdHitPct = 50.0;
// At least this many misses before the promotion rules speak.
inline constexpr int64_t kDmCacheMinMisses = 100;

std::vector<Finding> DiagnoseDmCache(const CellObservation& obs);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_CACHE_DIAGNOSIS_H_
