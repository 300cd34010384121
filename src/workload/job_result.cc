#include "workload/job_result.h"

#include <algorithm>

#include "util/io_dir.h"
#include "util/units.h"

namespace tierbench {

void DirectionStats::Merge(const DirectionStats& other) {
  ios += other.ios;
  bytes += other.bytes;
  errors += other.errors;
  issued += other.issued;
  short_ios += other.short_ios;
  slat.Merge(other.slat);
  clat.Merge(other.clat);
  lat.Merge(other.lat);
  clat_hist.Merge(other.clat_hist);
  lat_hist.Merge(other.lat_hist);
  sched_lat.Merge(other.sched_lat);
  sched_lat_hist.Merge(other.sched_lat_hist);
  series.Merge(other.series);
}

double JobResult::Iops(IoDir d) const {
  if (runtime_ns == 0) return 0.0;
  return static_cast<double>(dir[static_cast<int>(d)].ios) * kNsPerSec /
         static_cast<double>(runtime_ns);
}

double JobResult::BytesPerSec(IoDir d) const {
  if (runtime_ns == 0) return 0.0;
  return static_cast<double>(dir[static_cast<int>(d)].bytes) * kNsPerSec /
         static_cast<double>(runtime_ns);
}

void JobResult::Merge(const JobResult& other) {
  for (int d = 0; d < kNumDirs; ++d) dir[d].Merge(other.dir[d]);
  jobs += other.jobs;
  runtime_ns = std::max(runtime_ns, other.runtime_ns);
  usr_cpu_sec += other.usr_cpu_sec;
  sys_cpu_sec += other.sys_cpu_sec;
  ctx_switches += other.ctx_switches;
  majf += other.majf;
  minf += other.minf;
  if (pid == 0) pid = other.pid;
  end_time = std::max(end_time, other.end_time);
  syncs += other.syncs;
  issued_syncs += other.issued_syncs;
  end_fsyncs += other.end_fsyncs;
  verify_errors += other.verify_errors;
  verify_blocks += other.verify_blocks;
  for (size_t i = 0; i < std::size(depth_hist); ++i) {
    depth_hist[i] += other.depth_hist[i];
    submit_hist[i] += other.submit_hist[i];
    complete_hist[i] += other.complete_hist[i];
  }
  if (!steadystate.enabled) steadystate = other.steadystate;
  if (error_fix.empty()) error_fix = other.error_fix;
  if (!other.error.empty()) {
    error = error.empty() ? other.error : error + "; " + other.error;
  }
}

void JobResult::AddCpu(const ThreadCpu& cpu) {
  usr_cpu_sec += cpu.usr_sec;
  sys_cpu_sec += cpu.sys_sec;
  ctx_switches += cpu.ctx;
  majf += cpu.majf;
  minf += cpu.minf;
}

std::vector<IoDir> ReportedDirections(const JobResult& r) {
  std::vector<IoDir> dirs;
  for (IoDir d : {IoDir::kRead, IoDir::kWrite}) {
    const DirectionStats& s = r.dir[static_cast<int>(d)];
    if (s.ios > 0 || s.errors > 0) dirs.push_back(d);
  }
  if (dirs.empty()) {
    dirs.push_back(PatternReads(r.spec.rw) ? IoDir::kRead : IoDir::kWrite);
  }
  return dirs;
}

}  // namespace tierbench
