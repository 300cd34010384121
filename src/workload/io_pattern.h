// IoPattern: the IO sequence of one job clone (direction, offset, length),
// computed from a JobSpec without doing any IO. The runner asks it for the
// next IO; tests can replay it exactly.
//
// Semantics follow fio:
//  - Region: [offset, offset + size) of the target; size unset means "to the
//    end of the target". A percentage offset is rounded down to the job's
//    alignment. Every IO lies entirely inside the region.
//  - Direction: always read/write for read/write patterns; for rw/randrw a
//    draw per IO with probability rwmixread% of a read.
//  - Sequential IO: one position per direction, starting at the region
//    start, continuing after the previous IO of that direction and wrapping
//    to the region start when the next IO no longer fits.
//  - Random IO (rand* patterns, a percentage_random% share of IOs; the rest
//    continue sequentially from the previous IO of that direction): offsets
//    are multiples of the direction's alignment (blockalign, default: its
//    minimum block size) from the region start, chosen so that the minimum
//    block size fits. Which block comes next follows random_distribution=
//    (RandomDistribution, workload/random_distribution.h):
//     - random (default): without norandommap every aligned block is chosen
//       exactly once per pass (RandomBlockPicker with a Feistel
//       permutation, workload/offset_generator.h; a new order each pass);
//       with norandommap uniformly, with repeats.
//     - zipf / pareto / normal: fio's generators over the blocks, with the
//       hot ranks scattered by fio's hash and an offset drawn from the seed
//       (or the center); for one seed and one region size the same blocks
//       are hot on every target. Blocks repeat: as in fio, any distribution
//       but random implies norandommap.
//     - zoned / zoned_abs: a zone by its access percentage, then a block
//       uniformly (with repeats) inside it; zones are laid out from the
//       region start, in percent of the blocks or in bytes. A zoned_abs
//       zone with accesses that ends past the region is a ConfigError.
//    Directions with identical geometry (and zone lists) share one chooser,
//    as they share fio's random map and zipf state.
//  - Lengths: BlockSizePicker per direction; a drawn length that does not
//    fit before the region end is redrawn, then shrunk (as fio does).
//  - Budget: io_budget() = the region length (fio's io_size defaults to
//    size). Next() returns false once that many bytes were issued (the last
//    IO may cross it). time_based callers then call Rewind() and go on.
//  - Seeds: with randseed set, that seed; else with randrepeat=1 a fixed
//    constant (same sequence on every run); else the clock. The clone index
//    is mixed in so clones differ. Direction, length, offset and the
//    random/sequential choice use separate streams, so changing one option
//    does not reshuffle the others. A non-zero JobSpec::draw_stream draws
//    all of them from an independent family of streams, except what the
//    seed places: the zipf/pareto offset (the hot blocks) and the zones.
//
// Thread-safety: none; each clone owns its IoPattern.
#ifndef TIERBENCH_WORKLOAD_IO_PATTERN_H_
#define TIERBENCH_WORKLOAD_IO_PATTERN_H_

#include <cstdint>
#include <optional>

#include "util/rng.h"
#include "workload/block_size_picker.h"
#include "workload/job_spec.h"
#include "workload/random_distribution.h"

namespace tierbench {

class IoPattern {
 public:
  // target_bytes: size of the target (resolves size=% / offset=% and the
  // default size). clone_index: 0..numjobs-1. Throws ConfigError if the
  // region is empty, outside the target, or smaller than a block size the
  // job uses (the message names the job and the sizes).
  IoPattern(const JobSpec& spec, uint64_t target_bytes, uint32_t clone_index);

  uint64_t region_start() const { return region_start_; }
  uint64_t region_length() const { return region_length_; }
  uint64_t io_budget() const { return region_length_; }
  // The seed the clone's streams were derived from (for reports).
  uint64_t seed() const { return seed_; }

  // Next IO. Returns false (and leaves the outputs alone) once io_budget()
  // bytes were issued since construction or the last Rewind().
  bool Next(IoDir* dir, uint64_t* offset, uint32_t* length);
  // New pass over the region: budget restored, sequential positions back at
  // the region start, a new random order. The streams continue, so passes
  // differ from each other but the whole run stays repeatable.
  void Rewind();

 private:
  IoDir PickDir();
  bool PickRandom();
  uint64_t Align(IoDir dir) const;

  const JobSpec spec_;
  uint64_t region_start_ = 0;
  uint64_t region_length_ = 0;
  uint64_t seed_ = 0;
  uint64_t issued_ = 0;
  uint64_t position_[kNumDirs];  // next sequential offset per direction
  std::optional<BlockSizePicker> sizes_[kNumDirs];
  // Random block choosers; picker_index_[dir] selects one (shared when the
  // directions' geometry and zones are the same), -1 when the direction is
  // unused or the pattern is sequential.
  std::optional<RandomDistribution> pickers_[kNumDirs];
  int picker_index_[kNumDirs] = {-1, -1};
  Rng dir_rng_;
  Rng size_rng_;
  Rng mode_rng_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_IO_PATTERN_H_
