// XyPlot: one panel with two continuous axes, drawn into an SvgWriter at a
// given place: a linear x axis (seconds, or a transformed axis such as the
// "nines" of percentiles with caller-given ticks) and a linear or log10 y
// axis, with grid, tick labels and axis titles (units included by the
// caller). Values outside the ranges are clamped into the panel.
// LineLegend: a legend of line swatches in equal-width columns that wrap
// into rows, so that 1 to 20+ names never overlap (names longer than 28
// characters are shortened in the middle, the full name in a <title>).
// Not thread-safe (draws into one SvgWriter).
#ifndef TIERBENCH_PRESENT_CHARTS_XY_PLOT_H_
#define TIERBENCH_PRESENT_CHARTS_XY_PLOT_H_

#include <string>
#include <vector>

#include "present/charts/svg_writer.h"

namespace tierbench {

struct AxisTick {
  double value;  // in axis units (already transformed for a custom axis)
  std::string label;
};

class XyPlot {
 public:
  // The plot area's box in px; the caller leaves ~70 px left of it for
  // tick labels and the y title and ~34 px below for the x axis.
  XyPlot(SvgWriter* svg, double left, double top, double width, double height);

  // x from lo to hi with about 8 "nice" ticks.
  void SetXLinear(double lo, double hi);
  // x from lo to hi with the given ticks.
  void SetXTicks(double lo, double hi, std::vector<AxisTick> ticks);
  // x over log2 of a size in bytes, from 2^lo to 2^hi bytes: a tick at
  // every `step` powers of two (at most ~9 ticks), labelled as byte sizes
  // ("4 KiB", "1 GiB").
  void SetXLog2Bytes(double lo, double hi);
  // y from 0 to a rounded-up max (at least 1).
  void SetYLinear(double max);
  // y over whole decades around [min, max] (> 0); tick labels are
  // latencies ("100 us", "1 ms") when latency_us, else plain numbers.
  void SetYLog(double min, double max, bool latency_us);

  // Grid, ticks, axes, the titles; `title` above the panel (may be "").
  void DrawAxes(const std::string& x_title, const std::string& y_title,
                const std::string& title);

  double X(double v) const;
  double Y(double v) const;
  double left() const { return left_; }
  double top() const { return top_; }
  double right() const { return left_ + width_; }
  double bottom() const { return top_ + height_; }

 private:
  SvgWriter* svg_;
  double left_, top_, width_, height_;
  double x_lo_ = 0, x_hi_ = 1, y_lo_ = 0, y_hi_ = 1;
  bool y_log_ = false;
  std::vector<AxisTick> x_ticks_, y_ticks_;
};

struct LineLegendItem {
  std::string label;
  std::string attrs;  // the line's stroke attributes
};

// The height (px) LineLegend needs for `items` in `width` px.
double LineLegendHeight(const std::vector<LineLegendItem>& items, double width);
// Draws the legend from (left, top) within `width` px; class "legend".
void DrawLineLegend(SvgWriter* svg, double left, double top, double width,
                    const std::vector<LineLegendItem>& items);

// Stroke attributes of the i-th line: the report's palette, cycled with a
// dash pattern every 8 lines so that 20 modes stay distinguishable.
std::string LineAttrs(size_t i);

// "Nice" step (1, 2, 2.5, 5 x 10^k) for about `ticks` ticks over `span`.
double NiceTickStep(double span, int ticks);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_XY_PLOT_H_
