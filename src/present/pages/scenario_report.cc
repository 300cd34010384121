#include "present/pages/scenario_report.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "present/pages/html_report.h"
#include "util/csv_reader.h"
#include "util/errors.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

struct ScenarioColumn {
  const char* name;
  const char* label;
};

// The files a scenario writes, the schema this page reads and the columns
// of its table.
struct ScenarioFile {
  const char* file;
  const char* title;
  int schema;
  std::vector<ScenarioColumn> columns;
};

const std::vector<ScenarioFile>& Files() {
  static const std::vector<ScenarioFile> files = {
      {"fault.csv",
       "When the SSD fails (fault.csv)",
       1,
       {{"layer", "layer"},
        {"fault", "fault"},
        {"dirty_at_fault", "dirty"},
        {"blocks", "blocks"},
        {"writer_errors", "writer: failed"},
        {"writer_blocks", "of"},
        {"device_after", "device after"},
        {"stack_intact", "intact"},
        {"stack_stale", "stale"},
        {"stack_lost", "read errors"},
        {"stack_corrupt", "corrupt"},
        {"silent_corruption", "silent"},
        {"recovery", "recovery path"},
        {"recovered_stale", "stale after it"},
        {"recovered_lost", "errors after it"},
        {"usable_again_ms", "usable again (ms)"},
        {"origin_stale", "origin: stale"},
        {"result", "result"}}},
      {"fill.csv",
       "The writeback cliff (fill.csv)",
       1,
       {{"layer", "layer"},
        {"cache_bytes", "cache (B)"},
        {"limit", "dirty limit"},
        {"rate_iops", "rate (IOPS)"},
        {"cliff", "cliff"},
        {"time_to_cliff_s", "cliff at (s)"},
        {"predicted_time_to_cliff_s", "predicted (s)"},
        {"iops_before", "IOPS before"},
        {"iops_at_cliff", "at"},
        {"iops_after", "after"},
        {"p99_before_us", "p99 before (us)"},
        {"p99_at_cliff_us", "p99 at (us)"},
        {"time_to_recover_s", "recovered after (s)"}}},
      {"power-cut.csv",
       "Power cut (power-cut.csv)",
       1,
       {{"layer", "layer"},
        {"dirty_at_cut", "dirty at the cut"},
        {"blocks_written", "blocks written"},
        {"blocks_origin_lacked", "only in the cache"},
        {"recovery_ms", "recovery (ms)"},
        {"blocks_checked", "checked"},
        {"mismatches", "mismatches"},
        {"result", "result"}}},
  };
  return files;
}

std::string ReadText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The file's rows, checked: its schema_version and every column the page
// reads. ConfigError naming the file otherwise.
CsvDocument Load(const std::string& run_dir, const ScenarioFile& f) {
  const fs::path path = fs::path(run_dir) / f.file;
  CsvDocument doc = CsvDocument::Parse(ReadText(path), path.string());
  std::vector<std::string> needed = {"schema_version"};
  for (const ScenarioColumn& c : f.columns) needed.push_back(c.name);
  doc.Require(needed, "write it again with this tierbench's lab");
  for (size_t r = 0; r < doc.row_count(); ++r) {
    if (doc.Get(r, "schema_version") != std::to_string(f.schema)) {
      throw ConfigError(path.string() + ": schema_version " +
                        doc.Get(r, "schema_version") + ", this report reads " +
                        std::to_string(f.schema) +
                        ". Fix: run the scenario again with this tierbench");
    }
  }
  return doc;
}

std::string Get(const CsvDocument& d, size_t r, const std::string& c) {
  const std::string& v = d.Get(r, c);
  return v.empty() ? "unknown" : v;
}

