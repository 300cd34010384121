// ChartFrame: the layout, axes and legend of a category chart (one slot of
// `slot_width` px per x label) with a linear or log10 value axis. It sizes
// the drawing from its content so that 1 to 20+ categories stay readable:
// x labels longer than their slot are rotated by 40 degrees and shortened
// to 28 characters by a middle "…" (the full label in a <title>), the left
// margin growing to hold the first one; the bottom margin grows with the
// longest label; with few categories the slots widen (up to 96 px each); legend
// items wrap onto further rows. Right-hand labels of reference lines are spread
// apart so they never overlap.
//
// Use: construct, SetLinear() or SetLog(), DrawAxes(), draw the data with
// svg() and X()/Y(), then svg().Finish(). Not thread-safe.
#ifndef TIERBENCH_PRESENT_CHARTS_CHART_FRAME_H_
#define TIERBENCH_PRESENT_CHARTS_CHART_FRAME_H_

#include <string>
#include <vector>

#include "present/charts/svg_writer.h"

namespace tierbench {

struct LegendItem {
  std::string label;
  std::string attrs;  // presentation attributes of the swatch
  enum Shape { kBox, kLine, kDot } shape = kBox;
};

struct ChartSpec {
  std::string kind;     // data-chart: "iops", "latency", "drain"
  std::string title;    // drawn on top and the SVG <title>
  std::string y_title;  // with its unit, e.g. "IOPS (1/s)"
  std::string x_title;  // e.g. "mode"
  std::vector<std::string> x_labels;
  double slot_width = 40;
  double plot_height = 220;
  double right_margin = 24;  // room for reference-line labels
  std::vector<LegendItem> legend;
};

// A label at the right edge of the plot, moved apart from its neighbours.
struct EdgeLabel {
  double y;
  std::string text, attrs, tip;
};

class ChartFrame {
 public:
  explicit ChartFrame(ChartSpec spec);

  // Value axis 0 .. a rounded-up `max` (at least 1).
  void SetLinear(double max);
  // Value axis of whole decades around [min, max] (both > 0); tick labels
  // are latencies in us ("1 ms") when `latency_us`, else plain numbers.
  void SetLog(double min, double max, bool latency_us = true);
  // Grid, ticks with labels, axis titles, x labels, legend and title.
  void DrawAxes();
  // Right-edge labels (reference lines), spread at least 12 px apart.
  void DrawEdgeLabels(std::vector<EdgeLabel> labels);

  SvgWriter& svg() { return svg_; }
  // Left edge of slot `i`, the plot's edges, and the y of value `v`
  // (clamped into the plot).
  double X(size_t i) const;
  double Y(double v) const;
  double plot_left() const { return left_; }
  double plot_right() const;
  double plot_top() const { return top_; }
  double plot_bottom() const { return top_ + spec_.plot_height; }
  bool log_scale() const { return log_; }
  double slot_width() const { return spec_.slot_width; }

 private:
  std::vector<std::vector<size_t>> LegendRows() const;
  std::string AxisLabel(double v) const;

  ChartSpec spec_;
  bool rotate_ = false;
  double left_ = 0, top_ = 0, bottom_margin_ = 0;
  bool log_ = false;
  bool latency_us_ = true;
  double lo_ = 0, hi_ = 1;
  std::vector<double> ticks_;
  SvgWriter svg_;
};

// The i-th colour of the report's palette (Okabe-Ito, colour-blind safe).
std::string SeriesColor(size_t i);

// The frame of a bar chart of rates whose bars reach from `min` (the
// smallest positive value, 0 when none) to `max`, its value axis chosen:
// log10 when they span more than a factor of kBarLogRatio (the HDD and the
// SSD usually lie orders of magnitude apart, and a linear axis would flatten
// every bar near the HDD; ", log scale" then goes inside the y title's
// closing parenthesis: "IOPS (1/s, log scale)"), else linear from 0 to 5 %
// above `max`. The one axis chooser of the report's and the fleet's bar
// charts.
inline constexpr double kBarLogRatio = 30;
ChartFrame MakeBarFrame(ChartSpec spec, double min, double max);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_CHART_FRAME_H_
