#include "lab/lab_merge.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <utility>

#include "present/run_folder.h"
#include "record/comparison.h"
#include "report/comparison_csv_reporter.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"
#include "util/errors.h"
#include "util/result_dir.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string ReadPartFile(const LabPartRun& part, const std::string& file) {
  const std::string path = (fs::path(part.run_dir) / file).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ConfigError("A lab part's " + file + " is missing. Path: " + path +
                      "; Fix: see that part's lab/compare.log (part " +
                      part.name + ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Where a row goes: repetition, then the mode's and the workload's places
// in the run's order.
struct RowKey {
  int repetition = 0;
  size_t mode = 0;
  size_t workload = 0;
  bool operator<(const RowKey& o) const {
    return std::tie(repetition, mode, workload) <
           std::tie(o.repetition, o.mode, o.workload);
  }
};

// Places in a list of names; a name not in it goes last.
class NameOrder {
 public:
  explicit NameOrder(const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) index_.emplace(names[i], i);
  }
  size_t Of(const std::string& name) const {
    auto it = index_.find(name);
    return it == index_.end() ? index_.size() : it->second;
  }

 private:
  std::map<std::string, size_t> index_;
};

struct RunOrder {
  explicit RunOrder(const LabRunOrder& o)
      : modes(o.modes), workloads(o.workloads) {}
  // A --working-set copy ("w@25%") goes where its workload goes.
  RowKey Key(int repetition, const std::string& mode,
             const std::string& workload) const {
    return {repetition, modes.Of(mode),
            workloads.Of(workload.substr(0, workload.find('@')))};
  }
  NameOrder modes, workloads;
};

int Repetition(const std::string& text) {
  try {
    return std::stoi(text);
  } catch (const std::exception&) {
    return 0;
  }
}

// One merged CSV: the parts' rows under their shared header, run_id set,
// ordered by RowKey (stable). Returns the merged document's text.
std::string MergeCsv(const std::vector<LabPartRun>& parts,
                     const std::string& file, const std::string& run_id,
                     const RunOrder& order) {
  std::vector<std::string> header;
  std::vector<std::pair<RowKey, std::vector<std::string>>> rows;
  for (const LabPartRun& part : parts) {
    const CsvDocument doc =
        CsvDocument::Parse(ReadPartFile(part, file), part.name + "/" + file);
    doc.Require({"schema_version", "run_id", "mode", "workload", "repetition"},
                "the part was written by another tierbench; run the lab "
                "again");
    if (header.empty()) {
      header = doc.header();
    } else if (doc.header() != header) {
      throw ConfigError("The lab parts' " + file +
                        " headers differ. Part: " + part.name +
                        "; Fix: run the lab again with one tierbench");
    }
    const auto col = [&header](const std::string& name) {
      return static_cast<size_t>(std::find(header.begin(), header.end(), name) -
                                 header.begin());
    };
    const size_t run_col = col("run_id");
    const std::vector<std::vector<std::string>>& all = doc.rows();
    for (size_t i = 0; i < doc.row_count(); ++i) {
      std::vector<std::string> row = all[i];
      row[run_col] = run_id;
      rows.push_back({order.Key(Repetition(doc.Get(i, "repetition")),
                                doc.Get(i, "mode"), doc.Get(i, "workload")),
                      std::move(row)});
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.first < b.first;
  });
  std::ostringstream out;
  for (size_t c = 0; c < header.size(); ++c) {
    out << (c ? "," : "") << CsvTable::Escape(header[c]);
  }
  out << "\n";
  for (const auto& [key, row] : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      out << (c ? "," : "") << CsvTable::Escape(row[c]);
    }
    out << "\n";
  }
  return out.str();
}

// evidence.jsonl's lines (they carry no run id), ordered like the rows.
std::string MergeEvidence(const std::vector<LabPartRun>& parts,
                          const RunOrder& order) {
  std::vector<std::pair<RowKey, std::string>> lines;
  for (const LabPartRun& part : parts) {
    std::istringstream in(ReadPartFile(part, "evidence.jsonl"));
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded() || !j.is_object()) {
        throw ConfigError(
            "A lab part's evidence.jsonl has a line that is not a JSON "
            "object. Path: " +
            (fs::path(part.run_dir) / "evidence.jsonl").string() +
            "; Fix: run the lab again");
      }
      const int rep = j.value("repetition", 0);
      const std::string mode = j.value("mode", "");
      lines.push_back(
          {order.Key(rep, mode, j.value("workload", "")), j.dump()});
    }
  }
  std::stable_sort(
      lines.begin(), lines.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [key, line] : lines) out += line + "\n";
  return out;
}

