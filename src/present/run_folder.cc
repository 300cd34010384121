#include "present/run_folder.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "stats/aggregate.h"
#include "stats/confidence.h"
#include "util/errors.h"

namespace tierbench {
namespace fs = std::filesystem;
namespace {

const char kRerun[] =
    "point at a folder written by tierbench compare (results/<run-id>/) or "
    "re-run tierbench compare";

std::string ReadFile(const std::string& dir, const std::string& name) {
  const std::string path = (fs::path(dir) / name).string();
  if (!fs::exists(path)) {
    throw ConfigError(path +
                      ": missing (a run folder has runs.csv, "
                      "comparison.csv and manifest.json). Fix: " +
                      kRerun);
  }
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in && !in.eof()) {
    throw ConfigError(path + ": cannot be read. Fix: check its permissions");
  }
  if (ss.str().find_first_not_of(" \t\r\n") == std::string::npos) {
    throw ConfigError(path +
                      ": empty file (the run stopped before writing "
                      "it). Fix: " +
                      kRerun);
  }
  return ss.str();
}

// Checks the schema_version column of every row against [oldest, want];
// returns the version of the file (`want` when it has no rows).
int CheckSchema(const CsvDocument& doc, int want, int oldest) {
  if (doc.header().empty() || doc.header().front() != "schema_version") {
    throw ConfigError(doc.label() +
                      ": the first column is not schema_version; not a "
                      "tierbench results file. Fix: " +
                      kRerun);
  }
  int version = 0;
  for (size_t r = 0; r < doc.row_count(); ++r) {
    const std::string& v = doc.Get(r, "schema_version");
    bool ok = false;
    for (int s = oldest; s <= want; ++s) ok = ok || v == std::to_string(s);
    if (ok && (version == 0 || v == std::to_string(version))) {
      version = std::stoi(v);
      continue;
    }
    const std::optional<double> got = doc.Number(r, "schema_version");
    const std::string age =
        got && *got < oldest ? "older than" : "not one this tierbench reads,";
    const std::string range =
        oldest == want ? std::to_string(want)
                       : std::to_string(oldest) + " to " + std::to_string(want);
    throw ConfigError(doc.label() + ": schema_version " + v + " is " + age +
                      " the supported " + range +
                      ". Fix: report it with the tierbench version that "
                      "wrote it, or re-run tierbench compare");
  }
  return version == 0 ? want : version;
}

std::optional<bool> Flag(const std::string& v) {
  if (v == "1") return true;
  if (v == "0") return false;
  return std::nullopt;
}

template <typename T>
void AddDistinct(const T& v, std::vector<T>* out) {
  if (std::find(out->begin(), out->end(), v) == out->end()) out->push_back(v);
}

}  // namespace

bool ReportFigure::HasFinding(const std::string& rule_severity) const {
  return std::find(finding_rules.begin(), finding_rules.end(), rule_severity) !=
         finding_rules.end();
}

std::vector<std::string> ReportFigure::DriftWarnings() const {
  std::vector<std::string> out;
  for (const std::string& w : warnings) {
    if (w.find(" went from ") != std::string::npos) out.push_back(w);
  }
  return out;
}

std::vector<Finding> FindingsOfRow(const CsvDocument& runs, size_t row) {
  // Split without removing duplicates: the two cells are zipped.
  auto split = [](const std::string& cell) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < cell.size()) {
      size_t end = cell.find(';', start);
      if (end == std::string::npos) end = cell.size();
      out.push_back(cell.substr(start, end - start));
      start = end + 1;
    }
    return out;
  };
  const std::vector<std::string> texts = split(runs.Get(row, "warnings"));
  const std::vector<std::string> rules =
      runs.Has("finding_rules") ? split(runs.Get(row, "finding_rules"))
                                : std::vector<std::string>();
  std::vector<Finding> out;
  for (size_t i = 0; i < texts.size(); ++i) {
    Finding f{"", Severity::kCaution, texts[i]};
    if (i < rules.size()) {
      const size_t colon = rules[i].rfind(':');
      Severity s;
      if (colon != std::string::npos &&
          ParseSeverity(rules[i].substr(colon + 1), &s)) {
        f.rule = rules[i].substr(0, colon);
        f.severity = s;
      }
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<std::string> SplitWarnings(const std::string& cell) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= cell.size()) {
    size_t end = cell.find(';', start);
    if (end == std::string::npos) end = cell.size();
    std::string w = cell.substr(start, end - start);
    while (!w.empty() && w.front() == ' ') w.erase(w.begin());
    if (!w.empty()) AddDistinct(w, &out);
    start = end + 1;
  }
  return out;
}

