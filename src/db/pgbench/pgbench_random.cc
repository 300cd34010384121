#include "db/pgbench/pgbench_random.h"

#include <cmath>
#include <numbers>

namespace tierbench {

namespace {

// A uniform double in (0, 1]: never 0, so its logarithm is finite.
double OpenZeroUniform(TxRandom& rng) { return 1.0 - rng.NextDouble(); }

// Maps r in [0, 1) onto [lo, hi].
int64_t Scale(int64_t lo, int64_t hi, double r) {
  const double width = static_cast<double>(hi - lo) + 1.0;
  return lo + static_cast<int64_t>(width * r);
}

}  // namespace

int64_t RandomUniform(TxRandom& rng, int64_t lo, int64_t hi) {
  return rng.Uniform(lo, hi);
}

int64_t RandomExponential(TxRandom& rng, int64_t lo, int64_t hi, double param) {
  const double cut = std::exp(-param);
  const double u = OpenZeroUniform(rng);
  // cut + (1 - cut) * u lies in (cut, 1], so r lies in [0, 1).
  const double r = -std::log(cut + (1.0 - cut) * u) / param;
  return Scale(lo, hi, r);
}

int64_t RandomGaussian(TxRandom& rng, int64_t lo, int64_t hi, double param) {
  double z = 0;
  do {
    // Box-Muller: ln of a value in (0, 1], angle from a second draw.
    const double u1 = OpenZeroUniform(rng);
    const double u2 = rng.NextDouble();
    z = std::sqrt(-2.0 * std::log(u1)) * std::sin(2.0 * std::numbers::pi * u2);
  } while (z < -param || z >= param);
  return Scale(lo, hi, (z + param) / (2.0 * param));
}

int64_t RandomZipfian(TxRandom& rng, int64_t lo, int64_t hi, double s) {
  const int64_t n = hi - lo + 1;
  if (n <= 1) return lo;
  const double b = std::pow(2.0, s - 1.0);
  for (;;) {
    const double u = rng.NextDouble();
    const double v = rng.NextDouble();
    const double x = std::floor(std::pow(u, -1.0 / (s - 1.0)));
    const double t = std::pow(1.0 + 1.0 / x, s - 1.0);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= static_cast<double>(n)) {
      return lo - 1 + static_cast<int64_t>(x);
    }
  }
}

int64_t PoissonDelay(TxRandom& rng, double center) {
  return static_cast<int64_t>(-std::log(OpenZeroUniform(rng)) * center + 0.5);
}

}  // namespace tierbench
