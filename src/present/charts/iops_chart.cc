#include "present/charts/iops_chart.h"

#include <algorithm>

#include "present/charts/chart_frame.h"
#include "present/report_format.h"

namespace tierbench {
namespace {

const char kHddColor[] = "#7f2704";
const char kSsdColor[] = "#00441b";

const ReportFigure* Find(const std::vector<const ReportFigure*>& figs,
                         const std::string& mode, const std::string& series) {
  for (const ReportFigure* f : figs) {
    if (f->mode == mode && f->job + "/" + f->direction == series) return f;
  }
  return nullptr;
}

std::string RateUnit(const std::vector<const ReportFigure*>& figs) {
  for (const ReportFigure* f : figs) {
    if (f->unit == "tx") return "tps";
  }
  return "IOPS";
}

}  // namespace

std::vector<std::string> ComparedModes(const RunFolder& run,
                                       const std::string& workload) {
  std::vector<std::string> out;
  const auto figs = run.FiguresOf(workload);
  for (const std::string& mode : run.modes()) {
    bool base = false, present = false;
    for (const ReportFigure* f : figs) {
      if (f->mode != mode) continue;
      present = true;
      base = base || (f->is_raw() && run.Baseline(*f, f->baseline) == f);
    }
    if (base) continue;
    if (present || HasFailures(run, mode, workload)) out.push_back(mode);
  }
  return out;
}

bool HasFailures(const RunFolder& run, const std::string& mode,
                 const std::string& workload) {
  for (const FailedCell& c : run.failures()) {
    if (c.mode == mode && c.workload == workload) return true;
  }
  return false;
}

IopsChart::IopsChart(const RunFolder& run, std::string workload)
    : run_(run),
      workload_(std::move(workload)),
      modes_(ComparedModes(run, workload_)) {}

std::string IopsChart::Svg() const {
  const auto figs = run_.FiguresOf(workload_);
  const std::vector<std::string> series = run_.SeriesOf(workload_);
  const std::vector<std::string> labels = run_.SeriesLabels(workload_);
  const bool multi = series.size() > 1;
  const std::string unit = RateUnit(figs);
  ChartSpec spec;
  spec.kind = "iops";
  spec.title = workload_ + ": " + unit + " per mode";
  spec.y_title = unit == "tps" ? "tps (transactions/s)" : "IOPS (IOs/s)";
  spec.x_title = "mode (bar: median over repetitions, whisker: min-max)";
  spec.x_labels = modes_;
  const size_t n_series = std::max<size_t>(1, series.size());
  spec.slot_width = std::max(34.0, 14.0 * n_series + 14);
  spec.right_margin = 150;
  for (size_t s = 0; s < series.size() && multi; ++s) {
    spec.legend.push_back({labels[s], "fill=\"" + SeriesColor(s) + "\""});
  }
  const std::string hdd_color = multi ? "#555555" : kHddColor;
  const std::string ssd_color = multi ? "#555555" : kSsdColor;
  spec.legend.push_back({"raw HDD",
                         "stroke=\"" + hdd_color +
                             "\" stroke-width=\"2\" stroke-dasharray=\"6 3\"",
                         LegendItem::kLine});
  spec.legend.push_back(
      {"raw SSD",
       "stroke=\"" + ssd_color +
           "\" stroke-width=\"2\" stroke-dasharray=\"8 3 2 3\"",
       LegendItem::kLine});
  double max = 0, min = 0;
  for (const ReportFigure* f : figs) {
    max = std::max(max, f->iops_max);
    if (f->iops_min > 0 && (min == 0 || f->iops_min < min)) min = f->iops_min;
  }
  ChartFrame frame = MakeBarFrame(spec, min, max);
  frame.DrawAxes();
  SvgWriter& svg = frame.svg();

  const double slot = frame.slot_width();
  const double bar_w = std::min(30.0, (slot - 10) / n_series);
  for (size_t m = 0; m < modes_.size(); ++m) {
    bool any = false;
    double top = frame.plot_bottom();  // highest point of this mode's bars
    const double x0 = frame.X(m) + (slot - bar_w * n_series) / 2;
    for (size_t s = 0; s < series.size(); ++s) {
      const ReportFigure* f = Find(figs, modes_[m], series[s]);
      if (f == nullptr) continue;
      any = true;
      top = std::min(top, frame.Y(std::max(f->iops_max, f->iops_median)));
      const double x = x0 + s * bar_w;
      const double y = frame.Y(f->iops_median);
      const std::string color = multi ? SeriesColor(s) : SeriesColor(0);
      std::string tip = f->mode + (multi ? " " + labels[s] : "") + ": " +
                        FormatRate(f->iops_median) + " " + unit +
                        " (n=" + std::to_string(f->n);
      if (f->n >= 2) {
        tip += ", min " + FormatRate(f->iops_min) + ", max " +
               FormatRate(f->iops_max);
      }
      tip += ")";
      svg.Rect(x + 1, y, bar_w - 2, frame.plot_bottom() - y, "bar",
               "fill=\"" + color + "\"", tip);
      if (f->n >= 2) {
        const double cx = x + bar_w / 2;
        const double y1 = frame.Y(f->iops_min), y2 = frame.Y(f->iops_max);
        const std::string st = R"(stroke="#222222" stroke-width="1.2")";
        svg.Line(cx, y1, cx, y2, "whisker", st);
        svg.Line(cx - 3, y1, cx + 3, y1, "whisker-cap", st);
        svg.Line(cx - 3, y2, cx + 3, y2, "whisker-cap", st);
      }
      if (!f->warnings.empty()) {
        std::string all;
        for (const std::string& w : f->warnings)
          all += (all.empty() ? "" : "\n") + w;
        svg.Text(x + bar_w / 2, std::min(y, frame.Y(f->iops_max)) - 4, "!",
                 "warn-mark", "middle", 0, all,
                 R"(fill="#b35806" font-weight="bold")");
      }
    }
    if (HasFailures(run_, modes_[m], workload_)) {
      const double cx = frame.X(m) + slot / 2;
      svg.Text(cx + 4, top - (any ? 16 : 6), any ? "failed cells" : "failed",
               "failed", "start", -90,
               modes_[m] + ": cells of " + workload_ + " failed (see Failures)",
               R"(fill="#b2182b" font-weight="bold")");
    }
  }
  // Reference lines, after the bars so they stay visible.
  std::vector<EdgeLabel> edges;
  for (size_t s = 0; s < series.size(); ++s) {
    for (const char* kind : {"hdd", "ssd"}) {
      const ReportFigure* probe = nullptr;
      for (const ReportFigure* f : figs) {
        if (f->job + "/" + f->direction == series[s]) probe = f;
      }
      const ReportFigure* b = probe ? run_.Baseline(*probe, kind) : nullptr;
      if (b == nullptr) continue;
      const bool hdd = std::string(kind) == "hdd";
      const std::string color =
          multi ? SeriesColor(s) : (hdd ? kHddColor : kSsdColor);
      const double y = frame.Y(b->iops_median);
      const std::string name = std::string(hdd ? "HDD" : "SSD") +
                               (multi ? " " + labels[s] : "") + " " +
                               FormatRate(b->iops_median);
      svg.Line(frame.plot_left(), y, frame.plot_right(), y,
               hdd ? "ref-hdd" : "ref-ssd",
               "stroke=\"" + color + "\" stroke-width=\"2\" " +
                   (hdd ? "stroke-dasharray=\"6 3\""
                        : "stroke-dasharray=\"8 3 2 3\""),
               name + " " + unit);
      edges.push_back(
          {y, Truncate(name, 21), "fill=\"" + color + "\"", name + " " + unit});
    }
  }
  frame.DrawEdgeLabels(edges);
  return svg.Finish();
}

}  // namespace tierbench
