// RunDifferences: what the manifests of several run folders record
// differently, for the fleet report (`tierbench report runA runB ...`): the
// facts that explain a change before any figure is read.
//
// Compared, as flattened "key" -> text values (nested objects joined with
// '.', arrays as JSON text): hostname, kernel.*, version, labels.*
// (compare --label, among them the lab's emulated disks: lab.ssd_iops, ...),
// options.* and tool_versions.*. Left out: what differs on every run by
// design (run_id, command_line, start/end time, status) and the device
// details (paths and queues: see each run's manifest). A key one manifest
// lacks reads "—" there. Keys come in the order above, then by name.
// Pure; thread-safe.
#ifndef TIERBENCH_PRESENT_RUN_DIFFERENCES_H_
#define TIERBENCH_PRESENT_RUN_DIFFERENCES_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tierbench {

struct RunDifference {
  std::string key;                  // "labels.lab.ssd_iops", "kernel.release"
  std::vector<std::string> values;  // one per manifest, in the given order
};

// The keys whose values are not all equal across `manifests`.
std::vector<RunDifference> DiffManifests(
    const std::vector<const nlohmann::json*>& manifests);

// "labels.lab.ssd_iops" -> "lab.ssd_iops", "options.runtime_ns" ->
// "runtime_ns" (option), "kernel.release" -> "kernel release": the key as
// the summary and the page name it.
std::string DifferenceLabel(const std::string& key);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_RUN_DIFFERENCES_H_
