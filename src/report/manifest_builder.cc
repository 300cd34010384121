#include "report/manifest_builder.h"

#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>

#include "cache/queue_settings.h"
#include "io/device_guard.h"
#include "io/target.h"
#include "record/cell_record.h"
#include "util/clock.h"
#include "util/cpu_latency.h"
#include "workload/job_file_cpu.h"

namespace tierbench {
namespace {

using nlohmann::json;

// First line of `command` (a --version call), or null when it fails.
json FirstLineOf(const std::string& command) {
  FILE* p = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) return nullptr;
  char buf[256] = {0};
  const bool got = std::fgets(buf, sizeof buf, p) != nullptr;
  const int rc = ::pclose(p);
  if (!got || rc != 0) return nullptr;
  std::string line = buf;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) {
    line.pop_back();
  }
  return line;
}

// What the CPUs' power management adds to a waiting IO (util/cpu_latency.h).
json CpuJson(const Sysfs& sysfs) {
  const CpuPowerFacts f = ReadCpuPowerFacts(sysfs);
  auto text = [](const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
  };
  json states = json::array();
  for (const CpuIdleState& s : f.idle_states) {
    states.push_back(
        {{"name", s.name},
         {"exit_latency_us",
          s.exit_latency_us < 0 ? json(nullptr) : json(s.exit_latency_us)},
         {"disabled", s.disabled}});
  }
  return {
      {"cpuidle_driver", text(f.cpuidle_driver)},
      {"cpuidle_governor", text(f.cpuidle_governor)},
      {"cpufreq_governor", text(f.cpufreq_governor)},
      {"idle_states", states},
      {"guest_halt_poll_ns",
       f.guest_halt_poll_ns < 0 ? json(nullptr) : json(f.guest_halt_poll_ns)},
      {"latency_limit_us",
       f.latency_limit_us ? json(*f.latency_limit_us) : json(nullptr)}};
}

// fio and pgbench from their --version; postgres is the server a DB cell
// ran (AddCell), null until one reports it.
json ToolVersions() {
  return {{"fio", FirstLineOf("fio --version")},
          {"pgbench", FirstLineOf("pgbench --version")},
          {"postgres", nullptr}};
}

json Kernel() {
  struct utsname u;
  if (::uname(&u) != 0) return nullptr;
  return {
      {"release", u.release}, {"version", u.version}, {"machine", u.machine}};
}

// A raw target: its path, size and (for block devices) queue settings.
json RawTargetJson(const std::string& path, const CompareSetup& setup,
                   const Sysfs& sysfs) {
  if (path.empty()) return nullptr;
  json j = {{"path", path}, {"size_bytes", TargetSizeBytes(path)}};
  struct stat st;
  BlockDeviceId id;
  if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode) &&
      ResolveBlockDevice(path, setup.os, &id).ok()) {
    j["device"] = id.name;
    j["queue"] = ReadQueueSettings(sysfs, id.name).ToJson();
  } else {
    j["device"] = nullptr;
    j["queue"] = nullptr;
  }
  return j;
}

json SizeToJson(const SizeSpec& s) {
  if (!s.set) return nullptr;
  if (s.is_percent) return std::to_string(s.percent) + "%";
  return s.bytes;
}

json BlockSizesToJson(const BlockSizeSpec& bs) {
  if (!bs.split.empty()) {
    json split = json::array();
    for (const auto& [size, pct] : bs.split) split.push_back({size, pct});
    return {{"split", split}};
  }
  return {{"min", bs.min}, {"max", bs.max}};
}

// rate=, rate_min=, rate_iops_min=, rate_process= and the steady-state
// options of a job.
json RateOptionsToJson(const JobSpec& j) {
  const SteadyStateSpec& ss = j.steadystate;
  return {{"rate", {j.rate[0], j.rate[1]}},
          {"rate_min", {j.rate_min[0], j.rate_min[1]}},
          {"rate_iops_min", {j.rate_iops_min[0], j.rate_iops_min[1]}},
          {"rate_process",
           j.rate_process == RateProcess::kPoisson ? "poisson" : "linear"},
          {"steadystate", ss.enabled() ? json(ss.Describe()) : json(nullptr)},
          {"ss_dur_ns", ss.dur_ns},
          {"ss_ramp_ns", ss.ramp_ns}};
}

