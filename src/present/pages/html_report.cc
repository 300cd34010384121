#include "present/pages/html_report.h"

#include <algorithm>
#include <sstream>

#include "present/charts/iops_chart.h"
#include "present/charts/svg_writer.h"
#include "present/report_format.h"

namespace tierbench {
namespace {

const char kCss[] = R"(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111;
  margin: 24px auto; max-width: 1320px; padding: 0 16px; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; padding-bottom: 2px;
  margin-top: 1.6em; }
.meta { color: #444; font-size: 0.92em; }
blockquote { margin: 0.6em 0; padding: 0.2em 1em; border-left: 4px solid #9ecae1;
  background: #f7fbff; }
.charts figure { display: inline-block; vertical-align: top;
  margin: 0 18px 18px 0; }
figure { margin: 0; overflow-x: auto; max-width: 100%; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.85em; color: #444; width: 0; min-width: 100%; }
.warnings { background: #fff7ec; border: 1px solid #fdd49e; padding: 0.4em 1em;
  font-size: 0.9em; }
.warnings h3, .failures h3 { margin: 0.3em 0; font-size: 1em; }
.failures { background: #fde0dd; border: 1px solid #f768a1; padding: 0.4em 1em; }
.failed-mark { color: #b2182b; font-weight: bold; }
.note { color: #444; font-style: italic; }
@media print {
  body { margin: 0; max-width: none; }
  section, figure { break-inside: avoid; page-break-inside: avoid; }
  figure { overflow: visible; }
  .charts figure { display: block; margin: 0 0 12px 0; }
  a { color: inherit; text-decoration: none; }
}
)";

std::string Inline(const std::string& md) {
  // **bold** only; the text is escaped first.
  std::string s = HtmlEscape(md), out;
  bool open = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "**") == 0) {
      out += open ? "</strong>" : "<strong>";
      open = !open;
      ++i;
    } else {
      out += s[i];
    }
  }
  if (open) out += "</strong>";
  return out;
}

}  // namespace

const char* ReportCss() { return kCss; }

std::string HtmlEscape(const std::string& text) {
  return SvgWriter::Escape(text);
}

std::string MarkdownToHtml(const std::string& md) {
  std::istringstream in(md);
  std::string line, out, para;
  bool quote = false, list = false;
  auto flush = [&] {
    if (!para.empty()) out += "<p>" + Inline(para) + "</p>\n";
    para.clear();
    if (list) out += "</ul>\n";
    list = false;
  };
  while (std::getline(in, line)) {
    const bool q = line.rfind(">", 0) == 0;
    if (q) line = line.substr(line.size() > 1 && line[1] == ' ' ? 2 : 1);
    if (q != quote) {
      flush();
      out += q ? "<blockquote>\n" : "</blockquote>\n";
      quote = q;
    }
    if (line.empty()) {
      flush();
    } else if (line.rfind("## ", 0) == 0) {
      flush();
      out += "<h2>" + Inline(line.substr(3)) + "</h2>\n";
    } else if (line.rfind("# ", 0) == 0) {
      flush();  // the page has its own h1
    } else if (line.rfind("- ", 0) == 0) {
      if (!para.empty()) out += "<p>" + Inline(para) + "</p>\n";
      para.clear();
      if (!list) out += "<ul>\n";
      list = true;
      out += "<li>" + Inline(line.substr(2)) + "</li>\n";
    } else {
      if (list) {
        out += "</ul>\n";
        list = false;
      }
      para += (para.empty() ? "" : " ") + line;
    }
  }
  flush();
  if (quote) out += "</blockquote>\n";
  return out;
}

HtmlReport::HtmlReport(const RunFolder& run,
                       const std::vector<ChartFile>& charts,
                       std::string summary_md)
    : run_(run), charts_(charts), summary_md_(std::move(summary_md)) {}

std::string HtmlReport::WorkloadSection(const std::string& workload) const {
  std::string s = "<section class=\"workload\" id=\"w-" + Slug(workload) +
                  "\">\n<h2>" + HtmlEscape(workload) + "</h2>\n";
  std::string figures;
  for (const ChartFile& c : charts_) {
    if (c.workload != workload) continue;
    figures += "<figure class=\"chart-" + c.kind + "\">\n" + c.svg +
               "<figcaption>" + HtmlEscape(c.caption) + " (<a href=\"charts/" +
               HtmlEscape(c.file) + "\">" + HtmlEscape(c.file) +
               "</a>)</figcaption>\n</figure>\n";
  }
  if (!figures.empty()) s += "<div class=\"charts\">\n" + figures + "</div>\n";
  // The warnings of this workload's cells, next to its charts.
  std::vector<std::pair<std::string, std::string>> warnings;
  for (const ReportFigure* f : run_.FiguresOf(workload)) {
    for (const std::string& w : f->warnings) {
      auto item = std::make_pair(f->mode, w);
      if (std::find(warnings.begin(), warnings.end(), item) == warnings.end())
        warnings.push_back(item);
    }
  }
  if (!warnings.empty()) {
    s += "<aside class=\"warnings\"><h3>Warnings of these cells (marked ! on "
         "the bars)</h3>\n<ul>\n";
    for (const auto& [mode, w] : warnings) {
      s += "<li><strong>" + HtmlEscape(mode) + "</strong>: " + HtmlEscape(w) +
           "</li>\n";
    }
    s += "</ul></aside>\n";
  }
  std::string failed;
  for (const FailedCell& c : run_.failures()) {
    if (c.workload != workload) continue;
    failed += "<li><span class=\"failed-mark\">FAILED</span> <strong>" +
              HtmlEscape(c.mode) + "</strong> repetition " +
              HtmlEscape(c.repetition) + ": " + HtmlEscape(c.error) + "</li>\n";
  }
  if (!failed.empty()) {
    s += "<aside class=\"failures\"><h3>Failed cells</h3>\n<ul>\n" + failed +
         "</ul></aside>\n";
  }
  return s + "</section>\n";
}

std::string HtmlReport::Html() const {
  const nlohmann::json& m = run_.manifest();
  auto text = [&m](const char* key) {
    return m.contains(key) && m[key].is_string()
               ? HtmlEscape(m[key].get<std::string>())
               : std::string();
  };
  std::string kernel;
  if (m.contains("kernel") && m["kernel"].is_object() &&
      m["kernel"].contains("release") && m["kernel"]["release"].is_string()) {
    kernel = HtmlEscape(m["kernel"]["release"].get<std::string>());
  }
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>tierbench report: " +
      text("run_id") + "</title>\n<style>" + kCss +
      "</style>\n</head>\n<body>\n<header>\n<h1>tierbench report: " +
      text("run_id") + "</h1>\n<p class=\"meta\">host " + text("hostname") +
      " &middot; Linux " + kernel + " &middot; " + text("start_time") + " to " +
      text("end_time") + " &middot; status: " + text("status") +
      " &middot; tierbench " + text("version") + "</p>\n</header>\n";
  h += "<section id=\"summary\">\n" + MarkdownToHtml(summary_md_) +
       "</section>\n";
  for (const std::string& note : notes_) {
    h += "<p class=\"note\">" + HtmlEscape(note) + "</p>\n";
  }
  if (!run_.failures().empty()) {
    h += "<section id=\"failures\" class=\"failures\">\n<h2>Failed "
         "cells</h2>\n<ul>\n";
    for (const FailedCell& c : run_.failures()) {
      h += "<li><span class=\"failed-mark\">FAILED</span> " +
           HtmlEscape(c.mode) + " on " + HtmlEscape(c.workload) +
           ", repetition " + HtmlEscape(c.repetition) + ": " +
           HtmlEscape(c.error) + "</li>\n";
    }
    h += "</ul>\n</section>\n";
  }
  for (const ChartFile& c : charts_) {
    if (!c.workload.empty()) continue;
    h += "<section id=\"overview-" + c.kind + "\">\n<h2>All workloads</h2>\n" +
         "<figure class=\"chart-" + c.kind + "\">\n" + c.svg + "<figcaption>" +
         HtmlEscape(c.caption) + " (<a href=\"charts/" + HtmlEscape(c.file) +
         "\">" + HtmlEscape(c.file) +
         "</a>)</figcaption>\n</figure>\n</section>\n";
  }
  for (const std::string& w : run_.workloads()) h += WorkloadSection(w);
  h += "<footer class=\"meta\"><p>Generated by tierbench report from "
       "runs.csv, comparison.csv and manifest.json of this run folder. "
       "Column meanings: results/README.md.</p></footer>\n</body>\n</html>\n";
  return h;
}

}  // namespace tierbench
