#include "lab/lab_handshake.h"

#include <cstdio>
#include <memory>
#include <utility>

#include "lab/lab_qmp.h"
#include "util/errors.h"

namespace tierbench {
namespace {

constexpr int kQmpConnectMs = 10'000;
constexpr int kQmpCommandMs = 10'000;

class QmpThrottles : public LabThrottleControl {
 public:
  explicit QmpThrottles(std::string socket_path)
      : path_(std::move(socket_path)) {}

  Status Set(const std::string& drive, uint64_t iops,
             uint64_t bytes_per_sec) override {
    Status s = EnsureConnected();
    if (!s.ok()) return s;
    return qmp_->Execute(QmpThrottleCommand(drive, iops, bytes_per_sec),
                         kQmpCommandMs);
  }

  Status Get(const std::string& drive, uint64_t* iops,
             uint64_t* bytes_per_sec) override {
    Status s = EnsureConnected();
    if (!s.ok()) return s;
    std::string reply;
    s = qmp_->Execute(QmpQueryBlockCommand(), kQmpCommandMs, &reply);
    if (!s.ok()) return s;
    return ParseQmpDriveThrottle(reply, drive, iops, bytes_per_sec);
  }

  void NewBoot() override { qmp_.reset(); }

 private:
  Status EnsureConnected() {
    if (qmp_) return Status::Ok();
    auto qmp = std::make_unique<LabQmp>();
    Status s = qmp->Connect(path_, kQmpConnectMs);
    if (s.ok()) s = qmp->Execute(QmpCapabilitiesCommand(), kQmpCommandMs);
    if (s.ok()) qmp_ = std::move(qmp);
    return s;
  }

  std::string path_;
  std::unique_ptr<LabQmp> qmp_;  // null until connected
};

std::string Ms(uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

std::string Ratio(uint64_t guest, uint64_t host) {
  if (host == 0 || guest == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2fx",
                static_cast<double>(guest) / static_cast<double>(host));
  return buf;
}

std::string Limits(const LabLimits& l) {
  return "HDD " + std::to_string(l.hdd_iops) + " IOPS, " +
         std::to_string(l.hdd_bw) + " B/s; SSD " + std::to_string(l.ssd_iops) +
         " IOPS, " + std::to_string(l.ssd_bw) + " B/s (0: unthrottled)";
}

}  // namespace

std::unique_ptr<LabThrottleControl> QmpThrottleControl(
    const std::string& socket_path) {
  return std::make_unique<QmpThrottles>(socket_path);
}

LabHandshake::LabHandshake(LabDilation setting, const CpuLoopTimes& host,
                           const LabLimits& real,
                           std::unique_ptr<LabThrottleControl> throttles)
    : setting_(setting), throttles_(std::move(throttles)) {
  result_.host_parts = host;
  result_.host_ns = host.total_ns();
  result_.real = real;
}

std::string LabHandshake::Answer(const std::string& payload) {
  if (answered_ && !new_boot_) return result_.answer;
  LabHandshakeResult& r = result_;
  if (!answered_) {
    Status s = ParseLabCalibration(payload, &r.guest_ns, &r.guest_parts);
    if (!s.ok()) {
      throw SysError("The lab guest's CPU calibration line does not parse: " +
                     s.message() + ". Line: @@LAB:calib " + payload);
    }
    r.slowdown = LabCpuSlowdown(r.guest_ns, r.host_ns);
    r.factor = LabDilationFactor(setting_, r.guest_ns, r.host_ns);
  }
  // A new boot of the same run keeps the factor its first boot decided.
  if (new_boot_) throttles_->NewBoot();
  new_boot_ = false;
  const LabLimits want = DilateLabLimits(r.real, r.factor);
  const std::pair<const char*, std::pair<uint64_t, uint64_t>> drives[] = {
      {kLabHddDriveId, {want.hdd_iops, want.hdd_bw}},
      {kLabSsdDriveId, {want.ssd_iops, want.ssd_bw}}};
  std::pair<uint64_t, uint64_t> got[2];
  for (int i = 0; i < 2; ++i) {
    const auto& [drive, limits] = drives[i];
    if (!(want == r.real)) {
      Status s = throttles_->Set(drive, limits.first, limits.second);
      if (!s.ok()) {
        throw SysError::From(std::string("Cannot set the lab's ") + drive +
                                 " throttle through QMP (block_set_io_" +
                                 "throttle)",
                             s);
      }
    }
    Status s = throttles_->Get(drive, &got[i].first, &got[i].second);
    if (!s.ok()) {
      throw SysError::From(std::string("Cannot read back the lab's ") + drive +
                               " throttle through QMP (query-block)",
                           s);
    }
    if (got[i] != limits) {
      throw SysError(
          std::string("QEMU's ") + drive +
          " throttle is not the one set. Set: " + std::to_string(limits.first) +
          " IOPS, " + std::to_string(limits.second) +
          " B/s; InForce: " + std::to_string(got[i].first) + " IOPS, " +
          std::to_string(got[i].second) + " B/s");
    }
  }
  r.effective = {got[0].first, got[0].second, got[1].first, got[1].second};
  Status s = LabHostAnswerLine(
      LabDilationLabels(setting_, r.factor, r.slowdown, r.effective),
      &r.answer);
  if (!s.ok()) throw SysError("Cannot build the lab's answer: " + s.message());
  answered_ = true;
  return r.answer;
}

std::string LabDilationReport(const LabDilation& setting,
                              const LabHandshakeResult& r) {
  const std::string f = FormatLabDilationFactor(r.factor);
  std::string t;
  t += "dilation: " + f + " (--dilation " + LabDilationName(setting) + ")\n";
  t += "cpu_slowdown: " + FormatLabDilationFactor(r.slowdown) +
       " (guest loop / host loop)\n";
  t += "loop_guest: " + Ms(r.guest_ns) + " (memory " +
       Ms(r.guest_parts.memory_ns) + ", integer " +
       Ms(r.guest_parts.integer_ns) + ", syscalls " +
       Ms(r.guest_parts.syscall_ns) + ")\n";
  t += "loop_host: " + Ms(r.host_ns) + " (memory " +
       Ms(r.host_parts.memory_ns) + ", integer " + Ms(r.host_parts.integer_ns) +
       ", syscalls " + Ms(r.host_parts.syscall_ns) + ")\n";
  t += "slowdown_by_part: memory " +
       Ratio(r.guest_parts.memory_ns, r.host_parts.memory_ns) + ", integer " +
       Ratio(r.guest_parts.integer_ns, r.host_parts.integer_ns) +
       ", syscalls " +
       Ratio(r.guest_parts.syscall_ns, r.host_parts.syscall_ns) + "\n";
  t += "limits_real: " + Limits(r.real) + "\n";
  t += "limits_in_force: " + Limits(r.effective) + "\n";
  if (r.factor > 1) {
    t += "time: dilated by " + f + ": the guest's CPU and disks both ran " + f +
         " times slower than this host with the real disks; IOPS, tps and "
         "MB/s are 1/" +
         f + " of the real machine's, latencies and durations " + f +
         " times; ratios between modes are the real machine's\n";
  } else {
    t += "time: not dilated (factor 1): the guest's CPU ran " +
         FormatLabDilationFactor(r.slowdown) +
         " times slower than this host against real-speed disks; CPU-bound "
         "cells measure the emulator\n";
  }
  return t;
}

}  // namespace tierbench