// The raw modes' baselines ("hdd"/"ssd") by mode name, from the manifests.
std::map<std::string, std::string> RawBaselines(
    const std::vector<json>& manifests) {
  std::map<std::string, std::string> out;
  for (const json& m : manifests) {
    if (!m.contains("modes") || !m["modes"].is_array()) continue;
    for (const json& mode : m["modes"]) {
      const json& f = mode.value("file", json::object());
      if (f.value("layer", "") != "raw") continue;
      out[f.value("name", "")] = f.value("target", "");
    }
  }
  return out;
}

// The comparison's inputs, from the merged runs.csv (as MeasuredRowsOf
// gives them from the records).
std::vector<MeasuredRow> MeasuredRowsOfCsv(
    const CsvDocument& runs, const std::map<std::string, std::string>& raw) {
  runs.Require(
      {"mode", "layer", "workload", "job", "direction", "unit", "repetition",
       "iops", "iops_sustained", "bw_mib_s", "clat_mean_us", "clat_p99_us",
       "lat_mean_us", "lat_p99_us", "error"},
      "the part was written by another tierbench; run the lab again");
  std::vector<MeasuredRow> out;
  for (size_t i = 0; i < runs.row_count(); ++i) {
    if (!runs.Get(i, "error").empty()) continue;
    MeasuredRow r;
    r.mode = runs.Get(i, "mode");
    r.layer = runs.Get(i, "layer");
    if (r.layer == "raw") {
      auto it = raw.find(r.mode);
      r.baseline = it == raw.end() ? r.mode : it->second;
    }
    r.workload = runs.Get(i, "workload");
    r.job = runs.Get(i, "job");
    r.direction = runs.Get(i, "direction");
    r.unit = runs.Get(i, "unit");
    r.repetition = Repetition(runs.Get(i, "repetition"));
    const bool tx = r.unit == "tx";
    r.iops = runs.Number(i, "iops").value_or(0);
    r.iops_sustained = runs.Number(i, "iops_sustained");
    r.bw_mib_s = tx ? 0 : runs.Number(i, "bw_mib_s").value_or(0);
    r.lat_mean_us =
        runs.Number(i, tx ? "lat_mean_us" : "clat_mean_us").value_or(0);
    r.lat_p99_us =
        runs.Number(i, tx ? "lat_p99_us" : "clat_p99_us").value_or(0);
    r.findings = FindingsOfRow(runs, i);
    // The wear figures of parts that have them (runs.csv schema 8).
    auto number = [&runs, i](const char* col) {
      return runs.Has(col) ? runs.Number(i, col) : std::nullopt;
    };
    r.wear.ssd_write_per_app_write = number("ssd_write_per_app_write");
    r.wear.ssd_write_per_app_byte = number("ssd_write_per_app_byte");
    if (const std::optional<double> saved = number("hdd_bytes_saved")) {
      r.wear.hdd_bytes_saved = static_cast<int64_t>(*saved);
    }
    r.wear.ssd_life_days = number("ssd_life_days");
    out.push_back(std::move(r));
  }
  return out;
}

// Appends the items of `from` to `to` (arrays), skipping those whose
// `key` (or, without a key, whose whole value) `to` already has.
void AppendNew(json* to, const json& from, const std::string& key) {
  if (!from.is_array()) return;
  if (!to->is_array()) *to = json::array();
  for (const json& item : from) {
    const bool have = std::any_of(to->begin(), to->end(), [&](const json& x) {
      if (key.empty()) return x == item;
      return x.is_object() && item.is_object() && x.contains(key) &&
             item.contains(key) && x[key] == item[key];
    });
    if (!have) to->push_back(item);
  }
}

std::string ModeNameOf(const json& mode) {
  return mode.value("file", json::object()).value("name", "");
}

