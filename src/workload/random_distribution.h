// RandomDistribution: the block chooser of one direction's random IOs, for
// fio's random_distribution= (fio io_u.c get_next_rand_offset and its
// __get_next_rand_offset_{zipf,pareto,gauss,zoned,zoned_abs}). Blocks are
// numbered 0..n-1 from the region start; the caller turns block b into the
// offset region_start + b * alignment.
//
//  - random: RandomBlockPicker (offset_generator.h): each block once per
//    pass with the random map, independent uniform draws with norandommap.
//  - zipf / pareto: ZipfGenerator (zipf_generator.h), normal:
//    GaussGenerator (gauss_generator.h), over the n blocks. Blocks repeat:
//    fio turns the random map off for every distribution but random, so
//    norandommap is implied.
//  - zoned: 100 access slots, one per percent, each naming its zone; a
//    draw picks a slot uniformly, then a block uniformly (with repeats)
//    inside the zone. Zone i with size percentages before it adding up to
//    p and its own size s covers blocks [p*n/100, p*n/100 + n*s/100), as in
//    fio (integer division; a zone of no whole block gives its first block).
//  - zoned_abs: the same with zone i covering blocks
//    [bytes before it / align, bytes up to its end / align); every zone that
//    gets accesses must end inside the n blocks (CheckFits).
//  - A zoned direction without a zone list (zoned:,60/10:40/90 for the
//    reads) is uniform with repeats, as in fio.
//
// Pure and deterministic given the seed; not thread-safe.
#ifndef TIERBENCH_WORKLOAD_RANDOM_DISTRIBUTION_H_
#define TIERBENCH_WORKLOAD_RANDOM_DISTRIBUTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/io_dir.h"
#include "util/rng.h"
#include "workload/distribution_spec.h"
#include "workload/gauss_generator.h"
#include "workload/offset_generator.h"
#include "workload/zipf_generator.h"

namespace tierbench {

class RandomDistribution {
 public:
  // n > 0 blocks of `align` bytes each (zoned_abs sizes are divided by it).
  // random_map: the job has no norandommap (honoured by "random" only).
  // Call CheckFits first: the constructor assumes the spec fits.
  RandomDistribution(const DistributionSpec& spec, IoDir dir, uint64_t n,
                     uint64_t align, bool random_map, uint64_t seed);

  // "" when `spec` can be drawn over n blocks of `align` bytes for `dir`,
  // else why not (a zoned_abs zone that gets accesses ends past the blocks).
  static std::string CheckFits(const DistributionSpec& spec, IoDir dir,
                               uint64_t n, uint64_t align);

  // The next block, in [0, n).
  uint64_t Next();
  // A new pass: a new order for "random" with the random map; the other
  // distributions have no passes and continue their streams.
  void NewPass();
  // Restarts every draw from `seed`; what the seed placed (the zipf/pareto
  // offset, the zones) stays, so the hot blocks are the same.
  void ReseedDraws(uint64_t seed);

  uint64_t size() const { return n_; }

 private:
  struct ZoneRange {
    uint64_t start;
    uint64_t count;
  };

  uint64_t n_;
  std::optional<RandomBlockPicker> uniform_;
  std::optional<ZipfGenerator> zipf_;
  std::optional<GaussGenerator> gauss_;
  std::vector<ZoneRange> slots_;  // zoned: 100 slots, one per access percent
  Rng zone_rng_;                  // zoned: which slot (fio's zone_state)
  Rng block_rng_;                 // zoned: which block inside the zone
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_RANDOM_DISTRIBUTION_H_
