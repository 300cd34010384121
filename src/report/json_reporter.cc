#include "report/json_reporter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "util/units.h"

namespace tierbench {
namespace {

using nlohmann::json;

uint64_t Round(double v) {
  return v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v));
}

// fio's percentile keys: "99.000000".
std::string PercentileKey(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%f", p);
  return buf;
}

json LatencyJson(const RunningStat& s, const LatencyHistogram* hist) {
  json j = {{"min", Round(s.min())},
            {"max", Round(s.max())},
            {"mean", s.mean()},
            {"stddev", s.stddev()},
            {"N", s.count()}};
  if (hist != nullptr && hist->count() > 0) {
    json pct = json::object();
    for (double p : LatencyHistogram::DefaultPercentiles()) {
      pct[PercentileKey(p)] = hist->Percentile(p);
    }
    j["percentile"] = pct;
  }
  return j;
}

json DirectionJson(const JobResult& job, IoDir d) {
  const DirectionStats& s = job.dir[static_cast<int>(d)];
  const bool tx = job.unit == "tx";
  const double bw = job.BytesPerSec(d);
  json j = {
      {"io_bytes", s.bytes},
      {"io_kbytes", s.bytes / 1024},
      {"bw_bytes", Round(bw)},
      {"bw", Round(bw / 1024)},
      {"iops", job.Iops(d)},
      {"runtime", Round(static_cast<double>(job.runtime_ns) / kNsPerMs)},
      // fio: IOs issued after ramp_time; a transaction is issued once.
      {"total_ios", tx ? s.ios : s.issued},
      {"short_ios", s.short_ios},
      {"drop_ios", 0},  // only fio's net engine (UDP) drops IOs
      {"errors", s.errors},
      {"slat_ns", LatencyJson(s.slat, nullptr)},
      {"clat_ns", LatencyJson(s.clat, &s.clat_hist)},
      {"lat_ns", LatencyJson(s.lat, &s.lat_hist)},
      {"sched_lat_ns", LatencyJson(s.sched_lat, &s.sched_lat_hist)},
  };
  const RunningStat iops = s.series.IopsStat(job.runtime_ns);
  j["iops_min"] = Round(iops.min());
  j["iops_max"] = Round(iops.max());
  j["iops_mean"] = iops.mean();
  j["iops_stddev"] = iops.stddev();
  j["iops_samples"] = iops.count();
  const RunningStat bws = s.series.BandwidthStat(job.runtime_ns);
  j["bw_min"] = Round(bws.min() / 1024);
  j["bw_max"] = Round(bws.max() / 1024);
  j["bw_mean"] = bws.mean() / 1024;
  j["bw_dev"] = bws.stddev() / 1024;
  j["bw_samples"] = bws.count();
  json buckets = json::array();
  for (const auto& [edge, fraction] :
       (tx ? s.lat_hist : s.clat_hist).Distribution()) {
    buckets.push_back(
        {{"upper_ns", edge == UINT64_MAX ? json(nullptr) : json(edge)},
         {"fraction", fraction}});
  }
  j["latency_buckets"] = buckets;
  json series = json::array();
  for (size_t t = 0; t < s.series.points().size(); ++t) {
    const TimeSeries::Point& p = s.series.points()[t];
    json point = {{"t", t}, {"ios", p.ios}, {"bytes", p.bytes}};
    // tierbench's addition: the second's p99 latency (total, submit to
    // completion) from its log histogram (stats/time_series.h).
    if (!p.latency.empty()) point["p99_ns"] = p.LatencyPercentileNs(99);
    series.push_back(point);
  }
  j["series"] = series;
  return j;
}

json SpecJson(const JobSpec& s) {
  auto bs = [](const BlockSizeSpec& b) {
    if (!b.split.empty()) {
      std::string out;
      for (const auto& [size, pct] : b.split) {
        out += (out.empty() ? "" : ":") + std::to_string(size) + "/" +
               std::to_string(pct);
      }
      return out;
    }
    return b.min == b.max ? std::to_string(b.min)
                          : std::to_string(b.min) + "-" + std::to_string(b.max);
  };
  return {{"filename", s.filename},
          {"rw", RwPatternName(s.rw)},
          {"rwmixread", s.rwmixread},
          {"bs", bs(s.bs[0]) + "," + bs(s.bs[1])},
          {"iodepth", s.iodepth},
          {"numjobs", s.numjobs},
          {"direct", s.direct},
          {"ioengine", s.ioengine},
          {"runtime_ms", s.runtime_ns / kNsPerMs},
          {"time_based", s.time_based},
          {"ramp_time_ms", s.ramp_time_ns / kNsPerMs},
          {"origin", s.origin}};
}

