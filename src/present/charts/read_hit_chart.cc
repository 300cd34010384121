// The read-hits chart (present/charts/read_hit_chart.h).
#include "present/charts/read_hit_chart.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "present/charts/chart_frame.h"
#include "present/charts/xy_plot.h"
#include "present/report_format.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr double kRhWidth = 720;
constexpr double kRhLeft = 78;
constexpr double kRhRight = 24;
constexpr double kRhPlotHeight = 280;

std::string RhCurveName(const ReadHitCurve& c) {
  return std::string(c.warm ? "warm" : "cold") + ", " +
         FormatBytes(c.block_bytes) + " blocks" +
         (c.rate < 1 ? ", SHARDS-sampled" : "");
}

std::string RhOptAttrs(size_t i) {
  return "stroke=\"" + SeriesColor(i) +
         "\" stroke-width=\"2\" stroke-dasharray=\"6 4\"";
}

}  // namespace

std::string ReadHitChartSvg(const std::string& workload,
                            const std::vector<const ReadHitCurve*>& curves,
                            const std::vector<HitBoundCell>& cells) {
  std::vector<LineLegendItem> legend;
  double lo = 0, hi = 0;
  bool any = false;
  const auto extend = [&](uint64_t bytes) {
    if (bytes == 0) return;
    const double e = std::log2(static_cast<double>(bytes));
    lo = any ? std::min(lo, e) : e;
    hi = any ? std::max(hi, e) : e;
    any = true;
  };
  for (size_t i = 0; i < curves.size(); ++i) {
    // Legend names stay under LineLegend's 28 characters.
    legend.push_back({"LRU, " + RhCurveName(*curves[i]), LineAttrs(i)});
    legend.push_back({"OPT, " + RhCurveName(*curves[i]), RhOptAttrs(i)});
    for (const ReadHitPoint& p : curves[i]->points) extend(p.cache_bytes);
  }
  for (const HitBoundCell& c : cells) extend(c.cache_bytes);
  if (!any) lo = 12;
  hi = std::max(hi, lo + 1);

  const double plot_w = kRhWidth - kRhLeft - kRhRight;
  const double top = 28 + LineLegendHeight(legend, plot_w) + 10;
  SvgWriter svg(kRhWidth, top + kRhPlotHeight + 44, "read-hits",
                "read hits of " + workload + " against LRU and OPT");
  svg.Text(kRhLeft, 18, "Read hits against LRU and OPT: " + workload,
           "chart-title", "start", 0, "",
           R"(font-size="13" font-weight="bold")");
  DrawLineLegend(&svg, kRhLeft, 28, plot_w, legend);
  XyPlot plot(&svg, kRhLeft, top, plot_w, kRhPlotHeight);
  plot.SetXLog2Bytes(lo, hi);
  plot.SetYLinear(100);
  plot.DrawAxes("cache size (log2 scale)", "read hits (% of read blocks)", "");

  for (size_t i = 0; i < curves.size(); ++i) {
    std::vector<std::pair<double, double>> lru, opt;
    for (const ReadHitPoint& p : curves[i]->points) {
      if (p.cache_bytes == 0) continue;
      const double x = plot.X(std::log2(static_cast<double>(p.cache_bytes)));
      lru.push_back({x, plot.Y(p.lru_read_hit_pct)});
      opt.push_back({x, plot.Y(p.opt_read_hit_pct)});
    }
    if (lru.empty()) continue;
    const std::string name = RhCurveName(*curves[i]);
    svg.Polyline(lru, "mrc-lru", LineAttrs(i), "LRU (" + name + ")");
    svg.Polyline(opt, "mrc-opt", RhOptAttrs(i),
                 "OPT (Belady MIN, " + name + ")");
  }
  for (size_t k = 0; k < cells.size(); ++k) {
    const HitBoundCell& c = cells[k];
    if (!c.measured_pct || c.cache_bytes == 0) continue;
    const double x = plot.X(std::log2(static_cast<double>(c.cache_bytes)));
    const double y = plot.Y(*c.measured_pct);
    const std::string name = HitBoundName(c);
    const std::string tip = name + " at " + FormatBytes(c.cache_bytes) + ": " +
                            FormatPct(*c.measured_pct) +
                            " read hits measured; LRU " + FormatPct(c.lru_pct) +
                            ", OPT " + FormatPct(c.opt_pct) + " (" +
                            (c.warm ? "warm" : "cold") + ", " +
                            FormatBytes(c.block_bytes) + " blocks)";
    // The dot takes the colour of its curve (same state and block size).
    std::string fill = "#000000";
    for (size_t i = 0; i < curves.size(); ++i) {
      if (curves[i]->warm == c.warm &&
          curves[i]->block_bytes == c.block_bytes) {
        fill = SeriesColor(i);
      }
    }
    svg.Circle(x, y, 4.5, "mrc-cell",
               "fill=\"" + fill + "\" stroke=\"#000000\"", tip);
    // Labels alternate above and below so that cells at one size stay
    // readable.
    const double dy = k % 2 == 0 ? -8 : 16;
    const bool right_half = x > plot.left() + plot_w * 0.6;
    svg.Text(right_half ? x - 7 : x + 7, y + dy,
             name + " " + FormatPct(*c.measured_pct), "mrc-cell-label",
             right_half ? "end" : "start", 0, tip, R"(font-size="11")");
  }
  return svg.Finish();
}

}  // namespace tierbench
