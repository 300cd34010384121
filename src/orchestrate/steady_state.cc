#include "orchestrate/steady_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tierbench {

SteadyStateTracker::SteadyStateTracker(int window, double iops_tolerance_pct,
                                       double hit_tolerance_pts)
    : window_(std::max(2, window)),
      iops_tolerance_pct_(iops_tolerance_pct),
      hit_tolerance_pts_(hit_tolerance_pts) {}

void SteadyStateTracker::Add(const SteadySample& s) { samples_.push_back(s); }

double SteadyStateTracker::LastHitPct() const {
  for (auto it = samples_.rbegin(); it != samples_.rend(); ++it) {
    if (it->read_hit_pct >= 0) return it->read_hit_pct;
  }
  return -1;
}

bool SteadyStateTracker::Steady() const {
  const size_t n = static_cast<size_t>(window_);
  if (samples_.size() < n) return false;
  const auto first = samples_.end() - static_cast<std::ptrdiff_t>(n);
  double mean = 0;
  for (auto it = first; it != samples_.end(); ++it) mean += it->iops;
  mean /= static_cast<double>(n);
  if (!(mean > 0)) return false;
  double sxy = 0, sxx = 0;
  const double xbar = static_cast<double>(n - 1) / 2;
  double x = 0;
  for (auto it = first; it != samples_.end(); ++it, x += 1) {
    if (std::fabs(it->iops - mean) > mean * iops_tolerance_pct_ / 100.0) {
      return false;
    }
    sxy += (x - xbar) * (it->iops - mean);
    sxx += (x - xbar) * (x - xbar);
  }
  const double trend = sxy / sxx * static_cast<double>(n - 1);
  if (std::fabs(trend) > mean * iops_tolerance_pct_ / 100.0) return false;
  double lo = 101, hi = -1;
  size_t with_hits = 0;
  for (auto it = first; it != samples_.end(); ++it) {
    if (it->read_hit_pct < 0) continue;
    ++with_hits;
    lo = std::min(lo, it->read_hit_pct);
    hi = std::max(hi, it->read_hit_pct);
  }
  if (with_hits == 0) return true;  // judged on IOPS alone
  if (with_hits + 1 < n) return false;
  return hi - lo <= hit_tolerance_pts_;
}

std::string SteadyStateTracker::Describe() const {
  if (samples_.empty()) return "no chunk ran";
  const size_t n = std::min(samples_.size(), static_cast<size_t>(window_));
  const auto first = samples_.end() - static_cast<std::ptrdiff_t>(n);
  double lo = 0, hi = 0, mean = 0, hlo = 101, hhi = -1;
  bool started = false;
  for (auto it = first; it != samples_.end(); ++it) {
    lo = started ? std::min(lo, it->iops) : it->iops;
    hi = started ? std::max(hi, it->iops) : it->iops;
    started = true;
    mean += it->iops;
    if (it->read_hit_pct >= 0) {
      hlo = std::min(hlo, it->read_hit_pct);
      hhi = std::max(hhi, it->read_hit_pct);
    }
  }
  mean /= static_cast<double>(n);
  const double dev =
      mean > 0 ? 100.0 * std::max(hi - mean, mean - lo) / mean : 0;
  char line[200];
  int len = std::snprintf(line, sizeof line,
                          "IOPS %.0f..%.0f (mean %.0f, +-%.1f%%) over the last "
                          "%zu chunks",
                          lo, hi, mean, dev, n);
  if (hhi >= 0 && len > 0 && static_cast<size_t>(len) < sizeof line) {
    std::snprintf(line + len, sizeof line - static_cast<size_t>(len),
                  ", read hits %.0f..%.0f%%", hlo, hhi);
  }
  return line;
}

}  // namespace tierbench
