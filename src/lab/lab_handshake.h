// LabHandshake: the host's side of the lab's time-dilation handshake
// (lab/lab_dilation.h), one per boot of the compare scenario.
//
// Answer() gets the payload of the guest's "@@LAB:calib" line, computes the
// factor F from the guest's and the host's time of the calibration loop and
// the setting (--dilation), sets the HDD's and SSD's throttles to the real
// limits divided by F (only when they change), reads back what QEMU has in
// force and returns the answer line "@@HOST:labels ..." whose labels carry
// F and those read-back limits. A second call answers with the same line
// and changes nothing, unless NewBoot() came between: then the run's guest
// was booted again on a new QEMU (after a kernel hang, lab/lab_workspace.h),
// whose throttles are set to the limits of the same F (the first boot's
// decision stands; the new payload is not used).
//
// The disks' throttles sit behind LabThrottleControl (QMP in the lab,
// lab/lab_qmp.h; a fake in tests). Errors: SysError when the payload does
// not parse, QEMU refuses a throttle, or the read-back limits differ from
// the ones set; the message names the QMP socket or the payload.
//
// Thread-safety: one object per boot, used by the boot's thread.
#ifndef TIERBENCH_LAB_LAB_HANDSHAKE_H_
#define TIERBENCH_LAB_LAB_HANDSHAKE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "lab/lab_cpu_loop.h"
#include "lab/lab_dilation.h"
#include "util/status.h"

namespace tierbench {

// The drive ids of the lab's HDD and SSD (-drive id=, QMP device names).
inline constexpr char kLabHddDriveId[] = "hdd";
inline constexpr char kLabSsdDriveId[] = "ssd";

class LabThrottleControl {
 public:
  virtual ~LabThrottleControl() = default;
  // Sets drive `drive`'s total IOPS and bytes/s limits (0: off).
  virtual Status Set(const std::string& drive, uint64_t iops,
                     uint64_t bytes_per_sec) = 0;
  // Reads back the limits in force on `drive`.
  virtual Status Get(const std::string& drive, uint64_t* iops,
                     uint64_t* bytes_per_sec) = 0;
  // The next call talks to a new QEMU on the same socket path (the guest
  // was booted again): a connection to the old one is dropped.
  virtual void NewBoot() {}
};

// LabThrottleControl over QMP: connects to `socket_path` on first use
// (QEMU is running by then) and negotiates capabilities; again after
// NewBoot().
std::unique_ptr<LabThrottleControl> QmpThrottleControl(
    const std::string& socket_path);

// What one handshake decided (valid once answered()).
struct LabHandshakeResult {
  double factor = 1;    // F in force
  double slowdown = 0;  // guest_ns / host_ns
  uint64_t host_ns = 0;
  uint64_t guest_ns = 0;
  CpuLoopTimes host_parts;
  CpuLoopTimes guest_parts;
  LabLimits real;       // the limits asked for (--hdd-iops etc.)
  LabLimits effective;  // read back from QEMU after the change
  std::string answer;   // the line sent
};

class LabHandshake {
 public:
  // `real`: the limits QEMU was started with (the real-machine figures);
  // `host`: the host's time of the calibration loop.
  LabHandshake(LabDilation setting, const CpuLoopTimes& host,
               const LabLimits& real,
               std::unique_ptr<LabThrottleControl> throttles);

  std::string Answer(const std::string& payload);

  // The next Answer() serves a new QEMU of the same run.
  void NewBoot() { new_boot_ = true; }

  bool answered() const { return answered_; }
  const LabHandshakeResult& result() const { return result_; }

 private:
  LabDilation setting_;
  std::unique_ptr<LabThrottleControl> throttles_;
  LabHandshakeResult result_;
  bool answered_ = false;
  bool new_boot_ = false;
};

// The lines of lab/dilation.txt for `r` ("key: value" lines: factor, the
// guest's and host's loop times per part, the real and effective limits,
// and what dilated time means for the figures).
std::string LabDilationReport(const LabDilation& setting,
                              const LabHandshakeResult& r);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_HANDSHAKE_H_
