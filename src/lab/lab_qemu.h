// The lab's QEMU machine: its command line, and the console protocol the
// guest's /init (scripts/lab/init) speaks on the serial port.
//
// Disks appear in the guest in command-line order: vda = HDD image, vdb =
// SSD image, vdc = input tar (read-only), vdd = output disk, then the
// hot-pluggable disks; a drive with no image is left out (the KVM probe
// boots with none). QEMU's throttling.* options make the HDD and SSD images
// behave like two different disks; a drive with an id can have them
// changed at run time through QMP (lab/lab_qmp.h) when the machine has a
// QMP socket.
//
// All functions are pure and thread-safe.
#ifndef TIERBENCH_LAB_LAB_QEMU_H_
#define TIERBENCH_LAB_LAB_QEMU_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tierbench {

// One emulated disk. Zero limits mean unthrottled.
struct LabDrive {
  std::string image;  // empty: no such drive
  uint64_t iops_limit = 0;
  uint64_t bytes_per_sec_limit = 0;
  bool direct_io = true;  // cache=none,aio=native (O_DIRECT on the image)
  bool read_only = false;
  std::string id;  // -drive id= (QMP's device name); empty: none
};

struct LabMachine {
  std::string qemu = "qemu-system-x86_64";
  std::string kernel;
  std::string initrd;
  uint64_t memory_mib = 2048;
  int cpus = 2;
  // > 0: QEMU runs under `nice -n N` (lab/lab_parts.h: the guests without
  // DB cells yield the host's CPU to the ones with them).
  int nice = 0;
  bool kvm = false;  // -accel kvm -cpu host instead of TCG
  // -qmp unix:<path>,server=on,wait=off when not empty.
  std::string qmp_socket;
  // Appended to the kernel command line (e.g. "tierbench.probe=1").
  std::string extra_append;
  LabDrive hdd;
  LabDrive ssd;
  LabDrive input;
  LabDrive output;
  // Disks after vdd (vde, vdf, ... in this order: PCI slots 0x10, 0x11,
  // ...), each a virtio-blk-pci device of its own whose -device id is
  // LabHotplugDeviceId(drive id), so QMP's device_del can remove it from
  // the running guest (ACPI PCI hot-unplug: the fault scenario's
  // cache-unplug).
  std::vector<LabDrive> hotplug;
};

// The -device id of hot-pluggable drive `drive_id` ("<drive_id>-dev").
std::string LabHotplugDeviceId(const std::string& drive_id);

// The full argv of qemu-system-x86_64 for `m`: no display, no monitor, the
// serial console on stdout, powering off exits QEMU (-no-reboot; the guest
// kernel is told panic=-1 so a panic exits too).
std::vector<std::string> QemuArgv(const LabMachine& m);

// One line of the guest console, classified.
struct LabConsoleLine {
  enum class Kind {
    kStep,    // "@@LAB:step TEXT": the guest began a stage
    kOut,     // "@@LAB:out LINE": a line tierbench printed in the guest
    kFail,    // "@@LAB:fail TEXT": the guest gave up
    kDone,    // "@@LAB:done rc=N": the last line; `code` holds N
    kCut,     // "@@LAB:cut": cut the power now (lab/lab_power_cut.h)
    kCalib,   // "@@LAB:calib PAYLOAD": the guest's CPU calibration; it waits
              // for the host's answer on the console (lab/lab_dilation.h)
    kUnplug,  // "@@LAB:unplug ID": remove hot-pluggable drive ID now (QMP
              // device_del; the fault scenario's cache-unplug)
    kHang,    // "@@LAB:hang TEXT": a step that builds a stack did not return
              // in time (a kernel hang, scripts/lab/init's guard); the guest
              // prints the kernel's blocked tasks, then fails
    kOther,   // kernel messages and anything else
  };
  Kind kind = Kind::kOther;
  std::string text;  // the payload (the whole line for kOther)
  int code = -1;     // kDone only
};

LabConsoleLine ParseLabConsoleLine(const std::string& line);

// True for a console line where the kernel reports a problem: an oops or
// BUG, a WARNING, a task blocked for more than its hung-task timeout, a soft
// lockup, an RCU stall, a panic, or sysrq w's list of blocked tasks ("Show
// Blocked State", a task in state D: what the setup guard prints). Such lines go into a failed lab run's
// message, since the lab's console shows errors only (loglevel=3) unless the
// guest printed its kernel log on purpose.
bool IsKernelProblemLine(std::string_view line);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_QEMU_H_
