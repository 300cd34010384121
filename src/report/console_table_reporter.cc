#include "report/console_table_reporter.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "present/run_folder.h"
#include "present/series_file.h"
#include "present/verdict.h"
#include "record/cell_record.h"
#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "util/log.h"
#include "util/units.h"

namespace tierbench {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string Pct(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.0f%%", *v);
  return buf;
}

// The change, or "within noise" where the interval (else the min-max
// ranges) cannot tell it from the repetitions' noise.
std::string Change(const std::optional<double>& pct,
                   std::optional<bool> significant, std::optional<bool> overlap,
                   bool is_base) {
  if (pct && !is_base &&
      DifferenceWithinNoise(significant, overlap).value_or(false)) {
    return "within noise";
  }
  return Pct(pct);
}

// One line on what "within noise" rests on, from the fewest repetitions.
std::string NoiseLine(const std::vector<ComparisonRow>& rows) {
  int lo = 0, hi = 0;
  for (const ComparisonRow& r : rows) {
    lo = lo == 0 ? r.iops.n : std::min(lo, r.iops.n);
    hi = std::max(hi, r.iops.n);
  }
  if (hi <= 1) {
    return "One repetition: the table's columns have no interval across "
           "runs; the verdict's come from the per-second rates within the "
           "run (--repeat 3 or more gives intervals across runs).";
  }
  if (lo < static_cast<int>(kMinRepetitionsForInterval)) {
    return "Fewer than 3 repetitions in some groups: no confidence interval "
           "there; \"within noise\" means the min-max IOPS ranges overlap "
           "(--repeat 3 or more gives intervals).";
  }
  return "vs HDD / vs SSD: change of the median IOPS; \"within noise\" where "
         "its 95% confidence interval (Welch's t on log IOPS, "
         "comparison.csv) includes 0.";
}

std::string Latency(double us) {
  if (us >= 1000) return Fixed(us / 1000, 2) + "ms";
  return Fixed(us, 0) + "us";
}

// "cell 3/12 writeback/randwrite-4k #1: randwrite write 5123 IOPS p99
// 800us (sustained 1600) time to clean 52.0s" plus the warnings, as one
// notice per cell.
std::string CellLine(size_t index, size_t total, const CellRecord& rec,
                     bool flushed) {
  std::string line =
      "cell " + std::to_string(index + 1) + "/" + std::to_string(total) + " " +
      (rec.mode->is_raw() ? "" : rec.mode->layer + ":") + rec.mode->name + "/" +
      rec.workload->name + " #" + std::to_string(rec.cell.repetition) + ":";
  if (!rec.error.empty()) return line + " FAILED";
  bool first = true;
  for (const MeasuredRow& r : MeasuredRowsOf(rec)) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s %s %s %.0f %s p99 %.0fus",
                  first ? "" : ";", r.job.c_str(), r.direction.c_str(), r.iops,
                  r.unit == "tx" ? "tps" : "IOPS", r.lat_p99_us);
    line += buf;
    if (r.iops_sustained && *r.iops_sustained != r.iops) {
      std::snprintf(buf, sizeof buf, " (sustained %.0f)", *r.iops_sustained);
      line += buf;
    }
    first = false;
  }
  if (rec.drain_after_s > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " time to clean %.1fs%s", rec.drain_after_s,
                  flushed ? " (flushed)" : "");
    line += buf;
  }
  return line;
}

}  // namespace

void PrintComparisonTable(const std::vector<ComparisonRow>& rows,
                          std::ostream& out) {
  std::vector<std::vector<std::string>> cells = {
      {"layer", "mode", "workload", "job/dir", "IOPS", "MiB/s", "p99", "vs HDD",
       "vs SSD", "warnings"}};
  std::vector<std::string> notes;
  // Rows grouped by layer (raw baselines first), in first-seen order within.
  std::vector<std::string> layers = {"raw"};
  for (const ComparisonRow& r : rows) {
    if (std::find(layers.begin(), layers.end(), r.layer) == layers.end()) {
      layers.push_back(r.layer);
    }
  }
  std::vector<const ComparisonRow*> ordered;
  for (const std::string& layer : layers) {
    for (const ComparisonRow& r : rows) {
      if (r.layer == layer) ordered.push_back(&r);
    }
  }
  std::string last_layer;
  for (const ComparisonRow* row : ordered) {
    const ComparisonRow& r = *row;
    std::string refs;
    for (const std::string& w : FindingTexts(r.findings)) {
      auto it = std::find(notes.begin(), notes.end(), w);
      if (it == notes.end()) it = notes.insert(notes.end(), w);
      refs += "[" + std::to_string(it - notes.begin() + 1) + "]";
    }
    const bool tx = r.unit == "tx";
    cells.push_back({r.layer == last_layer ? "" : r.layer, r.mode, r.workload,
                     r.job + "/" + r.direction,
                     Fixed(r.iops.median, 0) + (tx ? " tps" : ""),
                     tx ? "-" : Fixed(r.bw_mib_s_median, 1),
                     Latency(r.p99.median),
                     Change(r.vs_hdd.iops_pct, r.vs_hdd.significant,
                            r.vs_hdd.noise, r.vs_hdd.is_base),
                     Change(r.vs_ssd.iops_pct, r.vs_ssd.significant,
                            r.vs_ssd.noise, r.vs_ssd.is_base),
                     refs});
    last_layer = r.layer;
  }
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : cells) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      const bool numeric = i >= 4 && i <= 8;
      const std::string pad(width[i] - row[i].size(), ' ');
      line += numeric ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : "");
      if (i + 1 < row.size()) line += "  ";
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  if (!rows.empty()) out << NoiseLine(rows) << "\n";
  for (size_t i = 0; i < notes.size(); ++i) {
    out << "[" << i + 1 << "] " << notes[i] << "\n";
  }
}