RunFolder::RunFolder(std::string dir, CsvDocument runs, CsvDocument comparison,
                     nlohmann::json manifest)
    : dir_(std::move(dir)),
      runs_(std::move(runs)),
      comparison_(std::move(comparison)),
      manifest_(std::move(manifest)) {}

RunFolder RunFolder::Read(const std::string& dir) {
  if (!fs::is_directory(dir)) {
    throw ConfigError(dir + ": no such run folder. Fix: " + kRerun);
  }
  const std::string runs_path = (fs::path(dir) / "runs.csv").string();
  const std::string cmp_path = (fs::path(dir) / "comparison.csv").string();
  const std::string manifest_path = (fs::path(dir) / "manifest.json").string();
  // Parse in the order a run writes them: manifest, runs, comparison.
  const std::string manifest_text = ReadFile(dir, "manifest.json");
  nlohmann::json manifest =
      nlohmann::json::parse(manifest_text, nullptr, /*allow_exceptions=*/false);
  if (manifest.is_discarded() || !manifest.is_object()) {
    throw ConfigError(manifest_path +
                      ": not valid JSON (truncated?). Fix: " + kRerun);
  }
  if (!manifest.contains("schema_version") ||
      !manifest["schema_version"].is_number_integer() ||
      manifest["schema_version"].get<int>() < kOldestManifestSchema ||
      manifest["schema_version"].get<int>() > kManifestSchema) {
    const std::string v = manifest.contains("schema_version")
                              ? manifest["schema_version"].dump()
                              : std::string("(none)");
    throw ConfigError(manifest_path + ": schema_version " + v +
                      " is not one of the supported " +
                      std::to_string(kOldestManifestSchema) + " to " +
                      std::to_string(kManifestSchema) +
                      ". Fix: report it with the tierbench version that "
                      "wrote it, or re-run tierbench compare");
  }
  CsvDocument runs = CsvDocument::Parse(ReadFile(dir, "runs.csv"), runs_path);
  const int runs_schema = CheckSchema(runs, kRunsSchema, kOldestRunsSchema);
  runs.Require({"mode", "layer", "workload", "repetition", "job", "direction",
                "unit", "iops", "clat_p50_us", "lat_p50_us", "drain_after_s",
                "error", "warnings"},
               kRerun);
  if (runs.row_count() == 0) {
    throw ConfigError(runs_path +
                      ": no rows, the run finished no cell. Fix: " + kRerun);
  }
  CsvDocument cmp =
      CsvDocument::Parse(ReadFile(dir, "comparison.csv"), cmp_path);
  const int cmp_schema =
      CheckSchema(cmp, kComparisonSchema, kOldestComparisonSchema);
  cmp.Require({"mode",
               "layer",
               "baseline",
               "workload",
               "job",
               "direction",
               "unit",
               "n",
               "iops_median",
               "iops_min",
               "iops_max",
               "iops_spread_pct",
               "lat_p99_us_median",
               "lat_p99_us_min",
               "lat_p99_us_max",
               "iops_vs_hdd_pct",
               "iops_vs_ssd_pct",
               "iops_position",
               "noise_vs_hdd",
               "noise_vs_ssd",
               "warnings"},
              kRerun);
  if (cmp_schema >= 3) {
    cmp.Require({"iops_vs_hdd_ci_low_pct", "iops_vs_hdd_ci_high_pct",
                 "iops_vs_ssd_ci_low_pct", "iops_vs_ssd_ci_high_pct",
                 "significant_vs_hdd", "significant_vs_ssd"},
                kRerun);
  }
  RunFolder folder(dir, std::move(runs), std::move(cmp), std::move(manifest));
  if (runs_schema < kRunsSchemaNoVerify) {
    folder.notes_.push_back(
        runs_path + ": schema_version " + std::to_string(runs_schema) +
        " is older than " + std::to_string(kRunsSchemaNoVerify) +
        ": its time to clean (drain_after_s) was timed after the stats lag "
        "(under-reported by up to the lag), no iops_sustained. Fix: re-run "
        "tierbench compare for times to clean from the IO stop");
  }
  if (cmp_schema < 3) {
    folder.notes_.push_back(
        cmp_path + ": schema_version " + std::to_string(cmp_schema) +
        " is older than 3" +
        ": no confidence intervals, \"within noise\" from the min-max "
        "ranges. Fix: re-run tierbench compare for intervals");
  }
  if (cmp_schema < kComparisonSchemaValidity) {
    folder.notes_.push_back(
        cmp_path + ": schema_version " + std::to_string(cmp_schema) +
        " is older than " + std::to_string(kComparisonSchemaValidity) +
        ": its cells were not judged valid or invalid (no verdict ranks "
        "them). Fix: re-run tierbench compare for a verdict");
  }
  const std::string mrc_path = (fs::path(dir) / "mrc.csv").string();
  if (fs::exists(mrc_path)) {
    folder.read_hit_curves_ = ParseReadHitCurves(
        CsvDocument::Parse(ReadFile(dir, "mrc.csv"), mrc_path));
  }
  folder.Build();
  return folder;
}

