#include "stats/aggregate.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace tierbench {

double Mean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  return std::accumulate(v.begin(), v.end(), 0.0) /
         static_cast<double>(v.size());
}

double Median(const std::vector<double>& v) { return Percentile(v, 50.0); }

double Stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double mean = Mean(v);
  double sum_sq = 0.0;
  for (double x : v) sum_sq += (x - mean) * (x - mean);
  return std::sqrt(sum_sq / static_cast<double>(v.size() - 1));
}

double Min(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

double Max(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

double Percentile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0.0;
  std::vector<double> sorted(v);
  std::sort(sorted.begin(), sorted.end());
  const double pos = std::clamp(p, 0.0, 100.0) / 100.0 *
                     static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double Iqr(const std::vector<double>& v) {
  return Percentile(v, 75.0) - Percentile(v, 25.0);
}

double StudentT95(size_t df) {
  static const double kSmall[] = {
      12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  static const std::pair<size_t, double> kLarge[] = {
      {1000, 1.962}, {120, 1.980}, {60, 2.000}, {40, 2.021}};
  if (df == 0) return 0.0;
  if (df <= std::size(kSmall)) return kSmall[df - 1];
  for (const auto& [rows_df, t] : kLarge) {
    if (df >= rows_df) return t;
  }
  return kSmall[std::size(kSmall) - 1];
}

double ConfidenceHalfWidth95(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  return StudentT95(v.size() - 1) * Stddev(v) /
         std::sqrt(static_cast<double>(v.size()));
}

double RelativeSpreadPct(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double median = Median(v);
  if (median == 0.0) return 0.0;
  return (Max(v) - Min(v)) / std::fabs(median) * 100.0;
}

}  // namespace tierbench
