#include "present/series_file.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "util/errors.h"

namespace tierbench {
namespace fs = std::filesystem;

SeriesFile SeriesFile::Parse(const std::string& text,
                             const std::string& label) {
  CsvDocument doc = CsvDocument::Parse(text, label);
  doc.Require(
      {"schema_version", "mode", "layer", "workload", "repetition", "phase",
       "t_s", "read_iops", "write_iops", "hit_ratio_pct", "dirty_bytes"},
      "re-run tierbench compare, or delete the broken series.csv "
      "(the report then leaves the per-second chart out)");
  for (size_t r = 0; r < doc.row_count(); ++r) {
    if (!doc.Number(r, "t_s") || !doc.Number(r, "repetition")) {
      throw ConfigError(label + ": row " + std::to_string(r + 2) +
                        " has no number in t_s or repetition. Fix: re-run "
                        "tierbench compare, or delete the broken "
                        "series.csv");
    }
  }
  return SeriesFile(std::move(doc));
}

std::optional<SeriesFile> SeriesFile::Read(const std::string& dir,
                                           std::string* note) {
  const std::string path = (fs::path(dir) / "series.csv").string();
  const char kNewer[] =
      "Per-second charts: this run folder has no series.csv (made by an "
      "older tierbench); the per-second chart needs a newer run.";
  if (!fs::exists(path)) {
    *note = kNewer;
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (ss.str().find_first_not_of(" \t\r\n") == std::string::npos) {
    *note = kNewer;
    return std::nullopt;
  }
  // The version first: another version may have other columns.
  const CsvDocument probe = CsvDocument::Parse(ss.str(), path);
  for (size_t r = 0; r < probe.row_count(); ++r) {
    const std::string& v = probe.Get(r, "schema_version");
    if (v != std::to_string(kSchema)) {
      *note = "Per-second charts: " + path + " has schema_version " + v +
              ", not the " + std::to_string(kSchema) +
              " this tierbench reads; the per-second chart needs a run of "
              "this version.";
      return std::nullopt;
    }
  }
  return Parse(ss.str(), path);
}

std::vector<ModeSeries> SeriesFile::Of(const std::string& workload) const {
  std::vector<ModeSeries> out;
  std::map<std::string, size_t> index;
  // First pass: each mode's lowest repetition.
  for (size_t r = 0; r < doc_.row_count(); ++r) {
    if (doc_.Get(r, "workload") != workload) continue;
    const std::string& mode = doc_.Get(r, "mode");
    const int rep = static_cast<int>(*doc_.Number(r, "repetition"));
    auto it = index.find(mode);
    if (it == index.end()) {
      index[mode] = out.size();
      out.push_back({mode, doc_.Get(r, "layer"), rep, {}});
    } else if (rep < out[it->second].repetition) {
      out[it->second].repetition = rep;
    }
  }
  for (size_t r = 0; r < doc_.row_count(); ++r) {
    if (doc_.Get(r, "workload") != workload) continue;
    ModeSeries& m = out[index[doc_.Get(r, "mode")]];
    if (static_cast<int>(*doc_.Number(r, "repetition")) != m.repetition)
      continue;
    SeriesPoint p;
    p.phase = doc_.Get(r, "phase");
    p.t_s = *doc_.Number(r, "t_s");
    const auto read = doc_.Number(r, "read_iops");
    const auto write = doc_.Number(r, "write_iops");
    if (read || write) p.iops = read.value_or(0) + write.value_or(0);
    p.hit_ratio_pct = doc_.Number(r, "hit_ratio_pct");
    p.dirty_bytes = doc_.Number(r, "dirty_bytes");
    m.points.push_back(p);
  }
  return out;
}

}  // namespace tierbench
