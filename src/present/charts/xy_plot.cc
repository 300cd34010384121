#include "present/charts/xy_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "present/charts/chart_frame.h"
#include "present/report_format.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr size_t kMaxLegendChars = 28;
constexpr double kLegendRow = 18;

size_t Chars(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

double ColumnWidth(const std::vector<LineLegendItem>& items, double width) {
  double longest = 0;
  for (const LineLegendItem& i : items) {
    longest = std::max(
        longest,
        static_cast<double>(Chars(Abbreviate(i.label, kMaxLegendChars))));
  }
  return std::min(width, 30 + longest * kCharPx);
}

size_t Columns(const std::vector<LineLegendItem>& items, double width) {
  return std::max<size_t>(
      1, static_cast<size_t>(width / ColumnWidth(items, width)));
}

std::string LatencyLabel(double us) {
  if (us >= 1e6) return GroupedNumber(us / 1e6, 0) + " s";
  if (us >= 1e3) return GroupedNumber(us / 1e3, 0) + " ms";
  if (us >= 1) return GroupedNumber(us, 0) + " us";
  return GroupedNumber(us * 1e3, 0) + " ns";
}

}  // namespace

double NiceTickStep(double span, int ticks) {
  if (!(span > 0)) return 1;
  const double raw = span / ticks;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

std::string LineAttrs(size_t i) {
  static const char* kDashes[] = {"", "6 3", "2 2", "8 3 2 3"};
  std::string attrs = "stroke=\"" + SeriesColor(i) + "\" stroke-width=\"1.6\"";
  const char* dash = kDashes[(i / 8) % 4];
  if (*dash != '\0') attrs += std::string(" stroke-dasharray=\"") + dash + "\"";
  return attrs;
}

XyPlot::XyPlot(SvgWriter* svg, double left, double top, double width,
               double height)
    : svg_(svg), left_(left), top_(top), width_(width), height_(height) {}

void XyPlot::SetXLinear(double lo, double hi) {
  if (!(hi > lo)) hi = lo + 1;
  x_lo_ = lo;
  x_hi_ = hi;
  x_ticks_.clear();
  const double step = NiceTickStep(hi - lo, 8);
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + 1e-9;
       t += step) {
    x_ticks_.push_back({t, GroupedNumber(t, t == std::floor(t) ? 0 : 1)});
  }
}

void XyPlot::SetXTicks(double lo, double hi, std::vector<AxisTick> ticks) {
  x_lo_ = lo;
  x_hi_ = hi > lo ? hi : lo + 1;
  x_ticks_ = std::move(ticks);
}

void XyPlot::SetXLog2Bytes(double lo, double hi) {
  const int first = static_cast<int>(std::ceil(lo - 1e-9));
  const int last = static_cast<int>(std::floor(hi + 1e-9));
  const int step = std::max(1, (last - first + 8) / 9);
  std::vector<AxisTick> ticks;
  for (int e = first; e <= last; e += step) {
    ticks.push_back({static_cast<double>(e),
                     FormatBytes(static_cast<uint64_t>(1) << std::min(e, 63))});
  }
  SetXTicks(lo, hi, std::move(ticks));
}

void XyPlot::SetYLinear(double max) {
  y_log_ = false;
  if (!(max > 0)) max = 1;
  const double step = NiceTickStep(max, 4);
  y_lo_ = 0;
  y_hi_ = std::ceil(max / step - 1e-9) * step;
  y_ticks_.clear();
  for (double t = 0; t <= y_hi_ + step / 2; t += step) {
    y_ticks_.push_back({t, GroupedNumber(t, t == std::floor(t) ? 0 : 1)});
  }
}

void XyPlot::SetYLog(double min, double max, bool latency_us) {
  y_log_ = true;
  if (!(min > 0)) min = 1;
  if (!(max > min)) max = min * 10;
  y_lo_ = std::floor(std::log10(min));
  y_hi_ = std::ceil(std::log10(max));
  if (y_hi_ <= y_lo_) y_hi_ = y_lo_ + 1;
  y_ticks_.clear();
  for (double e = y_lo_; e <= y_hi_ + 1e-9; e += 1) {
    const double v = std::pow(10, e);
    y_ticks_.push_back(
        {e, latency_us ? LatencyLabel(v) : GroupedNumber(v, e < 0 ? 2 : 0)});
  }
}

double XyPlot::X(double v) const {
  const double t = std::clamp((v - x_lo_) / (x_hi_ - x_lo_), 0.0, 1.0);
  return left_ + t * width_;
}

double XyPlot::Y(double v) const {
  double t;
  if (y_log_) {
    t = v > 0 ? (std::log10(v) - y_lo_) / (y_hi_ - y_lo_) : 0;
  } else {
    t = (v - y_lo_) / (y_hi_ - y_lo_);
  }
  return bottom() - std::clamp(t, 0.0, 1.0) * height_;
}

void XyPlot::DrawAxes(const std::string& x_title, const std::string& y_title,
                      const std::string& title) {
  SvgWriter& s = *svg_;
  if (!title.empty()) {
    s.Text(left_, top_ - 6, title, "panel-title", "start", 0, "",
           R"(font-size="12" font-weight="bold")");
  }
  for (const AxisTick& t : y_ticks_) {
    const double y = bottom() - (t.value - y_lo_) / (y_hi_ - y_lo_) * height_;
    s.Line(left_, y, right(), y, "grid",
           R"(stroke="#e3e3e3" stroke-width="1")");
    s.Text(left_ - 6, y + 4, t.label, "tick-label", "end");
  }
  double last_label_end = -1e9;
  for (const AxisTick& t : x_ticks_) {
    const double x = X(t.value);
    s.Line(x, bottom(), x, bottom() + 4, "x-tick",
           R"(stroke="#333333" stroke-width="1")");
    // Skip a tick label that would run into the previous one.
    const double half = Chars(t.label) * kCharPx / 2;
    if (x - half < last_label_end + 4) continue;
    s.Text(x, bottom() + 16, t.label, "tick-label", "middle");
    last_label_end = x + half;
  }
  s.Line(left_, top_, left_, bottom(), "axis",
         R"(stroke="#333333" stroke-width="1")");
  s.Line(left_, bottom(), right(), bottom(), "axis",
         R"(stroke="#333333" stroke-width="1")");
  s.Text(left_ - 56, (top_ + bottom()) / 2, y_title, "axis-title", "middle",
         -90);
  s.Text((left_ + right()) / 2, bottom() + 32, x_title, "axis-title", "middle");
}

double LineLegendHeight(const std::vector<LineLegendItem>& items,
                        double width) {
  if (items.empty()) return 0;
  const size_t cols = Columns(items, width);
  return kLegendRow * ((items.size() + cols - 1) / cols);
}

void DrawLineLegend(SvgWriter* svg, double left, double top, double width,
                    const std::vector<LineLegendItem>& items) {
  const size_t cols = Columns(items, width);
  const double col_w = ColumnWidth(items, width);
  for (size_t i = 0; i < items.size(); ++i) {
    const double x = left + (i % cols) * col_w;
    const double y = top + (i / cols) * kLegendRow + 9;
    svg->Line(x, y, x + 20, y, "legend-swatch", items[i].attrs);
    const std::string shown = Abbreviate(items[i].label, kMaxLegendChars);
    svg->Text(x + 25, y + 4, shown, "legend", "start", 0,
              shown == items[i].label ? "" : items[i].label);
  }
}

}  // namespace tierbench
