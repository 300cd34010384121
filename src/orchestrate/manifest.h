// manifest.json of a compare run: everything needed to interpret and repeat
// it. Top-level keys (README "manifest.json" documents each):
//   schema_version, tool, version, run_id, command_line, kernel{release,
//   version, machine}, hostname, start_time, end_time, status, options{...},
//   labels{KEY: VALUE}, devices{stacks[{device, layer, size_bytes, description,
//   queue, member_queues}], stack_warnings, hdd{path, size_bytes, queue},
//   ssd{...}}, modes[{file, path, readback, stack}],
//   original_settings{<device>: ...}, restore{attempted, ok, failures},
//   workloads[...], tool_versions{fio, pgbench, postgres}, cells{planned,
//   finished, failed}.
//
// Thread-safety: pure functions apart from reading the system (uname,
// running `--version` of optional tools).
#ifndef TIERBENCH_ORCHESTRATE_MANIFEST_H_
#define TIERBENCH_ORCHESTRATE_MANIFEST_H_

#include <nlohmann/json.hpp>
#include <string>

#include "orchestrate/compare_options.h"
#include "orchestrate/compare_setup.h"
#include "util/sysfs.h"

namespace tierbench {

// 3: "labels" (compare --label KEY=VALUE), an object of strings.
inline constexpr int kManifestSchemaVersion = 3;

// The static part: options, kernel, host, devices, modes, workloads, tools.
// `sysfs` is the tree the devices are read from. Never throws for
// unreadable facts (they are null).
nlohmann::json BuildManifest(const CompareOptions& options,
                             const CompareSetup& setup, const Sysfs& sysfs);

// A workload as parsed (path, name, kind and every resolved job option).
nlohmann::json WorkloadToJson(const PreparedWorkload& w);

// Current UTC time as "2024-01-31T12:00:00Z".
std::string UtcNow();

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_MANIFEST_H_
