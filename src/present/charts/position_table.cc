#include "present/charts/position_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "present/charts/svg_writer.h"
#include "present/report_format.h"

namespace tierbench {
namespace {

constexpr double kCellW = 58, kCellH = 24;

struct Rgb {
  double r, g, b;
};

}  // namespace

std::string PositionColor(double position) {
  // ColorBrewer RdYlGn end and middle points.
  const Rgb lo{215, 48, 39}, mid{255, 255, 191}, hi{26, 152, 80};
  const double t = std::clamp(position, 0.0, 1.0);
  const Rgb& a = t < 0.5 ? lo : mid;
  const Rgb& b = t < 0.5 ? mid : hi;
  const double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x",
                static_cast<int>(std::lround(a.r + (b.r - a.r) * u)),
                static_cast<int>(std::lround(a.g + (b.g - a.g) * u)),
                static_cast<int>(std::lround(a.b + (b.b - a.b) * u)));
  return buf;
}

PositionTable::PositionTable(const RunFolder& run) : run_(run) {
  for (const std::string& w : run.workloads()) {
    const std::vector<std::string> series = run.SeriesOf(w);
    const std::vector<std::string> labels = run.SeriesLabels(w);
    for (size_t i = 0; i < series.size(); ++i) {
      columns_.push_back(
          {w, series[i], series.size() > 1 ? w + " " + labels[i] : w});
    }
  }
  for (const std::string& m : run.modes()) {
    if (run.LayerOf(m) != "raw") rows_.push_back(m);
  }
}

std::string PositionTable::Svg() const {
  size_t row_chars = 4, col_chars = 4;
  for (const std::string& r : rows_) {
    row_chars = std::max(row_chars, Abbreviate(r, kMaxLabel).size());
  }
  for (const Column& c : columns_) {
    col_chars = std::max(col_chars, Abbreviate(c.label, kMaxLabel).size());
  }
  const double left = 12 + row_chars * kCharPx;
  const double top = 34 + col_chars * kCharPx * 0.643 + 10;
  // The last column label runs up and to the right of its cell; the title
  // needs about 440 px.
  const double width =
      std::max(460.0, left + columns_.size() * kCellW + kCellW / 2 +
                          col_chars * kCharPx * 0.766 + 12);
  const double height = top + rows_.size() * kCellH + 40;
  SvgWriter svg(width, height, "position",
                "IOPS position between HDD (0) and SSD (1), modes x workloads");
  svg.Text(8, 17, "IOPS position between the raw HDD (0) and the raw SSD (1)",
           "chart-title", "start", 0, "",
           R"(font-size="13" font-weight="bold")");
  for (size_t c = 0; c < columns_.size(); ++c) {
    const std::string shown = Abbreviate(columns_[c].label, kMaxLabel);
    const double x = left + c * kCellW + kCellW / 2;
    svg.Text(x, top - 6, shown, "col-label", "start", -40,
             shown == columns_[c].label ? "" : columns_[c].label);
  }
  bool any_drift = false;
  for (size_t r = 0; r < rows_.size(); ++r) {
    const double y = top + r * kCellH;
    const std::string shown = Abbreviate(rows_[r], kMaxLabel);
    svg.Text(left - 6, y + kCellH / 2 + 4, shown, "row-label", "end", 0,
             shown == rows_[r] ? "" : rows_[r]);
    for (size_t c = 0; c < columns_.size(); ++c) {
      const double x = left + c * kCellW;
      const ReportFigure* f = nullptr;
      for (const ReportFigure* g : run_.FiguresOf(columns_[c].workload)) {
        if (g->mode == rows_[r] &&
            g->job + "/" + g->direction == columns_[c].series)
          f = g;
      }
      const std::string who = rows_[r] + " on " + columns_[c].label;
      // A cache mode whose rate drifted within the run is not ranked
      // either (present/verdict.h): hatched like an invalid cell.
      const bool drift =
          f != nullptr && !f->Invalid() && !f->is_raw() && f->Drifted();
      if (f != nullptr && (f->Invalid() || drift)) {
        // Invalid: hatched grey with the reason on hover, never coloured.
        std::string why = who + ": invalid, not ranked: " + f->invalid_reasons;
        if (drift) {
          any_drift = true;
          why = who + ": not steady, not ranked:";
          for (const std::string& w : f->DriftWarnings()) why += " " + w;
        }
        svg.Rect(x + 1, y + 1, kCellW - 2, kCellH - 2, "heat-cell heat-invalid",
                 R"(fill="#dddddd")", why);
        for (double d = 0; d < kCellW + kCellH; d += 8) {
          const double x1 = x + 1 + std::max(0.0, d - (kCellH - 2));
          const double y1 = y + kCellH - 1 - std::min(d, kCellH - 2);
          const double x2 = x + 1 + std::min(d, kCellW - 2);
          const double y2 = y + kCellH - 1 - std::max(0.0, d - (kCellW - 2));
          svg.Line(x1, y1, x2, y2, "heat-hatch",
                   R"(stroke="#999999" stroke-width="1")");
        }
        svg.Text(x + kCellW / 2, y + kCellH / 2 + 4,
                 drift ? "not steady" : "invalid", "heat-value", "middle", 0,
                 "", R"(fill="#333333")");
        continue;
      }
      if (f == nullptr || !f->iops_position) {
        svg.Rect(x + 1, y + 1, kCellW - 2, kCellH - 2, "heat-cell heat-empty",
                 R"(fill="#eeeeee")",
                 who +
                     ": no position (no baseline or "
                     "failed)");
        svg.Text(x + kCellW / 2, y + kCellH / 2 + 4, "n/a", "heat-value",
                 "middle", 0, "", R"(fill="#777777")");
        continue;
      }
      const double p = *f->iops_position;
      std::string tip = who + ": position " + GroupedNumber(p, 2);
      if (f->within_noise_vs_hdd().value_or(false))
        tip += " (within noise of the HDD)";
      if (f->within_noise_vs_ssd().value_or(false))
        tip += " (within noise of the SSD)";
      svg.Rect(x + 1, y + 1, kCellW - 2, kCellH - 2, "heat-cell",
               "fill=\"" + PositionColor(p) + "\"", tip);
      const bool dark = p > 0.85 || p < 0.1;
      svg.Text(x + kCellW / 2, y + kCellH / 2 + 4, GroupedNumber(p, 2),
               "heat-value", "middle", 0, "",
               dark ? R"(fill="#ffffff")" : R"(fill="#111111")");
    }
  }
  svg.Text(8, height - 10,
           std::string("Below 0: slower than the HDD; above 1: faster than "
                       "the SSD. Hatched: invalid") +
               (any_drift ? " or not steady" : "") +
               ", not ranked. Hover a cell for details.",
           "note", "start", 0, "", R"(fill="#555555")");
  return svg.Finish();
}

}  // namespace tierbench
