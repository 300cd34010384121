// Confidence intervals for the change of one measurement against another
// (a cache mode against the raw HDD, run B against run A), from the values
// of their repetitions.
//
// Method: Welch's t on the natural log of the values. For samples x (the
// candidate) and b (the reference), d = mean(ln x) - mean(ln b) with the
// standard error se = sqrt(s_x^2 / n_x + s_b^2 / n_b) of the two sample
// variances of the logs, and the Welch-Satterthwaite degrees of freedom
//   df = se^4 / ((s_x^2/n_x)^2 / (n_x - 1) + (s_b^2/n_b)^2 / (n_b - 1)).
// The 95 % interval d +- t(0.975, df) * se is returned as a change in
// percent, 100 * (exp(d +- t se) - 1): an interval for the ratio of the
// geometric means. Welch allows unequal variances (an SSD varies less than
// a cache that warms up); the log makes the change multiplicative, as
// throughput changes are, and keeps the interval above -100 %. A bootstrap
// over 3 repetitions has only 10 distinct resamples per side and gives no
// usable interval.
//
// StudentTQuantile() computes the quantile of Student's t for any real
// df > 0 (the Welch df is not an integer): the CDF comes from the
// regularized incomplete beta function (continued fraction, Lentz's
// method) and is inverted by bisection to 1e-12.
//
// Thread-safety: pure functions.
#ifndef TIERBENCH_STATS_CONFIDENCE_H_
#define TIERBENCH_STATS_CONFIDENCE_H_

#include <optional>
#include <vector>

namespace tierbench {

// Repetitions each side needs for an interval (`tierbench compare --repeat`).
inline constexpr size_t kMinRepetitionsForInterval = 3;

// P(T <= t) for Student's t with `df` > 0 degrees of freedom.
double StudentTCdf(double t, double df);

// The `p` quantile (0 < p < 1) of Student's t with `df` > 0 degrees of
// freedom: StudentTQuantile(0.975, 2) = 4.3027.
double StudentTQuantile(double p, double df);

// Welch-Satterthwaite degrees of freedom of two samples given their sample
// variances and sizes (each n >= 2). When both variances are 0 the result
// is n_a + n_b - 2 (the pooled df; the interval is then a point).
double WelchDf(double var_a, size_t n_a, double var_b, size_t n_b);

// A change in percent with its 95 % confidence interval.
struct ChangeInterval {
  double estimate_pct = 0;  // 100 * (exp(d) - 1): ratio of geometric means
  double low_pct = 0;
  double high_pct = 0;
  double df = 0;  // Welch-Satterthwaite degrees of freedom
  double t = 0;   // t(0.975, df)
  // The interval excludes 0: the change is larger than the noise.
  bool significant() const { return low_pct > 0 || high_pct < 0; }
};

// The 95 % interval of the change of `x` against `base` (see above). Empty
// when either side has fewer than kMinRepetitionsForInterval values or a
// value <= 0 (no logarithm).
std::optional<ChangeInterval> LogChangeInterval95(
    const std::vector<double>& x, const std::vector<double>& base);

// Whether a difference is "within noise" for the console table and the
// texts: the interval decides where there is one (`significant` known),
// else the overlap of the min-max ranges (2 repetitions); empty when
// neither is known (1 repetition).
std::optional<bool> DifferenceWithinNoise(std::optional<bool> significant,
                                          std::optional<bool> ranges_overlap);

}  // namespace tierbench

#endif  // TIERBENCH_STATS_CONFIDENCE_H_
