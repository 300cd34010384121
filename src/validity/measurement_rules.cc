#include "validity/measurement_rules.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace tierbench {
namespace {

std::string MeasureNum(double v, int decimals = 0) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

uint64_t JobIos(const JobResult& j) { return j.dir[0].ios + j.dir[1].ios; }

void IoCountRules(const RunResult& r, std::vector<Finding>* out) {
  for (const JobResult& j : r.jobs) {
    if (!j.error.empty()) continue;
    const uint64_t ios = JobIos(j);
    if (ios == 0) {
      out->push_back(
          {"no-io", Severity::kInvalid,
           "job " + j.name +
               " did no IO in the measured window: it finished its size "
               "within ramp_time, before measuring began, so its 0 is no "
               "figure (fix: time_based=1 with --runtime, or a larger "
               "--size)"});
    } else if (ios < kMinMeasuredIos) {
      const bool tx = j.unit == "tx";
      out->push_back({"few-ios", Severity::kInvalid,
                      "job " + j.name + " did only " + std::to_string(ios) +
                          (tx ? " transactions" : " IOs") +
                          " in its measured window, fewer than " +
                          std::to_string(kMinMeasuredIos) +
                          ": too few for a figure (fix: a longer --runtime)"});
    }
  }
}

void BufferedRule(const std::vector<JobSpec>& jobs, std::vector<Finding>* out) {
  for (const JobSpec& j : jobs) {
    if (j.direct) continue;
    out->push_back({"buffered-io", Severity::kInvalid,
                    "job " + j.name +
                        " ran with direct=0: its IO went through the page "
                        "cache, so the cell measured RAM as much as the "
                        "disk (fix: direct=1 in the job file)"});
    return;  // one line says it
  }
}

void CpuRules(const RunResult& r, const HostEvidence& h, CellRole role,
              std::vector<Finding>* out) {
  const bool hdd = role == CellRole::kRawHdd;
  const Severity severity = hdd ? Severity::kInvalid : Severity::kCaution;
  const std::string meaning =
      hdd ? ": the raw HDD's cell measured the CPU, not the disk (fix: fewer "
            "jobs or clients, a faster machine, or in the lab dilation)"
          : ": the storage was not the limit here, so the figure is a floor "
            "of what it allows (the CPU's ceiling)";
  if (!h.cpu_unknown_why.empty() || h.cpu_busy_pct < 0) {
    out->push_back({"cpu", Severity::kUnknown,
                    "the CPUs were not sampled (" +
                        (h.cpu_unknown_why.empty() ? std::string("no reading")
                                                   : h.cpu_unknown_why) +
                        "): whether the cell was CPU-bound is unknown"});
  } else if (h.cpu_busy_pct >= kCpuBoundBusyPct ||
             (h.cpu_busy_pct >= kCpuLimitedBusyPct && h.target_busy_pct >= 0 &&
              h.target_busy_pct < kTargetIdleBusyPct)) {
    std::string target;
    if (h.target_busy_pct >= 0) {
      target = " while " + h.target + " was busy " +
               MeasureNum(std::min(100.0, h.target_busy_pct)) + "% of the time";
    }
    out->push_back({"cpu-bound", severity,
                    "the CPUs were " + MeasureNum(h.cpu_busy_pct) + "% busy" +
                        target + meaning});
  }
  for (const JobResult& j : r.jobs) {
    const double runtime_s = static_cast<double>(j.runtime_ns) / 1e9;
    if (!j.error.empty() || runtime_s <= 0 || j.jobs == 0 || j.unit == "tx") {
      continue;
    }
    const double per_thread_pct = 100.0 * (j.usr_cpu_sec + j.sys_cpu_sec) /
                                  (runtime_s * static_cast<double>(j.jobs));
    if (per_thread_pct >= kCpuBoundThreadPct) {
      out->push_back({"cpu-bound", severity,
                      "job " + j.name + "'s threads each used " +
                          MeasureNum(std::min(100.0, per_thread_pct)) +
                          "% of a CPU" + meaning});
      break;
    }
  }
  if (h.cpu_steal_pct >= kStealCautionPct) {
    out->push_back({"cpu-steal", Severity::kCaution,
                    MeasureNum(h.cpu_steal_pct) +
                        "% of CPU time was stolen by the hypervisor: a "
                        "neighbour's load is in the figure"});
  }
}

void OtherIoRules(const HostEvidence& h, std::vector<Finding>* out) {
  if (h.target_in_flight_before > 0) {
    out->push_back({"in-flight", Severity::kCaution,
                    std::to_string(h.target_in_flight_before) +
                        " IOs were in flight on " + h.target +
                        " when the cell started: something else was using "
                        "it"});
  }
  if (!h.disks_unknown_why.empty()) {
    out->push_back({"other-io", Severity::kUnknown,
                    "the disks under the cell were not sampled (" +
                        h.disks_unknown_why +
                        "): other IO on them would not be seen"});
    return;
  }
  for (const DiskActivity& d : h.disks) {
    const uint64_t other = d.OtherIos();
    const double limit = std::max(static_cast<double>(kOtherIoMin),
                                  kOtherIoPct / 100.0 * d.cell_ios);
    if (static_cast<double>(other) <= limit) continue;
    out->push_back({"other-io", Severity::kInvalid,
                    d.disk + " did " + std::to_string(other) +
                        " IOs that the cell's partitions on it did not (" +
                        std::to_string(d.cell_ios) +
                        "): other IO competed with the cell (fix: stop "
                        "what else uses the disk)"});
  }
}

void DriftRule(const RunResult& r, const std::vector<JobSpec>& jobs,
               std::vector<Finding>* out) {
  for (const JobResult& j : r.jobs) {
    if (!j.error.empty()) continue;
    // A replay at the recorded times issues what the trace holds when it
    // holds it: its rate is the trace's (TPC-B's went from 9 to 28 IO/s
    // over its 14 s in every mode alike, CI 2026-12-05), not the device's.
    const bool open_loop =
        std::any_of(jobs.begin(), jobs.end(), [&j](const JobSpec& s) {
          return s.name == j.name && !s.read_iolog.empty() &&
                 !s.replay_no_stall;
        });
    if (open_loop) continue;
    // The complete seconds of the window, both directions summed.
    const size_t seconds = static_cast<size_t>(j.runtime_ns / 1000000000ull);
    std::vector<uint64_t> ios(seconds, 0);
    for (int d = 0; d < kNumDirs; ++d) {
      const auto& points = j.dir[d].series.points();
      for (size_t i = 0; i < seconds && i < points.size(); ++i) {
        ios[i] += points[i].ios;
      }
    }
    double first = 0, last = 0;
    if (!SeriesDrifted(ios, &first, &last)) continue;
    out->push_back({"drift", Severity::kCaution,
                    "job " + j.name + " went from " + MeasureNum(first) +
                        " to " + MeasureNum(last) +
                        " IO/s between the first and the last third of its "
                        "window: the device or cache was not in a steady "
                        "state (an SSD not preconditioned or a cache still "
                        "filling) (fix: --precondition for the raw SSD, or "
                        "a longer --runtime)"});
  }
}

}  // namespace

bool SeriesDrifted(const std::vector<uint64_t>& ios, double* first_mean,
                   double* last_mean) {
  if (ios.size() < kDriftMinSeconds) return false;
  const size_t third = ios.size() / 3;
  double first = 0, last = 0;
  for (size_t i = 0; i < third; ++i) {
    first += static_cast<double>(ios[i]);
    last += static_cast<double>(ios[ios.size() - third + i]);
  }
  first /= static_cast<double>(third);
  last /= static_cast<double>(third);
  *first_mean = first;
  *last_mean = last;
  const double base = std::max(first, last);
  if (base <= 0) return false;
  return 100.0 * std::abs(first - last) / base > kDriftPct;
}

std::vector<Finding> MeasurementFindings(const RunResult& result,
                                         const std::vector<JobSpec>& jobs,
                                         const HostEvidence& host,
                                         CellRole role) {
  std::vector<Finding> out;
  IoCountRules(result, &out);
  BufferedRule(jobs, &out);
  CpuRules(result, host, role, &out);
  OtherIoRules(host, &out);
  DriftRule(result, jobs, &out);
  return out;
}

}  // namespace tierbench
