// The lab guest's accelerator: KVM where it works, TCG (software emulation)
// otherwise (--accel auto|kvm|tcg).
//
// auto: when /dev/kvm is missing or does not open read-write, TCG at once,
// without a probe. Otherwise a probe boot decides: the lab's kernel and
// initramfs under `-accel kvm -cpu host` with "tierbench.probe=1" on the
// kernel command line, which makes scripts/lab/init print "@@LAB:done rc=0"
// and power off at once; it must do so within kLabKvmProbeTimeoutS (some
// hosts abort QEMU on an MSR or hang the guest under KVM: lab.md). The
// probe's answer is cached in <lab cache dir>/kvm-probe.txt under a key of
// this boot (/proc/sys/kernel/random/boot_id), the QEMU binary (path, size,
// mtime) and the guest's kernel release, so later runs in the same boot
// skip it. kvm: the same checks, but a failure is an error (SysError
// naming the reason and the fix --accel tcg) instead of TCG. tcg: TCG, no
// checks.
//
// The OS sits behind LabAccelHost (tests inject a fake). ChooseLabAccel is
// otherwise pure; the cache text functions are pure. Thread-safety: one
// host object per thread.
#ifndef TIERBENCH_LAB_LAB_ACCEL_H_
#define TIERBENCH_LAB_LAB_ACCEL_H_

#include <string>

#include "lab/lab_qemu.h"
#include "util/status.h"

namespace tierbench {

inline constexpr double kLabKvmProbeTimeoutS = 15;

enum class LabAccel { kAuto, kKvm, kTcg };

// "auto", "kvm", "tcg"; InvalidArgument otherwise.
Status ParseLabAccel(const std::string& text, LabAccel* out);
const char* LabAccelName(LabAccel accel);

class LabAccelHost {
 public:
  virtual ~LabAccelHost() = default;
  // "" when /dev/kvm opens read-write; else why not ("/dev/kvm: No such
  // file or directory").
  virtual std::string KvmUnusableReason() = 0;
  // This boot's id ("" when unknown: then nothing is cached).
  virtual std::string BootId() = 0;
  // The QEMU binary's identity (resolved path, size, mtime).
  virtual std::string QemuIdentity() = 0;
  // Boots the probe guest under KVM: "" when it powered off cleanly within
  // kLabKvmProbeTimeoutS, else what went wrong (one line).
  virtual std::string ProbeKvm() = 0;
  // The cache file's text ("" when absent), and writing it (best effort).
  virtual std::string ReadProbeCache() = 0;
  virtual void WriteProbeCache(const std::string& text) = 0;
};

struct LabAccelChoice {
  bool kvm = false;
  // How it was decided, for the lab's notice: e.g. "TCG: /dev/kvm: No such
  // file or directory", "KVM (probe booted)", "KVM (probe cached for this
  // boot)", "TCG: the KVM probe failed (cached for this boot): ...".
  std::string how;
  bool probed = false;  // a probe boot ran now
};

// The choice for `want` (see the header comment). Throws SysError for kvm
// when KVM is unusable or its probe fails.
LabAccelChoice ChooseLabAccel(LabAccel want, const std::string& kernel_release,
                              LabAccelHost& host);

// The probe cache's key and text:
//   key=boot_id=<id> qemu=<identity> kernel=<release>
//   result=kvm|tcg
//   reason=<why not kvm>   (only for tcg)
std::string KvmProbeCacheKey(const std::string& boot_id,
                             const std::string& qemu_identity,
                             const std::string& kernel_release);
std::string KvmProbeCacheText(const std::string& key,
                              const std::string& failure);
// True when `text` is a cache entry for `key`; then *failure holds its
// reason ("" when KVM worked).
bool ParseKvmProbeCache(const std::string& text, const std::string& key,
                        std::string* failure);

// The real OS: /dev/kvm, boot_id, `qemu` found on PATH, the cache file
// `cache_file`, and a probe boot of `probe_machine` (its kvm, drives and
// extra_append are set by the probe).
class SystemLabAccelHost : public LabAccelHost {
 public:
  SystemLabAccelHost(std::string cache_file, LabMachine probe_machine);
  std::string KvmUnusableReason() override;
  std::string BootId() override;
  std::string QemuIdentity() override;
  std::string ProbeKvm() override;
  std::string ReadProbeCache() override;
  void WriteProbeCache(const std::string& text) override;

 private:
  std::string cache_file_;
  LabMachine machine_;
};

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_ACCEL_H_
