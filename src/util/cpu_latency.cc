#include "util/cpu_latency.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/errors.h"
#include "util/log.h"

namespace tierbench {
namespace {

constexpr char kQosRel[] = "dev/cpu_dma_latency";
constexpr char kCpuRel[] = "sys/devices/system/cpu/";

int64_t ReadInt(const Sysfs& root, const std::string& rel) {
  std::string text;
  if (!root.Read(rel, &text).ok() || text.empty()) return -1;
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    return used == text.size() ? v : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

std::string ReadText(const Sysfs& root, const std::string& rel) {
  std::string text;
  return root.Read(rel, &text).ok() ? text : std::string();
}

}  // namespace

CpuLatencyHold::CpuLatencyHold(const Sysfs& root, int64_t limit_us)
    : limit_us_(limit_us) {
  if (limit_us < 0 || limit_us > kMaxCpuLatencyUs) {
    throw ConfigError(
        "Bad value for --cpu-latency. Value: " + std::to_string(limit_us) +
        "; Fix: microseconds from 0 (no idle states) to " +
        std::to_string(kMaxCpuLatencyUs));
  }
  const std::string path = root.Path(kQosRel);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) {
    throw SysError("--cpu-latency: cannot open " + path + ": " +
                   std::strerror(errno) +
                   ". Fix: run as root on a kernel with PM QoS "
                   "(CONFIG_CPU_IDLE), or leave out --cpu-latency");
  }
  // The kernel takes a 4-byte write as a binary s32 (any other length as a
  // hex string).
  const int32_t value = static_cast<int32_t>(limit_us);
  const ssize_t n = ::write(fd_, &value, sizeof(value));
  if (n != static_cast<ssize_t>(sizeof(value))) {
    const int err = n < 0 ? errno : EIO;
    ::close(fd_);
    fd_ = -1;
    throw SysError("--cpu-latency: cannot write " + path + ": " +
                   std::strerror(err) + ". Fix: leave out --cpu-latency");
  }
}

CpuLatencyHold::~CpuLatencyHold() {
  if (fd_ >= 0) ::close(fd_);
}

void HoldCpuLatency(const Sysfs& root, std::optional<int64_t> limit_us,
                    const std::string& until,
                    std::optional<CpuLatencyHold>* hold) {
  if (!limit_us) return;
  hold->emplace(root, *limit_us);
  LogNotice("holding CPU wake-up latency at " + std::to_string(*limit_us) +
            " us (" + root.Path(kQosRel) + ") " + until);
}

std::optional<int64_t> ReadCpuLatencyLimit(const Sysfs& root) {
  const std::string path = root.Path(kQosRel);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  int32_t value = 0;
  const ssize_t n = ::read(fd, &value, sizeof(value));
  ::close(fd);
  if (n != static_cast<ssize_t>(sizeof(value))) return std::nullopt;
  return value;
}

CpuPowerFacts ReadCpuPowerFacts(const Sysfs& root) {
  const std::string cpu = kCpuRel;
  CpuPowerFacts f;
  f.cpuidle_driver = ReadText(root, cpu + "cpuidle/current_driver");
  f.cpuidle_governor = ReadText(root, cpu + "cpuidle/current_governor");
  f.cpufreq_governor = ReadText(root, cpu + "cpu0/cpufreq/scaling_governor");
  for (int i = 0;; ++i) {
    const std::string dir = cpu + "cpu0/cpuidle/state" + std::to_string(i);
    if (!root.Exists(dir)) break;
    f.idle_states.push_back({ReadText(root, dir + "/name"),
                             ReadInt(root, dir + "/latency"),
                             ReadInt(root, dir + "/disable") == 1});
  }
  f.guest_halt_poll_ns =
      ReadInt(root, "sys/module/haltpoll/parameters/guest_halt_poll_ns");
  f.latency_limit_us = ReadCpuLatencyLimit(root);
  return f;
}

}  // namespace tierbench
