#include "present/charts/drain_chart.h"

#include <algorithm>

#include "present/charts/chart_frame.h"
#include "present/report_format.h"
#include "stats/aggregate.h"

namespace tierbench {

DrainChart::DrainChart(const RunFolder& run, std::string workload)
    : workload_(std::move(workload)) {
  for (const std::string& m : run.modes()) {
    for (const DrainFigure& d : run.drains()) {
      if (d.mode == m && d.workload == workload_ && !d.seconds.empty()) {
        drains_.push_back(&d);
      }
    }
  }
}

bool DrainChart::HasData() const {
  for (const DrainFigure* d : drains_) {
    if (Max(d->seconds) > 0) return true;
  }
  return false;
}

std::string DrainChart::Svg() const {
  ChartSpec spec;
  spec.kind = "drain";
  spec.title = workload_ + ": time to clean after the run";
  spec.y_title = "time to clean (s)";
  spec.x_title = "mode (bar: median over repetitions, whisker: min-max)";
  double max = 0;
  for (const DrainFigure* d : drains_) {
    spec.x_labels.push_back(d->mode);
    max = std::max(max, Max(d->seconds));
  }
  spec.slot_width = 34;
  ChartFrame frame(spec);
  frame.SetLinear(max * 1.05);
  frame.DrawAxes();
  SvgWriter& svg = frame.svg();
  for (size_t i = 0; i < drains_.size(); ++i) {
    const DrainFigure& d = *drains_[i];
    const double med = Median(d.seconds);
    const double w = std::min(30.0, frame.slot_width() - 12);
    const double x = frame.X(i) + (frame.slot_width() - w) / 2;
    const double y = frame.Y(med);
    std::string tip = d.mode + ": " + FormatSeconds(med) +
                      " to clean (n=" + std::to_string(d.seconds.size()) + ")";
    svg.Rect(x, y, w, frame.plot_bottom() - y, "bar", R"(fill="#8c6bb1")", tip);
    svg.Text(x + w / 2, std::min(y, frame.Y(Max(d.seconds))) - 4,
             FormatSeconds(med), "bar-value", "middle");
    if (d.seconds.size() >= 2) {
      const double cx = x + w / 2;
      const double y1 = frame.Y(Min(d.seconds)), y2 = frame.Y(Max(d.seconds));
      const std::string st = R"(stroke="#222222" stroke-width="1.2")";
      svg.Line(cx, y1, cx, y2, "whisker", st);
      svg.Line(cx - 3, y1, cx + 3, y1, "whisker-cap", st);
      svg.Line(cx - 3, y2, cx + 3, y2, "whisker-cap", st);
    }
  }
  return svg.Finish();
}

}  // namespace tierbench
