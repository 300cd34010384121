#include "present/pages/report_writer.h"

#include <filesystem>

#include "present/charts/drain_chart.h"
#include "present/charts/iops_chart.h"
#include "present/charts/latency_chart.h"
#include "present/charts/percentile_chart.h"
#include "present/charts/position_table.h"
#include "present/charts/read_hit_chart.h"
#include "present/charts/series_chart.h"
#include "present/charts/wear_chart.h"
#include "present/hit_bound.h"
#include "present/pages/summary_writer.h"
#include "present/report_format.h"
#include "present/series_file.h"
#include "util/errors.h"
#include "util/result_dir.h"

namespace tierbench {
namespace fs = std::filesystem;
// Declared in report_writer.h.
void WriteAtomically(const std::filesystem::path& path,
                     const std::string& content) {
  WriteFileAtomically(path, content,
                      "check free space and permissions, or choose another "
                      "--out");
}

ReportWriter::ReportWriter(const RunFolder& run) : run_(run) {
  std::string series_note;
  series_ = SeriesFile::Read(run.dir(), &series_note);
  const std::optional<SeriesFile>& series = series_;
  if (!series_note.empty()) notes_.push_back(series_note);
  verdict_ = BuildVerdict(run, series_ ? &*series_ : nullptr);
  PositionTable table(run);
  if (table.HasData()) {
    charts_.push_back({"", "position", "position.svg", table.Svg(),
                       "Position of each mode's median IOPS between the raw "
                       "HDD (0) and the raw SSD (1), comparison.csv "
                       "iops_position."});
  }
  for (const std::string& w : run.workloads()) {
    if (run.FiguresOf(w).empty()) continue;  // every cell failed
    const std::string slug = Slug(w);
    IopsChart iops(run, w);
    if (!iops.modes().empty()) {
      charts_.push_back({w, "iops", "iops-" + slug + ".svg", iops.Svg(),
                         "Median IOPS (tps) per mode with min-max whiskers "
                         "over the repetitions; lines: the raw HDD and "
                         "SSD."});
    }
    charts_.push_back({w, "latency", "latency-" + slug + ".svg",
                       LatencyChart(run, w).Svg(),
                       "p50, p99 and p99.9 completion latency per mode "
                       "(transaction latency for tps), log scale."});
    DrainChart drain(run, w);
    if (drain.HasData()) {
      charts_.push_back({w, "drain", "drain-" + slug + ".svg", drain.Svg(),
                         "Time to clean: seconds until the layer had "
                         "written its dirty data back after the run "
                         "(drain_after_s)."});
    }
    WearChart wear(run, w);
    if (wear.HasData()) {
      charts_.push_back({w, "wear", "wear-" + slug + ".svg", wear.Svg(),
                         "SSD wear: bytes written to the cache device per "
                         "byte the application read or wrote (comparison.csv "
                         "ssd_write_per_app_byte_median), what sizes an "
                         "SSD's endurance (TBW); reads count where the layer "
                         "promotes or inserts them."});
    }
    charts_.push_back({w, "percentiles", "percentiles-" + slug + ".svg",
                       PercentileChart(run, w).Svg(),
                       "Latency percentile curves per mode: the histogram "
                       "percentiles p50 to p99.99 of runs.csv (medians over "
                       "the repetitions) on a nines axis, latency on a log "
                       "scale."});
    const std::vector<const ReadHitCurve*> curves = HitBoundCurves(run, w);
    if (!curves.empty()) {
      charts_.push_back({w, "read-hits", "read-hits-" + slug + ".svg",
                         ReadHitChartSvg(w, curves, HitBoundCells(run, w)),
                         "Read hits of each cache cell (median "
                         "read_hit_ratio_pct of runs.csv) at its cache size, "
                         "against the read hit ratio of LRU and of Belady's "
                         "OPT on the trace's reads in the cells' state "
                         "(mrc.csv)."});
    }
    if (series) {
      SeriesChart per_second(*series, w);
      if (per_second.HasData()) {
        charts_.push_back({w, "series", "series-" + slug + ".svg",
                           per_second.Svg(),
                           "Per second (series.csv, first repetition of "
                           "each mode): IOPS, the layer's read hit ratio "
                           "and its dirty data, the drain after the run "
                           "included; shaded: warm-up chunks and drain."});
      }
    }
  }
}

std::string ReportWriter::SummaryMarkdown() const {
  return SummaryWriter(run_, &verdict_).Markdown();
}

std::string ReportWriter::Html() const {
  HtmlReport html(run_, charts_, SummaryMarkdown());
  html.set_notes(notes_);
  return html.Html();
}

void RefuseExistingReport(const ReportFiles& files, bool force) {
  if (force) return;
  for (const std::string& p : {files.html, files.summary}) {
    if (fs::exists(p)) {
      throw SafetyError(p +
                        ": a report exists already. Fix: --force to "
                        "overwrite it, or --out DIR for another folder");
    }
  }
}

ReportFiles ReportWriter::Write(const std::string& out_dir, bool force) const {
  const fs::path out(out_dir);
  ReportFiles files;
  files.html = (out / "report.html").string();
  files.summary = (out / "summary.md").string();
  RefuseExistingReport(files, force);
  std::error_code ec;
  fs::create_directories(out / "charts", ec);
  if (ec) {
    throw SysError("cannot create " + (out / "charts").string() + ". SysErr: " +
                   ec.message() + "; Fix: choose a writable --out");
  }
  for (const ChartFile& c : charts_) {
    const fs::path p = out / "charts" / c.file;
    WriteAtomically(p, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + c.svg);
    files.charts.push_back(p.string());
  }
  // summary.md links the read-hits charts (report.html has them inline).
  std::string links;
  for (const ChartFile& c : charts_) {
    if (c.kind != "read-hits") continue;
    links += "![" + c.workload + ": read hits against LRU and OPT](charts/" +
             c.file + ")\n\n";
  }
  WriteAtomically(
      files.summary,
      SummaryMarkdown() + (links.empty() ? std::string()
                                         : "\n## Read hits against LRU and "
                                           "OPT\n\n" +
                                               links));
  WriteAtomically(files.html, Html());
  files.notes = notes_;
  return files;
}

ReportFiles WriteReport(const std::string& run_dir, const std::string& out_dir,
                        bool force) {
  const RunFolder run = RunFolder::Read(run_dir);
  ReportFiles files =
      ReportWriter(run).Write(out_dir.empty() ? run_dir : out_dir, force);
  files.notes = run.notes();
  return files;
}

}  // namespace tierbench
