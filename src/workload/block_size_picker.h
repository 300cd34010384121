// BlockSizePicker: draws IO lengths for one direction from a BlockSizeSpec
// (workload/job_spec.h), as fio does:
//  - bssplit: a size chosen with probability weight/100;
//  - bs (min == max): always that size;
//  - blocksize_range: uniform among the multiples of min in [min, max].
// Pure: all randomness comes from the caller's Rng. The spec must be valid
// (non-zero sizes, min <= max, split weights summing to 100), as the parser
// guarantees. Not thread-safe only through the Rng it is given.
#ifndef TIERBENCH_WORKLOAD_BLOCK_SIZE_PICKER_H_
#define TIERBENCH_WORKLOAD_BLOCK_SIZE_PICKER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "util/rng.h"
#include "workload/job_spec.h"

namespace tierbench {

class BlockSizePicker {
 public:
  explicit BlockSizePicker(const BlockSizeSpec& spec);

  // One length drawn from the distribution.
  uint32_t Pick(Rng& rng) const;

  // A length for an IO that must fit in `room` bytes. As fio's
  // get_next_buflen(): draws up to kMaxRedraws times until a size fits, then
  // takes the largest allowed size <= room. Returns 0 if not even the
  // smallest size fits (the caller wraps or ends the pass).
  uint32_t PickFitting(Rng& rng, uint64_t room) const;

  uint32_t min() const { return min_; }
  uint32_t max() const { return max_; }

  static constexpr int kMaxRedraws = 16;

 private:
  uint32_t LargestFitting(uint64_t room) const;

  uint32_t min_;
  uint32_t max_;
  // bssplit as (size, cumulative weight 1..100); empty for bs/bsrange.
  std::vector<std::pair<uint32_t, uint32_t>> cumulative_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_BLOCK_SIZE_PICKER_H_
