// ZipfGenerator: fio's zipf and pareto block generators (fio lib/zipf.c),
// for random_distribution=zipf:theta[:center] and pareto:h[:center].
//
// Both draw a "rank" from a skewed distribution over [0, n) and then scatter
// it over the blocks, so the hot blocks are spread over the region instead
// of bunched at its start:
//   block = (HashRank(rank) % n + offset) % n
// where HashRank is fio's __hash_u64 (multiplication by the 64-bit golden
// ratio, a bijection on 2^64 and, for n a power of two, on [0, n)) and
// offset is drawn once from the seed (fio's rand_off) or, with a center c,
// floor(n * c). For one seed and one n the hot blocks are therefore the same
// on every run and every target of that size.
//
// zipf (Gray et al.'s approximation, as fio computes it): with
// zeta(k) = sum_{i=1..k} 1/i^theta, zetan = zeta(min(n, 10^7)) (fio caps the
// sum at 10^7 terms), u uniform in [0, 1):
//   u * zetan < 1                  -> rank 0
//   u * zetan < 1 + 0.5^theta      -> rank 1
//   otherwise rank = floor(n * (eta * u - eta + 1)^alpha), where
//   alpha = 1 / (1 - theta), eta = (1 - (2/n)^(1-theta)) / (1 - zeta2/zetan).
// The probability of a rank below k >= 2 is therefore
//   max(u0, min(1, 1 + ((k/n)^(1-theta) - 1) / eta)), u0 = (1+0.5^theta)/zetan
// (RankCdf()). theta == 1 is undefined (alpha); the parser refuses it.
//
// pareto: rank = floor((n - 1) * u^p) with p = ln(h) / ln(1 - h). For
// h < 0.5 the low ranks are hot, for h > 0.5 the high ones (pareto:0.9 sends
// about 20% of the IO to the top 1% of ranks); h = 0.5 is uniform.
//
// Draws come from tierbench's Rng, not fio's Tausworthe generator, so the
// sequences differ from fio's while the distributions are the same.
// Pure and deterministic given the seed; not thread-safe.
#ifndef TIERBENCH_WORKLOAD_ZIPF_GENERATOR_H_
#define TIERBENCH_WORKLOAD_ZIPF_GENERATOR_H_

#include <cstdint>

#include "util/rng.h"

namespace tierbench {

class ZipfGenerator {
 public:
  // n > 0 blocks. center: a fraction in [0, 1], or < 0 for none.
  static ZipfGenerator Zipf(uint64_t n, double theta, double center,
                            uint64_t seed);
  static ZipfGenerator Pareto(uint64_t n, double h, double center,
                              uint64_t seed);

  // The next rank (before scattering), in [0, n).
  uint64_t NextRank();
  // The next block, in [0, n): the next rank, scattered.
  uint64_t Next() { return Scatter(NextRank()); }
  // Restarts the draws from `seed`, keeping the offset (the hot blocks).
  void ReseedDraws(uint64_t seed) { rng_ = Rng(seed); }
  // Where `rank` lands: (HashRank(rank) % n + offset) % n.
  uint64_t Scatter(uint64_t rank) const;

  // fio's __hash_u64.
  static uint64_t HashRank(uint64_t rank) {
    return rank * 0x61C8864680B583EBULL;
  }
  // zipf only: the probability that NextRank() < k (see above).
  double RankCdf(uint64_t k) const;

  uint64_t size() const { return n_; }
  uint64_t offset() const { return offset_; }
  double zetan() const { return zetan_; }

 private:
  enum class Kind { kZipf, kPareto };
  ZipfGenerator(Kind kind, uint64_t n, double center, uint64_t seed);

  Kind kind_;
  uint64_t n_;
  Rng rng_;
  uint64_t offset_ = 0;  // in [0, n)
  // zipf
  double theta_ = 0;
  double zeta2_ = 0;
  double zetan_ = 0;
  double alpha_ = 0;
  double eta_ = 0;
  // pareto
  double pareto_pow_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_ZIPF_GENERATOR_H_
