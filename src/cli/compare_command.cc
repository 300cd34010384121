// `tierbench compare`: cache modes of one or more cache layers x workloads x
// repetitions against
// the raw HDD and SSD (orchestrate/compare_runner.h does the work; this file
// only declares the options, each once, and converts their values).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cache/registry/mode_file.h"
#include "cli/ci_gate.h"
#include "cli/commands.h"
#include "cli/help_format.h"
#include "cli/option_values.h"
#include "orchestrate/compare_runner.h"
#include "orchestrate/precondition.h"
#include "present/merged_runs.h"
#include "report/reporters.h"
#include "util/cpu_latency.h"
#include "util/data_dir.h"
#include "util/errors.h"
#include "util/host.h"

namespace tierbench {
namespace {

struct CompareArgs {
  CompareOptions options;
  std::vector<std::string> bcache;  // --bcache: a synonym of --stack
  std::string cache_state = "warm-until-steady";
  std::string drain_after = "policy";  // --drain-after
  std::string runtime, ramp_time, size, randseed;
  bool time_based = false;                  // --time-based
  std::vector<std::string> labels;          // --label KEY=VALUE
  std::vector<std::string> workload_modes;  // --workload-modes W=M,M
  std::string verify;                       // --verify[=SIZE]
  CLI::Option* verify_option = nullptr;
  std::string precondition;  // --precondition[=PASSES]
  CLI::Option* precondition_option = nullptr;
  std::vector<std::string> expect;  // --expect EXPR (cli/ci_gate.h)
  std::string junit;                // --junit FILE
  std::string ssd_tbw;              // --ssd-tbw TB
  CLI::Option* ssd_tbw_option = nullptr;
};

// --ssd-tbw TB: a finite number of terabytes above 0, or ConfigError.
double SsdTbwOption(const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const double tb = v.empty() ? 0 : std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno != 0 ||
      !std::isfinite(tb) || tb <= 0) {
    throw ConfigError("Bad value for --ssd-tbw. Value: " + v +
                      "; Fix: the SSD's endurance rating in terabytes "
                      "written, a number above 0 (e.g. --ssd-tbw 600)");
  }
  return tb;
}

// The command line as run, from /proc/self/cmdline (for the manifest).
std::string CommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)),
                        std::istreambuf_iterator<char>());
  std::string out;
  size_t start = 0;
  while (start < raw.size()) {
    size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    std::string arg = raw.substr(start, end - start);
    if (arg.find_first_of(" \t'\"") != std::string::npos) arg = "'" + arg + "'";
    out += (out.empty() ? "" : " ") + arg;
    start = end + 1;
  }
  return out;
}

std::vector<std::string> DefaultModes() {
  const std::string local = "modes";
  if (std::filesystem::is_directory(local)) return DefaultModePaths(local);
  return DefaultModePaths(DataDir() + "/modes");
}

