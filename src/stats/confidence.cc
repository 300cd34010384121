#include "stats/confidence.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/aggregate.h"

namespace tierbench {
namespace {

// Continued fraction of the incomplete beta function (modified Lentz).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1;
  double d = 1 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 1000; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < kEps) break;
  }
  return h;
}

// Regularized incomplete beta function I_x(a, b), 0 <= x <= 1.
double RegularizedBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
               a * std::log(x) + b * std::log1p(-x));
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2);
  // else use the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
  if (x < (a + 1) / (a + b + 2)) {
    return front * BetaContinuedFraction(a, b, x) / a;
  }
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

double SampleVariance(const std::vector<double>& v) {
  const double s = Stddev(v);
  return s * s;
}

}  // namespace

double StudentTCdf(double t, double df) {
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  // P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2).
  const double tail = 0.5 * RegularizedBeta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

double StudentTQuantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (p == 0.5) return 0;
  if (p < 0.5) return -StudentTQuantile(1 - p, df);
  // Bracket the quantile in [0, hi], then bisect.
  double lo = 0, hi = 1;
  while (StudentTCdf(hi, df) < p && hi < 1e300) {
    lo = hi;
    hi *= 2;
  }
  for (int i = 0; i < 400 && hi - lo > 1e-12 * std::max(1.0, lo); ++i) {
    const double mid = lo + (hi - lo) / 2;
    (StudentTCdf(mid, df) < p ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

double WelchDf(double var_a, size_t n_a, double var_b, size_t n_b) {
  const double na = static_cast<double>(n_a), nb = static_cast<double>(n_b);
  const double qa = var_a / na, qb = var_b / nb;
  const double denom = qa * qa / (na - 1) + qb * qb / (nb - 1);
  if (denom == 0) return na + nb - 2;
  return (qa + qb) * (qa + qb) / denom;
}

std::optional<ChangeInterval> LogChangeInterval95(
    const std::vector<double>& x, const std::vector<double>& base) {
  if (x.size() < kMinRepetitionsForInterval ||
      base.size() < kMinRepetitionsForInterval) {
    return std::nullopt;
  }
  std::vector<double> lx, lb;
  for (double v : x) {
    if (!(v > 0)) return std::nullopt;
    lx.push_back(std::log(v));
  }
  for (double v : base) {
    if (!(v > 0)) return std::nullopt;
    lb.push_back(std::log(v));
  }
  const double var_x = SampleVariance(lx), var_b = SampleVariance(lb);
  const double d = Mean(lx) - Mean(lb);
  const double se = std::sqrt(var_x / static_cast<double>(lx.size()) +
                              var_b / static_cast<double>(lb.size()));
  ChangeInterval ci;
  ci.df = WelchDf(var_x, lx.size(), var_b, lb.size());
  ci.t = StudentTQuantile(0.975, ci.df);
  ci.estimate_pct = std::expm1(d) * 100;
  ci.low_pct = std::expm1(d - ci.t * se) * 100;
  ci.high_pct = std::expm1(d + ci.t * se) * 100;
  return ci;
}

std::optional<bool> DifferenceWithinNoise(std::optional<bool> significant,
                                          std::optional<bool> ranges_overlap) {
  if (significant) return !*significant;
  return ranges_overlap;
}

}  // namespace tierbench