// The io_uring engine's options (fio's names), or null for other engines.
json EngineOptionsToJson(const JobSpec& j) {
  if (j.ioengine != "io_uring") return nullptr;
  const IoUringOptions& u = j.uring;
  return {{"fixedbufs", u.fixedbufs},
          {"registerfiles", u.registerfiles},
          {"sqthread_poll", u.sqthread_poll},
          {"sqthread_poll_cpu",
           u.sqthread_poll_cpu < 0 ? json(nullptr) : json(u.sqthread_poll_cpu)},
          {"hipri", u.hipri},
          {"nonvectored",
           u.nonvectored < 0 ? json("probe") : json(u.nonvectored == 1)}};
}

json JobToJson(const JobSpec& j) {
  return {
      {"name", j.name},
      {"origin", j.origin},
      {"rw", RwPatternName(j.rw)},
      {"rwmixread", j.rwmixread},
      {"percentage_random", j.percentage_random},
      {"bs_read", BlockSizesToJson(j.bs[0])},
      {"bs_write", BlockSizesToJson(j.bs[1])},
      {"blockalign", {j.blockalign[0], j.blockalign[1]}},
      {"iodepth", j.iodepth},
      {"iodepth_batch_submit", j.iodepth_batch_submit},
      {"iodepth_batch_complete_min", j.iodepth_batch_complete_min},
      {"iodepth_batch_complete_max", j.iodepth_batch_complete_max},
      {"numjobs", j.numjobs},
      {"cpus_allowed",
       j.cpus.empty() ? json(nullptr) : json(CpuListText(j.cpus))},
      {"cpus_allowed_policy", j.cpus_split ? "split" : "shared"},
      {"direct", j.direct},
      {"ioengine", j.ioengine},
      {"engine_options", EngineOptionsToJson(j)},
      {"size_bytes", SizeToJson(j.size)},
      {"offset_bytes", SizeToJson(j.offset)},
      {"runtime_ns", j.runtime_ns},
      {"time_based", j.time_based},
      {"ramp_time_ns", j.ramp_time_ns},
      {"norandommap", j.norandommap},
      {"randrepeat", j.randrepeat},
      {"randseed", j.randseed_set ? json(j.randseed) : json(nullptr)},
      {"group_reporting", j.group_reporting},
      {"stonewall", j.stonewall},
      {"thinktime_ns", j.thinktime_ns},
      {"rate_iops", {j.rate_iops[0], j.rate_iops[1]}},
      {"rate_options", RateOptionsToJson(j)},
      {"group_id", j.group_id},
      {"read_iolog", j.read_iolog.empty() ? json(nullptr) : json(j.read_iolog)},
      {"replay_no_stall", j.replay_no_stall},
      {"replay_time_scale", j.replay_time_scale}};
}

}  // namespace

json WorkloadToJson(const PreparedWorkload& w) {
  json j = {{"path", w.path},
            {"name", w.name},
            {"kind", w.is_db ? "pgbench" : "fio"}};
  if (w.is_db) {
    json settings = json::object();
    for (const auto& [k, v] : w.db.postgres_settings) settings[k] = v;
    j["pgbench"] = {
        {"scale", w.db.scale},
        {"clients", w.db.clients},
        {"threads", w.db.threads},
        {"duration_ns", w.db.duration_ns},
        {"query_mode", w.db.query_mode},
        {"builtin", w.db.builtin},
        {"scripts", w.db.scripts},
        {"rate_tps", w.db.rate_tps},
        {"latency_limit_ms", w.db.latency_limit_ms},
        {"random_seed",
         w.db.random_seed_set ? json(w.db.random_seed) : json(nullptr)},
        {"postgres_settings", settings}};
    return j;
  }
  // --capture-replay: the replay of the DB workload at that index; its
  // jobs are filled in once its capture is made (AddCell).
  if (w.capture_of >= 0) j["capture_of"] = w.capture_of;
  json jobs = json::array();
  for (const JobSpec& job : w.io.jobs) jobs.push_back(JobToJson(job));
  j["jobs"] = jobs;
  j["notices"] = w.io.notices;
  return j;
}

