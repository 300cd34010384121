// LabRunner: `tierbench lab` - the cache comparison on real kernel caches
// (bcache, dm-cache, dm-writecache) in a throwaway QEMU guest, for machines
// whose kernel has none of them.
//
// Run() (1) finds or builds the guest (LabGuestCache) and chooses the
// accelerator (lab/lab_accel.h: KVM where a probe boots, else TCG), (2)
// makes the two emulated disks as sparse images (the SSD one on /dev/shm by
// default) with the four-region partition table of lab/lab_layers.h each, an
// input tar (lab.conf, compare.args, the mode and workload files) and an
// empty output disk, all in a fresh temporary directory (a directory that
// refuses O_DIRECT gets cache=writeback: one notice line, and the labels
// lab.hdd_cache / lab.ssd_cache say none|writeback), (3) times the CPU
// calibration loop on the host, boots QEMU (with a QMP socket in the
// temporary directory) and relays the guest's progress; the guest times the
// same loop first thing, and the host answers with the dilation factor F
// after setting the disks' throttles to the real limits / F through QMP
// (lab/lab_dilation.h, lab/lab_handshake.h), (4) extracts the output tar
// into <results>/<run-id>/ and writes lab/dilation.txt there (what the
// handshake decided) and (5) removes the temporary directory (unless
// `keep`).
//
// Inside, scripts/lab/init builds the stack of every layer in `layers` (in
// that order) and runs `tierbench compare --stack S1 [--stack S2 ...]
// --hdd /dev/vda4 --ssd /dev/vdb4 --destructive --results /results
// --run-id ID <compare_args>`. The lab.conf contract (shell assignments):
//   RUN_ID='ID'  HDD_SECTORS=N  SSD_SECTORS=N  BUCKET='64k'
//   INTERRUPT=off|on-change  LOOP_STACK=off|on  HANG_SETUP_ONCE=off|on
//   LAYERS='bcache dm-cache dm-writecache'  (space separated, order kept;
//     it may hold lvmcache, never together with dm-cache)
//   PART_BCACHE=1 PART_DMCACHE=2 PART_WRITECACHE=3 PART_RAW=4
//   DMCACHE_META_SECTORS=32768  (metadata part at the start of vdb2)
//   SCENARIO=power-cut POWER_CUT_PHASE=write|recover  (lab/lab_power_cut.h
//     only), SCENARIO=fault FAULT=cache-fail|origin-errors FAULT_MIB=N
//     (lab/lab_fault.h only); absent: the compare below
//   CALIBRATE=on CALIBRATE_REPEAT=N ANSWER_TIMEOUT_S=N  (the compare only:
//     the guest runs `tierbench calibrate-cpu --repeat N --parts`, prints
//     "@@LAB:calib ..." and waits at most ANSWER_TIMEOUT_S for the host's
//     "@@HOST:labels K=V ..." on its console, whose labels it adds to the
//     compare; absent or off: no handshake)
// Stacks: bcache -> /dev/bcache0 (vda1 + vdb1); dm-cache ->
// /dev/mapper/tb-dmcache over tb-dmcache-meta and tb-dmcache-data (linear
// over vdb2) and origin vda2; dm-writecache -> /dev/mapper/tb-writecache
// (origin vda3, cache vdb3); lvmcache -> /dev/tbvg/main (LVM: PVs vda2 and
// vdb2, a cachevol on vdb2). The guest's lab/ directory holds stack.txt
// (every command and the resulting tables, status lines and bcache state),
// knobs-{before,during,after}.txt (bcache's "name=value" knob lines, one
// "lvm:VG/LV=<lvs cache_mode cache_policy cache_settings>" per LVM cached
// LV and one "dm:<name>=<dmsetup table line>" per dm stack), state-after.txt
// (bcache) and dm-status-after.txt (`dmsetup status` of each dm stack).
//
// Errors: ConfigError (bad options, unknown layer, missing mode/workload
// file), SysError (QEMU or the kernel package missing, the guest failed or
// timed out, the handshake failed or timed out on either side, --accel kvm
// where KVM does not work; the message carries the tail of the guest
// console, which is also saved as <results>/<run-id>/lab/console.log),
// InterruptedError on
// SIGINT/SIGTERM (QEMU's process group is killed first), and the exit code of
// the compare inside the guest when that failed. No QEMU process and no image
// outlives Run(), whichever way it ends.
//
// Thread-safety: one LabRunner per thread.
#ifndef TIERBENCH_LAB_LAB_RUNNER_H_
#define TIERBENCH_LAB_LAB_RUNNER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/lab_accel.h"
#include "lab/lab_dilation.h"
#include "lab/lab_handshake.h"
#include "lab/lab_layers.h"
#include "lab/lab_qemu.h"

