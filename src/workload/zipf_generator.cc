#include "workload/zipf_generator.h"

#include <algorithm>
#include <cmath>

namespace tierbench {
namespace {

// fio's ZIPF_MAX_GEN: zetan sums at most this many terms (precision for
// speed: 10^7 pow() calls take a fraction of a second).
constexpr uint64_t kZipfMaxTerms = 10000000;

}  // namespace

ZipfGenerator::ZipfGenerator(Kind kind, uint64_t n, double center,
                             uint64_t seed)
    : kind_(kind), n_(n == 0 ? 1 : n), rng_(seed) {
  // fio's shared_rand_init: a random offset, or the center's block.
  offset_ =
      center < 0
          ? rng_.Uniform(n_)
          : std::min(static_cast<uint64_t>(static_cast<double>(n_) * center),
                     n_ - 1);
}

ZipfGenerator ZipfGenerator::Zipf(uint64_t n, double theta, double center,
                                  uint64_t seed) {
  ZipfGenerator g(Kind::kZipf, n, center, seed);
  g.theta_ = theta;
  g.zeta2_ = std::pow(1.0, theta) + std::pow(0.5, theta);
  const uint64_t terms = std::min(g.n_, kZipfMaxTerms);
  for (uint64_t i = 0; i < terms; ++i)
    g.zetan_ += std::pow(1.0 / static_cast<double>(i + 1), theta);
  g.alpha_ = 1.0 / (1.0 - theta);
  g.eta_ = (1.0 - std::pow(2.0 / static_cast<double>(g.n_), 1.0 - theta)) /
           (1.0 - g.zeta2_ / g.zetan_);
  return g;
}

ZipfGenerator ZipfGenerator::Pareto(uint64_t n, double h, double center,
                                    uint64_t seed) {
  ZipfGenerator g(Kind::kPareto, n, center, seed);
  g.pareto_pow_ = std::log(h) / std::log(1.0 - h);
  return g;
}

uint64_t ZipfGenerator::NextRank() {
  const double u = rng_.NextDouble();
  const double last = static_cast<double>(n_ - 1);
  double rank;
  if (kind_ == Kind::kPareto) {
    rank = last * std::pow(u, pareto_pow_);
  } else {
    const double z = u * zetan_;
    if (z < 1.0) return 0;
    if (z < 1.0 + std::pow(0.5, theta_)) return std::min<uint64_t>(1, n_ - 1);
    rank = static_cast<double>(n_) * std::pow(eta_ * u - eta_ + 1.0, alpha_);
  }
  // The formulas stay below n for u < 1; guard NaN and rounding anyway.
  if (!(rank >= 0)) return 0;
  if (!(rank < last)) return n_ - 1;
  return static_cast<uint64_t>(rank);
}

uint64_t ZipfGenerator::Scatter(uint64_t rank) const {
  return (HashRank(rank) % n_ + offset_) % n_;
}

double ZipfGenerator::RankCdf(uint64_t k) const {
  if (k == 0) return 0;
  if (k >= n_) return 1;
  if (k == 1) return std::min(1.0, 1.0 / zetan_);
  const double u0 = (1.0 + std::pow(0.5, theta_)) / zetan_;
  const double t =
      std::pow(static_cast<double>(k) / static_cast<double>(n_), 1.0 - theta_);
  const double uk = 1.0 + (t - 1.0) / eta_;
  return std::min(1.0, std::max(u0, uk));
}

}  // namespace tierbench
