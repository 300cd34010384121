#include "present/charts/latency_chart.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "present/charts/chart_frame.h"
#include "present/report_format.h"

namespace tierbench {

LatencyChart::LatencyChart(const RunFolder& run, std::string workload)
    : run_(run), workload_(std::move(workload)) {}

std::string LatencyChart::Svg() const {
  const auto figs = run_.FiguresOf(workload_);
  const std::vector<std::string> series = run_.SeriesOf(workload_);
  const std::vector<std::string> labels = run_.SeriesLabels(workload_);
  const bool multi = series.size() > 1;
  std::vector<std::string> modes;
  bool has_p999 = false;
  double lo = std::numeric_limits<double>::max(), hi = 0;
  for (const std::string& m : run_.modes()) {
    bool present = false;
    for (const ReportFigure* f : figs) {
      if (f->mode != m) continue;
      present = true;
      has_p999 = has_p999 || f->p999_us.has_value();
      for (double v : {f->p50_us.value_or(0), f->p99_us, f->p99_min_us,
                       f->p999_us.value_or(0)}) {
        if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
      }
    }
    if (present) modes.push_back(m);
  }
  ChartSpec spec;
  spec.kind = "latency";
  spec.title = workload_ + ": latency percentiles per mode";
  spec.y_title = "latency (log scale)";
  spec.x_title = "mode (medians over repetitions)";
  spec.x_labels = modes;
  const size_t n_series = std::max<size_t>(1, series.size());
  spec.slot_width = std::max(34.0, 14.0 * n_series + 14);
  for (size_t s = 0; s < series.size() && multi; ++s) {
    spec.legend.push_back({labels[s], "fill=\"" + SeriesColor(s) + "\""});
  }
  const std::string ink = "#333333";
  spec.legend.push_back(
      {"p50", "fill=\"" + ink + "\" stroke=\"" + ink + "\"", LegendItem::kDot});
  spec.legend.push_back({"p99 (square)", "fill=\"" + ink + "\""});
  if (has_p999) {
    spec.legend.push_back(
        {"p99.9",
         "fill=\"#ffffff\" stroke=\"" + ink + "\" stroke-width=\"1.5\"",
         LegendItem::kDot});
  }
  if (hi <= 0) lo = 1, hi = 1000;  // nothing measured: an empty decade axis
  ChartFrame frame(spec);
  frame.SetLog(lo, hi);
  frame.DrawAxes();
  SvgWriter& svg = frame.svg();
  const double slot = frame.slot_width();
  const double w = std::min(24.0, (slot - 10) / n_series);
  for (size_t m = 0; m < modes.size(); ++m) {
    const double x0 = frame.X(m) + (slot - w * n_series) / 2;
    for (size_t s = 0; s < series.size(); ++s) {
      const ReportFigure* f = nullptr;
      for (const ReportFigure* g : figs) {
        if (g->mode == modes[m] && g->job + "/" + g->direction == series[s])
          f = g;
      }
      if (f == nullptr) continue;
      const std::string color = multi ? SeriesColor(s) : SeriesColor(0);
      const double cx = x0 + s * w + w / 2;
      const std::string who = f->mode + (multi ? " " + labels[s] : "");
      const double top = std::max(f->p99_us, f->p999_us.value_or(0));
      const double bottom = f->p50_us.value_or(f->p99_us);
      svg.Line(cx, frame.Y(bottom), cx, frame.Y(top), "lat-range",
               "stroke=\"" + color + "\" stroke-width=\"2\"");
      if (f->p50_us) {
        svg.Circle(cx, frame.Y(*f->p50_us), 3.5, "lat-p50",
                   "fill=\"" + color + "\"",
                   who + " p50 " + FormatLatencyUs(*f->p50_us));
      }
      svg.Rect(cx - 4, frame.Y(f->p99_us) - 4, 8, 8, "lat-p99",
               "fill=\"" + color + "\"",
               who + " p99 " + FormatLatencyUs(f->p99_us));
      if (f->p999_us) {
        svg.Circle(
            cx, frame.Y(*f->p999_us), 4, "lat-p999",
            "fill=\"#ffffff\" stroke=\"" + color + "\" stroke-width=\"1.5\"",
            who + " p99.9 " + FormatLatencyUs(*f->p999_us));
      }
    }
  }
  return svg.Finish();
}

}  // namespace tierbench
