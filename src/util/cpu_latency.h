// CPU wake-up latency: what the machine's idle states cost an IO that waits
// for its completion, and a way to hold them off while measuring.
//
// A QD1 IO puts its submitter to sleep once per IO; if the CPU meanwhile
// enters an idle state, the completion waits for that CPU (or another) to
// wake up. On a VM whose cpuidle driver halts the vCPU (cpuidle-haltpoll with
// guest_halt_poll_ns=0) that wake costs 10-40 us, though sysfs lists the
// state's exit latency as 1 us; on bare metal, deep C-states cost up to
// ~100 us. Both are added to every QD1 latency of every device alike.
//
// CpuLatencyHold places a request with the kernel's PM QoS interface
// (dev/cpu_dma_latency, Documentation/power/pm_qos_interface.rst): while its
// descriptor is open no CPU enters an idle state whose exit latency exceeds
// the limit (0: none at all; cpuidle then polls). The kernel drops the
// request when the descriptor closes: on destruction and on any process
// exit, signals and crashes included, so nothing is left to restore.
//
// The OS is reached through the Sysfs root (util/sysfs.h): with a test root
// the "device" is a plain file that receives the request.
//
// Thread-safety: a CpuLatencyHold is not copyable; its methods are const.
#ifndef TIERBENCH_UTIL_CPU_LATENCY_H_
#define TIERBENCH_UTIL_CPU_LATENCY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/sysfs.h"

namespace tierbench {

// The largest limit the kernel accepts (PM_QOS_DEFAULT_VALUE's range).
inline constexpr int64_t kMaxCpuLatencyUs = 2000000000;

class CpuLatencyHold {
 public:
  // Opens <root>/dev/cpu_dma_latency and writes `limit_us` as a binary s32
  // (0 <= limit_us <= kMaxCpuLatencyUs, else ConfigError naming
  // --cpu-latency). Throws SysError naming the path and the fix when it
  // cannot be opened or written (not root, no PM QoS in the kernel).
  CpuLatencyHold(const Sysfs& root, int64_t limit_us);
  ~CpuLatencyHold();
  CpuLatencyHold(const CpuLatencyHold&) = delete;
  CpuLatencyHold& operator=(const CpuLatencyHold&) = delete;

  int64_t limit_us() const { return limit_us_; }

 private:
  int fd_ = -1;
  int64_t limit_us_;
};

// The hold `run` and `compare` take for --cpu-latency: nothing when
// `limit_us` is empty, else *hold gets a CpuLatencyHold (which may throw,
// see above) and the notice "holding CPU wake-up latency at N us (...)
// <until>" is logged.
void HoldCpuLatency(const Sysfs& root, std::optional<int64_t> limit_us,
                    const std::string& until,
                    std::optional<CpuLatencyHold>* hold);

// The limit in force for the whole machine, as <root>/dev/cpu_dma_latency
// reads it (a binary s32: the smallest request of all holders, or the
// default 2000000000 when nobody holds one); nullopt when unreadable.
std::optional<int64_t> ReadCpuLatencyLimit(const Sysfs& root);

// One cpuidle state of cpu0 as sysfs describes it.
struct CpuIdleState {
  std::string name;         // state*/name, e.g. "POLL", "C6", "haltpoll idle"
  int64_t exit_latency_us;  // state*/latency; -1 when unreadable
  bool disabled;            // state*/disable
};

// What the manifest records about the CPUs' power management; every field
// is empty/-1 where the machine does not have or show it.
struct CpuPowerFacts {
  std::string cpuidle_driver;  // sys/devices/system/cpu/cpuidle/current_driver
  std::string cpuidle_governor;           // .../cpuidle/current_governor
  std::string cpufreq_governor;           // cpu0/cpufreq/scaling_governor
  std::vector<CpuIdleState> idle_states;  // cpu0/cpuidle/state*
  // sys/module/haltpoll/parameters/guest_halt_poll_ns (a VM's halt-poll
  // window: 0 means every idle vCPU halts and needs the host to wake it).
  int64_t guest_halt_poll_ns = -1;
  std::optional<int64_t> latency_limit_us;  // ReadCpuLatencyLimit
};

CpuPowerFacts ReadCpuPowerFacts(const Sysfs& root);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_CPU_LATENCY_H_