ManifestBuilder::ManifestBuilder(const CompareStart& start) {
  const CompareOptions& o = start.options;
  const CompareSetup& setup = start.setup;
  const Sysfs& sysfs = start.sysfs;
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  json options = {
      {"stacks", o.stacks},
      {"hdd", o.hdd},
      {"ssd", o.ssd},
      {"repeat", o.repeat},
      {"cache_state", CacheStateName(o.cache_state)},
      {"results", o.results_dir},
      {"destructive", o.destructive},
      {"stats_lag_s", o.stats_lag_s},
      {"drain_timeout_s", o.drain_timeout_s},
      {"drain_after", o.drain_after_flush ? "flush" : "policy"},
      {"capture_replay", o.capture_replay},
      {"precondition_passes", o.precondition_passes},
      {"sysfs_root", setup.host_root},
      {"runtime_ns",
       o.overrides.runtime_ns ? json(*o.overrides.runtime_ns) : json(nullptr)},
      {"ramp_time_ns", o.overrides.ramp_time_ns
                           ? json(*o.overrides.ramp_time_ns)
                           : json(nullptr)},
      {"size",
       o.overrides.size ? SizeToJson(*o.overrides.size) : json(nullptr)},
      {"randseed",
       o.overrides.randseed ? json(*o.overrides.randseed) : json(nullptr)},
      {"region_bytes", setup.region_bytes},
      {"working_sets", o.working_sets},
      {"reference_cache_bytes", setup.reference_cache_bytes},
      {"warm_chunk_s", o.warm_chunk_s},
      {"warm_max_s", o.warm_max_s},
      {"verify_bytes", o.verify_bytes},
      {"cpu_latency_us",
       o.cpu_latency_us ? json(*o.cpu_latency_us) : json(nullptr)}};
  json devices = {{"hdd", RawTargetJson(o.hdd, setup, sysfs)},
                  {"ssd", RawTargetJson(o.ssd, setup, sysfs)},
                  {"stacks", json::array()}};
  for (const CompareStack& st : setup.stacks) {
    json j = {{"device", st.device},
              {"layer", st.layer->layer()},
              {"size_bytes", TargetSizeBytes(st.device)},
              {"description", st.layer->DescribeJson()},
              {"queue", ReadQueueSettings(sysfs, st.info.name).ToJson()}};
    json members = json::array();
    for (const std::string& m : st.info.members) {
      if (m != st.info.name)
        members.push_back(ReadQueueSettings(sysfs, m).ToJson());
    }
    j["member_queues"] = members;
    devices["stacks"].push_back(j);
  }
  devices["stack_warnings"] = FindingTexts(setup.stack_findings);
  json modes = json::array();
  for (const ModeSpec& m : setup.modes) {
    modes.push_back(
        {{"file", m.ToJson()}, {"path", m.path}, {"readback", nullptr}});
  }
  json workloads = json::array();
  for (const PreparedWorkload& w : setup.workloads) {
    workloads.push_back(WorkloadToJson(w));
  }
  manifest_ = {
      {"schema_version", kManifestSchemaVersion},
      {"tool", "tierbench"},
      {"version", TIERBENCH_VERSION},
      {"run_id", setup.run_id},
      {"command_line", o.command_line},
      {"kernel", Kernel()},
      {"hostname", host},
      {"cpu", CpuJson(sysfs)},
      {"start_time", UtcNow()},
      {"end_time", nullptr},
      {"status", "running"},
      {"options", options},
      {"labels", o.labels},
      {"devices", devices},
      {"modes", modes},
      {"original_settings", json::object()},
      {"restore",
       {{"attempted", false}, {"ok", nullptr}, {"failures", json::array()}}},
      {"workloads", workloads},
      {"verify", o.verify_bytes > 0 ? json{{"bytes", o.verify_bytes},
                                           {"stacks", json::array()}}
                                    : json(nullptr)},
      {"tool_versions", ToolVersions()},
      {"cells",
       {{"planned", start.planned_cells}, {"finished", 0}, {"failed", 0}}}};
}

