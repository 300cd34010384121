// Rng: a small, fast, seedable pseudo-random generator (xoshiro256**,
// Blackman & Vigna 2018) whose 256-bit state is filled by splitmix64 from one
// 64-bit seed, so equal seeds give equal sequences on every machine.
//
// Not cryptographic. Not thread-safe: each job clone owns its generators.
#ifndef TIERBENCH_UTIL_RNG_H_
#define TIERBENCH_UTIL_RNG_H_

#include <cstdint>

namespace tierbench {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  // Next 64 uniformly distributed bits.
  uint64_t Next();
  // Uniform integer in [0, n); n must be > 0 (returns 0 for n == 0).
  // Unbiased (Lemire's multiply-and-reject method).
  uint64_t Uniform(uint64_t n);
  // Uniform double in [0, 1) with 53 bits of precision.
  double NextDouble();

  // One splitmix64 step: advances *state and returns a well-mixed value.
  // Also used to derive independent seeds from one seed.
  static uint64_t SplitMix64(uint64_t* state);
  // Stateless 64-bit mixer (splitmix64's finaliser): a bijection on uint64.
  static uint64_t Mix64(uint64_t x);

 private:
  uint64_t s_[4];
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_RNG_H_
