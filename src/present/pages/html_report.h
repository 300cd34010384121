// HtmlReport: report.html of a run folder: ONE self-contained page (inline
// CSS and inline SVG; no script, no external fetch, no font or CDN link), so
// it opens offline and prints cleanly (each chart kept on one page, wide
// charts scaled to the page width). Layout: title and run facts; the
// summary (summary.md rendered); failures, if any; the position heat table;
// then per workload its IOPS, latency, time-to-clean, latency-percentile
// and per-second charts with the warnings of its cells listed next to them.
// Notes (set_notes: what the report could not show, one line each) follow
// the summary. Thread-safe (no shared state).
#ifndef TIERBENCH_PRESENT_PAGES_HTML_REPORT_H_
#define TIERBENCH_PRESENT_PAGES_HTML_REPORT_H_

#include <string>
#include <vector>

#include "present/run_folder.h"

namespace tierbench {

// One chart of the report; `workload` is "" for run-wide charts.
struct ChartFile {
  std::string workload;
  std::string kind;     // "iops", "latency", "drain", "position"
  std::string file;     // its name under charts/
  std::string svg;      // the document
  std::string caption;  // one sentence under the chart
};

class HtmlReport {
 public:
  HtmlReport(const RunFolder& run, const std::vector<ChartFile>& charts,
             std::string summary_md);
  std::string Html() const;
  // Lines shown under the summary (what the report could not show).
  void set_notes(std::vector<std::string> notes) { notes_ = std::move(notes); }

 private:
  std::string WorkloadSection(const std::string& workload) const;

  const RunFolder& run_;
  const std::vector<ChartFile>& charts_;
  std::string summary_md_;
  std::vector<std::string> notes_;
};

// The page's inline CSS (shared by the merged report).
const char* ReportCss();
// HTML escaping of text and attribute values (SvgWriter::Escape: &, <, >,
// double and single quotes).
std::string HtmlEscape(const std::string& text);
// The subset of Markdown summary.md uses (headings, block quotes, "- "
// lists, **bold**, paragraphs) as HTML.
std::string MarkdownToHtml(const std::string& md);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_PAGES_HTML_REPORT_H_
