// The miss-ratio curve chart (present/charts/mrc_chart.h).
#include "present/charts/mrc_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "present/charts/chart_frame.h"
#include "present/charts/xy_plot.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr double kMrcWidth = 700;
constexpr double kMrcLeft = 78;
constexpr double kMrcRight = 24;
constexpr double kMrcPlotHeight = 260;

std::string MrcTip(const char* what, uint64_t bytes, double miss) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s at %s: miss ratio %.4f", what,
                FormatBytes(bytes).c_str(), miss);
  return buf;
}

}  // namespace

std::string MrcChartSvg(const TraceProfile& profile) {
  std::vector<const TraceMrcPoint*> points;
  for (const TraceMrcPoint& p : profile.curve) {
    if (p.cache_bytes > 0) points.push_back(&p);
  }
  const std::string method = profile.exact() ? "exact" : "SHARDS_adj, sampled";
  const std::vector<LineLegendItem> legend = {
      {"LRU (" + method + ")", LineAttrs(0)},
      {"OPT (Belady MIN)", "stroke=\"" + SeriesColor(1) +
                               "\" stroke-width=\"4\" stroke-dasharray=\"1 5\" "
                               "stroke-linecap=\"round\""}};
  const double plot_w = kMrcWidth - kMrcLeft - kMrcRight;
  const double top = 28 + LineLegendHeight(legend, plot_w) + 10;
  SvgWriter svg(kMrcWidth, top + kMrcPlotHeight + 44, "mrc",
                "miss-ratio curve of " + profile.path);
  svg.Text(kMrcLeft, 18, "Miss-ratio curve: " + profile.path, "chart-title",
           "start", 0, "", R"(font-size="13" font-weight="bold")");
  DrawLineLegend(&svg, kMrcLeft, 28, plot_w, legend);
  XyPlot plot(&svg, kMrcLeft, top, plot_w, kMrcPlotHeight);
  double lo = std::log2(static_cast<double>(profile.block_size));
  double hi = lo + 1;
  if (!points.empty()) {
    lo = std::log2(static_cast<double>(points.front()->cache_bytes));
    hi = std::max(lo + 1,
                  std::log2(static_cast<double>(points.back()->cache_bytes)));
  }
  plot.SetXLog2Bytes(lo, hi);
  plot.SetYLinear(1);
  plot.DrawAxes("cache size (log2 scale)", "miss ratio (per block access)", "");
  std::vector<std::pair<double, double>> line;
  for (const TraceMrcPoint* p : points) {
    line.push_back({plot.X(std::log2(static_cast<double>(p->cache_bytes))),
                    plot.Y(1 - p->lru_hit_ratio)});
  }
  if (line.size() == 1) line.push_back({line[0].first + 1, line[0].second});
  if (!line.empty()) svg.Polyline(line, "mrc-lru", LineAttrs(0), "LRU");
  for (const TraceMrcPoint* p : points) {
    const double x = plot.X(std::log2(static_cast<double>(p->cache_bytes)));
    if (p->requested) {
      svg.Circle(x, plot.Y(1 - p->lru_hit_ratio), 2.5, "mrc-lru-point",
                 "fill=\"" + SeriesColor(0) + "\"",
                 MrcTip("LRU", p->cache_bytes, 1 - p->lru_hit_ratio));
    }
    if (p->opt_hit_ratio) {
      svg.Circle(x, plot.Y(1 - *p->opt_hit_ratio), 4, "mrc-opt",
                 "fill=\"" + SeriesColor(1) + "\"",
                 MrcTip("OPT", p->cache_bytes, 1 - *p->opt_hit_ratio));
    }
  }
  return svg.Finish();
}

}  // namespace tierbench