json MergeManifests(const std::vector<LabPartRun>& parts,
                    const std::vector<json>& manifests,
                    const std::string& run_id, const RunOrder& order) {
  json merged = manifests[0];
  merged["run_id"] = run_id;
  json lab_parts = json::array();
  json modes = json::array();
  json workloads = json::array();
  json failures = json::array();
  bool restore_attempted = false, restore_ok = true;
  std::string status = "complete";
  json cells = {{"planned", 0}, {"finished", 0}, {"failed", 0}};
  for (size_t p = 0; p < manifests.size(); ++p) {
    const json& m = manifests[p];
    for (const json& mode : m.value("modes", json::array())) {
      const bool have = std::any_of(
          modes.begin(), modes.end(),
          [&](const json& x) { return ModeNameOf(x) == ModeNameOf(mode); });
      if (!have) modes.push_back(mode);
    }
    // fio workloads carry their jobs, DB workloads their name: one entry
    // per name.
    AppendNew(&workloads, m.value("workloads", json::array()), "name");
    const json devices = m.value("devices", json::object());
    for (auto it = devices.begin(); it != devices.end(); ++it) {
      if (!merged["devices"].contains(it.key())) {
        merged["devices"][it.key()] = it.value();
      } else if (it.value().is_array()) {
        // One entry per stack device (each guest built its own, with its
        // own description): the first part's.
        AppendNew(&merged["devices"][it.key()], it.value(),
                  it.key() == "stacks" ? "device" : "");
      }
    }
    const json original = m.value("original_settings", json::object());
    for (auto it = original.begin(); it != original.end(); ++it) {
      if (!merged["original_settings"].contains(it.key()))
        merged["original_settings"][it.key()] = it.value();
    }
    const json restore = m.value("restore", json::object());
    restore_attempted |= restore.value("attempted", false);
    if (restore.contains("ok") && restore["ok"].is_boolean() &&
        !restore["ok"].get<bool>()) {
      restore_ok = false;
    }
    AppendNew(&failures, restore.value("failures", json::array()), "");
    const json c = m.value("cells", json::object());
    for (const char* k : {"planned", "finished", "failed"})
      cells[k] = cells[k].get<int64_t>() + c.value(k, int64_t{0});
    const std::string part_status = m.value("status", "");
    if (status == "complete" && part_status != "complete")
      status = part_status.empty() ? "incomplete" : part_status;
    if (m.value("start_time", "") < merged.value("start_time", ""))
      merged["start_time"] = m["start_time"];
    if (m.value("end_time", "") > merged.value("end_time", ""))
      merged["end_time"] = m["end_time"];
    json mode_names = json::array(), workload_names = json::array();
    for (const json& mode : m.value("modes", json::array()))
      mode_names.push_back(ModeNameOf(mode));
    for (const json& w : m.value("workloads", json::array()))
      workload_names.push_back(w.value("name", ""));
    lab_parts.push_back({{"name", parts[p].name},
                         {"run_id", m.value("run_id", "")},
                         {"command_line", m.value("command_line", "")},
                         {"labels", m.value("labels", json::object())},
                         {"modes", mode_names},
                         {"workloads", workload_names},
                         {"cells", c},
                         {"status", m.value("status", "")}});
  }
  std::stable_sort(
      modes.begin(), modes.end(), [&order](const json& a, const json& b) {
        return order.modes.Of(ModeNameOf(a)) < order.modes.Of(ModeNameOf(b));
      });
  merged["modes"] = modes;
  merged["workloads"] = workloads;
  merged["cells"] = cells;
  // "complete" when every part's is, else the first other part status.
  merged["status"] = status;
  merged["restore"] = {{"attempted", restore_attempted},
                       {"ok", restore_attempted ? json(restore_ok) : json()},
                       {"failures", failures}};
  merged["lab_parts"] = lab_parts;
  return merged;
}

}  // namespace

MergedLabRun MergeLabParts(const std::vector<LabPartRun>& parts,
                           const std::string& run_dir,
                           const std::string& run_id,
                           const LabRunOrder& run_order) {
  if (parts.empty()) {
    throw ConfigError("No lab parts to merge. Fix: run the lab first");
  }
  const RunOrder order(run_order);
  if (fs::exists(fs::path(run_dir) / "runs.csv")) {
    throw ConfigError("The merged lab run folder holds a run already. Path: " +
                      run_dir + "; Fix: another --run-id");
  }
  // Everything is read and merged before anything is written.
  std::vector<json> manifests;
  for (const LabPartRun& part : parts) {
    json m = json::parse(ReadPartFile(part, "manifest.json"), nullptr,
                         /*allow_exceptions=*/false);
    if (m.is_discarded() || !m.is_object()) {
      throw ConfigError(
          "A lab part's manifest.json is not a JSON object. Path: " +
          (fs::path(part.run_dir) / "manifest.json").string() +
          "; Fix: run the lab again");
    }
    manifests.push_back(std::move(m));
  }
  const std::string runs = MergeCsv(parts, "runs.csv", run_id, order);
  const std::string series = MergeCsv(parts, "series.csv", run_id, order);
  const std::string evidence = MergeEvidence(parts, order);
  const CsvDocument runs_doc = CsvDocument::Parse(runs, "merged runs.csv");
  MergedLabRun merged;
  merged.run_dir = run_dir;
  merged.comparison =
      Compare(MeasuredRowsOfCsv(runs_doc, RawBaselines(manifests)));
  std::ostringstream comparison;
  WriteComparisonCsv(merged.comparison, comparison);
  const json manifest = MergeManifests(parts, manifests, run_id, order);

  const ResultDir out(run_dir);
  out.Write("runs.csv", runs);
  out.Write("series.csv", series);
  out.Write("evidence.jsonl", evidence);
  out.Write("comparison.csv", comparison.str());
  out.Write("manifest.json", manifest.dump(2) + "\n");
  return merged;
}

}  // namespace tierbench
