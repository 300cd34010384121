// LabRunner: `tierbench lab` - the cache comparison on real kernel caches
// (bcache, dm-cache, dm-writecache) in a throwaway QEMU guest, for machines
// whose kernel has none of them.
//
// Run() (1) finds or builds the guest (LabGuestCache), (2) makes the two
// emulated disks as sparse images (the SSD one on /dev/shm by default) with
// the four-region partition table of lab/lab_layers.h each, an input tar
// (lab.conf, compare.args, the mode and workload files) and an empty output
// disk, all in a fresh temporary directory, (3) boots QEMU and relays the
// guest's progress, (4) extracts the output tar into <results>/<run-id>/ and
// (5) removes the temporary directory (unless `keep`).
//
// Inside, scripts/lab/init builds the stack of every layer in `layers` (in
// that order) and runs `tierbench compare --stack S1 [--stack S2 ...]
// --hdd /dev/vda4 --ssd /dev/vdb4 --destructive --results /results
// --run-id ID <compare_args>`. The lab.conf contract (shell assignments):
//   RUN_ID='ID'  HDD_SECTORS=N  SSD_SECTORS=N  BUCKET='64k'
//   INTERRUPT=off|on-change  LOOP_STACK=off|on
//   LAYERS='bcache dm-cache dm-writecache'  (space separated, order kept;
//     it may hold lvmcache, never together with dm-cache)
//   PART_BCACHE=1 PART_DMCACHE=2 PART_WRITECACHE=3 PART_RAW=4
//   DMCACHE_META_SECTORS=32768  (metadata part at the start of vdb2)
//   SCENARIO=power-cut POWER_CUT_PHASE=write|recover  (lab/lab_power_cut.h
//     only; absent: the compare below)
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
// timed out; the message carries the tail of the guest console, which is
// also saved as <results>/<run-id>/lab/console.log), InterruptedError on
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

#include "lab/lab_layers.h"

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
  bool kvm = false;
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
};

struct LabOutcome {
  std::string run_dir;         // <results>/<run-id>
  int compare_exit_code = -1;  // of the compare inside the guest
  double guest_seconds = 0;    // QEMU wall time
  std::string kernel_release;
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

// The emulated machine as compare --label pairs, in this order: lab.accel
// (kvm|tcg), lab.cpus, lab.memory_mib, lab.hdd_bytes, lab.hdd_iops,
// lab.hdd_bw (bytes/s, 0 = unthrottled), lab.ssd_bytes, lab.ssd_iops,
// lab.ssd_bw, lab.bucket.
std::vector<std::pair<std::string, std::string>> LabLabels(
    const LabOptions& options);

// Lines "name=value" of `before` whose value differs (or is missing) in
// `after`, as "name: before -> after"; the name ends at the first '=', so
// "dm:<name>=<table>" lines compare whole tables. Pure; used for the
// interrupt check.
std::vector<std::string> DiffKnobLines(const std::string& before,
                                       const std::string& after);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_RUNNER_H_
