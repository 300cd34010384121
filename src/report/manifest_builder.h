// ManifestBuilder: manifest.json of a compare run, everything needed to
// interpret and repeat it. The ONE place that assembles its keys; the
// compare passes data (record/reporter.h events), never key names.
// Top-level keys (results/README.md "manifest.json" documents each):
//   schema_version, tool, version, run_id, command_line, kernel{release,
//   version, machine}, hostname, cpu{cpuidle_driver, cpuidle_governor,
//   cpufreq_governor, idle_states[{name, exit_latency_us, disabled}],
//   guest_halt_poll_ns, latency_limit_us}, start_time, end_time, status,
//   options{...}, labels{KEY: VALUE}, devices{stacks[{device, layer,
//   size_bytes, description, queue, member_queues}], stack_warnings, hdd{path,
//   size_bytes, queue}, ssd{...}}, modes[{file, path, readback, stack}],
//   original_settings{<device>: ...}, restore{attempted, ok, failures},
//   verify (null without --verify; else {bytes, stacks[{device, layer,
//   verified, complete, bytes, blocks, errors, nonce,
//   dirty_bytes_after_write, seconds, steps[{step, mode, blocks, errors,
//   dirty_bytes, seconds, notes, mismatches}]}]}, filled at the end),
//   workloads[{..., server}], tool_versions{fio, pgbench, postgres},
//   cells{planned, finished, failed}.
// Lifecycle: the constructor gives the static part (status "running",
// end_time null); SetOriginalSettings, AddCell and SetEnd fill in the rest
// as the compare goes on.
//
// Thread-safety: not thread-safe; construction reads the system (uname,
// running `--version` of optional tools) and never throws for unreadable
// facts (they are null).
#ifndef TIERBENCH_REPORT_MANIFEST_BUILDER_H_
#define TIERBENCH_REPORT_MANIFEST_BUILDER_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "record/reporter.h"

namespace tierbench {

// 3: "labels" (compare --label KEY=VALUE), an object of strings.
// 4: "cpu" (the CPUs' idle and frequency setup, read at the start) and
//    options.cpu_latency_us (compare --cpu-latency).
inline constexpr int kManifestSchemaVersion = 4;

class ManifestBuilder {
 public:
  // The static part: options, kernel, host, devices (read from
  // start.sysfs), modes, workloads, tools, cells.planned.
  explicit ManifestBuilder(const CompareStart& start);

  // original_settings: each stack's original mode and settings.
  void SetOriginalSettings(const std::vector<OriginalSettings>& stacks);
  // modes[].readback and .stack from the first cache cell of each mode;
  // workloads[].server from each DB cell that reports its server (the
  // latest of its workload), and tool_versions.postgres (null until then: no
  // version is guessed from a binary the run may not have used) from the first
  // DB cell of the run that does (SELECT version() of the server it ran).
  void AddCell(const CellRecord& rec);
  // status, end_time (now), cells.finished/failed, verify.stacks and, when
  // a restore was attempted, restore.
  void SetEnd(const CompareEnd& end);

  const nlohmann::json& manifest() const { return manifest_; }

 private:
  nlohmann::json manifest_;
};

// A workload as parsed (path, name, kind and every resolved job option).
nlohmann::json WorkloadToJson(const PreparedWorkload& w);

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_MANIFEST_BUILDER_H_
