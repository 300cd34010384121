#include "stats/time_series.h"

#include <algorithm>

#include "util/units.h"

namespace tierbench {

void TimeSeries::Add(uint64_t elapsed_ns, uint64_t bytes) {
  const size_t second = static_cast<size_t>(elapsed_ns / kNsPerSec);
  if (second >= points_.size()) points_.resize(second + 1);
  ++points_[second].ios;
  points_[second].bytes += bytes;
}

void TimeSeries::Merge(const TimeSeries& other) {
  if (other.points_.size() > points_.size()) {
    points_.resize(other.points_.size());
  }
  for (size_t i = 0; i < other.points_.size(); ++i) {
    points_[i].ios += other.points_[i].ios;
    points_[i].bytes += other.points_[i].bytes;
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
