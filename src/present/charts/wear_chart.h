// WearChart: per workload, what each cache mode cost the SSD: bytes written
// to the SSD per byte the application read or wrote (comparison.csv
// ssd_write_per_app_byte_median, record/ssd_wear.h), one bar per cache mode
// that has the figure, labelled with it ("0.05 B"; "none" for 0); a mode
// whose cells were invalid or drifted is drawn grey with "(invalid)"
// or "(not steady)" after its name, as its figure is no verdict's. The
// cache state the figures measured is in the title; the value axis spans
// at least 0 to 1 (1: the SSD written once per byte moved). HasData() is false
// when no mode has a figure (raw-only runs, comparison.csv schema 5 and older).
// Output: one SVG document. Thread-safe.
#ifndef TIERBENCH_PRESENT_CHARTS_WEAR_CHART_H_
#define TIERBENCH_PRESENT_CHARTS_WEAR_CHART_H_

#include <string>
#include <vector>

#include "present/run_folder.h"
#include "present/wear_verdict.h"

namespace tierbench {

class WearChart {
 public:
  WearChart(const RunFolder& run, std::string workload);
  bool HasData() const { return !figures_.empty(); }
  std::string Svg() const;

 private:
  std::string workload_;
  std::vector<WearFigure> figures_;
};

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_WEAR_CHART_H_
