#include "stats/time_series.h"

#include <algorithm>
#include <cmath>

#include "util/units.h"

namespace tierbench {

namespace {

// 4 buckets per octave up to 2^48 ns (three days).
constexpr size_t kLatencyBuckets = 4 * 48;

size_t LatencyBucket(uint64_t ns) {
  const double b = std::floor(4.0 * std::log2(static_cast<double>(ns)));
  if (b < 0) return 0;
  return std::min(static_cast<size_t>(b), kLatencyBuckets - 1);
}

}  // namespace

uint64_t TimeSeries::Point::LatencyPercentileNs(double pct) const {
  uint64_t total = 0;
  for (uint32_t c : latency) total += c;
  if (total == 0) return 0;
  // The smallest bucket whose cumulative count reaches pct of the total.
  const double want = pct / 100.0 * static_cast<double>(total);
  uint64_t seen = 0;
  for (size_t b = 0; b < latency.size(); ++b) {
    seen += latency[b];
    if (static_cast<double>(seen) >= want && latency[b] > 0) {
      return static_cast<uint64_t>(
          std::ceil(std::exp2(static_cast<double>(b + 1) / 4.0)));
    }
  }
  return static_cast<uint64_t>(
      std::ceil(std::exp2(static_cast<double>(latency.size()) / 4.0)));
}

void TimeSeries::Add(uint64_t elapsed_ns, uint64_t bytes, uint64_t latency_ns) {
  const size_t second = static_cast<size_t>(elapsed_ns / kNsPerSec);
  if (second >= points_.size()) points_.resize(second + 1);
  Point& p = points_[second];
  ++p.ios;
  p.bytes += bytes;
  if (latency_ns > 0) {
    if (p.latency.empty()) p.latency.assign(kLatencyBuckets, 0);
    ++p.latency[LatencyBucket(latency_ns)];
  }
}

void TimeSeries::Merge(const TimeSeries& other) {
  if (other.points_.size() > points_.size()) {
    points_.resize(other.points_.size());
  }
  for (size_t i = 0; i < other.points_.size(); ++i) {
    const Point& o = other.points_[i];
    Point& p = points_[i];
    p.ios += o.ios;
    p.bytes += o.bytes;
    if (!o.latency.empty()) {
      if (p.latency.empty()) p.latency.assign(kLatencyBuckets, 0);
      for (size_t b = 0; b < o.latency.size(); ++b)
        p.latency[b] += o.latency[b];
    }
  }
}

namespace {

// Adds one sample per complete second of the window; seconds without any
// completion count as 0 (a stalled device is part of the result).
template <typename Field>
RunningStat PerSecond(const std::vector<TimeSeries::Point>& points,
                      uint64_t runtime_ns, Field field) {
  RunningStat stat;
  const uint64_t seconds = runtime_ns / kNsPerSec;
  for (uint64_t i = 0; i < seconds; ++i) {
    stat.Add(i < points.size() ? static_cast<double>(field(points[i])) : 0.0);
  }
  return stat;
}

}  // namespace

RunningStat TimeSeries::IopsStat(uint64_t runtime_ns) const {
  return PerSecond(points_, runtime_ns, [](const Point& p) { return p.ios; });
}

RunningStat TimeSeries::BandwidthStat(uint64_t runtime_ns) const {
  return PerSecond(points_, runtime_ns, [](const Point& p) { return p.bytes; });
}

}  // namespace tierbench
