#include "lab/lab_qemu.h"

#include <charconv>
#include <cstdio>
#include <string_view>

namespace tierbench {
namespace {

// `bus`: "virtio" (QEMU adds the device) or "none" (a -device names it).
std::string DriveSpec(const LabDrive& d, const char* bus = "virtio") {
  std::string spec = "file=" + d.image + ",if=" + bus + ",format=raw";
  if (!d.id.empty()) spec += ",id=" + d.id;
  spec += d.direct_io ? ",cache=none,aio=native" : ",cache=writeback";
  if (d.read_only) spec += ",readonly=on";
  if (d.iops_limit > 0) {
    spec += ",throttling.iops-total=" + std::to_string(d.iops_limit);
  }
  if (d.bytes_per_sec_limit > 0) {
    spec += ",throttling.bps-total=" + std::to_string(d.bytes_per_sec_limit);
  }
  return spec;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::vector<std::string> QemuArgv(const LabMachine& m) {
  std::vector<std::string> argv = {m.qemu,
                                   "-m",
                                   std::to_string(m.memory_mib),
                                   "-smp",
                                   std::to_string(m.cpus),
                                   "-nodefaults",
                                   "-display",
                                   "none",
                                   "-no-reboot",
                                   "-serial",
                                   "stdio",
                                   "-monitor",
                                   "none",
                                   "-kernel",
                                   m.kernel,
                                   "-initrd",
                                   m.initrd,
                                   "-append",
                                   "console=ttyS0 quiet loglevel=3 panic=-1"};
  if (!m.extra_append.empty()) argv.back() += " " + m.extra_append;
  if (m.nice > 0) {
    argv.insert(argv.begin(), {"nice", "-n", std::to_string(m.nice)});
  }
  if (m.kvm) {
    argv.insert(argv.end(), {"-accel", "kvm", "-cpu", "host"});
  }
  if (!m.qmp_socket.empty()) {
    argv.insert(argv.end(),
                {"-qmp", "unix:" + m.qmp_socket + ",server=on,wait=off"});
  }
  for (const LabDrive* d : {&m.hdd, &m.ssd, &m.input, &m.output}) {
    if (d->image.empty()) continue;
    argv.push_back("-drive");
    argv.push_back(DriveSpec(*d));
  }
  // PCI slots from 0x10 on: QEMU creates these devices before the
  // if=virtio ones, which would otherwise come after them (vda would not
  // be the HDD); the guest names virtio disks in slot order.
  int slot = 0x10;
  for (const LabDrive& d : m.hotplug) {
    char addr[16];
    std::snprintf(addr, sizeof addr, "0x%x", slot++);
    argv.insert(argv.end(), {"-drive", DriveSpec(d, "none"), "-device",
                             "virtio-blk-pci,drive=" + d.id + ",id=" +
                                 LabHotplugDeviceId(d.id) + ",addr=" + addr});
  }
  return argv;
}

std::string LabHotplugDeviceId(const std::string& drive_id) {
  return drive_id + "-dev";
}

LabConsoleLine ParseLabConsoleLine(const std::string& line) {
  // The serial console may prefix a line with stray control characters
  // (a carriage return left from the kernel): find the marker anywhere.
  static constexpr std::string_view kMarker = "@@LAB:";
  LabConsoleLine out;
  size_t at = line.find(kMarker);
  if (at == std::string::npos) {
    out.text = line;
    return out;
  }
  std::string_view rest = std::string_view(line).substr(at + kMarker.size());
  struct Prefix {
    std::string_view word;
    LabConsoleLine::Kind kind;
  };
  static constexpr Prefix kPrefixes[] = {
      {"step ", LabConsoleLine::Kind::kStep},
      {"out ", LabConsoleLine::Kind::kOut},
      {"fail ", LabConsoleLine::Kind::kFail},
      {"done rc=", LabConsoleLine::Kind::kDone},
      {"calib ", LabConsoleLine::Kind::kCalib},
      {"hang ", LabConsoleLine::Kind::kHang},
      {"unplug ", LabConsoleLine::Kind::kUnplug},
  };
  if (rest == "cut") {
    out.kind = LabConsoleLine::Kind::kCut;
    return out;
  }
  for (const Prefix& p : kPrefixes) {
    if (StartsWith(rest, p.word) ||
        (p.kind == LabConsoleLine::Kind::kOut && rest == "out")) {
      std::string_view payload =
          rest.size() > p.word.size() ? rest.substr(p.word.size()) : "";
      if (p.kind == LabConsoleLine::Kind::kDone) {
        int code = 0;
        auto [ptr, ec] = std::from_chars(payload.data(),
                                         payload.data() + payload.size(), code);
        if (ec != std::errc() || ptr != payload.data() + payload.size()) break;
        out.code = code;
      }
      out.kind = p.kind;
      out.text = std::string(payload);
      return out;
    }
  }
  out.kind = LabConsoleLine::Kind::kOther;
  out.text = line;
  return out;
}

bool IsKernelProblemLine(std::string_view line) {
  static constexpr std::string_view kSigns[] = {
      "BUG:",
      "Oops",
      "WARNING:",
      "blocked for more than",
      "soft lockup",
      "hard LOCKUP",
      "rcu_sched detected stall",
      "Show Blocked State",
      " state:D ",
      "rcu_preempt detected stall",
      "self-detected stall",
      "Kernel panic",
      "general protection fault",
  };
  if (line.find("@@LAB:") != std::string_view::npos) return false;
  for (std::string_view sign : kSigns) {
    if (line.find(sign) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace tierbench
