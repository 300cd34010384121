#include "present/charts/percentile_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "present/charts/chart_frame.h"
#include "present/charts/xy_plot.h"

namespace tierbench {
namespace {

constexpr double kWidth = 700;
constexpr double kLeft = 78;
constexpr double kRight = 24;
constexpr double kPlotHeight = 260;

struct Pct {
  double p;
  const char* io_column;  // completion latency of IO jobs
  const char* tx_column;  // transaction latency ("" when absent)
};
const Pct kPercentiles[] = {
    {50, "clat_p50_us", "lat_p50_us"}, {60, "clat_p60_us", ""},
    {70, "clat_p70_us", ""},           {80, "clat_p80_us", ""},
    {90, "clat_p90_us", ""},           {95, "clat_p95_us", ""},
    {99, "clat_p99_us", "lat_p99_us"}, {99.5, "clat_p99_5_us", ""},
    {99.9, "clat_p99_9_us", ""},       {99.95, "clat_p99_95_us", ""},
    {99.99, "clat_p99_99_us", ""}};

double Nines(double p) { return -std::log10(1 - p / 100); }

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

PercentileChart::PercentileChart(const RunFolder& run, std::string workload)
    : run_(run), workload_(std::move(workload)) {}

std::vector<PercentileChart::Curve> PercentileChart::Curves(
    bool* transactions) const {
  const CsvDocument& runs = run_.runs();
  // Series of the workload in first-seen order, and per mode x series x
  // percentile the values over the repetitions.
  std::vector<std::string> series;
  std::map<std::string, std::map<std::string, std::vector<std::vector<double>>>>
      values;
  *transactions = false;
  for (size_t r = 0; r < runs.row_count(); ++r) {
    if (runs.Get(r, "workload") != workload_ || !runs.Get(r, "error").empty())
      continue;
    const std::string key = runs.Get(r, "job") + "/" + runs.Get(r, "direction");
    if (std::find(series.begin(), series.end(), key) == series.end())
      series.push_back(key);
    const bool tx = runs.Get(r, "unit") == "tx";
    *transactions = *transactions || tx;
    auto& per_pct = values[runs.Get(r, "mode")][key];
    per_pct.resize(std::size(kPercentiles));
    for (size_t i = 0; i < std::size(kPercentiles); ++i) {
      const char* col =
          tx ? kPercentiles[i].tx_column : kPercentiles[i].io_column;
      if (*col == '\0') continue;
      const std::optional<double> v = runs.Number(r, col);
      if (v && *v > 0) per_pct[i].push_back(*v);
    }
  }
  std::vector<Curve> curves;
  for (const std::string& mode : run_.modes()) {
    auto m = values.find(mode);
    if (m == values.end()) continue;
    for (const std::string& key : series) {
      auto s = m->second.find(key);
      if (s == m->second.end()) continue;
      Curve c;
      c.label = mode;
      if (series.size() > 1) {
        // The direction alone when every series is the same job.
        const std::string job = key.substr(0, key.rfind('/'));
        bool one_job = true;
        for (const std::string& k : series)
          one_job = one_job && k.substr(0, k.rfind('/')) == job;
        c.label += " " + (one_job ? key.substr(key.rfind('/') + 1) : key);
      }
      for (size_t i = 0; i < s->second.size(); ++i) {
        if (s->second[i].empty()) continue;
        c.points.push_back({kPercentiles[i].p, MedianOf(s->second[i])});
      }
      if (!c.points.empty()) curves.push_back(std::move(c));
    }
  }
  return curves;
}

size_t PercentileChart::CurveCount() const {
  bool tx = false;
  return Curves(&tx).size();
}

std::string PercentileChart::Svg() const {
  bool tx = false;
  const std::vector<Curve> curves = Curves(&tx);
  std::vector<LineLegendItem> legend;
  double lo = std::numeric_limits<double>::max(), hi = 0;
  for (size_t i = 0; i < curves.size(); ++i) {
    legend.push_back({curves[i].label, LineAttrs(i)});
    for (const auto& [p, us] : curves[i].points) {
      lo = std::min(lo, us);
      hi = std::max(hi, us);
    }
  }
  if (hi <= 0) lo = 1, hi = 1000;  // nothing measured: an empty axis
  const double plot_w = kWidth - kLeft - kRight;
  const double legend_h = LineLegendHeight(legend, plot_w);
  const double top = 28 + legend_h + 10;
  SvgWriter svg(kWidth, top + kPlotHeight + 44, "percentiles",
                workload_ + ": latency percentile curves per mode");
  svg.Text(kLeft, 18, workload_ + ": latency percentiles per mode",
           "chart-title", "start", 0, "",
           R"(font-size="13" font-weight="bold")");
  DrawLineLegend(&svg, kLeft, 28, plot_w, legend);
  XyPlot plot(&svg, kLeft, top, plot_w, kPlotHeight);
  plot.SetXTicks(Nines(50), Nines(99.99),
                 {{Nines(50), "50"},
                  {Nines(90), "90"},
                  {Nines(99), "99"},
                  {Nines(99.9), "99.9"},
                  {Nines(99.99), "99.99"}});
  plot.SetYLog(lo, hi, true);
  plot.DrawAxes(
      "percentile (%, nines scale: 50, 90, 99, 99.9, 99.99)",
      tx ? "transaction latency (log scale)" : "completion latency (log scale)",
      "");
  for (size_t i = 0; i < curves.size(); ++i) {
    std::vector<std::pair<double, double>> pts;
    const std::string attrs = LineAttrs(i);
    for (const auto& [p, us] : curves[i].points) {
      pts.push_back({plot.X(Nines(p)), plot.Y(us)});
    }
    if (pts.size() == 1) pts.push_back({pts[0].first + 1, pts[0].second});
    svg.Polyline(pts, "pct-curve", attrs, curves[i].label);
    char tip[96];
    for (const auto& [p, us] : curves[i].points) {
      std::snprintf(tip, sizeof tip, "p%g: %.1f us", p, us);
      svg.Circle(plot.X(Nines(p)), plot.Y(us), 2.2, "pct-point",
                 "fill=\"" + SeriesColor(i) + "\"",
                 curves[i].label + " " + tip);
    }
  }
  return svg.Finish();
}

}  // namespace tierbench