namespace tierbench {

struct LabOptions {
  std::vector<std::string> mode_files;      // passed as --modes (may be empty)
  std::vector<std::string> workload_files;  // passed as --workloads
  std::vector<std::string> compare_args;    // further compare options
  // Stacks the guest builds and compares, in this order (lab/lab_layers.h).
  std::vector<std::string> layers = AllLabLayers();
  std::string results_dir = "results";
  std::string run_id;  // empty: "lab-<UTC date>-<time>"
  uint64_t hdd_bytes = 2ull << 30;
  uint64_t ssd_bytes = 1041ull << 20;  // LabSsdBytesForCache(256 MiB)
  uint64_t hdd_iops = 150;
  uint64_t hdd_bytes_per_sec = 120ull * 1000 * 1000;
  uint64_t ssd_iops = 20000;
  uint64_t ssd_bytes_per_sec = 0;  // 0: unthrottled
  std::string bucket = "64k";      // make-bcache --bucket
  uint64_t memory_mib = 2048;
  int cpus = 2;
  // > 0: QEMU runs at this niceness (lab/lab_parts.h sets it for the
  // guests without DB cells); 0: as tierbench.
  int qemu_nice = 0;
  LabAccel accel = LabAccel::kAuto;
  // The disks' limits above are the real machine's; the guest gets them
  // divided by the factor this decides (lab/lab_dilation.h). The power cut
  // ignores it (undilated).
  LabDilation dilation;
  bool keep = false;          // keep the temporary directory (images, logs)
  uint64_t timeout_s = 1800;  // the whole guest run
  std::string tmp_dir;        // HDD image, tars; empty: $TMPDIR or /var/tmp
  std::string ssd_dir = "/dev/shm";  // SSD image; falls back to tmp_dir
  std::string qemu = "qemu-system-x86_64";
  std::string guest_scripts;  // scripts/lab of the source tree
  std::string cache_dir;      // empty: <dir of the tierbench binary>/lab
  // Test aid: signal the compare once any knob line (bcache knob or dm
  // table) changed, and check that every one is restored. interrupt_signal:
  //   "INT", "TERM"  compare restores by itself (exit 130 / 143);
  //   "KILL"         SIGKILL (exit 137): the guest then checks that a new
  //                  compare refuses (exit 4, stale state) and runs
  //                  `tierbench restore` (exit 0) before the knobs are read.
  // (A second signal, which aborts like KILL, is tested on the host:
  // tests/integration/signal_test.cc.)
  bool interrupt_compare = false;
  std::string interrupt_signal = "INT";
  // Test aid: a GoogleTest binary (built against the same libraries as
  // tierbench) that the guest runs with CI=true and
  // --gtest_filter=guest_tests_filter after the compare, on the real
  // kernel: lab/guest-tests.log and lab/guest-tests-exit-code. Its debug
  // info is stripped on the way in.
  std::string guest_tests;
  std::string guest_tests_filter = "*";
  // Test aid: after the compare (and the guest tests) the guest runs
  // scripts/loop-stack (the bash script of the source tree of
  // guest_scripts) `up --layers bcache` on two sparse files in its /tmp, a
  // short `tierbench compare` on that stack (modes writethrough and
  // writearound, workload randwrite-4k, 2 s over 8 MiB, --stats-lag 0) and
  // `loop-stack down`: lab/loop-stack.log (every command and its output;
  // loop-stack's state file after up), lab/loop-stack-losetup.txt
  // (`losetup -a` after down) and lab/loop-stack-exit-code (0; 1 up failed,
  // 2 the compare failed, 3 down failed). Not 0 fails the lab.
  bool loop_stack = false;
  // Test aid: the guest's first boot hangs a setup step in the kernel (a
  // read of a suspended dm device, scripts/lab/init HANG_SETUP_ONCE): the
  // guard reports it after 5 s ("@@LAB:hang"), and the lab boots again.
  bool hang_setup_once = false;
  // Names this guest in the lab's own notices ("lab [p1-bcache-db1]:
  // booting ..."; lab/lab_parts.h sets it per guest); empty: "lab: ...".
  std::string log_label;
  // Called once, from Run()'s thread, when the guest has timed its CPU and
  // the dilation is in force (lab/lab_parts.h starts its other guests with
  // the same factor). May be empty.
  std::function<void(const LabHandshakeResult&)> on_dilation;
};

struct LabOutcome {
  std::string run_dir;         // <results>/<run-id>
  int compare_exit_code = -1;  // of the compare inside the guest
  double guest_seconds = 0;    // QEMU wall time
  std::string kernel_release;
  bool kvm = false;             // the accelerator used
  std::string accel_how;        // how it was chosen (LabAccelChoice::how)
  LabHandshakeResult dilation;  // what the handshake decided
  // What hung when the guest's kernel hung while it built its stacks, or
  // the guest sent no calibration line in time, and the guest was booted
  // again (lab/lab_workspace.h); "" when no boot hung. Its console is in
  // <run>/lab/console.log; a kernel hang's kernel log in lab/hang/ (a
  // silent boot hands nothing back).
  std::string setup_hang;
  // interrupt_compare only: knob lines that differ after the interrupt
  // ("name: before -> after"); empty when every knob was restored.
  std::vector<std::string> knobs_not_restored;
  // KILL only: exit codes of the second compare (4 expected) and
  // of `tierbench restore` (0 expected); -1 when not run.
  int compare_again_exit_code = -1;
  int restore_exit_code = -1;
  // guest_tests only: the test binary's exit code in the guest (-1: not run).
  int guest_tests_exit_code = -1;
  // loop_stack only: lab/loop-stack-exit-code (-1: not run).
  int loop_stack_exit_code = -1;
};

// "lab: " or, with a log_label, "lab [LABEL]: ": how the lab's own notices
// of `o`'s guest begin.
std::string LabNoticePrefix(const LabOptions& o);

// The exit status the interrupted compare must end with for `signal`
// (LabOptions::interrupt_signal); -1 for an unknown name.
int ExpectedInterruptExitCode(const std::string& signal);

class LabRunner {
 public:
  // `out` receives tierbench's own output from the guest (tables, notices),
  // one line per call; progress of the lab itself goes to LogNotice.
  LabRunner(LabOptions options, std::function<void(const std::string&)> out);

