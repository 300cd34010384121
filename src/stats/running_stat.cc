#include "stats/running_stat.h"

#include <algorithm>
#include <cmath>

namespace tierbench {

void RunningStat::Add(double x) {
  ++n_;
  if (n_ == 1) {
    min_ = max_ = x;
  } else {
    min_ = std::min(min_, x);
    max_ = std::max(max_, x);
  }
  // Welford: the update of m2_ uses the deviation from both the old and the
  // new mean, which keeps it numerically stable for large n.
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
}

void RunningStat::Merge(const RunningStat& other) {
  if (other.n_ == 0) return;
  if (n_ == 0) {
    *this = other;
    return;
  }
  // Chan, Golub and LeVeque's pairwise combination of two partial results.
  const double na = static_cast<double>(n_);
  const double nb = static_cast<double>(other.n_);
  const double n = na + nb;
  const double delta = other.mean_ - mean_;
  mean_ += delta * nb / n;
  m2_ += other.m2_ + delta * delta * na * nb / n;
  n_ += other.n_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

double RunningStat::stddev() const {
  if (n_ < 2) return 0.0;
  return std::sqrt(std::max(0.0, m2_) / static_cast<double>(n_ - 1));
}

}  // namespace tierbench
