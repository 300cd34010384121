// GaussGenerator: fio's normal block generator (fio lib/gauss.c), for
// random_distribution=normal[:dev[:center]].
//
// Each draw averages 12 uniform draws from [0, n] (rounded up): an
// approximately normal point around n/2 with a standard deviation of about
// n/12. With dev > 0, a further offset uniform in [-s/2, s/2) is added,
// where s = ceil(n * dev / 100) capped at n/2; it is halved (towards 0)
// until the point stays inside [0, n). As in fio the point is then scattered
// with fio's __hash_u64 (see zipf_generator.h), so the hot blocks are
// spread over the region, and moved by floor(n * (center - 0.5)) blocks
// when a center is given (wrapping around the region).
//
// Draws come from tierbench's Rng, not fio's Tausworthe generator. Unlike
// fio, a point of exactly n with a deviation cannot loop forever.
// Pure and deterministic given the seed; not thread-safe.
#ifndef TIERBENCH_WORKLOAD_GAUSS_GENERATOR_H_
#define TIERBENCH_WORKLOAD_GAUSS_GENERATOR_H_

#include <cstdint>

#include "util/rng.h"

namespace tierbench {

class GaussGenerator {
 public:
  // n > 0 blocks; dev in [0, 100) percent; center in [0, 1] or < 0 for none.
  GaussGenerator(uint64_t n, double dev, double center, uint64_t seed);

  // The next point before scattering, in [0, n].
  uint64_t NextPoint();
  // The next block, in [0, n).
  uint64_t Next();
  // Restarts the draws from `seed` (the center stays).
  void ReseedDraws(uint64_t seed) { rng_ = Rng(seed); }

  uint64_t size() const { return n_; }
  uint64_t spread() const { return spread_; }

 private:
  uint64_t n_;
  Rng rng_;
  uint64_t spread_ = 0;  // fio's stddev: ceil(n * dev / 100), <= n / 2
  uint64_t offset_ = 0;  // center shift, in [0, n)
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_GAUSS_GENERATOR_H_
