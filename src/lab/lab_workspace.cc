#include "lab/lab_workspace.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <vector>

#include "lab/lab_accel.h"
#include "lab/lab_boot.h"
#include "lab/lab_disk.h"
#include "lab/lab_handshake.h"
#include "lab/lab_layers.h"
#include "util/data_dir.h"
#include "util/errors.h"
#include "util/log.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMinHddRegionBytes = 64ull << 20;
constexpr uint64_t kMinSsdCacheBytes = 64ull << 20;
constexpr uint64_t kOutputDiskBytes = 1ull << 30;

// True when `image` can be opened with O_DIRECT (QEMU's cache=none); older
// kernels' tmpfs refuses it.
bool SupportsDirectIo(const std::string& image) {
  int fd = open(image.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
  if (fd < 0) return false;
  close(fd);
  return true;
}

void CheckStatus(const Status& s, const std::string& what) {
  if (!s.ok()) throw SysError::From(what, s);
}

}  // namespace

LabWorkspace::LabWorkspace(const LabOptions& options) : options_(options) {
  const LabOptions& o = options_;
  std::vector<LabPartition> hdd_layout, ssd_layout;
  Status s = LabHddLayout(o.hdd_bytes, kMinHddRegionBytes, &hdd_layout);
  if (!s.ok()) throw ConfigError("Bad --hdd-size. " + s.message());
  s = LabSsdLayout(o.ssd_bytes, kMinSsdCacheBytes, &ssd_layout);
  if (!s.ok()) throw ConfigError("Bad --ssd-size. " + s.message());

  std::string tmp_root = o.tmp_dir;
  if (tmp_root.empty()) {
    const char* env = getenv("TMPDIR");
    tmp_root = env && *env ? env : "/var/tmp";
  }
  const std::string tmpl = tmp_root + "/tierbench-lab.XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    throw SysError::From("Cannot create the lab's temporary directory. Path: " +
                             tmpl + "; Fix: pass --tmp-dir DIR",
                         Status::FromErrno("mkdtemp", errno));
  }
  dir_ = buf.data();
  const bool shm = !o.ssd_dir.empty() && fs::is_directory(o.ssd_dir);
  ssd_image_ =
      shm ? o.ssd_dir + "/" + fs::path(dir_).filename().string() + "-ssd.img"
          : dir_ + "/ssd.img";
  hdd_image_ = dir_ + "/hdd.img";
  out_image_ = dir_ + "/out.img";
  // From here on the destructor does not run if the constructor throws:
  // clean up by hand.
  try {
    CheckStatus(CreateLabDiskImage(hdd_image_, o.hdd_bytes, hdd_layout),
                "Cannot create the HDD image. Path: " + hdd_image_);
    CheckStatus(CreateLabDiskImage(ssd_image_, o.ssd_bytes, ssd_layout),
                "Cannot create the SSD image. Path: " + ssd_image_);
    CheckStatus(CreateSparseFile(out_image_, kOutputDiskBytes),
                "Cannot create the output disk. Path: " + out_image_);
    MakeLabDirs(in_dir());
  } catch (...) {
    std::error_code ec;
    fs::remove(ssd_image_, ec);
    fs::remove_all(dir_, ec);
    throw;
  }
}

LabWorkspace::~LabWorkspace() {
  std::error_code ec;
  fs::remove(ssd_image_, ec);
  if (options_.keep) {
    LogNotice(LabNoticePrefix(options_) + "kept " + dir_ +
              " (--keep); the SSD image was removed");
  } else {
    fs::remove_all(dir_, ec);
  }
}

void LabWorkspace::PackInput() const {
  std::error_code ec;
  fs::remove(in_tar(), ec);
  RunLabToolOrThrow({"tar", "-c", "-f", in_tar(), "-C", in_dir(), "."},
                    "Cannot pack the lab input tar");
}

namespace {

// Moves folder `from` to `to` (a copy when they are on different file
// systems). Throws SysError naming `to`.
void MoveLabFolder(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) {
    ec.clear();
    fs::copy(from, to, fs::copy_options::recursive, ec);
  }
  if (ec) {
    throw SysError("Cannot store the lab results. Path: " + to +
                   "; SysErr: " + ec.message());
  }
}

}  // namespace

