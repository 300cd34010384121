// LabFault: `tierbench lab --fault cache-fail|cache-unplug|origin-errors` -
// what does a cache layer do, and what does a user lose, when its SSD fails
// or disappears (or its origin returns errors) while it holds dirty data?
//
// Run() finds or builds the guest, makes the disks (lab/lab_workspace.h)
// and boots one guest (scripts/lab/init with lab.conf SCENARIO=fault
// FAULT=<kind> FAULT_MIB=<n>, which runs scripts/lab/fault from the input
// tar). Per layer the guest writes generation 1 of FAULT_MIB MiB of
// verify-headed blocks onto the origin, builds the stack in writeback with
// writeback held off over dm linear targets, writes generation 2 through
// it (acknowledged, synced, dirty in the cache), switches the failing side
// to the dm `error` target under a writer (cache-unplug: the layer's cache
// side sits on a disk of its own, vde/vdf/vdg for bcache/dm-cache/
// dm-writecache, which the guest asks the host to remove: "@@LAB:unplug
// cache-<layer>", QMP device_del, an ACPI PCI hot-unplug the guest's kernel
// carries out), and records what the writer
// saw, the stack's state, the kernel's log, the blocks read back through
// the stack (intact, stale, lost, corrupt: workload/block_check.h), the
// layer's recovery path and its effect, and the bare origin after the stack
// is taken down (scripts/lab/fault has the steps). The rows
// (lab/fault_record.h) go to the reporters (report/fault_reporter.h:
// fault.csv and a console line per layer).
//
// The fault runs undilated (no CPU calibration): it checks what happens to
// data, not speed. It touches only the lab's disk images.
//
// Errors: ConfigError (a layer without a fault scenario; the run directory
// exists), SysError (QEMU or the guest failed or timed out, or left
// results that do not parse; messages name the console log).
// InterruptedError on SIGINT/SIGTERM. A layer that corrupts data silently
// is a finding (fault.csv silent_corruption > 0), not an error.
//
// Thread-safety: one LabFault per thread.
#ifndef TIERBENCH_LAB_LAB_FAULT_H_
#define TIERBENCH_LAB_LAB_FAULT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "lab/lab_runner.h"
#include "report/fault_reporter.h"
#include "util/status.h"

namespace tierbench {

// The faults --fault takes: "cache-fail", "cache-unplug", "origin-errors".
std::vector<std::string> FaultKinds();

// The layers --fault runs by default: bcache, dm-cache, dm-writecache.
std::vector<std::string> FaultLayers();

// OK when `kind` is a fault and every layer has the fault scenario;
// InvalidArgument naming the first that does not (lvmcache: its cache is
// an LVM cachevol, not a device the lab can switch) and why.
Status CheckFault(const std::string& kind,
                  const std::vector<std::string>& layers);

// InvalidArgument when `mib` MiB held dirty plus the writer's `mib` MiB
// exceed a quarter of the cache an SSD of `ssd_bytes` gives each layer
// (dm-writecache starts writing back at half of it: the region would not
// stay dirty), naming the largest --fault-size that fits.
Status CheckFaultSize(uint64_t ssd_bytes, uint64_t mib);

// lab.conf for the fault boot: LabConfText() plus SCENARIO, FAULT and
// FAULT_MIB, and for cache-unplug UNPLUG_SECTORS (the size of each
// unpluggable cache disk). Pure.
std::string FaultConfText(const LabOptions& options, const std::string& run_id,
                          const std::string& kind, uint64_t mib);

// The size of cache-unplug's cache disks for an SSD of `ssd_bytes`: that of
// dm-cache's SSD region (metadata and data; the other layers use the first
// cache-sized part). 0 when the SSD has no valid layout. Pure.
uint64_t FaultUnplugDiskBytes(uint64_t ssd_bytes);

// The QEMU drive id of `layer`'s unpluggable cache disk ("cache-<layer>").
std::string FaultUnplugDriveId(const std::string& layer);

class LabFault {
 public:
  // Uses the machine, path and layer fields of `options`; the CLI refuses
  // the compare's. `mib`: the checked region (and the writer's) per layer.
  LabFault(LabOptions options, std::string kind, uint64_t mib,
           std::ostream& console);

  FaultRun Run();

 private:
  LabOptions options_;
  std::string kind_;
  uint64_t mib_;
  std::ostream& console_;
};

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_FAULT_H_
