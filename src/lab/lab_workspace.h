// LabWorkspace: the temporary files of one lab run and the machine that
// boots on them, shared by every lab scenario (lab/lab_runner.h,
// lab/lab_power_cut.h).
//
// The constructor makes a fresh directory `<tmp>/tierbench-lab.XXXXXX`
// (tmp: LabOptions::tmp_dir, else $TMPDIR, else /var/tmp) holding the HDD
// image, the output disk and in/ (the files of the input tar); the SSD image
// goes to LabOptions::ssd_dir when it is a directory (a name unique to this
// workspace), else into the workspace. Both disk images get the partition
// map of lab/lab_layers.h. The destructor removes the SSD image and the
// directory (the directory stays with LabOptions::keep), on every exit path.
// Images live as long as the workspace, so several boots can use them.
//
// Errors: ConfigError for a disk too small or too large (naming --hdd-size
// or --ssd-size), SysError when a file cannot be made. Not thread-safe.
#ifndef TIERBENCH_LAB_LAB_WORKSPACE_H_
#define TIERBENCH_LAB_LAB_WORKSPACE_H_

#include <functional>
#include <ostream>
#include <string>

#include "lab/lab_accel.h"
#include "lab/lab_boot.h"
#include "lab/lab_guest.h"
#include "lab/lab_qemu.h"
#include "lab/lab_runner.h"

namespace tierbench {

class LabWorkspace {
 public:
  explicit LabWorkspace(const LabOptions& options);
  ~LabWorkspace();
  LabWorkspace(const LabWorkspace&) = delete;
  LabWorkspace& operator=(const LabWorkspace&) = delete;

  const std::string& dir() const { return dir_; }
  const std::string& hdd_image() const { return hdd_image_; }
  const std::string& ssd_image() const { return ssd_image_; }
  const std::string& out_image() const { return out_image_; }
  // dir()/in: what PackInput() packs (created empty).
  std::string in_dir() const { return dir_ + "/in"; }
  // dir()/in.tar.
  std::string in_tar() const { return dir_ + "/in.tar"; }
  // dir()/qmp.sock, QEMU's QMP socket. Throws ConfigError (naming
  // --tmp-dir) when the path is too long for a unix socket.
  std::string qmp_socket() const;

  // Where BootLabGuestAgainAfterAHang keeps the run folder a boot that hung
  // handed back: dir()/hang-boot/<run_id>.
  std::string HungBootDir(const std::string& run_id) const {
    return dir_ + "/hang-boot/" + run_id;
  }

  // Packs in_dir() into in_tar() (replacing it). Throws SysError.
  void PackInput() const;

  // The machine of `options` with `guest` (`kvm`: under KVM, else TCG):
  // vda HDD, vdb SSD (throttled as the options say; drive ids "hdd" and
  // "ssd"; cache=none unless their directory refuses O_DIRECT), vdc the
  // input tar (read-only), vdd the output disk. No QMP socket.
  LabMachine Machine(const LabGuest& guest, bool kvm) const;

  // After the guest: when `guest_finished` (it wrote the output disk),
  // extracts the output disk's tar into dir()/out, then moves the folder
  // named as `run_dir`'s last component (the run id) to `run_dir` (creating
  // `run_dir`'s parent). Nothing is moved when the guest wrote no such
  // folder. The lab/ folder an earlier boot that hung handed back
  // (BootLabGuestAgainAfterAHang) goes to <run_dir>/lab/hang. Throws
  // SysError naming the image or `run_dir`.
  void StoreResults(bool guest_finished, const std::string& run_dir) const;

 private:
  LabOptions options_;
  std::string dir_;
  std::string hdd_image_;
  std::string ssd_image_;
  std::string out_image_;
};

// Copies the guest script `name` of LabScriptsDir(options) into the
// workspace's input folder `in_dir`; SysError naming it and the fix.
void CopyLabScript(const LabOptions& options, const std::string& in_dir,
                   const std::string& name);

// Boots the one guest of a single-boot scenario (the fault, the fill) on
// `ws`'s packed input with `machine` and `boot_options` (its timeout_s, its
// unplug): its console to <ws>/console.log and
// its step lines to `console` (booted once more after a kernel hang in its
// setup: BootLabGuestAgainAfterAHang); then stores its results into
// `run_dir` (lab/ with console.log). Throws SysError naming the scenario
// (`what`), the console's tail and the log when the guest failed, timed out or
// did not finish; returns the boot otherwise.
LabBootResult BootScenarioGuest(const LabWorkspace& ws,
                                const LabMachine& machine,
                                const LabBootOptions& boot_options,
                                const std::string& run_dir,
                                const std::string& what, std::ostream& console);

// Boots `machine` like BootLabGuest (console lines to `console_log`,
// tierbench's output to `out`), and boots it once more when the guest
// reported a kernel hang while it built its stacks ("@@LAB:hang",
// scripts/lab/init's guard): every stack is built from scratch on each
// boot and a scenario measures every layer again, so the same disks serve.
// Before the second boot, `before_again` runs (may be empty), what the hung
// boot handed back (its lab/ folder, with the kernel's blocked tasks in
// dmesg.txt) is kept for StoreResults (<run>/lab/hang), the console log
// gets a separator line and one notice says what hung. Returns the last
// boot, its `seconds` those of both boots; `*hung` gets the first boot's
// hang text ("" when it did not hang). Each boot has `options.timeout_s`.
// A boot that sent no CPU calibration line within its handshake timeout
// (handshake_timed_out: QEMU killed; ci49's second guest printed nothing
// for 300 s after QEMU started, while the same image booted in 7 s just
// before) is booted again the same way, `*hung` then naming it. A second
// hang or silence is returned as it is: the caller fails.
LabBootResult BootLabGuestAgainAfterAHang(
    const LabWorkspace& ws, const LabMachine& machine,
    const LabBootOptions& options, const std::string& run_id,
    std::ostream& console_log,
    const std::function<void(const std::string&)>& out,
    const std::function<void()>& before_again, std::string* hung);

// The lab guest for the running tierbench (LabGuestCache::Ensure with the
// cache and scripts directories of `options`); progress goes to LogNotice.
LabGuest EnsureLabGuest(const LabOptions& options);

// The accelerator for `options` and `guest` (lab/lab_accel.h, the probe's
// answer cached in LabCacheDir), with one notice line saying which and why.
// Throws SysError for --accel kvm where KVM does not work.
LabAccelChoice ChooseLabAccelFor(const LabOptions& options,
                                 const LabGuest& guest);

// One notice line per emulated disk of `m` whose image QEMU caches
// (cache=writeback: its directory refused O_DIRECT), naming the fix.
void NoticeLabDriveCache(const LabMachine& m,
                         const std::string& prefix = "lab: ");

// Where the built guest and the KVM probe's answer are kept:
// LabOptions::cache_dir, else for an installed binary (its
// <prefix>/share/tierbench exists) /var/cache/tierbench/lab as root and
// $XDG_CACHE_HOME (or ~/.cache)/tierbench/lab otherwise, else <dir of the
// tierbench binary>/lab (a build tree).
std::string LabCacheDir(const LabOptions& options);

// The guest scripts directory of `options` (scripts/lab of the data
// directory, util/data_dir.h, unless LabOptions::guest_scripts is set).
std::string LabScriptsDir(const LabOptions& options);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_WORKSPACE_H_
