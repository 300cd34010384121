// The latency line of an open-loop replay (present/replay_verdict.h).
#include "present/replay_verdict.h"

#include <algorithm>
#include <map>
#include <vector>

#include "present/report_format.h"

namespace tierbench {

bool IsOpenLoopReplay(const RunFolder& run, const std::string& workload) {
  const nlohmann::json& m = run.manifest();
  if (!m.contains("workloads") || !m["workloads"].is_array()) return false;
  for (const nlohmann::json& w : m["workloads"]) {
    if (!w.is_object() || w.value("name", "") != workload) continue;
    if (!w.contains("jobs") || !w["jobs"].is_array() || w["jobs"].empty()) {
      return false;
    }
    for (const nlohmann::json& j : w["jobs"]) {
      if (!j.contains("read_iolog") || !j["read_iolog"].is_string() ||
          j["read_iolog"].get<std::string>().empty() ||
          j.value("replay_no_stall", true)) {
        return false;
      }
    }
    return true;
  }
  return false;
}

std::optional<VerdictLine> ReplayLatencyLine(const RunFolder& run,
                                             const std::string& workload) {
  if (!IsOpenLoopReplay(run, workload)) return std::nullopt;
  // direction -> the quotable figures.
  std::map<std::string, std::vector<const ReportFigure*>> by_dir;
  std::vector<std::string> quoted;
  for (const ReportFigure* f : run.FiguresOf(workload)) {
    if (f->Invalid() || f->Drifted() || !f->p50_us || *f->p50_us <= 0) {
      continue;
    }
    by_dir[f->direction].push_back(f);
  }
  std::vector<std::string> parts;
  for (const char* dir : {"write", "read", "trim"}) {
    auto it = by_dir.find(dir);
    if (it == by_dir.end() || it->second.size() < 2) continue;
    std::stable_sort(it->second.begin(), it->second.end(),
                     [](const ReportFigure* a, const ReportFigure* b) {
                       return *a->p50_us < *b->p50_us;
                     });
    std::vector<std::string> items;
    for (const ReportFigure* f : it->second) {
      items.push_back(f->mode + " " + FormatLatencyUs(*f->p50_us) + " (p99 " +
                      FormatLatencyUs(f->p99_us) + ")");
      if (std::find(quoted.begin(), quoted.end(), f->mode) == quoted.end()) {
        quoted.push_back(f->mode);
      }
    }
    parts.push_back(std::string(dir) + "s: " + JoinList(items));
  }
  if (parts.empty()) return std::nullopt;
  std::string text = workload +
                     " replays its trace at the recorded times (open loop), "
                     "so its IOPS follow the trace, not the modes; by median "
                     "latency: ";
  for (size_t i = 0; i < parts.size(); ++i) {
    text += (i == 0 ? "" : "; ") + parts[i];
  }
  text += ".";
  return VerdictLine{workload, text, quoted, {}};
}

}  // namespace tierbench
