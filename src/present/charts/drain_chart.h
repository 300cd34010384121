// DrainChart: per workload, the time to clean after the run (runs.csv
// drain_after_s: how long the layer took to write its dirty data back) of
// every mode that reported it, as bars at the median over the repetitions
// with min-max whiskers when there are several. Raw modes report no time to
// clean and are left out. HasData() is false when no mode reported one or
// every time is 0 (then there is no chart). Each bar is labelled with its
// median. Output: one SVG document. Thread-safe.
#ifndef TIERBENCH_PRESENT_CHARTS_DRAIN_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_DRAIN_CHART_H_

#include <string>
#include <vector>

#include "present/run_folder.h"

namespace tierbench {

class DrainChart {
 public:
  DrainChart(const RunFolder& run, std::string workload);
  bool HasData() const;
  std::string Svg() const;

 private:
  std::string workload_;
  std::vector<const DrainFigure*> drains_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_DRAIN_CHART_H_
