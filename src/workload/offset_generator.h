// Random block choice for random IO patterns (the offset part of fio's
// get_next_rand_offset()). Blocks are numbered 0..n-1; the caller turns a
// block number into a byte offset (region start + block * alignment).
//
// BlockPermutation: visits every block exactly once per pass, in a
// pseudo-random order, with O(1) memory instead of fio's coverage bitmap
// ("random map"). It is a keyed Feistel network over the smallest even-bit
// power of two m >= n (a bijection on [0, m)), restricted to [0, n) by cycle
// walking: a value >= n is encrypted again until it lands below n. Because
// the Feistel network is a bijection, walking from each i in [0, n) yields
// a distinct value in [0, n). m < 4n, so a call costs at most a few
// encryptions on average. A new key gives a new, independent order.
//
// RandomBlockPicker: either a BlockPermutation (fio default: each block once
// per pass, a new pass with a fresh key when one ends) or, with norandommap,
// independent uniform draws (blocks may repeat or never be visited).
//
// Pure and deterministic given the key / Rng. Not thread-safe.
#ifndef TIERBENCH_WORKLOAD_OFFSET_GENERATOR_H_
#define TIERBENCH_WORKLOAD_OFFSET_GENERATOR_H_

#include <cstdint>

#include "util/rng.h"

namespace tierbench {

class BlockPermutation {
 public:
  // n > 0 blocks; `key` selects the order.
  BlockPermutation(uint64_t n, uint64_t key);

  // The next block of the current pass. After n calls the pass is complete
  // (PassDone()); further calls start over in the same order.
  uint64_t Next();
  bool PassDone() const { return index_ >= n_; }
  // Starts a new pass in the order selected by `key`.
  void Reset(uint64_t key);

  uint64_t size() const { return n_; }

 private:
  static constexpr int kRounds = 6;
  uint64_t Encrypt(uint64_t x) const;

  uint64_t n_;
  int half_bits_;  // each Feistel half has this many bits
  uint64_t half_mask_;
  uint64_t round_keys_[kRounds];
  uint64_t index_ = 0;  // position within the pass
};

class RandomBlockPicker {
 public:
  // n > 0 blocks; cover_each_once: BlockPermutation (fio's random map), else
  // uniform (norandommap). `seed` makes the sequence repeatable.
  RandomBlockPicker(uint64_t n, bool cover_each_once, uint64_t seed);

  uint64_t Next();
  // Starts a new pass (a new order when covering each block once).
  void NewPass();
  // Restarts from `seed`: a new order (or new draws) from the next block on.
  void ReseedDraws(uint64_t seed);

 private:
  uint64_t n_;
  bool cover_each_once_;
  Rng rng_;
  BlockPermutation permutation_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_OFFSET_GENERATOR_H_