void LabWorkspace::StoreResults(bool guest_finished,
                                const std::string& run_dir) const {
  const std::string extract = dir_ + "/out";
  const std::string run_id = fs::path(run_dir).filename().string();
  MakeLabDirs(extract);
  if (guest_finished) {
    RunLabToolOrThrow(
        {"tar", "-x", "-f", out_image_, "-C", extract},
        "Cannot read the results the lab guest wrote. Image: " + out_image_);
  }
  MakeLabDirs(fs::path(run_dir).parent_path().string());
  if (fs::is_directory(extract + "/" + run_id)) {
    MoveLabFolder(extract + "/" + run_id, run_dir);
  }
  // What a boot that hung handed back, unless this is that boot's own store.
  const std::string hung = HungBootDir(run_id) + "/lab";
  if (run_dir.rfind(dir_ + "/", 0) != 0 && fs::is_directory(hung)) {
    MakeLabDirs(run_dir + "/lab");
    MoveLabFolder(hung, run_dir + "/lab/hang");
  }
}

std::string LabWorkspace::qmp_socket() const {
  const std::string path = dir_ + "/qmp.sock";
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    throw ConfigError(
        "The lab's temporary directory is too long a path for "
        "QEMU's QMP socket. Path: " +
        path + "; Fix: pass --tmp-dir with a shorter path");
  }
  return path;
}

LabMachine LabWorkspace::Machine(const LabGuest& guest, bool kvm) const {
  const LabOptions& o = options_;
  LabMachine m;
  m.qemu = o.qemu;
  m.kernel = guest.kernel;
  m.initrd = guest.initrd;
  m.memory_mib = o.memory_mib;
  m.cpus = o.cpus;
  m.nice = o.qemu_nice;
  m.kvm = kvm;
  m.hdd = {hdd_image_,
           o.hdd_iops,
           o.hdd_bytes_per_sec,
           SupportsDirectIo(hdd_image_),
           false,
           kLabHddDriveId};
  m.ssd = {ssd_image_,
           o.ssd_iops,
           o.ssd_bytes_per_sec,
           SupportsDirectIo(ssd_image_),
           false,
           kLabSsdDriveId};
  m.input = {in_tar(), 0, 0, false, true, ""};
  m.output = {out_image_, 0, 0, false, false, ""};
  return m;
}

std::string LabScriptsDir(const LabOptions& o) {
  return o.guest_scripts.empty() ? DataDir() + "/scripts/lab" : o.guest_scripts;
}

LabAccelChoice ChooseLabAccelFor(const LabOptions& o, const LabGuest& guest) {
  LabMachine probe;
  probe.qemu = o.qemu;
  probe.kernel = guest.kernel;
  probe.initrd = guest.initrd;
  probe.memory_mib = o.memory_mib;
  probe.cpus = o.cpus;
  SystemLabAccelHost host(LabCacheDir(o) + "/kvm-probe.txt", probe);
  LabAccelChoice c = ChooseLabAccel(o.accel, guest.kernel_release, host);
  LogNotice(LabNoticePrefix(o) + "accelerator " + c.how);
  return c;
}

void NoticeLabDriveCache(const LabMachine& m, const std::string& prefix) {
  for (const LabDrive* d : {&m.hdd, &m.ssd}) {
    if (d->direct_io) continue;
    LogNotice(prefix + std::string(d == &m.hdd ? "HDD" : "SSD") +
              " image's directory refuses O_DIRECT: QEMU caches it "
              "(cache=writeback; label lab." +
              (d == &m.hdd ? "hdd" : "ssd") + "_cache). Image: " + d->image +
              "; Fix: --" + (d == &m.hdd ? "tmp-dir" : "ssd-dir") +
              " on a filesystem with O_DIRECT");
  }
}

std::string LabCacheDir(const LabOptions& o) {
  if (!o.cache_dir.empty()) return o.cache_dir;
  const fs::path bin = fs::path(LabSelfExecutable()).parent_path();
  // An installed binary (<prefix>/bin/tierbench beside
  // <prefix>/share/tierbench) keeps its guests in a cache folder, not in
  // bin/: root's in /var/cache, another user's in ~/.cache.
  std::error_code ec;
  if (fs::is_directory(bin.parent_path() / "share" / "tierbench", ec)) {
    if (geteuid() == 0) return "/var/cache/tierbench/lab";
    const char* xdg = getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && *xdg != '\0')
      return std::string(xdg) + "/tierbench/lab";
    const char* home = getenv("HOME");
    return std::string(home != nullptr ? home : "/tmp") +
           "/.cache/tierbench/lab";
  }
  return bin.string() + "/lab";
}

