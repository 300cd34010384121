#include "lab/lab_accel.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "lab/lab_boot.h"
#include "util/errors.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// The first line of `text` ("" when none).
std::string FirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

Status ParseLabAccel(const std::string& text, LabAccel* out) {
  if (text == "auto") {
    *out = LabAccel::kAuto;
  } else if (text == "kvm") {
    *out = LabAccel::kKvm;
  } else if (text == "tcg") {
    *out = LabAccel::kTcg;
  } else {
    return Status::InvalidArgument("not auto, kvm or tcg");
  }
  return Status::Ok();
}

const char* LabAccelName(LabAccel accel) {
  switch (accel) {
    case LabAccel::kAuto:
      return "auto";
    case LabAccel::kKvm:
      return "kvm";
    case LabAccel::kTcg:
      break;
  }
  return "tcg";
}

std::string KvmProbeCacheKey(const std::string& boot_id,
                             const std::string& qemu_identity,
                             const std::string& kernel_release) {
  return "boot_id=" + boot_id + " qemu=" + qemu_identity +
         " kernel=" + kernel_release;
}

std::string KvmProbeCacheText(const std::string& key,
                              const std::string& failure) {
  std::string text = "key=" + FirstLine(key) + "\n";
  if (failure.empty()) return text + "result=kvm\n";
  return text + "result=tcg\nreason=" + FirstLine(failure) + "\n";
}

bool ParseKvmProbeCache(const std::string& text, const std::string& key,
                        std::string* failure) {
  std::istringstream in(text);
  std::string line, got_key, result, reason;
  while (std::getline(in, line)) {
    if (line.rfind("key=", 0) == 0) got_key = line.substr(4);
    if (line.rfind("result=", 0) == 0) result = line.substr(7);
    if (line.rfind("reason=", 0) == 0) reason = line.substr(7);
  }
  if (got_key.empty() || got_key != key) return false;
  if (result == "kvm") {
    failure->clear();
    return true;
  }
  if (result == "tcg") {
    *failure = reason.empty() ? "the probe failed" : reason;
    return true;
  }
  return false;
}

LabAccelChoice ChooseLabAccel(LabAccel want, const std::string& kernel_release,
                              LabAccelHost& host) {
  LabAccelChoice c;
  if (want == LabAccel::kTcg) {
    c.how = "TCG (--accel tcg)";
    return c;
  }
  const std::string unusable = host.KvmUnusableReason();
  if (!unusable.empty()) {
    if (want == LabAccel::kKvm) {
      throw SysError("KVM is not usable here: " + unusable +
                     ". Fix: --accel tcg (or auto: TCG when KVM is missing)");
    }
    c.how = "TCG: " + unusable;
    return c;
  }
  const std::string boot_id = host.BootId();
  const std::string key =
      KvmProbeCacheKey(boot_id, host.QemuIdentity(), kernel_release);
  std::string failure;
  bool cached = false;
  if (!boot_id.empty()) {
    cached = ParseKvmProbeCache(host.ReadProbeCache(), key, &failure);
  }
  if (!cached) {
    failure = host.ProbeKvm();
    c.probed = true;
    if (!boot_id.empty()) host.WriteProbeCache(KvmProbeCacheText(key, failure));
  }
  const std::string source =
      cached ? "probe cached for this boot" : "probe booted";
  if (failure.empty()) {
    c.kvm = true;
    c.how = "KVM (" + source + ")";
    return c;
  }
  if (want == LabAccel::kKvm) {
    throw SysError("The KVM probe failed (" + source + "): " + failure +
                   ". Fix: --accel tcg (or auto: TCG when the probe fails)");
  }
  c.how = "TCG: the KVM probe failed (" + source + "): " + failure;
  return c;
}

SystemLabAccelHost::SystemLabAccelHost(std::string cache_file,
                                       LabMachine probe_machine)
    : cache_file_(std::move(cache_file)), machine_(std::move(probe_machine)) {}

std::string SystemLabAccelHost::KvmUnusableReason() {
  int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
  if (fd < 0) return std::string("/dev/kvm: ") + std::strerror(errno);
  close(fd);
  return "";
}

std::string SystemLabAccelHost::BootId() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  return id;
}

std::string SystemLabAccelHost::QemuIdentity() {
  std::string path = machine_.qemu;
  if (path.find('/') == std::string::npos) {
    const char* env = getenv("PATH");
    std::stringstream dirs(env ? env : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      if (!dir.empty() && access((dir + "/" + path).c_str(), X_OK) == 0) {
        path = dir + "/" + path;
        break;
      }
    }
  }
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  if (!ec) path = real.string();
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return path;
  return path + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(st.st_mtim.tv_sec);
}

std::string SystemLabAccelHost::ProbeKvm() {
  LabMachine m = machine_;
  m.kvm = true;
  m.hdd = m.ssd = m.input = m.output = LabDrive{};
  m.qmp_socket.clear();
  m.extra_append = "tierbench.probe=1";
  LabBootOptions options;
  options.timeout_s = static_cast<uint64_t>(kLabKvmProbeTimeoutS);
  std::ostringstream console;
  LabBootResult r;
  try {
    r = BootLabGuest(m, options, console, [](const std::string&) {});
  } catch (const SysError& e) {
    return e.what();
  }
  if (r.timed_out) {
    return "no power-off within " + std::to_string(options.timeout_s) +
           " s (the guest hangs under KVM); tail: " + JoinLabTail(r.tail);
  }
  if (r.done_rc != 0 || r.qemu_exit != 0) {
    return "QEMU exited " + std::to_string(r.qemu_exit) +
           " before the guest's /init ran; tail: " + JoinLabTail(r.tail);
  }
  return "";
}

std::string SystemLabAccelHost::ReadProbeCache() {
  return ReadLabTextFile(cache_file_);
}

void SystemLabAccelHost::WriteProbeCache(const std::string& text) {
  std::error_code ec;
  fs::create_directories(fs::path(cache_file_).parent_path(), ec);
  const std::string tmp = cache_file_ + ".tmp";
  {
    std::ofstream out(tmp);
    out << text;
    if (!out) return;
  }
  fs::rename(tmp, cache_file_, ec);
}

}  // namespace tierbench
