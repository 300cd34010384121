// PercentileChart: per workload, the latency percentile curve of every mode
// (baselines included): x = the percentile on a "nines" axis
// (-log10(1 - p/100): 50, 90, 99, 99.9, 99.99 equally spaced), y = the
// latency on a log10 axis in us/ms/s. The points are runs.csv's histogram
// percentiles clat_p50_us .. clat_p99_99_us (lat_p50_us and lat_p99_us for
// transactions), each the median over the mode's repetitions without an
// error; a percentile a row leaves empty is left out. One line (with dots
// at the percentiles) per mode and job/direction series; the legend in
// wrapping columns. Classes for tests: pct-curve (one per line),
// pct-point (one per point).
// Output: one SVG document. Thread-safe (no shared state).
#ifndef TIERBENCH_PRESENT_CHARTS_PERCENTILE_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_PERCENTILE_CHART_H_

#include <string>

#include "present/run_folder.h"

namespace tierbench {

class PercentileChart {
 public:
  PercentileChart(const RunFolder& run, std::string workload);
  std::string Svg() const;
  // The number of curves Svg() draws.
  size_t CurveCount() const;

 private:
  struct Curve {
    std::string label;
    std::vector<std::pair<double, double>> points;  // (percentile, us)
  };
  std::vector<Curve> Curves(bool* transactions) const;

  const RunFolder& run_;
  std::string workload_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_PERCENTILE_CHART_H_