std::optional<double> RunFolder::ReadHitPct(const std::string& mode,
                                            const std::string& workload) const {
  if (!runs_.Has("read_hit_ratio_pct")) return std::nullopt;
  std::vector<std::string> reps;
  std::vector<double> values;
  for (size_t r = 0; r < runs_.row_count(); ++r) {
    if (runs_.Get(r, "mode") != mode || runs_.Get(r, "workload") != workload ||
        !runs_.Get(r, "error").empty()) {
      continue;
    }
    // The ratio is per cell: each repetition once.
    const std::string& rep = runs_.Get(r, "repetition");
    if (std::find(reps.begin(), reps.end(), rep) != reps.end()) continue;
    const std::optional<double> v = runs_.Number(r, "read_hit_ratio_pct");
    if (!v) continue;
    reps.push_back(rep);
    values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void RunFolder::Build() {
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<double>> p50, p999, iops;
  std::map<Key, std::string> states;  // cache_state of the cells
  std::map<std::pair<std::string, std::string>, size_t> drain_index;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>>
      drain_reps;
  const bool has_p999 = runs_.Has("clat_p99_9_us");
  for (size_t r = 0; r < runs_.row_count(); ++r) {
    const std::string& mode = runs_.Get(r, "mode");
    const std::string& workload = runs_.Get(r, "workload");
    AddDistinct(mode, &modes_);
    AddDistinct(workload, &workloads_);
    bool known = false;
    for (const auto& ml : mode_layers_) known = known || ml.first == mode;
    if (!known) mode_layers_.emplace_back(mode, runs_.Get(r, "layer"));
    if (!runs_.Get(r, "error").empty()) {
      failures_.push_back(
          {mode, workload, runs_.Get(r, "repetition"), runs_.Get(r, "error")});
      continue;
    }
    const bool tx = runs_.Get(r, "unit") == "tx";
    const Key key{mode, workload, runs_.Get(r, "job"),
                  runs_.Get(r, "direction")};
    const std::string& state = runs_.Get(r, "cache_state");
    if (!state.empty()) states[key] = state;
    if (auto v = runs_.Number(r, "iops")) iops[key].push_back(*v);
    if (auto v = runs_.Number(r, tx ? "lat_p50_us" : "clat_p50_us")) {
      p50[key].push_back(*v);
    }
    if (!tx && has_p999) {
      if (auto v = runs_.Number(r, "clat_p99_9_us")) p999[key].push_back(*v);
    }
    // drain_after_s is per cell: count each repetition once.
    const auto cell = std::make_pair(mode, workload);
    std::vector<std::string>& reps = drain_reps[cell];
    const std::string& rep = runs_.Get(r, "repetition");
    if (std::find(reps.begin(), reps.end(), rep) != reps.end()) continue;
    reps.push_back(rep);
    if (auto v = runs_.Number(r, "drain_after_s")) {
      auto [it, fresh] = drain_index.emplace(cell, drains_.size());
      if (fresh) drains_.push_back({mode, workload, {}});
      drains_[it->second].seconds.push_back(*v);
    }
  }
  const CsvDocument& c = comparison_;
  for (size_t r = 0; r < c.row_count(); ++r) {
    ReportFigure f;
    f.mode = c.Get(r, "mode");
    f.layer = c.Get(r, "layer");
    f.baseline = c.Get(r, "baseline");
    f.workload = c.Get(r, "workload");
    f.job = c.Get(r, "job");
    f.direction = c.Get(r, "direction");
    f.unit = c.Get(r, "unit");
    f.n = static_cast<int>(c.Number(r, "n").value_or(0));
    f.iops_median = c.Number(r, "iops_median").value_or(0);
    f.iops_min = c.Number(r, "iops_min").value_or(0);
    f.iops_max = c.Number(r, "iops_max").value_or(0);
    f.iops_spread_pct = c.Number(r, "iops_spread_pct").value_or(0);
    f.p99_us = c.Number(r, "lat_p99_us_median").value_or(0);
    f.p99_min_us = c.Number(r, "lat_p99_us_min").value_or(0);
    f.p99_max_us = c.Number(r, "lat_p99_us_max").value_or(0);
    f.iops_vs_hdd_pct = c.Number(r, "iops_vs_hdd_pct");
    f.iops_vs_ssd_pct = c.Number(r, "iops_vs_ssd_pct");
    f.iops_position = c.Number(r, "iops_position");
    f.noise_vs_hdd = Flag(c.Get(r, "noise_vs_hdd"));
    f.noise_vs_ssd = Flag(c.Get(r, "noise_vs_ssd"));
    f.iops_vs_hdd_ci_low = c.Number(r, "iops_vs_hdd_ci_low_pct");
    f.iops_vs_hdd_ci_high = c.Number(r, "iops_vs_hdd_ci_high_pct");
    f.iops_vs_ssd_ci_low = c.Number(r, "iops_vs_ssd_ci_low_pct");
    f.iops_vs_ssd_ci_high = c.Number(r, "iops_vs_ssd_ci_high_pct");
    f.significant_vs_hdd = Flag(c.Get(r, "significant_vs_hdd"));
    f.significant_vs_ssd = Flag(c.Get(r, "significant_vs_ssd"));
    f.warnings = SplitWarnings(c.Get(r, "warnings"));
    f.valid = c.Get(r, "valid");
    f.finding_rules = SplitWarnings(c.Get(r, "finding_rules"));
    f.invalid_reasons = c.Get(r, "invalid_reasons");
    if (c.Has("ssd_write_per_app_byte_median")) {
      f.ssd_write_per_app_write = c.Number(r, "ssd_write_per_app_write_median");
      f.ssd_write_per_app_byte = c.Number(r, "ssd_write_per_app_byte_median");
    }
    const Key key{f.mode, f.workload, f.job, f.direction};
    if (iops.count(key)) f.iops_values = iops[key];
    if (p50.count(key)) f.p50_us = Median(p50[key]);
    if (states.count(key)) f.cache_state = states[key];
    if (p999.count(key)) f.p999_us = Median(p999[key]);
    AddDistinct(f.mode, &modes_);
    AddDistinct(f.workload, &workloads_);
    figures_.push_back(std::move(f));
  }
  for (ReportFigure& f : figures_) {
    const std::vector<std::string> keys = SeriesOf(f.workload);
    const std::vector<std::string> labels = SeriesLabels(f.workload);
    for (size_t i = 0; i < keys.size() && keys.size() > 1; ++i) {
      if (keys[i] == f.job + "/" + f.direction) f.series = labels[i];
    }
  }
}

std::optional<bool> ReportFigure::within_noise_vs_hdd() const {
  return DifferenceWithinNoise(significant_vs_hdd, noise_vs_hdd);
}

std::optional<bool> ReportFigure::within_noise_vs_ssd() const {
  return DifferenceWithinNoise(significant_vs_ssd, noise_vs_ssd);
}

std::string RunFolder::LayerOf(const std::string& mode) const {
  for (const auto& [m, layer] : mode_layers_) {
    if (m == mode) return layer;
  }
  for (const ReportFigure& f : figures_) {
    if (f.mode == mode) return f.layer;
  }
  return "";
}

std::vector<const ReportFigure*> RunFolder::FiguresOf(
    const std::string& workload) const {
  std::vector<const ReportFigure*> out;
  for (const ReportFigure& f : figures_) {
    if (f.workload == workload) out.push_back(&f);
  }
  return out;
}

std::vector<std::string> RunFolder::SeriesOf(
    const std::string& workload) const {
  std::vector<std::string> out;
  for (const ReportFigure& f : figures_) {
    if (f.workload == workload) AddDistinct(f.job + "/" + f.direction, &out);
  }
  return out;
}

std::vector<std::string> RunFolder::SeriesLabels(
    const std::string& workload) const {
  std::vector<std::string> jobs, labels;
  for (const ReportFigure& f : figures_) {
    if (f.workload == workload) AddDistinct(f.job, &jobs);
  }
  for (const std::string& key : SeriesOf(workload)) {
    labels.push_back(jobs.size() == 1 ? key.substr(key.rfind('/') + 1) : key);
  }
  return labels;
}

const ReportFigure* RunFolder::Baseline(const ReportFigure& f,
                                        const std::string& kind) const {
  for (const ReportFigure& b : figures_) {
    if (b.baseline == kind && b.workload == f.workload && b.job == f.job &&
        b.direction == f.direction) {
      return &b;
    }
  }
  return nullptr;
}

std::string RunFolder::Label(const std::string& key) const {
  if (!manifest_.contains("labels") || !manifest_["labels"].is_object())
    return "";
  const nlohmann::json& labels = manifest_["labels"];
  if (!labels.contains(key) || !labels[key].is_string()) return "";
  return labels[key].get<std::string>();
}

}  // namespace tierbench
