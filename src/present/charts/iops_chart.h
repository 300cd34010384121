// IopsChart: per workload, the IOPS (or tps) of every non-baseline mode as
// grouped bars (one bar per job/direction series of the workload), each the
// median over the repetitions with a min-max whisker when n >= 2, and the
// raw HDD and SSD medians as horizontal reference lines (dashed: HDD,
// dash-dot: SSD; one pair per series, in the series' colour when there are
// several). A mode whose cells all failed gets a "failed" mark in its slot;
// a bar whose cells carry warnings gets a "!" mark (the warnings are listed
// next to the chart in the HTML). Input: a RunFolder (present/run_folder.h).
// Output: one SVG document. Thread-safe (no shared state).
#ifndef TIERBENCH_PRESENT_CHARTS_IOPS_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_IOPS_CHART_H_

#include <string>
#include <vector>

#include "present/run_folder.h"

namespace tierbench {

class IopsChart {
 public:
  IopsChart(const RunFolder& run, std::string workload);

  // The modes drawn as bars, in run order (baselines excluded).
  const std::vector<std::string>& modes() const { return modes_; }
  std::string Svg() const;

 private:
  const RunFolder& run_;
  std::string workload_;
  std::vector<std::string> modes_;
};

// The modes of `workload` that are not its HDD/SSD baselines, including
// modes whose cells all failed, in run order.
std::vector<std::string> ComparedModes(const RunFolder& run,
                                       const std::string& workload);
// True when `mode` has failed cells on `workload`.
bool HasFailures(const RunFolder& run, const std::string& mode,
                 const std::string& workload);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_IOPS_CHART_H_
