// The machine's CPU time, from the "cpu" lines of /proc/stat (proc(5)):
// jiffies spent per state since boot, summed over all CPUs ("cpu") and
// per CPU ("cpuN"). Read through the Sysfs root (util/sysfs.h) so tests use
// recorded text.
//
// Busy time is user + nice + system + irq + softirq: what the CPUs spent
// running something. idle and iowait are idle (iowait is idle time with IO
// outstanding); steal is time a hypervisor ran something else on this
// virtual CPU (neither busy nor idle for this machine's work). guest and
// guest_nice are already counted in user and nice (proc(5)), so they are
// not added again.
//
// Value types and pure functions; thread-safe.
#ifndef TIERBENCH_UTIL_PROC_STAT_H_
#define TIERBENCH_UTIL_PROC_STAT_H_

#include <cstdint>
#include <string_view>

#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

struct CpuTimes {
  uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0,
           softirq = 0, steal = 0;
  int cpus = 0;  // number of "cpuN" lines

  uint64_t Busy() const { return user + nice + system + irq + softirq; }
  uint64_t Total() const { return Busy() + idle + iowait + steal; }
};

// Parses the text of /proc/stat: the aggregate "cpu" line (at least the
// four fields of the oldest kernels; missing later ones stay 0) and the
// count of "cpuN" lines. InvalidArgument when there is no "cpu" line or a
// field is not a number.
Status ParseCpuTimes(std::string_view text, CpuTimes* out);

// Reads proc/stat under `os` and parses it.
Status ReadCpuTimes(const Sysfs& os, CpuTimes* out);

// The CPUs' use between two readings, in percent of all CPU time that
// passed (busy + idle + iowait + steal of every CPU).
struct CpuUse {
  double busy_pct = 0;
  double steal_pct = 0;
  double iowait_pct = 0;
};

// `after - before`; false when no time passed or a counter went backwards
// (the readings are not of one boot).
bool DiffCpuTimes(const CpuTimes& before, const CpuTimes& after, CpuUse* out);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_PROC_STAT_H_