void ConsoleTableReporter::OnCompareStart(const CompareStart& start) {
  run_dir_ = start.setup.run_dir;
  planned_cells_ = start.planned_cells;
  drain_after_flush_ = start.options.drain_after_flush;
}

void ConsoleTableReporter::OnCell(const CellRecord& rec) {
  LogNotice(CellLine(cells_seen_++, planned_cells_, rec, drain_after_flush_));
  for (const std::string& w : rec.Warnings()) {
    LogWarning(rec.mode->name + "/" + rec.workload->name + ": " + w);
  }
}

void ConsoleTableReporter::OnVerifyStart(const VerifyStart& start) {
  std::string steps;
  for (const std::string& s : start.steps) {
    steps += (steps.empty() ? "" : ", ") + s;
  }
  LogNotice("verify " + start.device + " (" + start.layer +
            "): " + FormatBytes(start.bytes) + " in " +
            std::to_string(start.blocks) + " blocks; steps " + steps);
}

void ConsoleTableReporter::OnVerifyStep(const VerifyStep& step) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1fs", step.seconds);
  const std::string dirty =
      step.dirty_bytes < 0
          ? std::string("unknown")
          : FormatBytes(static_cast<uint64_t>(step.dirty_bytes));
  LogNotice(
      "verify " + step.device + " " +
      (step.step == "write" ? std::string("write") : "after " + step.step) +
      " (mode " + step.mode + "): " + std::to_string(step.blocks) +
      " blocks, " + std::to_string(step.errors) + " differ, dirty " + dirty +
      ", " + secs);
  for (const std::string& n : step.notes) {
    LogNotice("verify " + step.device + ": " + n);
  }
  for (const std::string& m : step.mismatches) {
    LogWarning("verify " + step.device + " after " + step.step + ": " + m);
  }
}

void PrintVerdictAndTable(const std::string& run_dir,
                          const std::vector<ComparisonRow>& rows,
                          std::ostream& out) {
  const auto path = [&run_dir](const char* file) {
    return (std::filesystem::path(run_dir) / file).string();
  };
  // The verdict first, from the files just written (present/verdict.h).
  try {
    const RunFolder run = RunFolder::Read(run_dir);
    std::string note;
    const std::optional<SeriesFile> series = SeriesFile::Read(run_dir, &note);
    out << VerdictText(BuildVerdict(run, series ? &*series : nullptr)) << "\n";
  } catch (const std::exception& e) {
    LogWarning(std::string("no verdict: ") + e.what());
  }
  PrintComparisonTable(rows, out);
  out << "\nResults: " << path("comparison.csv") << "\n"
      << "         " << path("runs.csv") << "\n"
      << "         " << path("manifest.json") << "\n";
}

void ConsoleTableReporter::OnCompareEnd(const CompareEnd& end) {
  for (const VerifyOutcome& v : end.verify) {
    out_ << (v.verified() ? "Verified: " : "VERIFY FAILED: ") << v.device
         << " (" << v.layer << ") " << v.blocks << " blocks of 4 KiB, "
         << v.steps.size() << " steps, " << v.errors
         << " blocks differ, dirty after the writes "
         << (v.dirty_bytes_after_write < 0 ? std::string("unknown")
                                           : FormatBytes(static_cast<uint64_t>(
                                                 v.dirty_bytes_after_write)))
         << "\n";
  }
  if (!end.all_cells_ran) return;
  out_ << "\n";
  PrintVerdictAndTable(run_dir_, end.comparison, out_);
  restore_warning_ = !end.restore.ok;
}

void ConsoleTableReporter::Finalize() {
  if (!restore_warning_) return;
  out_ << "WARNING: the original cache modes and settings were not all "
          "restored; see manifest.json \"restore\"\n";
}

}  // namespace tierbench
