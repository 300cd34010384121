// TimeSeries: IOs and bytes per one-second interval of a run, for the
// per-second IOPS/bandwidth series and for fio-style bw/iops min/max/mean/
// stdev. Interval i covers [i, i+1) seconds after the measurement started.
// Mergeable (element-wise sum). Not thread-safe.
//
// An IO added with its latency also lands in its second's latency
// histogram: 4 buckets per octave of nanoseconds (bucket b holds
// [2^(b/4), 2^((b+1)/4)) ns), so a percentile read from it, the upper edge
// of the bucket it falls in, is at most 19 % above the true one. It gives
// the p99 of each second (the writeback cliff, lab/lab_fill.h).
#ifndef TIERBENCH_STATS_TIME_SERIES_H_
#define TIERBENCH_STATS_TIME_SERIES_H_

#include <cstdint>
#include <vector>

#include "stats/running_stat.h"

namespace tierbench {

class TimeSeries {
 public:
  struct Point {
    uint64_t ios = 0;
    uint64_t bytes = 0;
    std::vector<uint32_t> latency;  // per bucket; empty: no latency added
    // The `pct` percentile (0-100] of the IOs added with a latency in this
    // second, as the upper edge of its bucket in ns; 0 when there are none.
    uint64_t LatencyPercentileNs(double pct) const;
  };

  // Records one completed IO of `bytes` at `elapsed_ns` since the start,
  // and its latency when `latency_ns` > 0.
  void Add(uint64_t elapsed_ns, uint64_t bytes, uint64_t latency_ns = 0);
  void Merge(const TimeSeries& other);

  const std::vector<Point>& points() const { return points_; }
  // Statistics over the complete one-second intervals of a window of
  // `runtime_ns` (a trailing partial second is left out, as fio's averaging
  // does): per-second IOPS and bytes/s.
  RunningStat IopsStat(uint64_t runtime_ns) const;
  RunningStat BandwidthStat(uint64_t runtime_ns) const;

 private:
  std::vector<Point> points_;
};

}  // namespace tierbench

#endif  // TIERBENCH_STATS_TIME_SERIES_H_
