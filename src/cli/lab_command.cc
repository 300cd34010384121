// `tierbench lab`: the comparison on real kernel caches (bcache, dm-cache,
// dm-writecache) inside a QEMU guest (lab/lab_runner.h), for machines whose
// kernel has none of them; with --power-cut, the power cut of
// lab/lab_power_cut.h instead, and with --fault, the cache or origin failure
// of lab/lab_fault.h.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cache/registry/mode_file.h"
#include "cli/commands.h"
#include "cli/help_format.h"
#include "cli/lab_args.h"
#include "cli/lab_scenarios.h"
#include "cli/option_values.h"
#include "lab/lab_dilation.h"
#include "lab/lab_fault.h"
#include "lab/lab_fill.h"
#include "lab/lab_layers.h"
#include "lab/lab_parts.h"
#include "lab/lab_runner.h"
#include "present/pages/report_writer.h"
#include "report/console_table_reporter.h"
#include "util/clock.h"
#include "util/data_dir.h"
#include "util/errors.h"
#include "util/log.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// What --quick runs (the demo's first part; ./scripts/demo adds --full
// --guests 4): the two questions users ask first, each in the modes that
// answer it, warmed until steady (compare's default) in the dilated lab
// (lab's default):
//   randread-zipf  skewed random reads: read caching pays (bcache writeback,
//                  dm-cache writeback; dm-writecache caches no reads);
//   randwrite-4k   random writes: writeback absorbs them, writethrough
//                  does not; time to clean is the debt.
// The raw HDD and SSD frame both. lvmcache's writeback joins when --layers
// has lvmcache. --full adds the rest of the story (in one guest about 7
// minutes more under TCG; ./scripts/demo runs it over --guests 4, about a
// minute more; results/benchmarks.md):
//   anandtech-mix      the desktop mix of seed 001;
//   pgbench-tpcb-demo  seed 001's finding on bcache: writeback commits on
//                      the SSD, none, writethrough and writearound on the
//                      HDD (a steady DB cell costs 40-120 s in the lab:
//                      restart, warm-up, the checkpoint after the run, and
//                      writeback's flush).
struct QuickWorkload {
  const char* file;
  const char* name;
  std::vector<const char*> modes;
  bool full_only = false;
};
const QuickWorkload kQuickWorkloads[] = {
    {"randread-zipf.fio",
     "randread-zipf",
     {"hdd", "ssd", "writeback", "dm-cache-writeback", "dm-writecache",
      "lvmcache-writeback"}},
    {"randwrite-4k.fio",
     "randwrite-4k",
     {"hdd", "ssd", "writeback", "writethrough", "dm-cache-writeback",
      "dm-writecache", "lvmcache-writeback"}},
    {"anandtech-mix.fio",
     "anandtech-mix",
     {"hdd", "ssd", "writeback", "dm-cache-writeback", "dm-writecache",
      "lvmcache-writeback"},
     true},
    {"pgbench-tpcb-demo.json",
     "pgbench-tpcb-demo",
     {"none", "writethrough", "writearound", "writeback"},
     true},
};
// Every mode some quick workload names, in table order; a run loads those
// that one of its workloads names (none and writearound only with --full).
const char* const kQuickModes[] = {"hdd",
                                   "ssd",
                                   "none",
                                   "writeback",
                                   "writethrough",
                                   "writearound",
                                   "dm-cache-writeback",
                                   "dm-writecache",
                                   "lvmcache-writeback"};
// 5 s: at the dilated HDD's ~38 IOPS, ~190 IOs (the few-ios rule wants
// 100). 2 s warm-up chunks, at most 24 s: steadiness is judged over 3
// chunks from block counters that do not lag (bcache's Zipf reads had
// reached 92% hits after 15 s, still rising).
constexpr const char* kQuickRuntime = "5";
constexpr const char* kQuickRampTime = "0";
constexpr const char* kQuickWarmChunk = "2";
constexpr const char* kQuickWarmMax = "24";
// 4M: a small region keeps writeback's dirty data small, so its drain at the
// dilated HDD's IOPS takes seconds, not minutes (1024 blocks at ~38 IOPS).
constexpr const char* kQuickSize = "4M";
// bcache folds its counters every 13.6 s.
constexpr const char* kQuickStatsLag = "14";

