// The latency line of an open-loop replay (present/replay_verdict.h).
#include "present/replay_verdict.h"

#include <algorithm>
#include <exception>
#include <map>
#include <optional>
#include <vector>

#include "present/report_format.h"
#include "stats/aggregate.h"
#include "util/csv_reader.h"

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

double LabHddServiceUs(const RunFolder& run) {
  const std::string label = run.Label("lab.hdd_iops");
  double iops = 0;
  try {
    iops = label.empty() ? 0 : std::stod(label);
  } catch (const std::exception&) {
    return 0;
  }
  return iops > 0 ? 1e6 / iops : 0;
}

namespace {

// The lab's HDD (a file QEMU throttles to lab.hdd_iops) takes the host's
// time for an IO whenever it is below its limit: it has no seek. The raw
// HDD's replay figures whose median is below the time one IO takes at
// the limit were mostly not delayed by it, so no mode's latency is a
// disk's; the clause saying so, or "" when the figures are a disk's (or
// the run is no lab run).
std::string LabHddIdleClause(const RunFolder& run,
                             const std::vector<const ReportFigure*>& figs) {
  const double service_us = LabHddServiceUs(run);
  if (service_us <= 0) return "";
  for (const ReportFigure* f : figs) {
    if (f->baseline != "hdd" || !f->p50_us || *f->p50_us >= service_us) {
      continue;
    }
    return "not ranked by latency: the raw HDD's " + f->direction +
           "s took a median " + FormatLatencyUs(*f->p50_us) + ", under the " +
           FormatLatencyUs(service_us) +
           " the lab's HDD takes per IO at its limit, so the replay did not "
           "load it: below its IOPS limit the lab's HDD (a throttled file) "
           "answers in the host's time, with no seek, and no mode's "
           "latency is a disk's. A replay that keeps the HDD at its limit "
           "(a capture made while the disk, not the CPU, set the pace), or "
           "a real HDD, ranks them";
  }
  return "";
}

// The share of a cache figure's bytes in its direction that its cells sent
// to the HDD (runs.csv hdd_<dir>_bytes over stack_<dir>_bytes, the median
// over the repetitions); empty for trims and cells without the counters.
std::optional<double> HddShareOf(const RunFolder& run, const ReportFigure& f) {
  if (f.direction != "read" && f.direction != "write") return std::nullopt;
  const CsvDocument& rows = run.runs();
  const std::string hdd = "hdd_" + f.direction + "_bytes";
  const std::string stack = "stack_" + f.direction + "_bytes";
  std::vector<double> shares;
  for (size_t r = 0; r < rows.row_count(); ++r) {
    if (rows.Get(r, "mode") != f.mode ||
        rows.Get(r, "workload") != f.workload || rows.Get(r, "job") != f.job ||
        rows.Get(r, "direction") != f.direction)
      continue;
    const std::optional<double> h = rows.Number(r, hdd);
    const std::optional<double> st = rows.Number(r, stack);
    if (h && st && *st > 0) shares.push_back(*h / *st);
  }
  if (shares.empty()) return std::nullopt;
  return Median(shares);
}

// In a lab run, the cache figures whose IO went to the HDD (at least half
// of the direction's bytes) and took a median under the time the lab's HDD
// takes per IO at its limit: the layer left the HDD below its limit (a
// cache that took the other direction's IO), where the lab's HDD answers
// in the host's time with no seek, so the figure is no disk's. Each as
// "writeback's reads".
std::vector<std::string> LabHostTimeMisses(
    const RunFolder& run, const std::vector<const ReportFigure*>& figs,
    std::vector<const ReportFigure*>* kept) {
  std::vector<std::string> out;
  const double service_us = LabHddServiceUs(run);
  for (const ReportFigure* f : figs) {
    const std::optional<double> share =
        service_us > 0 && !f->is_raw() ? HddShareOf(run, *f) : std::nullopt;
    if (share && *share >= 0.5 && f->p50_us && *f->p50_us < service_us) {
      out.push_back(f->mode + "'s " + f->direction + "s");
    } else {
      kept->push_back(f);
    }
  }
  return out;
}

}  // namespace

std::optional<VerdictLine> ReplayLatencyLine(const RunFolder& run,
                                             const std::string& workload) {
  if (!IsOpenLoopReplay(run, workload)) return std::nullopt;
  const std::string open_loop =
      workload +
      " replays its trace at the recorded times (open loop), so its IOPS "
      "follow the trace, not the modes; ";
  const std::string idle = LabHddIdleClause(run, run.FiguresOf(workload));
  if (!idle.empty())
    return VerdictLine{workload, open_loop + idle + ".", {}, {}};
  // direction -> the quotable figures.
  std::map<std::string, std::vector<const ReportFigure*>> by_dir;
  std::vector<std::string> quoted;
  std::vector<const ReportFigure*> valid, kept;
  for (const ReportFigure* f : run.FiguresOf(workload)) {
    if (f->Invalid() || f->Drifted() || !f->p50_us || *f->p50_us <= 0) {
      continue;
    }
    valid.push_back(f);
  }
  const std::vector<std::string> host_time =
      LabHostTimeMisses(run, valid, &kept);
  for (const ReportFigure* f : kept) by_dir[f->direction].push_back(f);
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
  if (parts.empty() && host_time.empty()) return std::nullopt;
  std::string text = open_loop;
  if (!parts.empty()) {
    text += "by median latency: ";
    for (size_t i = 0; i < parts.size(); ++i) {
      text += (i == 0 ? "" : "; ") + parts[i];
    }
  }
  if (!host_time.empty()) {
    text += std::string(parts.empty() ? "" : "; ") +
            "left out: " + JoinList(host_time) +
            " (they went to the lab's HDD, which the cache left below its "
            "IOPS limit, where it answers in the host's time with no seek: "
            "no disk's latency, and on a real HDD each would take a seek)";
  }
  text += ".";
  return VerdictLine{workload, text, quoted, {}};
}

}  // namespace tierbench