// fio's json "steadystate" object (stat.c show_thread_status_json).
json SteadyStateJson(const SteadyStateResult& ss) {
  char criterion[64];
  std::snprintf(criterion, sizeof criterion, "%f%s", ss.criterion,
                ss.spec.percent ? "%" : "");
  return {{"ss", ss.spec.Describe()},
          {"duration", ss.spec.intervals()},
          {"attained", ss.attained ? 1 : 0},
          {"criterion", criterion},
          {"max_deviation", ss.max_deviation},
          {"slope", ss.slope},
          {"data",
           {{"bw_mean", ss.BwMean()},
            {"iops_mean", ss.IopsMean()},
            {"iops", ss.iops},
            {"bw", ss.bw}}}};
}

// fio's "iodepth_submit" / "iodepth_complete": percent of the calls per
// batch size, keys "0", "4", ..., "64", ">=64" (stat_calc_dist).
json BatchJson(const uint64_t hist[7]) {
  static const char* kKeys[] = {"0", "4", "8", "16", "32", "64", ">=64"};
  uint64_t total = 0;
  for (int i = 0; i < 7; ++i) total += hist[i];
  json out = json::object();
  for (int i = 0; i < 7; ++i) {
    double pct = total ? 100.0 * static_cast<double>(hist[i]) /
                             static_cast<double>(total)
                       : 0.0;
    if (pct < 0.1 && hist[i] != 0) pct = 0.1;
    out[kKeys[i]] = pct;
  }
  return out;
}

}  // namespace

json JobResultToJson(const JobResult& job) {
  const double thread_sec = static_cast<double>(job.runtime_ns) / kNsPerSec *
                            std::max<uint32_t>(1, job.jobs);
  json j = {
      {"jobname", job.name},
      {"groupid", job.group_id},
      {"jobs", job.jobs},
      {"unit", job.unit},
      {"error", job.error.empty() ? 0 : 1},
      {"error_message", job.error},
      {"job_runtime", Round(static_cast<double>(job.runtime_ns) / kNsPerMs)},
      {"job options", SpecJson(job.spec)},
      {"read", DirectionJson(job, IoDir::kRead)},
      {"write", DirectionJson(job, IoDir::kWrite)},
      // fio's sync object: fsync=/fdatasync= syncs and replayed flushes
      // issued after ramp_time.
      {"sync", {{"total_ios", job.issued_syncs}}},
      {"usr_cpu", thread_sec > 0 ? job.usr_cpu_sec / thread_sec * 100 : 0.0},
      {"sys_cpu", thread_sec > 0 ? job.sys_cpu_sec / thread_sec * 100 : 0.0},
      {"usr_cpu_sec", job.usr_cpu_sec},
      {"sys_cpu_sec", job.sys_cpu_sec},
      {"ctx", job.ctx_switches},
      {"majf", job.majf},
      {"minf", job.minf},
  };
  static const char* kDepths[] = {"1", "2", "4", "8", "16", "32", ">=64"};
  uint64_t total = 0;
  for (uint64_t c : job.depth_hist) total += c;
  json depth = json::object();
  for (size_t i = 0; i < std::size(kDepths); ++i) {
    depth[kDepths[i]] = total ? 100.0 * static_cast<double>(job.depth_hist[i]) /
                                    static_cast<double>(total)
                              : 0.0;
  }
  j["iodepth_level"] = depth;
  if (job.unit != "tx") {
    j["iodepth_submit"] = BatchJson(job.submit_hist);
    j["iodepth_complete"] = BatchJson(job.complete_hist);
    // fio's latency_target settings: tierbench has none (fio's defaults).
    j["latency_depth"] = std::max<uint32_t>(1, job.spec.iodepth);
    j["latency_target"] = 0;
    j["latency_percentile"] = 100.0;
    j["latency_window"] = 0;
  }
  if (job.steadystate.enabled)
    j["steadystate"] = SteadyStateJson(job.steadystate);
  if (job.spec.verify.enabled()) {
    j["verify_errors"] = job.verify_errors;
    j["verify_blocks"] = job.verify_blocks;
  }
  return j;
}

json RunResultToJson(const RunResult& r, int64_t timestamp) {
  json jobs = json::array();
  for (const JobResult& job : r.jobs) jobs.push_back(JobResultToJson(job));
  // 2: per-direction sched_lat_ns and the per-job steadystate object.
  // 3: majf, minf, iodepth_submit/complete, latency_*, short_ios and
  // drop_ios; total_ios counts issued IOs (fio's meaning). 4: sync.
  return {{"schema_version", 4},
          {"tool", "tierbench"},
          {"version", TIERBENCH_VERSION},
          {"timestamp", timestamp},
          {"wall_ms", Round(static_cast<double>(r.wall_ns) / kNsPerMs)},
          {"notices", r.notices},
          {"jobs", jobs}};
}

void WriteJsonReport(const RunResult& r, std::ostream& out) {
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  out << RunResultToJson(r, now).dump(2) << '\n';
}

}  // namespace tierbench