// All *.json files of the shipped modes/ directory, in name order.
std::vector<std::string> ShippedModes(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Says whether the figures are in dilated time, and by how much.
void DilationNotice(const LabOutcome& r) {
  if (r.dilation.factor > 1) {
    const std::string f = FormatLabDilationFactor(r.dilation.factor);
    LogNotice(
        "lab: figures are in dilated time: the guest's CPU and disks "
        "both ran " +
        f +
        "x slower than this host with the real disks, so IOPS, tps "
        "and MB/s are 1/" +
        f + " of the real machine's and latencies " + f +
        "x; ratios between modes hold (label lab.dilation=" + f + "; " +
        r.run_dir + "/lab/dilation.txt)");
  } else {
    LogNotice(
        "lab: figures are not dilated (lab.dilation=1.00): the "
        "guest's CPU ran " +
        FormatLabDilationFactor(r.dilation.slowdown) +
        "x slower than this host against real-speed disks, so "
        "CPU-bound cells measure the emulator");
  }
}

// --guests N: the parts side by side, merged into one run folder whose
// verdict and comparison table end the output (lab/lab_parts.h).
void RunLabInParts(const LabOptions& o, const std::vector<LabPart>& parts) {
  const std::string run_id =
      o.run_id.empty() ? FormatUtcNow("lab-%Y%m%d-%H%M%S") : o.run_id;
  std::string plan;
  for (const LabPart& p : parts) {
    char cost[32];
    std::snprintf(cost, sizeof cost, "%.0f", p.cost);
    plan += (plan.empty() ? "" : "; ") + p.name + " (" +
            std::to_string(p.cells) + " cells, about " + cost + " s)";
  }
  LogNotice("lab: " + std::to_string(parts.size()) +
            " guests side by side, merged into " + o.results_dir + "/" +
            run_id + "/: " + plan);
  const LabPartsOutcome r = RunLabParts(
      parts, RunOrderOf(o), o.results_dir, run_id,
      [](const std::string& line) { std::cout << line << std::endl; });
  const std::string& run_dir = r.merged.run_dir;
  const ReportFiles files = WriteReport(run_dir, "", /*force=*/true);
  std::cout << "\n=== The " << parts.size() << " parts merged: one run folder, "
            << run_dir << " ===\n\n";
  PrintVerdictAndTable(run_dir, r.merged.comparison, std::cout);
  std::cout << "Report:  " << files.html << "\n"
            << "Summary: " << files.summary << "\n";
  std::cout.flush();
  DilationNotice(r.parts.front());
  double longest = 0;
  for (const LabOutcome& p : r.parts)
    longest = std::max(longest, p.guest_seconds);
  char secs[32];
  std::snprintf(secs, sizeof(secs), "%.0f", longest);
  LogNotice("lab: done; the longest guest ran " + std::string(secs) +
            " s (guest kernel " + r.parts.front().kernel_release + ", " +
            (r.parts.front().kvm ? "KVM" : "TCG") + "). Results: " + run_dir +
            "/ (runs.csv, comparison.csv, manifest.json; parts/<part>/lab/ "
            "holds each guest's stack.txt, dmesg.txt, compare.log)");
}

// --accel, --kvm and --dilation into the options; ConfigError for a bad
// value, before anything is built or written.
void ParseMachineOptions(LabArgs& a) {
  a.options.accel = LabAccelOption(a.accel, a.kvm);
  a.options.dilation = LabDilationOption(a.dilation);
}

void RunLab(LabArgs& a) {
  ParseMachineOptions(a);
  if (RunLabScenario(a)) return;
  LabOptions& o = a.options;
  const std::string source = DataDir();
  const bool modes_given = !o.mode_files.empty();
  const bool quick_workloads = a.quick && o.workload_files.empty();
  if (a.full && !a.quick) {
    throw ConfigError("--full adds to the demo run. Fix: --quick --full");
  }
  const auto in_run = [&a](const QuickWorkload& w) {
    return a.full || !w.full_only;
  };
  if (a.quick) {
    if (o.workload_files.empty()) {
      for (const QuickWorkload& w : kQuickWorkloads) {
        if (!in_run(w)) continue;
        o.workload_files.push_back(source + "/workloads/" + w.file);
      }
    }
    if (o.mode_files.empty()) {
      for (const char* m : kQuickModes) {
        const bool named = std::any_of(
            std::begin(kQuickWorkloads), std::end(kQuickWorkloads),
            [&](const QuickWorkload& w) {
              return in_run(w) && std::any_of(w.modes.begin(), w.modes.end(),
                                              [m](const char* x) {
                                                return std::string(x) == m;
                                              });
            });
        if (!named) continue;
        o.mode_files.push_back(source + "/modes/" + m + ".json");
      }
    }
    if (a.runtime.empty()) a.runtime = kQuickRuntime;
    if (a.ramp_time.empty()) a.ramp_time = kQuickRampTime;
    if (a.size.empty()) a.size = kQuickSize;
    if (a.stats_lag.empty()) a.stats_lag = kQuickStatsLag;
    if (a.extra.empty() || std::find(a.extra.begin(), a.extra.end(),
                                     "--warm-chunk") == a.extra.end()) {
      a.extra.insert(a.extra.end(), {"--warm-chunk", kQuickWarmChunk,
                                     "--warm-max", kQuickWarmMax});
    }
    // Every job runs its 5 s: anandtech-mix's jobs are size-bound (seed
    // 001's size=), and with --size 4M each would stop after its 4 MiB at
    // its own moment, the slowest alone at the end (measured: 800 IOPS for
    // a second, then 50), while the warm-up chunks ran them time-based.
    if (std::find(a.extra.begin(), a.extra.end(), "--time-based") ==
        a.extra.end()) {
      a.extra.push_back("--time-based");
    }
  }
  // The lab's drains after a cell flush (compare --drain-after flush)
  // unless --compare-arg says otherwise: bcache's own pace (its writeback
  // rate controller, writeback_delay's 30 s between scans) runs on the
  // guest's clock, not dilated with its disks, so the "time to clean" at
  // that pace would be no real machine's; the flush time (the dilated HDD
  // taking the dirty data) is. It also keeps a writeback DB cell's drain
  // to a minute or two instead of the 10-minute timeout.
  const bool drain_given =
      std::any_of(a.extra.begin(), a.extra.end(), [](const std::string& x) {
        return x == "--drain-after" || x.rfind("--drain-after=", 0) == 0;
      });
  if (!drain_given) a.extra.insert(a.extra.end(), {"--drain-after", "flush"});
  if (a.layers_option != nullptr && a.layers_option->count() > 0) {
    Status s = ParseLabLayers(a.layers, &o.layers);
    if (!s.ok()) {
      throw ConfigError("Bad value for --layers: '" + a.layers +
                        "': " + s.message() +
                        ". Fix: a comma-separated list, e.g. "
                        "--layers bcache,dm-writecache");
    }
  }
  // The guest has no source tree: name the shipped modes explicitly, those
  // of the layers it builds (and the raw baselines).
  if (o.mode_files.empty()) o.mode_files = ShippedModes(source + "/modes");
  if (!modes_given) {
    std::vector<std::string> kept;
    for (const std::string& f : o.mode_files) {
      const ModeSpec m = LoadModeFile(f);
      if (m.is_raw() || std::find(o.layers.begin(), o.layers.end(), m.layer) !=
                            o.layers.end()) {
        kept.push_back(f);
      }
    }
    o.mode_files = kept;
  }
  if (quick_workloads && !modes_given) {
    // Each quick workload in the modes that answer its question (of those
    // the layers give).
    std::vector<std::string> loaded;
    for (const std::string& f : o.mode_files) {
      loaded.push_back(fs::path(f).stem().string());
    }
    for (const QuickWorkload& w : kQuickWorkloads) {
      if (!in_run(w)) continue;
      std::string modes;
      for (const char* m : w.modes) {
        if (std::find(loaded.begin(), loaded.end(), m) == loaded.end()) {
          continue;
        }
        modes += (modes.empty() ? "" : ",") + std::string(m);
      }
      if (modes.empty()) continue;
      a.extra.insert(a.extra.end(),
                     {"--workload-modes", std::string(w.name) + "=" + modes});
    }
  }
  o.hdd_bytes = SizeOption("--hdd-size", a.hdd_size);
  o.ssd_bytes = SizeOption("--ssd-size", a.ssd_size);
  o.hdd_bytes_per_sec = SizeOption("--hdd-bw", a.hdd_bw);
  o.ssd_bytes_per_sec = SizeOption("--ssd-bw", a.ssd_bw);
  auto pass = [&o](const char* option, const std::string& value) {
    if (value.empty()) return;
    o.compare_args.push_back(option);
    o.compare_args.push_back(value);
  };
  pass("--runtime", a.runtime);
  pass("--ramp-time", a.ramp_time);
  pass("--size", a.size);
  pass("--repeat", a.repeat);
  pass("--cache-state", a.cache_state);
  pass("--stats-lag", a.stats_lag);
  pass("--working-set", a.working_set);
  if (a.capture_replay) o.compare_args.push_back("--capture-replay");
  o.compare_args.insert(o.compare_args.end(), a.extra.begin(), a.extra.end());

  if (a.guests > 1) {
    if (a.capture_replay) {
      throw ConfigError(
          "--guests splits a compare over guests, but --capture-replay's "
          "replays need the guest that made the capture. Fix: drop --guests");
    }
    if (o.interrupt_compare || !o.guest_tests.empty() || o.loop_stack) {
      throw ConfigError(
          "--guests splits a compare over guests; the test aids "
          "(--interrupt-compare, --guest-tests, --loop-stack) need one. Fix: "
          "drop --guests");
    }
    const std::vector<LabPart> parts = SplitLabRun(o, a.guests);
    if (parts.size() > 1) {
      RunLabInParts(o, parts);
      return;
    }
    LogNotice("lab: --guests " + std::to_string(a.guests) +
              ": the run has one part (one stack's cells, or none), so it "
              "runs in one guest");
  }
  LabRunner runner(
      o, [](const std::string& line) { std::cout << line << std::endl; });
  LabOutcome r = runner.Run();
  if (o.interrupt_compare) {
    const bool needs_restore = o.interrupt_signal == "KILL";
    if (needs_restore && r.compare_again_exit_code != kExitSafety) {
      throw RunError(
          "After SIG" + o.interrupt_signal +
          " a new compare did not refuse the stale restore state. ExitCode: " +
          std::to_string(r.compare_again_exit_code) + "; Log: " + r.run_dir +
          "/lab/compare-again.log");
    }
    if (needs_restore && r.restore_exit_code != kExitOk) {
      throw RunError("tierbench restore failed after SIG" + o.interrupt_signal +
                     ". ExitCode: " + std::to_string(r.restore_exit_code) +
                     "; Log: " + r.run_dir + "/lab/restore.log");
    }
    if (!r.knobs_not_restored.empty()) {
      std::string list;
      for (const std::string& d : r.knobs_not_restored)
        list += (list.empty() ? "" : "; ") + d;
      throw RunError(
          "The interrupted compare left knobs or dm tables changed. Knobs: " +
          list + "; Files: " + r.run_dir + "/lab/knobs-{before,after}.txt");
    }
    LogNotice("lab: compare interrupted by SIG" + o.interrupt_signal +
              " exited " + std::to_string(r.compare_exit_code) +
              (needs_restore ? "; a new compare refused the stale state and "
                               "`tierbench restore` put back"
                             : " and restored") +
              " every knob (" + r.run_dir +
              "/lab/knobs-before.txt = knobs-after.txt)");
  }
  DilationNotice(r);
  char secs[32];
  std::snprintf(secs, sizeof(secs), "%.0f", r.guest_seconds);
  LogNotice("lab: done in " + std::string(secs) + " s (guest kernel " +
            r.kernel_release + ", " + (r.kvm ? "KVM" : "TCG") +
            "). Results: " + r.run_dir +
            "/ (runs.csv, comparison.csv, manifest.json; lab/ "
            "holds the guest's stack.txt, dmesg.txt, compare.log)");
}

}  // namespace

void RegisterLabCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<LabArgs>();
  LabOptions& o = args->options;
  CLI::App* cmd = app.add_subcommand(
      "lab", CommandDescription(
                 "Run `tierbench compare` on real kernel bcache, dm-cache, "
                 "dm-writecache and lvmcache inside a throwaway QEMU guest "
                 "(Debian's kernel, emulated HDD and SSD), for machines whose "
                 "kernel has none of them.",
                 "tierbench lab --quick --layers bcache,dm-cache"));
  cmd->add_flag(
      "--quick", args->quick,
      "Demo run: workloads randread-zipf and randwrite-4k in the raw HDD "
      "and SSD, bcache writeback (and writethrough for randwrite-4k), "
      "dm-cache-writeback, dm-writecache and lvmcache-writeback (those of "
      "--layers; compare --workload-modes); --runtime 5 --ramp-time 0 "
      "--size 4M --stats-lag 14 --time-based, warm-up chunks of 2 s for at "
      "most 24 s (each only where not given)");
  cmd->add_flag("--full", args->full,
                "With --quick: also anandtech-mix (raw HDD and SSD and the "
                "writeback modes) and seed 001's pgbench-tpcb-demo on bcache "
                "none, writethrough, writearound and writeback (in one guest "
                "about 7 minutes more under TCG; ./scripts/demo runs it with "
                "--guests 4)");
  args->layers_option =
      cmd->add_option("--layers", args->layers,
                      "Stacks to build and compare, comma-separated, in this "
                      "order (default: bcache,dm-cache,dm-writecache)");
  cmd->add_option(
         "--modes", o.mode_files,
         "Mode files (default: every modes/*.json of a layer in --layers, and "
         "the raw ones)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--workloads", o.workload_files,
                  "Workload files (.fio or .json)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--results", o.results_dir, "Results directory on the host")
      ->capture_default_str();
  cmd->add_option("--run-id", o.run_id,
                  "Run id (default lab-<UTC date>-<time>)");
  cmd->add_option("--runtime", args->runtime,
                  "Passed to compare: runtime per cell");
  cmd->add_option("--ramp-time", args->ramp_time,
                  "Passed to compare: ramp time per cell");
  cmd->add_option("--size", args->size, "Passed to compare: bytes per job");
  cmd->add_option("--repeat", args->repeat, "Passed to compare: repetitions");
  cmd->add_option("--cache-state", args->cache_state,
                  "Passed to compare: cold | warm | as-is | "
                  "warm-until-steady");
  cmd->add_option("--working-set", args->working_set,
                  "Passed to compare: working sets relative to the cache, "
                  "e.g. 25%,400%");
  cmd->add_option("--stats-lag", args->stats_lag,
                  "Passed to compare: seconds to wait for bcache's counters");
  cmd->add_flag("--capture-replay", args->capture_replay,
                "Passed to compare: capture each DB workload's IO on the raw "
                "HDD with blktrace and replay it under every mode "
                "(NAME-replay)");
  cmd->add_option("--compare-arg", args->extra,
                  "Any other compare option, one argument each (repeatable), "
                  "e.g. --compare-arg=--drain-timeout --compare-arg=60");
  cmd->add_option("--hdd-size", args->hdd_size,
                  "HDD image size (four equal regions: bcache backing, "
                  "dm-cache origin, dm-writecache origin, raw baseline)")
      ->capture_default_str();
  args->ssd_size_option =
      cmd->add_option("--ssd-size", args->ssd_size,
                      "SSD image size (four regions: bcache cache, dm-cache "
                      "metadata + cache, dm-writecache cache, raw baseline; "
                      "every layer gets the same cache size; --scenario "
                      "fill: 273M, 64 MiB caches)")
          ->capture_default_str();
  cmd->add_option("--hdd-iops", o.hdd_iops, "HDD IOPS limit")
      ->capture_default_str();
  cmd->add_option("--hdd-bw", args->hdd_bw, "HDD bytes/s limit (0: none)")
      ->capture_default_str();
  cmd->add_option("--ssd-iops", o.ssd_iops, "SSD IOPS limit (0: none)")
      ->capture_default_str();
  cmd->add_option("--ssd-bw", args->ssd_bw, "SSD bytes/s limit (0: none)")
      ->capture_default_str();
  cmd->add_option("--bucket", o.bucket, "make-bcache --bucket")
      ->capture_default_str();
  cmd->add_option("--memory", o.memory_mib, "Guest memory in MiB")
      ->capture_default_str()
      ->check(CLI::Range(256, 65536));
  cmd->add_option("--cpus", o.cpus, "Guest CPUs")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->add_option("--accel", args->accel,
                  "auto: KVM (-accel kvm -cpu host) when /dev/kvm opens and "
                  "a short probe boot under it powers off within 15 s "
                  "(answer cached for this boot), else TCG; kvm: KVM or "
                  "fail; tcg: software emulation")
      ->capture_default_str();
  cmd->add_flag("--kvm", args->kvm, "Same as --accel kvm");
  cmd->add_option(
         "--dilation", args->dilation,
         "Slow the emulated disks by the guest's CPU slowdown F, so devices "
         "stay the bottleneck as on a real machine: --hdd-iops, --hdd-bw, "
         "--ssd-iops, --ssd-bw are divided by F (labels lab.dilation, "
         "lab.hdd_iops, ...: the limits in force; figures are then in "
         "dilated time). The guest's slowdown S is the guest's time of a "
         "fixed CPU loop over the host's. auto: F = S, at most 4 (the HDD "
         "then bounds the HDD-side cells, with IO counts a run of minutes "
         "gathers; what the CPU still bounds is flagged); full: F = S (the "
         "host's balance exactly: under TCG S is 15-35, and the HDD does a "
         "few IOPS); off: F = 1; or a number in [1, 1000]")
      ->capture_default_str();
  cmd->add_option(
         "--guests", args->guests,
         "Split the cells over N guests that run side by side, then merge "
         "them into one run folder (one verdict and table; parts/ keeps each "
         "guest's run). The cells wait on the dilated disks, not on this "
         "host's CPU, so N guests take about as long as the longest: one per "
         "layer and kind (fio, DB), costliest first, the raw baselines with "
         "a stack's guest; every guest gets the first one's dilation; the last "
         "--guests given counts")
      ->capture_default_str()
      ->check(CLI::Range(1, 8))
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cmd->add_flag("--keep", o.keep,
                "Keep the temporary directory (HDD image, tars, console.log)");
  cmd->add_option("--timeout", o.timeout_s,
                  "Seconds the whole guest run may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--tmp-dir", o.tmp_dir,
                  "Directory for the HDD image and tars "
                  "(default $TMPDIR or /var/tmp)");
  cmd->add_option("--ssd-dir", o.ssd_dir, "Directory for the SSD image")
      ->capture_default_str();
  cmd->add_option("--qemu", o.qemu, "QEMU binary")->capture_default_str();
  cmd->add_option(
      "--guest-scripts", o.guest_scripts,
      "Directory with build-guest and init (default scripts/lab of the "
      "source tree, or of /usr/share/tierbench when installed: tierbench "
      "list says which)");
  cmd->add_option(
      "--cache-dir", o.cache_dir,
      "Where the built guest is kept (default <tierbench dir>/lab in a "
      "build tree; installed: /var/cache/tierbench/lab as root, else "
      "~/.cache/tierbench/lab)");
  cmd->add_flag(
      "--interrupt-compare", o.interrupt_compare,
      "Test aid: signal the compare once it changed a knob or dm table, "
      "then check that every one is restored");
  cmd->add_option("--guest-tests", o.guest_tests,
                  "Test aid: a GoogleTest binary the guest runs after the "
                  "compare, on the real kernel (CI=true; its log in "
                  "lab/guest-tests.log); a failure fails the lab");
  cmd->add_option("--guest-tests-filter", o.guest_tests_filter,
                  "--gtest_filter for --guest-tests")
      ->capture_default_str();
  cmd->add_flag("--loop-stack", o.loop_stack,
                "Test aid: after the compare, run scripts/loop-stack up "
                "(bcache on two loop files), a short compare on it and "
                "loop-stack down in the guest (lab/loop-stack.log); a "
                "failure fails the lab");
  cmd->add_flag("--hang-setup-once", o.hang_setup_once,
                "Test aid: the guest's first boot hangs in the kernel while "
                "it builds the stacks (a read of a suspended dm device); the "
                "lab must report it and boot again (the compare, --fault, "
                "--scenario fill; not --power-cut)");
  cmd->add_option("--interrupt-signal", o.interrupt_signal,
                  "With --interrupt-compare: INT or TERM (compare restores "
                  "by itself) or KILL (a new compare must refuse the stale "
                  "state and `tierbench restore` must put it back)")
      ->check(CLI::IsMember({"INT", "TERM", "KILL"}))
      ->capture_default_str();
  cmd->add_flag(
      "--power-cut", args->power_cut,
      "Instead of the compare: per layer (default bcache,dm-cache,"
      "dm-writecache; not lvmcache) write 16 MiB with crc32c verify headers "
      "in writeback with writeback held off, kill QEMU while the data is "
      "dirty, boot again on the same disks, put the stack back and check "
      "every acknowledged write (power-cut.csv). Takes the machine options "
      "(--layers, --hdd-*, --ssd-*, --memory, ...), none of the compare's");
  cmd->add_option(
         "--fault", args->fault,
         "Instead of the compare: per layer (default bcache,dm-cache,"
         "dm-writecache; not lvmcache) hold --fault-size MiB of acknowledged "
         "writes dirty in writeback, then switch the cache device "
         "(cache-fail) or the origin (origin-errors) to the dm error target, "
         "or hot-unplug the cache's own disk (cache-unplug: QMP device_del), "
         "under a writer, and record what the writer saw, which blocks read "
         "back intact, stale, with an error or corrupt through the stack, "
         "after the layer's recovery path and on the bare origin "
         "(fault.csv). Takes the machine options, none of the compare's")
      ->check(CLI::IsMember(FaultKinds()));
  args->fault_size_option =
      cmd->add_option(
             "--fault-size", args->fault_mib,
             "MiB held dirty per layer with --fault (and written again "
             "by the writer)")
          ->check(CLI::Range(1, 64))
          ->capture_default_str();
  cmd->add_option(
         "--scenario", args->scenario,
         "fill: instead of the compare, the writeback cliff. Per layer "
         "(default bcache,dm-cache,dm-writecache) in writeback with its own "
         "dirty limits, --fill-rate 4k random writes for --fill-runtime "
         "seconds over a region larger than the cache (64 MiB by default: "
         "the SSD is sized for it), then --fill-drain seconds watched: "
         "time to the cliff against the one the cache size and the rate "
         "predict, IOPS before, at and after it, p99 at it, and the time to "
         "recover (fill.csv, fill-series.csv, charts/fill.svg). Takes the "
         "machine options, none of the compare's")
      ->check(CLI::IsMember({"fill"}));
  args->fill_only.push_back(
      cmd->add_option("--fill-runtime", args->fill.runtime_s,
                      "With --scenario fill: seconds of writes per layer")
          ->check(CLI::Range(5, 600))
          ->capture_default_str());
  args->fill_only.push_back(
      cmd->add_option("--fill-rate", args->fill.rate_iops,
                      "With --scenario fill: the writes' rate (IOPS)")
          ->check(CLI::Range(100, 1000000))
          ->capture_default_str());
  args->fill_only.push_back(
      cmd->add_option("--fill-drain", args->fill.drain_s,
                      "With --scenario fill: seconds the writeback is watched "
                      "after the writes")
          ->check(CLI::Range(0, 3600))
          ->capture_default_str());
  for (const char* name : {"--quick",
                           "--full",
                           "--modes",
                           "--workloads",
                           "--runtime",
                           "--ramp-time",
                           "--size",
                           "--repeat",
                           "--cache-state",
                           "--working-set",
                           "--stats-lag",
                           "--capture-replay",
                           "--dilation",
                           "--compare-arg",
                           "--interrupt-compare",
                           "--interrupt-signal",
                           "--guest-tests",
                           "--guest-tests-filter",
                           "--loop-stack",
                           "--guests"}) {
    args->compare_only.push_back(cmd->get_option(name));
  }
  cmd->callback([args, exit_code]() {
    RunLab(*args);
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
