// LatencyChart: per workload, the p50, p99 and (when runs.csv has
// clat_p99_9_us) p99.9 latency of every mode, baselines included, on a log10
// axis in us/ms/s: per mode and job/direction series a vertical range from
// p50 to the highest percentile with a dot at p50 (filled), p99 (square)
// and p99.9 (ring). p99 is comparison.csv's lat_p99_us_median; p50 and
// p99.9 are the medians of runs.csv's clat_p50_us / clat_p99_9_us over the
// repetitions (lat_p50_us for transactions, which have no p99.9).
// Output: one SVG document. Thread-safe (no shared state).
#ifndef TIERBENCH_PRESENT_CHARTS_LATENCY_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_LATENCY_CHART_H_

#include <string>

#include "present/run_folder.h"

namespace tierbench {

class LatencyChart {
 public:
  LatencyChart(const RunFolder& run, std::string workload);
  std::string Svg() const;

 private:
  const RunFolder& run_;
  std::string workload_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_LATENCY_CHART_H_
