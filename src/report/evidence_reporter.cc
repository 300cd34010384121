#include "report/evidence_reporter.h"

#include <nlohmann/json.hpp>

#include "record/cell_record.h"
#include "record/compare_options.h"
#include "record/compare_setup.h"

namespace tierbench {

std::string EvidenceLine(const CellRecord& rec) {
  nlohmann::json j;
  j["schema_version"] = kEvidenceSchemaVersion;
  j["mode"] = rec.mode->name;
  j["layer"] = rec.mode->layer;
  j["workload"] = rec.workload->name;
  j["repetition"] = rec.cell.repetition;
  j["cache_state"] = rec.cache_state;
  j["cache_mode"] = rec.readback.cache_mode;
  j["settled"] = rec.settled;
  j["target"] = rec.host.target;
  j["window_s"] = rec.host.window_s;
  j["proc_stat"] = {rec.host.raw.proc_stat_start, rec.host.raw.proc_stat_end};
  nlohmann::json stat = nlohmann::json::object();
  for (const auto& [dev, start] : rec.host.raw.stat_start) {
    auto end = rec.host.raw.stat_end.find(dev);
    stat[dev] = {start, end == rec.host.raw.stat_end.end() ? "" : end->second};
  }
  j["stat"] = stat;
  if (rec.has_counters) {
    j["counters"] = {rec.counters_raw_before, rec.counters_raw_after};
  }
  j["cache_bytes"] = rec.stack.cache_bytes;
  j["region_bytes"] = WorkloadRegionBytes(*rec.workload);
  uint64_t ios = 0;
  for (const JobResult& r : rec.result.jobs) {
    ios += r.dir[0].ios + r.dir[1].ios;
  }
  j["ios"] = ios;
  std::string rules;
  for (const Finding& f : rec.findings) {
    rules +=
        (rules.empty() ? "" : ";") + f.rule + ":" + SeverityName(f.severity);
  }
  j["finding_rules"] = rules;
  j["valid"] = ValidityName(rec.validity());
  return j.dump();
}

void EvidenceReporter::OnCompareStart(const CompareStart& start) {
  dir_.emplace(start.setup.run_dir);
  dir_->Write("evidence.jsonl", "");
}

void EvidenceReporter::OnCell(const CellRecord& rec) {
  text_ += EvidenceLine(rec) + "\n";
  dir_->Write("evidence.jsonl", text_);
}

}  // namespace tierbench