void Run(CompareArgs& a, int* exit_code) {
  CompareOptions& o = a.options;
  // Refused before any IO: a bad expression, --junit without one.
  const std::vector<Expectation> expectations = ParseExpectOptions(a.expect);
  if (!a.junit.empty() && expectations.empty()) {
    throw ConfigError(
        "--junit writes the --expect cases. Fix: add --expect EXPR, or use "
        "tierbench check RUN_DIR --baseline ... --junit FILE");
  }
  if (!ParseCacheState(a.cache_state, &o.cache_state)) {
    throw ConfigError("--cache-state: unknown state '" + a.cache_state +
                      "'. Fix: cold, warm, as-is or warm-until-steady");
  }
  o.drain_after_flush = a.drain_after == "flush";
  if (!a.runtime.empty())
    o.overrides.runtime_ns = DurationOption("--runtime", a.runtime);
  if (!a.ramp_time.empty()) {
    o.overrides.ramp_time_ns = DurationOption("--ramp-time", a.ramp_time);
  }
  if (!a.size.empty()) {
    const SizeSpec size = SizeSpecOption("--size", a.size);
    if (!size.is_percent && size.bytes == 0) {
      throw ConfigError("Bad value for --size. Value: " + a.size +
                        "; Fix: a size above 0, e.g. --size 1G");
    }
    o.overrides.size = size;
  }
  if (!a.randseed.empty()) {
    try {
      size_t used = 0;
      o.overrides.randseed = std::stoull(a.randseed, &used);
      if (used != a.randseed.size()) throw std::invalid_argument("tail");
    } catch (const std::exception&) {
      throw ConfigError("--randseed: not a number: '" + a.randseed +
                        "'. Fix: e.g. --randseed 42");
    }
  }
  if (a.time_based) {
    if (a.runtime.empty()) {
      throw ConfigError(
          "--time-based needs --runtime (how long each job runs). Fix: e.g. "
          "--time-based --runtime 30s");
    }
    o.overrides.time_based = true;
  }
  for (const std::string& l : a.labels) LabelOption(l, &o.labels);
  for (const std::string& wm : a.workload_modes)
    AddWorkloadModes(wm, &o.workload_modes);
  if (a.verify_option != nullptr && a.verify_option->count() > 0) {
    o.verify_bytes = SizeOption("--verify", a.verify);
    if (o.verify_bytes == 0 || o.verify_bytes % 4096 != 0) {
      throw ConfigError("Bad value for --verify. Value: " + a.verify +
                        "; Fix: a positive multiple of 4 KiB, e.g. "
                        "--verify=4M");
    }
  }
  if (a.precondition_option != nullptr && a.precondition_option->count() > 0) {
    const std::string& v = a.precondition;
    const bool digits = !v.empty() && v.size() <= 2 &&
                        v.find_first_not_of("0123456789") == std::string::npos;
    const int passes = digits ? std::stoi(v) : 0;
    if (passes < 1 || passes > kMaxPreconditionPasses) {
      throw ConfigError("Bad value for --precondition. Value: " + v +
                        "; Fix: the passes over the raw SSD's region, 1 to " +
                        std::to_string(kMaxPreconditionPasses) +
                        " (e.g. --precondition=2, the default)");
    }
    o.precondition_passes = passes;
  }
  if (a.ssd_tbw_option != nullptr && a.ssd_tbw_option->count() > 0) {
    o.ssd_tbw_tb = SsdTbwOption(a.ssd_tbw);
  }
  o.stacks.insert(o.stacks.end(), a.bcache.begin(), a.bcache.end());
  if (o.mode_paths.empty()) {
    o.mode_paths = DefaultModes();
    o.modes_are_default = true;
  }
  o.command_line = CommandLine();
  CompareRunner runner(o, RealHost(o.sysfs_root));
  const CompareSummary summary = runner.Run(MakeCompareReporters(std::cout));
  *exit_code = summary.failed_cells > 0 ? kExitRunFailed : kExitOk;
  if (!expectations.empty()) {
    const RunFolder run = RunFolder::Read(summary.run_dir);
    std::vector<JUnitCase> junit;
    std::cout << "Expectations (" << expectations.size() << "):\n";
    if (JudgeExpectations(expectations, run, std::cout, &junit) > 0) {
      *exit_code = kExitRunFailed;
    }
    if (!a.junit.empty()) {
      WriteJUnitFile(a.junit, "tierbench compare " + RunName(summary.run_dir),
                     junit);
    }
  }
}

}  // namespace

void RegisterCompareCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompareArgs>();
  CompareOptions& o = args->options;
  CLI::App* cmd = app.add_subcommand(
      "compare",
      CommandDescription(
          "Measure the modes of block cache layers (bcache, dm-cache, "
          "dm-writecache, lvmcache) against the raw HDD and SSD: every mode "
          "x workload x repetition, with each layer's own counters and a "
          "diagnosis.",
          "tierbench compare --stack /dev/bcache0 --hdd /dev/sdb2 --ssd "
          "/dev/nvme0n1p3 --workloads workloads/anandtech-mix.fio --repeat 3 "
          "--destructive"));
  cmd->add_option("--stack", o.stacks,
                  "a cache stack whose modes are compared (repeatable, one "
                  "per layer): /dev/bcacheN, /dev/mapper/NAME of a dm-cache "
                  "or dm-writecache target, or /dev/VG/LV of an LVM cached "
                  "volume; its layer is detected");
  cmd->add_option("--bcache", args->bcache, "synonym of --stack");
  cmd->add_option("--hdd", o.hdd,
                  "raw HDD baseline: a block device or file that is NOT the "
                  "stack's backing device (a separate region of the disk)");
  cmd->add_option("--ssd", o.ssd,
                  "raw SSD baseline: a block device or file that is NOT the "
                  "stack's cache device");
  cmd->add_option("--modes", o.mode_paths,
                  "mode files (modes/*.json); default: hdd, ssd and the "
                  "shipped modes of the layers of the --stack devices");
  cmd->add_option("--workloads", o.workload_paths,
                  "fio job files (.fio), DB workload files (.json with "
                  "\"kind\": \"pgbench\") and block traces (each replayed "
                  "as one job)")
      ->required();
  cmd->add_option("--repeat", o.repeat, "repetitions of every cell")
      ->default_val(1)
      ->check(CLI::PositiveNumber);
  cmd->add_option(
         "--cache-state", args->cache_state,
         "cache before each cache cell: warm-until-steady (the default: "
         "from cold, run the cell's workload in chunks under the mode until "
         "IOPS and read hits are steady, so the cell measures what the mode "
         "does once settled; the time to warm is recorded; a DB workload "
         "warms with its \"warmup\"), cold (emptied: bcache detach + "
         "re-attach, dm-cache invalidate, dm-writecache flush: the "
         "first-touch question; caching modes whose reads then went to the "
         "HDD are invalid for the settled one), warm (prefill: read the "
         "workload's region), as-is")
      ->default_val("warm-until-steady")
      ->check(CLI::IsMember({"cold", "warm", "as-is", "warm-until-steady"}));
  cmd->add_option("--warm-chunk", o.warm_chunk_s,
                  "warm-until-steady: seconds per chunk (steadiness is judged "
                  "over the last 3 chunks, from the block counters, which do "
                  "not lag)")
      ->default_val(5);
  cmd->add_option("--warm-max", o.warm_max_s,
                  "warm-until-steady: give up (with a warning) after this "
                  "many seconds")
      ->default_val(300);
  cmd->add_option("--working-set", o.working_sets,
                  "run every fio workload once per working set, its region "
                  "sized relative to the smallest stack's cache capacity or "
                  "absolute: e.g. 25%,100%,400% or 64M,1G (workload names "
                  "get @25%, ...)");
  cmd->add_option("--results", o.results_dir, "results directory")
      ->default_val("results");
  cmd->add_option("--run-id", o.run_id,
                  "name of this run's subdirectory (default: UTC time and "
                  "host name)");
  cmd->add_option("--runtime", args->runtime,
                  "runtime of every IO job (fio's runtime=, e.g. 30s)");
  cmd->add_option("--ramp-time", args->ramp_time,
                  "unmeasured warm-up of every IO job (fio's ramp_time=)");
  cmd->add_option("--size", args->size,
                  "region of every IO job (fio's size=, e.g. 1G or 20%); the "
                  "same LBA range is used on every target");
  cmd->add_flag("--time-based", args->time_based,
                "every IO job runs for --runtime, looping over its region "
                "(fio's time_based), also the size-bound ones: their jobs "
                "then end together and the warm-up chunks run the same load");
  cmd->add_option("--randseed", args->randseed,
                  "seed of every IO job's random offsets (fio's randseed=)");
  cmd->add_option("--workload-modes", args->workload_modes,
                  "WORKLOAD=MODE,MODE...: run that workload only in those "
                  "modes, e.g. an expensive DB workload on one layer's modes "
                  "and the raw baselines (repeatable; the other workloads "
                  "run in every mode)")
      ->allow_extra_args(false);
  cmd->add_option(
      "--expect", args->expect,
      "a relation the finished run must hold, else exit 1 "
      "(repeatable; checked for syntax before any IO), e.g. "
      "'writeback/randwrite-4k iops >= 5 * hdd' (man tierbench-check: the "
      "grammar)");
  cmd->add_option("--junit", args->junit,
                  "write the --expect cases as JUnit XML to FILE");
  cmd->add_option("--label", args->labels,
                  "KEY=VALUE fact about this run, recorded in the manifest "
                  "and set side by side when `tierbench report` merges runs "
                  "(repeatable), e.g. --label ssd=Samsung-980")
      ->allow_extra_args(false);
  args->verify_option = cmd->add_flag(
      "--verify{4M}", args->verify,
      "before the cells, write SIZE (default 4M) of fio "
      "verify=crc32c blocks to every stack in writeback and read "
      "them back after each of its modes, a cold cache and a warm "
      "re-read; a difference fails the run (--verify=SIZE)");
  args->ssd_tbw_option =
      cmd->add_option(
             "--ssd-tbw", args->ssd_tbw,
             "the SSD's endurance rating in terabytes written (TBW, 10^12 "
             "bytes, above 0): each cache cell's ssd_life_days projects the "
             "days until the cache device's writes reach it at the cell's "
             "rate of SSD writes (runs.csv, comparison.csv)")
          ->type_name("TB");
  args->precondition_option = cmd->add_flag(
      "--precondition{2}", args->precondition,
      "before the cells, write the raw SSD (--ssd) sequentially over the "
      "compare's region PASSES times (default 2; 128k direct writes at "
      "queue depth 32, as SNIA PTS preconditions), so its cells measure a "
      "drive in steady state, not fresh out of the box; each pass's MiB/s "
      "goes to the manifest (--precondition=PASSES, 1 to 10; needs the ssd "
      "mode and --destructive)");
  cmd->add_flag("--destructive", o.destructive,
                "permit writes: the data on the cache stacks and on the raw "
                "--hdd/--ssd targets is destroyed");
  cmd->add_option("--cpu-latency", o.cpu_latency_us,
                  "while the compare runs, hold every CPU out of idle states "
                  "that take longer than US microseconds to leave "
                  "(/dev/cpu_dma_latency; 0: no idle state at all), so QD1 "
                  "latencies measure the devices, not the CPUs waking up")
      ->type_name("US")
      ->check(CLI::Range(int64_t{0}, kMaxCpuLatencyUs));
  cmd->add_option("--stats-lag", o.stats_lag_s,
                  "longest wait after each cell's IO stop for bcache's "
                  "counters: they are read at bcache's first fold after the "
                  "stop (every ~13.6 s; seen in stats_total, or in the decay "
                  "of stats_five_minute), or after this many seconds when "
                  "none was seen; the time-to-clean drain runs meanwhile")
      ->default_val(15)
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--drain-timeout", o.drain_timeout_s,
                  "seconds to wait for dirty data to be written back, before "
                  "and after each cell")
      ->default_val(600)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--drain-after", args->drain_after,
                  "after each cell's IO: policy (the layer writes its dirty "
                  "data back at its own pace, and drain_after_s is the time "
                  "to clean a user waits) or flush (bcache: as fast as the "
                  "HDD takes it, writeback_percent and writeback_delay 0 for "
                  "the drain; a quicker compare, drain_after_s is then the "
                  "flush time). The drains that prepare a cell always flush")
      ->default_val("policy")
      ->check(CLI::IsMember({"policy", "flush"}));
  cmd->add_flag(
      "--capture-replay", o.capture_replay,
      "trace each DB workload's cell on the raw HDD (mode hdd) with "
      "blktrace, from its clients' start to the end of its run, and replay "
      "the capture under every mode as one more workload, NAME-replay "
      "(direct, libaio, iodepth 32, at the recorded times): the "
      "application's IO beside its live cells. Needs modes/hdd.json, "
      "blktrace and debugfs");
  cmd->add_option("--sysfs-root", o.sysfs_root,
                  "directory that plays / for sys/ and proc/ (tests only)")
      ->default_val("/");
  cmd->add_flag("--quiet", o.quiet, "no progress, notices or per-cell lines");
  cmd->footer(
      "PROTOCOL PER CELL\n"
      "  raw modes run the workload on --hdd/--ssd. Cache modes (on the "
      "--stack of their\n  layer): set the cache state,"
      "\n"
      "  apply the mode and its knobs (read back), wait until clean, drop "
      "the page cache,\n"
      "  snapshot counters, run, wait for bcache's next counter fold (at "
      "most --stats-lag;\n  the other layers' counters do not lag), "
      "snapshot, measure the time to clean.\n"
      "  Every stack's original mode, table and knobs are restored at the "
      "end, on error\n  and on Ctrl-C/SIGTERM.\n"
      "\n"
      "RESULTS (<results>/<run-id>/)\n"
      "  runs.csv        one row per cell, job and direction, with counters "
      "and warnings\n"
      "  comparison.csv  medians per mode x workload, change vs HDD and SSD, "
      "position\n"
      "  manifest.json   kernel, devices, knobs as read back, workloads, "
      "restore outcome\n"
      "\n"
      "EXAMPLES\n"
      "  tierbench compare --stack /dev/bcache0 --stack /dev/mapper/dmcache "
      "\\\n      --hdd /dev/sdb3 --ssd /dev/sdc3 \\\n"
      "      --workloads workloads/randread-4k.fio workloads/randwrite-4k.fio "
      "\\\n"
      "      --repeat 3 --runtime 30s --destructive\n"
      "  tierbench compare --stack /dev/bcache0 --modes modes/writeback.json "
      "\\\n"
      "      modes/writeback-nocutoff.json --workloads "
      "workloads/wiki-4k-qd32.fio --cache-state cold\n"
      "  tierbench compare --stack /dev/bcache0 --hdd /dev/sdb3 --modes "
      "modes/hdd.json \\\n"
      "      modes/writeback.json --workloads workloads/randread-zipf.fio "
      "\\\n"
      "      --working-set 25%,100%,400% --cache-state warm-until-steady\n"
      "\n"
      "EXIT STATUS\n"
      "  0 every cell ran; 1 a cell's workload failed (its row has the "
      "error);\n"
      "  2 bad option, mode or workload file; 3 system error (no such layer, "
      "no root,\n"
      "  missing device); 4 refused for safety (--destructive missing, "
      "device in use or\n"
      "  part of the stack); 5 database error; 130/143 interrupted "
      "(finished cells kept).");
  cmd->callback([args, exit_code]() { Run(*args, exit_code); });
}

}  // namespace tierbench
