#include "workload/offset_generator.h"

namespace tierbench {

BlockPermutation::BlockPermutation(uint64_t n, uint64_t key)
    : n_(n == 0 ? 1 : n) {
  // Smallest h >= 1 with 2^(2h) >= n.
  half_bits_ = 1;
  while (half_bits_ < 32 && (n_ - 1) >> (2 * half_bits_) != 0) ++half_bits_;
  half_mask_ = half_bits_ == 32 ? 0xffffffffULL : (1ULL << half_bits_) - 1;
  Reset(key);
}

void BlockPermutation::Reset(uint64_t key) {
  uint64_t state = key;
  for (uint64_t& k : round_keys_) k = Rng::SplitMix64(&state);
  index_ = 0;
}

uint64_t BlockPermutation::Encrypt(uint64_t x) const {
  uint64_t left = (x >> half_bits_) & half_mask_;
  uint64_t right = x & half_mask_;
  for (uint64_t k : round_keys_) {
    const uint64_t f = Rng::Mix64(right ^ k) & half_mask_;
    const uint64_t next_right = left ^ f;
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

uint64_t BlockPermutation::Next() {
  if (index_ >= n_) index_ = 0;
  uint64_t x = index_++;
  // Cycle walking: terminates because the walk from x < n_ stays on x's
  // cycle of the bijection, which contains x itself.
  do {
    x = Encrypt(x);
  } while (x >= n_);
  return x;
}

RandomBlockPicker::RandomBlockPicker(uint64_t n, bool cover_each_once,
                                     uint64_t seed)
    : n_(n == 0 ? 1 : n),
      cover_each_once_(cover_each_once),
      rng_(seed),
      permutation_(n_, rng_.Next()) {}

void RandomBlockPicker::ReseedDraws(uint64_t seed) {
  rng_ = Rng(seed);
  permutation_.Reset(rng_.Next());
}

uint64_t RandomBlockPicker::Next() {
  if (!cover_each_once_) return rng_.Uniform(n_);
  if (permutation_.PassDone()) permutation_.Reset(rng_.Next());
  return permutation_.Next();
}

void RandomBlockPicker::NewPass() {
  if (cover_each_once_) permutation_.Reset(rng_.Next());
}

}  // namespace tierbench
