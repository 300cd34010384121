#include "present/pages/merged_report.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include "present/charts/chart_frame.h"
#include "present/pages/html_report.h"
#include "present/pages/summary_writer.h"
#include "present/report_format.h"
#include "present/run_differences.h"
#include "util/errors.h"

namespace tierbench {
namespace fs = std::filesystem;
namespace {

const char kMissing[] = "\xe2\x80\x94";  // "—"

const char kMergedCss[] = R"(
table.merged { border-collapse: collapse; font-size: 0.9em; margin: 0.6em 0; }
table.merged th, table.merged td { border: 1px solid #ccc; padding: 2px 8px; }
table.merged td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.merged td.missing { text-align: center; color: #b2182b; }
table.merged td.noise { color: #666; font-style: italic; }
)";

std::string Text(const nlohmann::json& m, const char* key) {
  return m.contains(key) && m[key].is_string() ? m[key].get<std::string>()
                                               : std::string();
}

std::string Kernel(const nlohmann::json& m) {
  if (m.contains("kernel") && m["kernel"].is_object() &&
      m["kernel"].contains("release") && m["kernel"]["release"].is_string()) {
    return m["kernel"]["release"].get<std::string>();
  }
  return "";
}

std::string Repeat(const nlohmann::json& m) {
  if (m.contains("options") && m["options"].is_object() &&
      m["options"].contains("repeat") && m["options"]["repeat"].is_number()) {
    return m["options"]["repeat"].dump();
  }
  return "";
}

std::string Signed(double pct) { return (pct > 0 ? "+" : "") + FormatPct(pct); }

std::string Unit(const MergedRow& row) {
  return row.unit == "tx" ? "tps" : "IOPS";
}

}  // namespace

std::string MergedReport::RowLabel(const MergedRow& row) const {
  return row.mode + (row.series.empty() ? "" : " " + row.series);
}

// "+12% against A (95% CI 8% to 16%)", "within noise of A", or "" when
// either side is absent.
std::string MergedReport::ChangeText(const MergedRow& row, size_t run) const {
  const MergedCell& c = row.runs[run];
  const std::string& first = merged_.names()[0];
  if (!c.vs_first_pct) return "";
  if (c.within_noise().value_or(false)) return "within noise of " + first;
  std::string s = Signed(*c.vs_first_pct) + " against " + first;
  if (c.vs_first_ci) {
    const std::string lo = Signed(c.vs_first_ci->low_pct);
    const std::string hi = Signed(c.vs_first_ci->high_pct);
    if (lo != hi) s += " (95% CI " + lo + " to " + hi + ")";
  }
  return s;
}

std::string MergedReport::WorkloadParagraph(const std::string& workload) const {
  const std::vector<std::string>& names = merged_.names();
  std::string p = "**" + workload + "**:";
  // Rows every later run matches within noise are listed together at the
  // end with the first run's figure; the others get a sentence each.
  std::vector<std::string> alike;
  for (const MergedRow* row : merged_.RowsOf(workload)) {
    bool all_within = row->runs.size() > 1 && row->runs[0].figure != nullptr;
    for (size_t i = 1; i < row->runs.size(); ++i) {
      all_within = all_within && row->runs[i].within_noise().value_or(false);
    }
    if (all_within) {
      alike.push_back(RowLabel(*row) + " " +
                      FormatRate(row->runs[0].figure->iops_median) + " " +
                      Unit(*row));
      continue;
    }
    std::vector<std::string> side;
    for (size_t i = 0; i < row->runs.size(); ++i) {
      const MergedCell& c = row->runs[i];
      side.push_back(names[i] + " " +
                     (c.figure != nullptr
                          ? FormatRate(c.figure->iops_median) + " " +
                                Unit(*row) + " (" +
                                std::to_string(c.figure->n) +
                                (c.figure->n == 1 ? " run)" : " runs)")
                          : std::string(kMissing) + " (" + c.status + ")"));
    }
    std::string s = " " + RowLabel(*row) + ": " + JoinList(side);
    std::vector<std::string> changes;
    for (size_t i = 1; i < row->runs.size(); ++i) {
      const std::string change = ChangeText(*row, i);
      if (!change.empty()) changes.push_back(names[i] + " " + change);
    }
    if (!changes.empty()) s += "; " + JoinList(changes);
    p += s + ".";
  }
  if (!alike.empty()) {
    const bool only = alike.size() == merged_.RowsOf(workload).size();
    p += std::string(only ? " every mode is within" : " Within") +
         " noise of " + names[0] + " in " +
         (names.size() > 2 ? "every later run" : names[1]) + ": " +
         JoinList(alike) + " (medians of " + names[0] + ").";
  }
  return p;
}

std::string MergedReport::NoiseStatement() const {
  const std::vector<std::string>& names = merged_.names();
  int hi = 0;
  bool intervals = false, any_within = false;
  std::vector<std::string> larger;
  for (const MergedRow& row : merged_.rows()) {
    for (size_t i = 0; i < row.runs.size(); ++i) {
      const MergedCell& c = row.runs[i];
      if (c.figure != nullptr) hi = std::max(hi, c.figure->n);
      intervals = intervals || c.vs_first_ci.has_value();
      if (i == 0 || !c.within_noise().has_value()) continue;
      if (*c.within_noise()) {
        any_within = true;
      } else {
        larger.push_back(names[i] + " " + RowLabel(row) + " on " +
                         row.workload);
      }
    }
  }
  if (hi < 2) {
    return "Noise: every cell ran once, so no confidence interval can be "
           "given and no change between the runs can be told apart from "
           "noise; repeat with --repeat of three or more.";
  }
  std::string s = "Noise: ";
  s += intervals ? "each change against " + names[0] +
                       " has the 95% confidence interval of Welch's t on the "
                       "log IOPS of the repetitions of both runs (merged.csv); "
                 : "no group had three runs on both sides, so no confidence "
                   "interval can be given; ";
  if (any_within) {
    s += "a change stated as within noise has an interval that includes 0 "
         "(or, without one, overlapping min-max ranges); ";
  }
  s += larger.empty()
           ? std::string(
                 "no change between the runs is larger "
                 "than the noise.")
           : "these changes are larger than the noise: " + JoinList(larger) +
                 ".";
  return s;
}

std::string MergedReport::SummaryMarkdown() const {
  const std::vector<std::string>& names = merged_.names();
  std::vector<std::string> runs;
  for (size_t i = 0; i < names.size(); ++i) {
    const nlohmann::json& m = merged_.runs()[i]->manifest();
    std::string r = names[i] + " (";
    std::vector<std::string> facts;
    if (!Text(m, "hostname").empty())
      facts.push_back("host " + Text(m, "hostname"));
    if (!Kernel(m).empty()) facts.push_back("Linux " + Kernel(m));
    if (!Text(m, "run_id").empty()) facts.push_back("run " + Text(m, "run_id"));
    const std::string repeat = Repeat(m);
    if (!repeat.empty())
      facts.push_back(repeat +
                      (repeat == "1" ? " repetition" : " repetitions"));
    for (size_t f = 0; f < facts.size(); ++f) r += (f ? ", " : "") + facts[f];
    runs.push_back(r + ")");
  }
  std::vector<std::string> paras;
  paras.push_back("Runs compared: " + JoinList(runs) +
                  ". Each later run is set against " + names[0] +
                  ", the first; IOPS (tps for database workloads) are "
                  "medians over the repetitions.");
  paras.push_back(DifferencesParagraph());
  for (const std::string& w : merged_.workloads()) {
    if (!merged_.RowsOf(w).empty()) paras.push_back(WorkloadParagraph(w));
  }
  const std::vector<std::string> missing = merged_.MissingCells();
  if (!missing.empty()) {
    std::string m = "Missing cells (" + std::string(kMissing) + "):";
    for (const std::string& c : missing) m += "\n- " + c;
    paras.push_back(m);
  }
  paras.push_back(NoiseStatement());
  std::string md = "# tierbench fleet comparison: " + JoinList(names) +
                   "\n\n## Conclusions - text suggested for paper\n\n";
  md += MarkdownQuote(paras);
  md +=
      "\nFigures: merged.csv (results/README.md); changes are of the "
      "median IOPS against the first run. Charts: report.html.\n";
  return md;
}

std::string MergedReport::ChartSvg(const std::string& workload) const {
  const std::vector<const MergedRow*> rows = merged_.RowsOf(workload);
  const std::vector<std::string>& names = merged_.names();
  const std::string unit =
      !rows.empty() && rows[0]->unit == "tx" ? "tps" : "IOPS";
  ChartSpec spec;
  spec.kind = "merged-iops";
  spec.title = workload + ": " + unit + " per mode and run";
  spec.y_title = unit == "tps" ? "tps (transactions/s)" : "IOPS (IOs/s)";
  spec.x_title = "mode (bar: median over repetitions, whisker: min-max)";
  for (const MergedRow* r : rows) spec.x_labels.push_back(RowLabel(*r));
  spec.slot_width = std::max(34.0, 14.0 * names.size() + 14);
  for (size_t i = 0; i < names.size(); ++i) {
    spec.legend.push_back({names[i], "fill=\"" + SeriesColor(i) + "\""});
  }
  double max = 0, min = 0;
  for (const MergedRow* r : rows) {
    for (const MergedCell& c : r->runs) {
      if (c.figure == nullptr) continue;
      max = std::max(max, c.figure->iops_max);
      const double lo = c.figure->iops_min;
      if (lo > 0 && (min == 0 || lo < min)) min = lo;
    }
  }
  ChartFrame frame = MakeBarFrame(spec, min, max);
  frame.DrawAxes();
  SvgWriter& svg = frame.svg();
  const double slot = frame.slot_width();
  const double bar_w = std::min(30.0, (slot - 10) / names.size());
  for (size_t m = 0; m < rows.size(); ++m) {
    const double x0 = frame.X(m) + (slot - bar_w * names.size()) / 2;
    for (size_t i = 0; i < names.size(); ++i) {
      const MergedCell& c = rows[m]->runs[i];
      const double x = x0 + i * bar_w;
      if (c.figure == nullptr) {
        svg.Text(x + bar_w / 2, frame.plot_bottom() - 4, kMissing, "missing",
                 "middle", 0,
                 names[i] + ": " + RowLabel(*rows[m]) + " " + c.status,
                 R"(fill="#b2182b" font-weight="bold")");
        continue;
      }
      const ReportFigure& f = *c.figure;
      const double y = frame.Y(f.iops_median);
      std::string tip = names[i] + " " + RowLabel(*rows[m]) + ": " +
                        FormatRate(f.iops_median) + " " + unit +
                        " (n=" + std::to_string(f.n) + ")";
      const std::string change = ChangeText(*rows[m], i);
      if (!change.empty()) tip += ", " + change;
      svg.Rect(x + 1, y, bar_w - 2, frame.plot_bottom() - y, "bar",
               "fill=\"" + SeriesColor(i) + "\"", tip);
      if (f.n >= 2) {
        const double cx = x + bar_w / 2;
        const double y1 = frame.Y(f.iops_min), y2 = frame.Y(f.iops_max);
        const std::string st = R"(stroke="#222222" stroke-width="1.2")";
        svg.Line(cx, y1, cx, y2, "whisker", st);
        svg.Line(cx - 3, y1, cx + 3, y1, "whisker-cap", st);
        svg.Line(cx - 3, y2, cx + 3, y2, "whisker-cap", st);
      }
    }
  }
  return svg.Finish();
}

std::string MergedReport::WorkloadSection(const std::string& workload) const {
  const std::vector<std::string>& names = merged_.names();
  std::string s = "<section class=\"workload\" id=\"w-" + Slug(workload) +
                  "\">\n<h2>" + HtmlEscape(workload) + "</h2>\n";
  s += "<table class=\"merged\">\n<thead><tr><th>mode</th>";
  for (const std::string& n : names) s += "<th>" + HtmlEscape(n) + "</th>";
  for (size_t i = 1; i < names.size(); ++i) {
    s += "<th>" + HtmlEscape(names[i] + " vs " + names[0]) + "</th>";
  }
  s += "</tr></thead>\n<tbody>\n";
  for (const MergedRow* r : merged_.RowsOf(workload)) {
    s += "<tr><td>" + HtmlEscape(RowLabel(*r)) + "</td>";
    for (const MergedCell& c : r->runs) {
      if (c.figure == nullptr) {
        s += "<td class=\"missing\" title=\"" + HtmlEscape(c.status) + "\">" +
             kMissing + "</td>";
      } else {
        s += "<td class=\"num\">" +
             HtmlEscape(FormatRate(c.figure->iops_median)) + "</td>";
      }
    }
    for (size_t i = 1; i < r->runs.size(); ++i) {
      const MergedCell& c = r->runs[i];
      const std::string change = ChangeText(*r, i);
      const bool noise = c.within_noise().value_or(false);
      if (change.empty()) {
        s += "<td class=\"missing\">" + std::string(kMissing) + "</td>";
      } else {
        const std::string shown =
            noise ? "within noise" : change.substr(0, change.find(" against"));
        std::string ci;
        if (!noise && c.vs_first_ci) {
          ci = " [" + Signed(c.vs_first_ci->low_pct) + ", " +
               Signed(c.vs_first_ci->high_pct) + "]";
        }
        s += std::string("<td class=\"") + (noise ? "noise" : "num") + "\">" +
             HtmlEscape(shown + ci) + "</td>";
      }
    }
    s += "</tr>\n";
  }
  s += "</tbody>\n</table>\n";
  s += "<figure class=\"chart-merged-iops\">\n" + ChartSvg(workload) +
       "<figcaption>Median " +
       HtmlEscape(std::string("IOPS per mode, one bar per run, min-max "
                              "whiskers (charts/merged-iops-") +
                  Slug(workload) + ".svg)") +
       "</figcaption>\n</figure>\n";
  return s + "</section>\n";
}

std::vector<RunDifference> MergedReport::Differences() const {
  std::vector<const nlohmann::json*> manifests;
  for (const RunFolder* run : merged_.runs()) {
    manifests.push_back(&run->manifest());
  }
  return DiffManifests(manifests);
}

std::string MergedReport::DifferencesParagraph() const {
  const std::vector<std::string>& names = merged_.names();
  const std::vector<RunDifference> diffs = Differences();
  if (diffs.empty()) {
    return "The manifests record the same settings for every run (kernel, "
           "options, labels and tool versions): the changes below come from "
           "the machines themselves or from noise.";
  }
  std::vector<std::string> items;
  for (const RunDifference& d : diffs) {
    std::vector<std::string> per_run;
    for (size_t i = 0; i < d.values.size(); ++i) {
      per_run.push_back(names[i] + " " + d.values[i]);
    }
    std::string joined;
    for (size_t i = 0; i < per_run.size(); ++i) {
      joined += (i ? ", " : "") + per_run[i];
    }
    items.push_back(DifferenceLabel(d.key) + " (" + joined + ")");
  }
  return "The runs differ in " + JoinList(items) +
         "; their other recorded settings (kernel, options, labels and tool "
         "versions) are the same.";
}

std::string MergedReport::DifferencesTable() const {
  const std::vector<RunDifference> diffs = Differences();
  if (diffs.empty()) return "";
  std::string h =
      "<table class=\"merged differences\">\n<caption>Settings that differ "
      "(from each manifest)</caption>\n<thead><tr><th>setting</th>";
  for (const std::string& n : merged_.names()) {
    h += "<th>" + HtmlEscape(n) + "</th>";
  }
  h += "</tr></thead>\n<tbody>\n";
  for (const RunDifference& d : diffs) {
    h += "<tr><td>" + HtmlEscape(DifferenceLabel(d.key)) + "</td>";
    for (const std::string& v : d.values) h += "<td>" + HtmlEscape(v) + "</td>";
    h += "</tr>\n";
  }
  return h + "</tbody>\n</table>\n";
}

std::string MergedReport::Html() const {
  const std::vector<std::string>& names = merged_.names();
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>tierbench fleet comparison: " +
      HtmlEscape(JoinList(names)) + "</title>\n<style>" + ReportCss() +
      kMergedCss + "</style>\n</head>\n<body>\n<header>\n<h1>tierbench fleet " +
      "comparison</h1>\n<table class=\"merged runs\">\n<thead><tr><th>run"
      "</th><th>host</th><th>kernel</th><th>run id</th><th>status</th>"
      "<th>folder</th></tr></thead>\n<tbody>\n";
  for (size_t i = 0; i < names.size(); ++i) {
    const RunFolder& run = *merged_.runs()[i];
    const nlohmann::json& m = run.manifest();
    h += "<tr><td>" + HtmlEscape(names[i]) + "</td><td>" +
         HtmlEscape(Text(m, "hostname")) + "</td><td>" + HtmlEscape(Kernel(m)) +
         "</td><td>" + HtmlEscape(Text(m, "run_id")) + "</td><td>" +
         HtmlEscape(Text(m, "status")) + "</td><td>" + HtmlEscape(run.dir()) +
         "</td></tr>\n";
  }
  h += "</tbody>\n</table>\n" + DifferencesTable() +
       "</header>\n<section id=\"summary\">\n" +
       MarkdownToHtml(SummaryMarkdown()) + "</section>\n";
  const std::vector<std::string> missing = merged_.MissingCells();
  if (!missing.empty()) {
    h += "<section id=\"missing\" class=\"failures\">\n<h2>Missing cells "
         "(" +
         std::string(kMissing) + ")</h2>\n<ul>\n";
    for (const std::string& c : missing)
      h += "<li>" + HtmlEscape(c) + "</li>\n";
    h += "</ul>\n</section>\n";
  }
  for (const std::string& w : merged_.workloads()) {
    if (!merged_.RowsOf(w).empty()) h += WorkloadSection(w);
  }
  h += "<footer class=\"meta\"><p>Generated by tierbench report from the "
       "run folders above; figures in merged.csv (columns: "
       "results/README.md).</p></footer>\n</body>\n</html>\n";
  return h;
}

ReportFiles MergedReport::Write(const std::string& out_dir, bool force) const {
  const fs::path out(out_dir);
  ReportFiles files;
  files.html = (out / "report.html").string();
  files.summary = (out / "summary.md").string();
  files.merged_csv = (out / "merged.csv").string();
  if (!force) {
    for (const std::string& p : {files.html, files.summary, files.merged_csv}) {
      if (fs::exists(p)) {
        throw SafetyError(p +
                          ": a report exists already. Fix: --force to "
                          "overwrite it, or --out DIR for another folder");
      }
    }
  }
  std::error_code ec;
  fs::create_directories(out / "charts", ec);
  if (ec) {
    throw SysError("cannot create " + (out / "charts").string() + ". SysErr: " +
                   ec.message() + "; Fix: choose a writable --out");
  }
  for (const std::string& w : merged_.workloads()) {
    if (merged_.RowsOf(w).empty()) continue;
    const fs::path p = out / "charts" / ("merged-iops-" + Slug(w) + ".svg");
    WriteAtomically(
        p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + ChartSvg(w));
    files.charts.push_back(p.string());
  }
  WriteAtomically(files.merged_csv, merged_.Csv());
  WriteAtomically(files.summary, SummaryMarkdown());
  WriteAtomically(files.html, Html());
  return files;
}

ReportFiles WriteMergedReport(const std::vector<std::string>& run_dirs,
                              const std::string& out_dir, bool force) {
  if (out_dir.empty()) {
    throw ConfigError(
        "report: " + std::to_string(run_dirs.size()) +
        " run folders are merged into one fleet report, which needs a folder "
        "of its own. Fix: add --out DIR (e.g. --out fleet)");
  }
  std::vector<std::unique_ptr<RunFolder>> folders;
  std::vector<const RunFolder*> runs;
  ReportFiles files;
  for (const std::string& dir : run_dirs) {
    folders.push_back(std::make_unique<RunFolder>(RunFolder::Read(dir)));
    runs.push_back(folders.back().get());
    for (const std::string& n : folders.back()->notes())
      files.notes.push_back(n);
  }
  const MergedRuns merged(runs);
  ReportFiles written = MergedReport(merged).Write(out_dir, force);
  written.notes = files.notes;
  return written;
}

}  // namespace tierbench