std::vector<std::string> FaultVerdict(const CsvDocument& d) {
  std::vector<std::string> out;
  std::string silent, layers;
  bool all_errors = true, all_intact = true;
  for (size_t r = 0; r < d.row_count(); ++r) {
    const std::string layer = d.Get(r, "layer");
    layers += (layers.empty() ? "" : ", ") + layer;
    if (d.Get(r, "result") == "silent") {
      silent += (silent.empty() ? "" : ", ") + layer;
    }
    all_errors = all_errors && d.Get(r, "result") == "errors";
    all_intact = all_intact && d.Get(r, "result") == "intact";
  }
  const std::string fault = d.row_count() ? d.Get(0, "fault") : "";
  if (!silent.empty()) {
    out.push_back("After " + fault + ", " + silent +
                  " returned blocks without an error that were not their "
                  "last acknowledged version: silent corruption.");
  } else if (all_errors && d.row_count() > 0) {
    out.push_back("No layer corrupted data silently after " + fault +
                  ": every block a stack could not serve came back as a read "
                  "error (" +
                  layers + ").");
  } else if (all_intact && d.row_count() > 0) {
    out.push_back("The " + fault +
                  " stayed hidden: every dirty block read back as "
                  "acknowledged through the stack (" +
                  layers + ").");
  }
  for (size_t r = 0; r < d.row_count(); ++r) {
    out.push_back(d.Get(r, "layer") + " (" + Get(d, r, "dirty_at_fault") +
                  " dirty): through the stack " + Get(d, r, "stack_intact") +
                  " intact, " + Get(d, r, "stack_stale") + " stale, " +
                  Get(d, r, "stack_lost") + " read errors, " +
                  Get(d, r, "stack_corrupt") + " corrupt of " +
                  Get(d, r, "blocks") + " (device " +
                  Get(d, r, "device_after") + "); after " +
                  Get(d, r, "recovery") + ": " + Get(d, r, "recovered_stale") +
                  " stale, served without an error; the bare origin: " +
                  Get(d, r, "origin_stale") + " stale.");
  }
  return out;
}

std::vector<std::string> FillVerdict(const CsvDocument& d) {
  std::vector<std::string> out;
  if (d.row_count() > 0) {
    out.push_back("The writeback cliff: 4k random writes at " +
                  Get(d, 0, "rate_iops") +
                  " IOPS into each layer in writeback, past its dirty limit.");
  }
  for (size_t r = 0; r < d.row_count(); ++r) {
    const std::string layer = d.Get(r, "layer");
    if (d.Get(r, "cliff") != "1") {
      out.push_back(layer + ": no cliff (dirty limit: " + Get(d, r, "limit") +
                    ").");
      continue;
    }
    out.push_back(layer + ": the writes fell from " + Get(d, r, "iops_before") +
                  " to " + Get(d, r, "iops_after") + " IOPS at " +
                  Get(d, r, "time_to_cliff_s") + " s (predicted " +
                  Get(d, r, "predicted_time_to_cliff_s") + " s by the limit, " +
                  Get(d, r, "limit") + "); p99 " + Get(d, r, "p99_before_us") +
                  " us before, " + Get(d, r, "p99_at_cliff_us") +
                  " us at the cliff.");
  }
  return out;
}

std::vector<std::string> PowerCutVerdictLines(const CsvDocument& d) {
  std::vector<std::string> out;
  for (size_t r = 0; r < d.row_count(); ++r) {
    out.push_back(d.Get(r, "layer") + ": " + Get(d, r, "blocks_checked") +
                  " of " + Get(d, r, "blocks_written") +
                  " acknowledged blocks read back after the power cut, " +
                  Get(d, r, "mismatches") +
                  " mismatches: " + Get(d, r, "result") + ".");
  }
  return out;
}

std::vector<std::string> VerdictOf(const ScenarioFile& f,
                                   const CsvDocument& d) {
  const std::string name = f.file;
  if (name == "fault.csv") return FaultVerdict(d);
  if (name == "fill.csv") return FillVerdict(d);
  return PowerCutVerdictLines(d);
}

