#include "workload/gauss_generator.h"

#include <cmath>

#include "workload/zipf_generator.h"

namespace tierbench {
namespace {

constexpr int kGaussIters = 12;  // fio's GAUSS_ITERS

}  // namespace

GaussGenerator::GaussGenerator(uint64_t n, double dev, double center,
                               uint64_t seed)
    : n_(n == 0 ? 1 : n), rng_(seed) {
  if (dev != 0.0) {
    spread_ =
        static_cast<uint64_t>(std::ceil(static_cast<double>(n_) * dev / 100.0));
    if (spread_ > n_ / 2) spread_ = n_ / 2;
  }
  if (center >= 0) {
    const auto shift =
        static_cast<int64_t>(static_cast<double>(n_) * (center - 0.5));
    const auto m = static_cast<int64_t>(n_);
    offset_ = static_cast<uint64_t>(((shift % m) + m) % m);
  }
}

uint64_t GaussGenerator::NextPoint() {
  uint64_t sum = 0;
  for (int i = 0; i < kGaussIters; ++i) sum += rng_.Uniform(n_ + 1);
  uint64_t point = (sum + kGaussIters - 1) / kGaussIters;
  if (spread_ != 0) {
    // fio's gauss_dev: uniform in [0, spread), minus spread / 2.
    auto dev =
        static_cast<int64_t>(static_cast<double>(spread_) * rng_.NextDouble()) -
        static_cast<int64_t>(spread_ / 2);
    const auto p = static_cast<int64_t>(point);
    const auto n = static_cast<int64_t>(n_);
    while (dev != 0 && (p + dev < 0 || p + dev >= n)) dev /= 2;
    point = static_cast<uint64_t>(p + dev);
  }
  return point;
}

uint64_t GaussGenerator::Next() {
  return (ZipfGenerator::HashRank(NextPoint()) % n_ + offset_) % n_;
}

}  // namespace tierbench
