// SeriesChart: per workload, the per-second picture of every mode from
// series.csv (present/series_file.h) as small multiples sharing one time
// axis (seconds since the measured window started):
//   - IOPS (read + write, or tps) per second, one line per mode, always;
//   - the layer's read hit ratio (%) per second, when any mode has it;
//   - the layer's dirty data over time, the drain after the run included,
//     when any mode has it.
// One line per mode (its first repetition; a line breaks where a value is
// unknown), the legend in wrapping columns above the panels. The warm-up
// chunks of --cache-state warm-until-steady (negative seconds) are a shaded
// "warm-up" region, the drain after the run a lighter "drain" one.
// Classes for tests: series-iops / series-hit / series-dirty on the first
// polyline of each mode in each panel (continuations add "-cont").
// Output: one SVG document. Thread-safe (no shared state).
#ifndef TIERBENCH_PRESENT_CHARTS_SERIES_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_SERIES_CHART_H_

#include <string>
#include <vector>

#include "present/series_file.h"

namespace tierbench {

class SeriesChart {
 public:
  SeriesChart(const SeriesFile& file, std::string workload);
  // False when the workload has no row in series.csv.
  bool HasData() const { return !modes_.empty(); }
  std::string Svg() const;

 private:
  std::string workload_;
  std::vector<ModeSeries> modes_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_SERIES_CHART_H_