  LabOutcome Run();

 private:
  LabOptions options_;
  std::function<void(const std::string&)> out_;
};

// The text of lab.conf (the contract in the header comment above) for
// `options` and `run_id`. Pure.
std::string LabConfText(const LabOptions& options, const std::string& run_id);

// The emulated machine `m` of `options` as compare --label pairs, in this
// order: lab.accel (kvm|tcg, what `m` uses), lab.cpus, lab.memory_mib,
// lab.hdd_bytes, lab.ssd_bytes, lab.bucket, lab.hdd_cache, lab.ssd_cache
// (none: O_DIRECT; writeback: the image's directory refused O_DIRECT), and
// the real-machine limits the dilation divides: lab.hdd_iops_real,
// lab.hdd_bw_real, lab.ssd_iops_real, lab.ssd_bw_real. The limits in force
// (lab.hdd_iops, ...) and lab.dilation come from the handshake
// (LabDilationLabels).
std::vector<std::pair<std::string, std::string>> LabLabels(
    const LabOptions& options, const LabMachine& m);

// The handshake part of lab.conf: CALIBRATE=on, CALIBRATE_REPEAT and
// ANSWER_TIMEOUT_S. Pure.
std::string LabHandshakeConfText();

// The limits of `options` (the real machine's).
LabLimits LabRealLimits(const LabOptions& options);

// Lines "name=value" of `before` whose value differs (or is missing) in
// `after`, as "name: before -> after"; the name ends at the first '=', so
// "dm:<name>=<table>" lines compare whole tables. Pure; used for the
// interrupt check.
std::vector<std::string> DiffKnobLines(const std::string& before,
                                       const std::string& after);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_RUNNER_H_