LabGuest EnsureLabGuest(const LabOptions& o) {
  const std::string self = LabSelfExecutable();
  return LabGuestCache(LabCacheDir(o), LabScriptsDir(o), self)
      .Ensure([](const std::string& line) { LogNotice("lab: " + line); });
}

void CopyLabScript(const LabOptions& options, const std::string& in_dir,
                   const std::string& name) {
  const std::string script = LabScriptsDir(options) + "/" + name;
  std::error_code ec;
  std::filesystem::copy_file(script, in_dir + "/" + name,
                             std::filesystem::copy_options::overwrite_existing,
                             ec);
  if (ec) {
    throw SysError("Cannot copy the guest script " + name +
                   ". Path: " + script + "; SysErr: " + ec.message() +
                   "; Fix: pass --guest-scripts <source tree>/scripts/lab");
  }
}

LabBootResult BootLabGuestAgainAfterAHang(
    const LabWorkspace& ws, const LabMachine& machine,
    const LabBootOptions& options, const std::string& run_id,
    std::ostream& console_log,
    const std::function<void(const std::string&)>& out,
    const std::function<void()>& before_again, std::string* hung) {
  LabBootResult first = BootLabGuest(machine, options, console_log, out);
  hung->clear();
  if (first.handshake_timed_out && first.guest_failure.empty()) {
    *hung = "no CPU calibration line within " +
            std::to_string(options.handshake_timeout_s) + " s of QEMU's start";
    LogNotice(options.notice_prefix + "booting again: the guest sent " + *hung +
              " (it sends it at 10-20 s); tail: " + JoinLabTail(first.tail));
    console_log << "==== tierbench: " << *hung << "; booting again ====\n";
    if (before_again) before_again();
    LabBootResult second = BootLabGuest(machine, options, console_log, out);
    second.seconds += first.seconds;
    return second;
  }
  if (first.kernel_hang.empty() || first.timed_out) return first;
  *hung = first.kernel_hang;
  const bool handed_back = first.done_rc >= 0;
  ws.StoreResults(handed_back, ws.HungBootDir(run_id));
  LogNotice(options.notice_prefix +
            "booting again on the same disks: the guest's kernel hung while "
            "it built its stacks (" +
            first.kernel_hang + "); " +
            (handed_back ? "the hung boot's kernel log goes to "
                           "lab/hang/dmesg.txt of the run folder"
                         : "the hung boot handed nothing back (its console "
                           "is in lab/console*.log)"));
  console_log << "==== tierbench: the kernel hung (" << first.kernel_hang
              << "); booting again ====\n";
  if (before_again) before_again();
  LabBootResult second = BootLabGuest(machine, options, console_log, out);
  second.seconds += first.seconds;  // the run's guest time, both boots
  return second;
}

LabBootResult BootScenarioGuest(const LabWorkspace& ws,
                                const LabMachine& machine,
                                const LabBootOptions& boot_options,
                                const std::string& run_dir,
                                const std::string& what,
                                std::ostream& console) {
  const uint64_t timeout_s = boot_options.timeout_s;
  const std::string console_log = ws.dir() + "/console.log";
  LabBootResult boot;
  std::string hung;
  {
    std::ofstream log(console_log);
    boot = BootLabGuestAgainAfterAHang(
        ws, machine, boot_options,
        std::filesystem::path(run_dir).filename().string(), log,
        [&console](const std::string& l) { console << l << std::endl; }, {},
        &hung);
  }
  ws.StoreResults(boot.done_rc >= 0, run_dir);
  MakeLabDirs(run_dir + "/lab");
  std::error_code ec;
  std::filesystem::copy_file(console_log, run_dir + "/lab/console.log",
                             std::filesystem::copy_options::overwrite_existing,
                             ec);
  const std::string where = "; Tail: " + JoinLabTail(boot.tail) +
                            LabKernelProblemsText(boot) +
                            "; Console: " + run_dir + "/lab/console.log";
  if (!boot.guest_failure.empty()) {
    throw SysError("The " + what + " guest failed: " + boot.guest_failure +
                   where);
  }
  if (boot.timed_out) {
    throw SysError("The " + what +
                   " guest timed out. Timeout: " + std::to_string(timeout_s) +
                   " s" + where + "; Fix: raise --timeout");
  }
  if (boot.done_rc != 0) {
    throw SysError("The " + what + " guest did not finish. DoneCode: " +
                   std::to_string(boot.done_rc) + where);
  }
  return boot;
}

}  // namespace tierbench