std::string HtmlTable(const ScenarioFile& f, const CsvDocument& d) {
  std::string h = "<table>\n<tr>";
  for (const ScenarioColumn& c : f.columns)
    h += "<th>" + HtmlEscape(c.label) + "</th>";
  h += "</tr>\n";
  for (size_t r = 0; r < d.row_count(); ++r) {
    h += "<tr>";
    for (const ScenarioColumn& c : f.columns) {
      h += "<td>" + HtmlEscape(d.Get(r, c.name)) + "</td>";
    }
    h += "</tr>\n";
  }
  return h + "</table>\n";
}

std::string MarkdownTable(const ScenarioFile& f, const CsvDocument& d) {
  std::string m = "|";
  std::string rule = "|";
  for (const ScenarioColumn& c : f.columns) {
    m += " " + std::string(c.label) + " |";
    rule += "---|";
  }
  m += "\n" + rule + "\n";
  for (size_t r = 0; r < d.row_count(); ++r) {
    m += "|";
    for (const ScenarioColumn& c : f.columns)
      m += " " + d.Get(r, c.name) + " |";
    m += "\n";
  }
  return m;
}

}  // namespace

bool IsScenarioFolder(const std::string& run_dir) {
  std::error_code ec;
  if (fs::exists(fs::path(run_dir) / "runs.csv", ec)) return false;
  for (const ScenarioFile& f : Files()) {
    if (fs::exists(fs::path(run_dir) / f.file, ec)) return true;
  }
  return false;
}

std::vector<std::string> ScenarioVerdict(const std::string& run_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const ScenarioFile& f : Files()) {
    if (!fs::exists(fs::path(run_dir) / f.file, ec)) continue;
    for (std::string& line : VerdictOf(f, Load(run_dir, f))) {
      out.push_back(std::move(line));
    }
  }
  return out;
}

ReportFiles WriteScenarioReport(const std::string& run_dir,
                                const std::string& out_dir, bool force) {
  const fs::path out(out_dir.empty() ? run_dir : out_dir);
  const std::string run_id = fs::path(run_dir).filename().string();
  ReportFiles files;
  files.html = (out / "report.html").string();
  files.summary = (out / "summary.md").string();
  RefuseExistingReport(files, force);
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
      "<title>tierbench " +
      HtmlEscape(run_id) + "</title>\n<style>" + ReportCss() +
      "</style></head><body>\n<h1>tierbench lab: " + HtmlEscape(run_id) +
      "</h1>\n";
  std::string md = "# tierbench lab: " + run_id + "\n\n";
  std::string verdict_html, tables_html, tables_md;
  std::error_code ec;
  for (const ScenarioFile& f : Files()) {
    const fs::path path = fs::path(run_dir) / f.file;
    if (!fs::exists(path, ec)) continue;
    const CsvDocument doc = Load(run_dir, f);
    for (const std::string& line : VerdictOf(f, doc)) {
      verdict_html += "<li>" + HtmlEscape(line) + "</li>\n";
      md += "- " + line + "\n";
    }
    tables_html += "<h2>" + HtmlEscape(f.title) + "</h2>\n" + HtmlTable(f, doc);
    tables_md +=
        "\n## " + std::string(f.title) + "\n\n" + MarkdownTable(f, doc);
    if (std::string(f.file) == "fill.csv") {
      const fs::path chart = fs::path(run_dir) / "charts" / "fill.svg";
      if (fs::exists(chart, ec)) {
        tables_html +=
            "<figure>" + ReadText(chart) +
            "<figcaption>Per second (fill-series.csv): write IOPS and the "
            "layer's dirty data, during the writes and the watch after "
            "them (shaded).</figcaption></figure>\n";
        files.charts.push_back(chart.string());
      }
    }
  }
  html += "<section class=\"verdict\"><h2>Verdict</h2><ul>\n" + verdict_html +
          "</ul></section>\n" + tables_html + "</body></html>\n";
  md += tables_md;
  fs::create_directories(out, ec);
  WriteAtomically(files.summary, md);
  WriteAtomically(files.html, html);
  return files;
}

}  // namespace tierbench
