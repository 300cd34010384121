// DistributionSpec: fio's random_distribution= value, parsed and validated
// (fio's str_random_distribution_cb / parse_zoned_distribution in options.c).
// The generator that draws blocks from it is workload/random_distribution.h.
//
// Accepted forms, with fio's defaults and fio's checks:
//  - random                      uniform (the default)
//  - zipf[:theta[:center]]       theta default 1.1; theta == 1.0 is refused
//  - pareto[:h[:center]]         h default 0.2; h must lie in (0, 1)
//  - normal[:dev[:center]]       dev default 0 (percent of the blocks); it
//                                must lie in [0, 100)
//    center (zipf/pareto/normal) must lie in [0, 1].
//  - zoned:A/S[:A/S...]          A = % of the random accesses, S = % of the
//                                region, zones laid out from the region start
//  - zoned_abs:A/S[:A/S...]      the same with S an absolute size (20G)
//    Up to 256 zones. A list may be given per direction, "reads,writes"
//    (a third, trim, list is accepted and ignored); one list applies to both.
//    (fio's HOWTO documents per-direction lists; fio 3.33's parser refuses
//    them.)
//    Parsing a list stops at the first empty entry (fio). The access
//    percentages must add up to exactly 100; zoned sizes may not add up to
//    more than 100; a zoned size above 100 is clamped to 100, and a zoned
//    size that is missing or 0 gets an equal share of what is left (integer
//    division), as in fio.
//    Stricter than fio: an access percentage above 100, a zone that gets
//    accesses but no room (fio sends all of them to one block: zoned:100 does
//    that) and a zone list longer than 256 (fio drops the rest) are refused.
// fio's "sequence" distribution (newer than fio 3.33) is not supported, and
// "gauss" is refused as fio refuses it (fio's name is "normal").
//
// Pure; thread-safe.
#ifndef TIERBENCH_WORKLOAD_DISTRIBUTION_SPEC_H_
#define TIERBENCH_WORKLOAD_DISTRIBUTION_SPEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/io_dir.h"

namespace tierbench {

enum class DistributionKind {
  kRandom,
  kZipf,
  kPareto,
  kNormal,
  kZoned,
  kZonedAbs
};

// fio's name for the kind: "random", "zipf", "pareto", "normal", "zoned",
// "zoned_abs".
const char* DistributionKindName(DistributionKind kind);

// One zone of a zoned / zoned_abs distribution.
struct DistributionZone {
  uint32_t access_percent = 0;  // share of the random accesses, 0..100
  uint64_t size = 0;  // zoned: percent of the region; zoned_abs: bytes
  bool operator==(const DistributionZone& o) const {
    return access_percent == o.access_percent && size == o.size;
  }
};

struct DistributionSpec {
  DistributionKind kind = DistributionKind::kRandom;
  // zipf: theta; pareto: h; normal: deviation in percent of the blocks.
  double value = 0;
  // zipf/pareto/normal: where the distribution is based, as a fraction of
  // the blocks; kNoCenter when not given (fio's -1).
  static constexpr double kNoCenter = -1;
  double center = kNoCenter;
  // zoned/zoned_abs, per direction, in region order. An empty list means
  // uniform for that direction (fio's zone_split_nr == 0).
  std::vector<DistributionZone> zones[kNumDirs];
  // The value as written (for reports); "random" by default.
  std::string text = "random";

  bool IsUniform() const { return kind == DistributionKind::kRandom; }
};

// Parses `text` (the option's value). Returns true and fills *out, or
// returns false with *why (what is wrong) and *fix (what to write instead).
bool ParseDistributionSpec(std::string_view text, DistributionSpec* out,
                           std::string* why, std::string* fix);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_DISTRIBUTION_SPEC_H_
