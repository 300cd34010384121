// HostSampler: what the machine did over a cell's measured window, as the
// validity rules need it (validity/cell_evidence.h HostEvidence): the CPUs
// (proc/stat), the target device's block counters (busy time from
// io_ticks, IOs in flight at the start, flushes) and every whole disk
// under the cell against the partitions the cell uses on it (IO the cell
// does not explain is other IO).
//
// Use: Begin() right before the workload starts; Tick() about once a
// second while it runs (RunOptions::on_second); End() when it returns.
// The window is Begin..End for IO workloads; for a DB cell, whose call
// also creates and loads its database, it is the first Tick..End (pass
// window_from_first_tick). Readings never throw: a file that cannot be
// read makes the evidence unknown, with the reason.
//
// Not thread-safe: one sampler per cell, on the orchestrating thread.
#ifndef TIERBENCH_ORCHESTRATE_HOST_SAMPLER_H_
#define TIERBENCH_ORCHESTRATE_HOST_SAMPLER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cache/block_stat.h"
#include "util/proc_stat.h"
#include "util/sysfs.h"
#include "validity/cell_evidence.h"

namespace tierbench {

class HostSampler {
 public:
  // `target` is the block device name IO goes to ("vda4", "bcache0"; ""
  // when the target is no block device); `members` the block devices under
  // it (a stack's StackInfo::members; empty for a raw device).
  HostSampler(const Sysfs& os, std::string target,
              std::vector<std::string> members, bool window_from_first_tick);

  void Begin();
  void Tick();
  void End();

  // The evidence of the window (End() must have been called).
  HostEvidence Evidence() const;

 private:
  struct Reading {
    uint64_t taken_ns = 0;
    std::optional<CpuTimes> cpu;
    std::string cpu_text;                    // the "cpu" lines read
    std::map<std::string, BlockStat> stats;  // every device read
    std::map<std::string, std::string> stat_text;
  };
  Reading Take() const;

  const Sysfs& os_;
  std::string target_;
  // Whole disk -> the cell's leaf devices on it.
  std::map<std::string, std::vector<std::string>> disks_;
  std::string disks_unknown_why_;
  bool from_first_tick_;
  std::optional<Reading> begin_, first_tick_, end_;
};

// The whole disk a block device belongs to: its parent for a partition,
// else itself. Read through sys/class/block.
std::string WholeDiskOf(const Sysfs& os, const std::string& name);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_HOST_SAMPLER_H_
