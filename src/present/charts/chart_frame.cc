#include "present/charts/chart_frame.h"

#include <algorithm>
#include <cmath>

#include "present/report_format.h"

namespace tierbench {
namespace {

constexpr double kLeft = 78;       // room for tick labels and the y title
constexpr double kTitleRow = 26;   // chart title
constexpr double kLegendRow = 18;  // one legend row
constexpr double kSin40 = 0.643, kCos40 = 0.766;
constexpr double kMinPlotWidth = 440;

size_t Chars(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

double TextPx(const std::string& s) { return Chars(s) * kCharPx; }

bool NeedsRotation(const ChartSpec& s) {
  for (const std::string& l : s.x_labels) {
    if (TextPx(Abbreviate(l, kMaxLabel)) > s.slot_width - 4) return true;
  }
  return false;
}

double LabelDepth(const ChartSpec& s, bool rotate) {
  double longest = 0;
  for (const std::string& l : s.x_labels) {
    longest = std::max(longest, TextPx(Abbreviate(l, kMaxLabel)));
  }
  return rotate ? longest * kSin40 + 16 : 18;
}

// Left margin: tick labels and the y title, or more when the first rotated
// x label reaches further left.
double LeftMargin(const ChartSpec& s, bool rotate) {
  if (!rotate || s.x_labels.empty()) return kLeft;
  const double reach =
      TextPx(Abbreviate(s.x_labels.front(), kMaxLabel)) * kCos40 -
      s.slot_width / 2 + 8;
  return std::max(kLeft, reach);
}

double Width(const ChartSpec& s, double left) {
  return std::max(380.0,
                  left + s.x_labels.size() * s.slot_width + s.right_margin);
}

double LegendItemPx(const LegendItem& item) { return 26 + TextPx(item.label); }

// Nice step (1, 2, 2.5 or 5 x 10^k) for about 5 ticks up to `max`.
double NiceStep(double max) {
  const double raw = max / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

}  // namespace

std::string SeriesColor(size_t i) {
  static const char* kColors[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                  "#56B4E9", "#D55E00", "#999933", "#332288"};
  return kColors[i % (sizeof kColors / sizeof kColors[0])];
}

static ChartSpec Widened(ChartSpec spec) {
  // Few categories: wider slots (up to 96 px) so the plot is not a sliver.
  const size_t n = std::max<size_t>(1, spec.x_labels.size());
  spec.slot_width =
      std::max(spec.slot_width, std::min(96.0, kMinPlotWidth / n));
  return spec;
}

ChartFrame::ChartFrame(ChartSpec spec)
    : spec_(Widened(std::move(spec))),
      rotate_(NeedsRotation(spec_)),
      left_(LeftMargin(spec_, rotate_)),
      top_(kTitleRow + kLegendRow * LegendRows().size() + 8),
      bottom_margin_(LabelDepth(spec_, rotate_) + 22),
      svg_(Width(spec_, left_), top_ + spec_.plot_height + bottom_margin_,
           spec_.kind, spec_.title) {}

std::vector<std::vector<size_t>> ChartFrame::LegendRows() const {
  std::vector<std::vector<size_t>> rows;
  const double avail = Width(spec_, left_) - left_ - 8;
  double used = avail + 1;
  for (size_t i = 0; i < spec_.legend.size(); ++i) {
    const double w = LegendItemPx(spec_.legend[i]);
    if (used + w > avail) {
      rows.emplace_back();
      used = 0;
    }
    rows.back().push_back(i);
    used += w;
  }
  return rows;
}

double ChartFrame::plot_right() const {
  return left_ + spec_.x_labels.size() * spec_.slot_width;
}

double ChartFrame::X(size_t i) const { return left_ + i * spec_.slot_width; }

void ChartFrame::SetLinear(double max) {
  log_ = false;
  if (!(max > 0)) max = 1;
  const double step = NiceStep(max);
  lo_ = 0;
  hi_ = std::ceil(max / step - 1e-9) * step;
  ticks_.clear();
  for (double t = 0; t <= hi_ + step / 2; t += step) ticks_.push_back(t);
}

void ChartFrame::SetLog(double min, double max, bool latency_us) {
  log_ = true;
  latency_us_ = latency_us;
  if (!(min > 0)) min = 1;
  if (!(max > min)) max = min * 10;
  lo_ = std::floor(std::log10(min));
  hi_ = std::ceil(std::log10(max));
  if (hi_ <= lo_) hi_ = lo_ + 1;
  ticks_.clear();
  for (double e = lo_; e <= hi_ + 1e-9; e += 1) ticks_.push_back(e);
}

double ChartFrame::Y(double v) const {
  double t;
  if (log_) {
    t = v > 0 ? (std::log10(v) - lo_) / (hi_ - lo_) : 0;
  } else {
    t = (v - lo_) / (hi_ - lo_);
  }
  t = std::clamp(t, 0.0, 1.0);
  return plot_bottom() - t * spec_.plot_height;
}

std::string ChartFrame::AxisLabel(double tick) const {
  if (!log_) return GroupedNumber(tick, tick == std::floor(tick) ? 0 : 1);
  if (!latency_us_) return GroupedNumber(std::pow(10, tick), tick < 0 ? 2 : 0);
  // Latency decades in us: 1 us .. 100 s.
  static const char* kDecades[] = {"1 us",   "10 us", "100 us", "1 ms", "10 ms",
                                   "100 ms", "1 s",   "10 s",   "100 s"};
  const int e = static_cast<int>(tick);
  if (e >= 0 && e < 9) return kDecades[e];
  return "1e" + std::to_string(e) + " us";
}

void ChartFrame::DrawAxes() {
  SvgWriter& s = svg_;
  const double right = plot_right();
  s.Text(left_, 17, spec_.title, "chart-title", "start", 0, "",
         R"(font-size="13" font-weight="bold")");
  // Legend rows.
  const auto rows = LegendRows();
  for (size_t r = 0; r < rows.size(); ++r) {
    double x = left_;
    const double y = kTitleRow + r * kLegendRow + 8;
    for (size_t i : rows[r]) {
      const LegendItem& item = spec_.legend[i];
      if (item.shape == LegendItem::kLine) {
        s.Line(x, y, x + 18, y, "legend-swatch", item.attrs);
      } else if (item.shape == LegendItem::kDot) {
        s.Circle(x + 9, y, 4, "legend-swatch", item.attrs);
      } else {
        s.Rect(x + 2, y - 6, 14, 12, "legend-swatch", item.attrs);
      }
      s.Text(x + 22, y + 4, item.label, "legend", "start");
      x += LegendItemPx(item);
    }
  }
  // Grid and value ticks.
  for (double t : ticks_) {
    const double y = log_ ? Y(std::pow(10, t)) : Y(t);
    s.Line(left_, y, right, y, "grid", R"(stroke="#e3e3e3" stroke-width="1")");
    s.Text(left_ - 6, y + 4, AxisLabel(t), "tick-label", "end");
  }
  if (log_) {  // minor ticks 2..9 of every decade
    for (double e = lo_; e < hi_; e += 1) {
      for (int m = 2; m < 10; ++m) {
        const double y = Y(m * std::pow(10, e));
        s.Line(left_ - 3, y, left_, y, "minor-tick",
               R"(stroke="#888888" stroke-width="0.6")");
      }
    }
  }
  s.Line(left_, top_, left_, plot_bottom(), "axis",
         R"(stroke="#333333" stroke-width="1")");
  s.Line(left_, plot_bottom(), right, plot_bottom(), "axis",
         R"(stroke="#333333" stroke-width="1")");
  const double mid_y = top_ + spec_.plot_height / 2;
  s.Text(left_ - 62, mid_y, spec_.y_title, "axis-title", "middle", -90);
  // Category labels.
  for (size_t i = 0; i < spec_.x_labels.size(); ++i) {
    const std::string& full = spec_.x_labels[i];
    const std::string shown = Abbreviate(full, kMaxLabel);
    const double cx = X(i) + spec_.slot_width / 2;
    const std::string tip = shown == full ? "" : full;
    if (rotate_) {
      s.Text(cx + 4 * kCos40, plot_bottom() + 12, shown, "x-label", "end", -40,
             tip);
    } else {
      s.Text(cx, plot_bottom() + 14, shown, "x-label", "middle", 0, tip);
    }
  }
  s.Text((left_ + right) / 2, svg_.height() - 6, spec_.x_title, "axis-title",
         "middle");
}

void ChartFrame::DrawEdgeLabels(std::vector<EdgeLabel> labels) {
  std::sort(labels.begin(), labels.end(),
            [](const EdgeLabel& a, const EdgeLabel& b) { return a.y < b.y; });
  double prev = -1e9;
  for (EdgeLabel& l : labels) {
    l.y = std::max(l.y + 4, prev + 12);
    prev = l.y;
  }
  // Shift the whole column up if it ran past the plot's bottom.
  const double over = labels.empty() ? 0 : prev - (plot_bottom() + 4);
  for (EdgeLabel& l : labels) {
    const double y = over > 0 ? l.y - over : l.y;
    svg_.Text(plot_right() + 4, y, l.text, "ref-label", "start", 0, l.tip,
              l.attrs);
  }
}

ChartFrame MakeBarFrame(ChartSpec spec, double min, double max) {
  const bool log = min > 0 && max / min > kBarLogRatio;
  if (log && !spec.y_title.empty() && spec.y_title.back() == ')') {
    spec.y_title.insert(spec.y_title.size() - 1, ", log scale");
  }
  ChartFrame frame(std::move(spec));
  if (log) {
    frame.SetLog(min, max, false);
  } else {
    frame.SetLinear(max * 1.05);
  }
  return frame;
}

}  // namespace tierbench
