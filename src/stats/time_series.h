// TimeSeries: IOs and bytes per one-second interval of a run, for the
// per-second IOPS/bandwidth series and for fio-style bw/iops min/max/mean/
// stdev. Interval i covers [i, i+1) seconds after the measurement started.
// Mergeable (element-wise sum). Not thread-safe.
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
  };

  // Records one completed IO of `bytes` at `elapsed_ns` since the start.
  void Add(uint64_t elapsed_ns, uint64_t bytes);
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