void ManifestBuilder::SetOriginalSettings(
    const std::vector<OriginalSettings>& stacks) {
  for (const OriginalSettings& st : stacks) {
    manifest_["original_settings"][st.device] = st.settings;
  }
}

void ManifestBuilder::AddCell(const CellRecord& rec) {
  json& mode_json = manifest_["modes"][rec.cell.mode];
  if (!rec.mode->is_raw() && mode_json["readback"].is_null()) {
    mode_json["readback"] = rec.readback.ToJson();
    mode_json["stack"] = rec.stack.ToJson();
  }
  // A --capture-replay replay is prepared after its capture: its jobs as
  // they ran.
  if (rec.workload->capture_of >= 0 && !rec.workload->io.jobs.empty() &&
      manifest_["workloads"][rec.cell.workload]["jobs"].empty()) {
    manifest_["workloads"][rec.cell.workload] = WorkloadToJson(*rec.workload);
  }
  if (rec.workload->is_db && !rec.db_info.server_version.empty()) {
    json& postgres = manifest_["tool_versions"]["postgres"];
    if (postgres.is_null()) postgres = rec.db_info.server_version;
    manifest_["workloads"][rec.cell.workload]["server"] = {
        {"version", rec.db_info.server_version},
        {"settings", rec.db_info.server_settings},
        {"filesystem", rec.db_info.filesystem}};
  }
}

void ManifestBuilder::SetEnd(const CompareEnd& end) {
  if (end.restore.attempted) {
    manifest_["restore"] = {{"attempted", true},
                            {"ok", end.restore.ok},
                            {"failures", end.restore.failures}};
  }
  if (end.precondition) {
    const PreconditionOutcome& p = *end.precondition;
    manifest_["precondition"] = {
        {"device", p.device},   {"range_bytes", p.range_bytes},
        {"passes", p.passes},   {"bytes", p.bytes},
        {"seconds", p.seconds}, {"pass_mib_s", p.pass_mib_s}};
  }
  if (!end.verify.empty()) {
    json stacks = json::array();
    for (const VerifyOutcome& v : end.verify) {
      json steps = json::array();
      for (const VerifyStep& st : v.steps) {
        steps.push_back({{"step", st.step},
                         {"mode", st.mode},
                         {"blocks", st.blocks},
                         {"errors", st.errors},
                         {"dirty_bytes", st.dirty_bytes},
                         {"seconds", st.seconds},
                         {"notes", st.notes},
                         {"mismatches", st.mismatches}});
      }
      stacks.push_back({{"device", v.device},
                        {"layer", v.layer},
                        {"verified", v.verified()},
                        {"complete", v.complete},
                        {"bytes", v.bytes},
                        {"blocks", v.blocks},
                        {"errors", v.errors},
                        {"nonce", v.nonce},
                        {"dirty_bytes_after_write", v.dirty_bytes_after_write},
                        {"seconds", v.seconds},
                        {"steps", steps}});
    }
    manifest_["verify"]["stacks"] = stacks;
  }
  manifest_["status"] = end.status;
  manifest_["end_time"] = UtcNow();
  manifest_["cells"]["finished"] = end.finished_cells;
  manifest_["cells"]["failed"] = end.failed_cells;
}

}  // namespace tierbench
