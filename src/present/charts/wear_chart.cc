#include "present/charts/wear_chart.h"

#include <algorithm>

#include "present/charts/chart_frame.h"

namespace tierbench {

WearChart::WearChart(const RunFolder& run, std::string workload)
    : workload_(std::move(workload)), figures_(WearFiguresOf(run, workload_)) {}

std::string WearChart::Svg() const {
  ChartSpec spec;
  spec.kind = "wear";
  std::string state;
  bool one_state = true;
  for (const WearFigure& f : figures_) {
    one_state = one_state && f.cache_state == figures_.front().cache_state;
  }
  if (one_state && !figures_.empty() && !figures_.front().cache_state.empty()) {
    state = " (" + WearStateWords(figures_.front().cache_state) + ")";
  }
  spec.title = workload_ + ": SSD wear" + state;
  spec.y_title = "SSD writes per byte read + written (B/B)";
  spec.x_title = "cache mode (median of repetitions)";
  double max = 0;
  for (const WearFigure& f : figures_) {
    std::string label = f.mode;
    if (f.valid == "no") {
      label += " (invalid)";
    } else if (f.drifted) {
      label += " (not steady)";
    } else if (f.valid == "unknown") {
      label += " (validity unknown)";
    }
    if (!one_state && !f.cache_state.empty()) {
      label += " [" + f.cache_state + "]";
    }
    spec.x_labels.push_back(label);
    max = std::max(max, f.ssd_write_per_app_byte);
  }
  spec.slot_width = 34;
  ChartFrame frame(spec);
  // At least 0 .. 1: 1 is the SSD written once per byte moved, and small
  // figures keep readable ticks.
  frame.SetLinear(std::max(1.0, max * 1.05));
  frame.DrawAxes();
  SvgWriter& svg = frame.svg();
  for (size_t i = 0; i < figures_.size(); ++i) {
    const WearFigure& f = figures_[i];
    const double v = f.ssd_write_per_app_byte;
    const double w = std::min(30.0, frame.slot_width() - 12);
    const double x = frame.X(i) + (frame.slot_width() - w) / 2;
    const double y = frame.Y(v);
    const std::string value =
        v == 0 ? std::string("none") : FormatBytesPerByte(v);
    std::string tip = f.mode + ": " + value +
                      " written to the SSD per byte the application moved";
    if (!f.ssd_write_per_app_write) tip += " (the application wrote nothing)";
    const bool quotable = WearQuotable(f);
    svg.Rect(
        x, y, w, frame.plot_bottom() - y, "bar",
        quotable ? R"(fill="#d95f0e")" : R"(fill="#bdbdbd" stroke="#636363")",
        tip);
    svg.Text(x + w / 2, y - 4, value, "bar-value", "middle");
  }
  return svg.Finish();
}

}  // namespace tierbench
