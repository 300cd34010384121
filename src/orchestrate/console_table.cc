#include "orchestrate/console_table.h"

#include <algorithm>
#include <cstdio>
#include <string>

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
    return "One repetition: no confidence interval can be given, and no "
           "difference can be told from noise (--repeat 3 or more gives "
           "intervals).";
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
    for (const std::string& w : r.warnings) {
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
                     Change(r.iops_vs_hdd_pct, r.significant_vs_hdd,
                            r.noise_vs_hdd, r.is_hdd_base),
                     Change(r.iops_vs_ssd_pct, r.significant_vs_ssd,
                            r.noise_vs_ssd, r.is_ssd_base),
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

}  // namespace tierbench
