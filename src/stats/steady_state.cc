#include "stats/steady_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tierbench {
namespace {

uint64_t IntegerMean(const std::vector<uint64_t>& v) {
  if (v.empty()) return 0;
  uint64_t sum = 0;
  for (uint64_t x : v) sum += x;
  return sum / v.size();
}

}  // namespace

std::string SteadyStateSpec::Describe() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s%s:%f%s",
                metric == SteadyStateMetric::kIops ? "iops" : "bw",
                slope ? "_slope" : "", limit, percent ? "%" : "");
  return buf;
}

uint64_t SteadyStateResult::IopsMean() const { return IntegerMean(iops); }
uint64_t SteadyStateResult::BwMean() const { return IntegerMean(bw); }

SteadyStateWindow::SteadyStateWindow(const SteadyStateSpec& spec)
    : spec_(spec) {
  result_.enabled = spec.enabled();
  result_.spec = spec;
}

double SteadyStateWindow::Slope(const std::vector<uint64_t>& y) {
  const double n = static_cast<double>(y.size());
  if (y.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  double sum_y = 0;
  double sum_xy = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    sum_y += static_cast<double>(y[i]);
    sum_xy += static_cast<double>(i) * static_cast<double>(y[i]);
  }
  const double sum_x = n * (n - 1) / 2;
  const double sum_x2 = (n - 1) * n * (2 * n - 1) / 6;
  return (sum_xy - sum_x * sum_y / n) / (sum_x2 - sum_x * sum_x / n);
}

double SteadyStateWindow::MaxDeviation(const std::vector<uint64_t>& y) {
  if (y.empty()) return 0;
  double sum = 0;
  for (uint64_t v : y) sum += static_cast<double>(v);
  const double mean = sum / static_cast<double>(y.size());
  double dev = 0;
  for (uint64_t v : y)
    dev = std::max(dev, std::fabs(static_cast<double>(v) - mean));
  return dev;
}

bool SteadyStateWindow::Add(uint64_t ios, uint64_t bytes) {
  const size_t n = spec_.intervals();
  if (n == 0 || result_.attained) return result_.attained;
  result_.iops.push_back(ios);
  result_.bw.push_back(bytes);
  if (result_.iops.size() > n) {
    result_.iops.erase(result_.iops.begin());
    result_.bw.erase(result_.bw.begin());
  }
  if (result_.iops.size() < n) return false;
  result_.evaluated = true;
  const std::vector<uint64_t>& y =
      spec_.metric == SteadyStateMetric::kIops ? result_.iops : result_.bw;
  bool met;
  if (spec_.slope) {
    result_.slope = Slope(y);
    // fio divides by the integer quotient sum_y / n.
    const double mean = static_cast<double>(IntegerMean(y));
    result_.criterion =
        spec_.percent ? 100.0 * result_.slope / mean : result_.slope;
    met = std::fabs(result_.criterion) < spec_.limit;
  } else {
    result_.max_deviation = MaxDeviation(y);
    double sum = 0;
    for (uint64_t v : y) sum += static_cast<double>(v);
    const double mean = sum / static_cast<double>(n);
    result_.criterion = spec_.percent ? 100.0 * result_.max_deviation / mean
                                      : result_.max_deviation;
    met = result_.criterion < spec_.limit;
  }
  // NaN and infinity (mean 0) compare false: not attained.
  result_.attained = met && std::isfinite(result_.criterion);
  return result_.attained;
}

}  // namespace tierbench
