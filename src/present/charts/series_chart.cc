#include "present/charts/series_chart.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "present/charts/xy_plot.h"

namespace tierbench {
namespace {

constexpr double kWidth = 780;
constexpr double kLeft = 78;
constexpr double kRight = 24;
constexpr double kTitleRow = 28;
constexpr double kPanelTitle = 20;
constexpr double kAxisBelow = 44;

using Getter = std::function<std::optional<double>(const SeriesPoint&)>;

// Where a point sits on the time axis: the middle of its second for warm
// and measure rows, the poll time for drain rows.
double TimeOf(const SeriesPoint& p) {
  return p.phase == "drain" ? p.t_s : p.t_s + 0.5;
}

struct Scale {
  double divisor = 1;
  std::string unit = "B";
};

Scale DirtyScale(double max_bytes) {
  if (max_bytes >= 1024.0 * 1024 * 1024) return {1024.0 * 1024 * 1024, "GiB"};
  if (max_bytes >= 1024.0 * 1024) return {1024.0 * 1024, "MiB"};
  if (max_bytes >= 1024.0) return {1024.0, "KiB"};
  return {};
}

}  // namespace

SeriesChart::SeriesChart(const SeriesFile& file, std::string workload)
    : workload_(std::move(workload)), modes_(file.Of(workload_)) {}

std::string SeriesChart::Svg() const {
  const Getter iops = [](const SeriesPoint& p) { return p.iops; };
  const Getter hit = [](const SeriesPoint& p) { return p.hit_ratio_pct; };
  const Getter dirty = [](const SeriesPoint& p) { return p.dirty_bytes; };
  double t_lo = 0, t_hi = 1, warm_lo = 0, drain_lo = 0;
  bool has_warm = false, has_drain = false;
  double max_iops = 0, min_iops = 0, max_dirty = 0;
  bool any_hit = false, any_dirty = false;
  for (const ModeSeries& m : modes_) {
    for (const SeriesPoint& p : m.points) {
      const double t = TimeOf(p);
      t_lo = std::min(t_lo, p.t_s);
      t_hi = std::max(t_hi, p.t_s + 1);
      if (p.phase == "warm") {
        warm_lo = has_warm ? std::min(warm_lo, p.t_s) : p.t_s;
        has_warm = true;
      }
      if (p.phase == "drain") {
        drain_lo = has_drain ? std::min(drain_lo, t) : t;
        has_drain = true;
      }
      if (p.iops) max_iops = std::max(max_iops, *p.iops);
      if (p.iops && *p.iops > 0) {
        min_iops = min_iops > 0 ? std::min(min_iops, *p.iops) : *p.iops;
      }
      if (p.hit_ratio_pct) any_hit = true;
      if (p.dirty_bytes) {
        any_dirty = true;
        max_dirty = std::max(max_dirty, *p.dirty_bytes);
      }
    }
  }
  const Scale dirty_scale = DirtyScale(max_dirty);

  // As the IOPS chart: a log axis when the lines lie more than 30x apart
  // (the HDD and the SSD usually do).
  const bool log_iops = min_iops > 0 && max_iops / min_iops > 30;
  struct Panel {
    std::string cls, title, y_title;
    Getter get;
    double height, y_max, divisor;
    bool log = false;
  };
  std::vector<Panel> panels = {{"series-iops", "IOPS per second",
                                log_iops ? "IOPS, read + write (1/s, log scale)"
                                         : "IOPS, read + write (1/s)",
                                iops, 170, max_iops, 1, log_iops}};
  if (any_hit) {
    panels.push_back({"series-hit", "Read hit ratio of the layer",
                      "read hit ratio (%)", hit, 120, 100, 1});
  }
  if (any_dirty) {
    panels.push_back({"series-dirty",
                      "Dirty data in the cache (drain included)",
                      "dirty data (" + dirty_scale.unit + ")", dirty, 120,
                      max_dirty / dirty_scale.divisor, dirty_scale.divisor});
  }
  std::vector<LineLegendItem> legend;
  for (size_t i = 0; i < modes_.size(); ++i) {
    legend.push_back({modes_[i].mode, LineAttrs(i)});
  }
  const double plot_w = kWidth - kLeft - kRight;
  const double legend_h = LineLegendHeight(legend, plot_w);
  double height = kTitleRow + legend_h + 8;
  for (const Panel& p : panels) height += kPanelTitle + p.height + kAxisBelow;
  SvgWriter svg(kWidth, height, "series",
                workload_ + ": per-second IOPS, hit ratio and dirty data");
  svg.Text(kLeft, 18, workload_ + ": per second, per mode (first repetition)",
           "chart-title", "start", 0, "",
           R"(font-size="13" font-weight="bold")");
  DrawLineLegend(&svg, kLeft, kTitleRow, plot_w, legend);
  double top = kTitleRow + legend_h + 8;
  for (const Panel& panel : panels) {
    top += kPanelTitle;
    XyPlot plot(&svg, kLeft, top, plot_w, panel.height);
    plot.SetXLinear(t_lo, t_hi);
    if (panel.log) {
      plot.SetYLog(min_iops, panel.y_max, false);
    } else {
      plot.SetYLinear(panel.y_max);
    }
    if (has_warm) {
      svg.Rect(plot.X(warm_lo), plot.top(), plot.X(0) - plot.X(warm_lo),
               panel.height, "warm-region", R"(fill="#ececec")",
               "warm-up chunks (--cache-state warm-until-steady)");
    }
    if (has_drain) {
      svg.Rect(plot.X(drain_lo), plot.top(), plot.right() - plot.X(drain_lo),
               panel.height, "drain-region", R"(fill="#f5f0e6")",
               "drain after the run");
    }
    plot.DrawAxes("time since the measured window started (s)", panel.y_title,
                  panel.title);
    if (has_warm) {
      svg.Text(plot.X(warm_lo) + 4, plot.top() + 12, "warm-up", "region-label",
               "start", 0, "", R"(fill="#555555")");
    }
    if (has_drain && plot.right() - plot.X(drain_lo) >= 40) {
      svg.Text(plot.X(drain_lo) + 4, plot.top() + 12, "drain", "region-label",
               "start", 0, "", R"(fill="#555555")");
    }
    for (size_t i = 0; i < modes_.size(); ++i) {
      const ModeSeries& m = modes_[i];
      const std::string tip = m.mode + " (" + m.layer + "), repetition " +
                              std::to_string(m.repetition);
      std::vector<std::vector<std::pair<double, double>>> runs(1);
      for (const SeriesPoint& p : m.points) {
        const std::optional<double> v = panel.get(p);
        if (!v) {
          if (!runs.back().empty()) runs.emplace_back();
          continue;
        }
        runs.back().push_back({plot.X(TimeOf(p)), plot.Y(*v / panel.divisor)});
      }
      bool first = true;
      for (const auto& run : runs) {
        if (run.empty()) continue;
        std::vector<std::pair<double, double>> pts = run;
        if (pts.size() == 1) pts.push_back({pts[0].first + 1, pts[0].second});
        svg.Polyline(pts, first ? panel.cls : panel.cls + "-cont", LineAttrs(i),
                     tip);
        first = false;
      }
    }
    top += panel.height + kAxisBelow;
  }
  return svg.Finish();
}

}  // namespace tierbench
