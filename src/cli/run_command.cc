// tierbench run: runs fio-style job files on tierbench's own IO engines
// (workload/runner.h) and reports them like fio (report/reporters.h).
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "cli/option_values.h"
#include "report/console_reporter.h"
#include "report/reporters.h"
#include "util/cpu_latency.h"
#include "util/errors.h"
#include "util/log.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

struct RunArgs {
  std::vector<std::string> job_files;
  bool parse_only = false;
  std::string runtime;
  std::string ramp_time;
  std::string size;
  std::string offset;
  std::string filename;
  std::optional<uint64_t> randseed;
  bool destructive = false;
  std::string output_format = "normal";
  std::string output;
  bool quiet = false;
  std::optional<int64_t> cpu_latency_us;  // --cpu-latency
};

JobOverrides ToOverrides(const RunArgs& a) {
  JobOverrides o;
  if (!a.runtime.empty()) o.runtime_ns = DurationOption("--runtime", a.runtime);
  if (!a.ramp_time.empty())
    o.ramp_time_ns = DurationOption("--ramp-time", a.ramp_time);
  if (!a.size.empty()) o.size = SizeSpecOption("--size", a.size);
  if (!a.offset.empty()) o.offset = SizeSpecOption("--offset", a.offset);
  if (!a.filename.empty()) o.filename = a.filename;
  o.randseed = a.randseed;
  return o;
}

std::string BsRange(const BlockSizeSpec& bs) {
  uint64_t lo = bs.min, hi = bs.max;
  if (!bs.split.empty()) {
    lo = hi = bs.split.front().first;
    for (const auto& [size, percent] : bs.split) {
      lo = std::min(lo, size);
      hi = std::max(hi, size);
    }
  }
  return FioNum2Str(lo, 4, true, "B") + "-" + FioNum2Str(hi, 4, true, "B");
}

// fio --parse-only's line per job, then "..." when it has clones.
void PrintJobs(const Workload& w, std::ostream& out) {
  for (const JobSpec& j : w.jobs) {
    const std::string write_range = BsRange(j.bs[1]);
    out << j.name << ": (g=" << j.group_id << "): rw=" << RwPatternName(j.rw)
        << ", bs=(R) " << BsRange(j.bs[0]) << ", (W) " << write_range
        << ", (T) " << write_range << ", ioengine=" << j.ioengine
        << ", iodepth=" << j.iodepth << "\n";
    if (j.numjobs > 1) out << "...\n";
  }
}

void Execute(const RunArgs& a, int* exit_code) {
  SetQuiet(a.quiet);
  Workload workload = ParseJobFiles(a.job_files, ToOverrides(a));
  for (const std::string& n : workload.notices) LogNotice(n);
  if (a.parse_only) {
    PrintJobs(workload, std::cout);
    *exit_code = kExitOk;
    return;
  }
  std::ofstream file;
  if (!a.output.empty()) {
    file.open(a.output, std::ios::out | std::ios::trunc);
    if (!file) {
      throw SysError("Cannot open the output file. File: " + a.output +
                     "; Fix: check the directory exists and is writable");
    }
  }
  std::ostream& out = a.output.empty() ? std::cout : file;
  const std::unique_ptr<Reporter> reporter =
      MakeRunReporter(a.output_format, out);
  // After the job files validated; released when Execute returns (or the
  // process ends, however it ends).
  std::optional<CpuLatencyHold> cpu_latency;
  HoldCpuLatency(Sysfs("/"), a.cpu_latency_us, "while the jobs run",
                 &cpu_latency);
  RunOptions options;
  options.destructive = a.destructive;
  options.progress = !a.quiet;
  options.report_verify_failures = true;
  RunResult result = RunWorkload(workload, options);
  reporter->OnRun(result);
  out.flush();
  if (!out) {
    throw SysError("Writing the report failed. File: " +
                   (a.output.empty() ? std::string("<stdout>") : a.output));
  }
  // verify= mismatches: the report is out (with verify_errors); exit 1.
  for (const JobResult& job : result.jobs) {
    if (job.verify_errors > 0 && !job.error.empty()) {
      throw RunError("Data verification failed. Job: " + job.name +
                     "; Error: " + job.error + "; Fix: " + job.error_fix);
    }
  }
  *exit_code = kExitOk;
}

}  // namespace

void RegisterRunCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", CommandDescription(
                 "Run fio-style job files on tierbench's own IO engines "
                 "(libaio, io_uring, psync, null) and report like fio",
                 "tierbench run --filename /dev/sdb2 --runtime 30s "
                 "workloads/randread-4k.fio"));
  cmd->add_option(
         "jobfiles", args->job_files,
         "fio job files (INI: [global] and [job] sections), run in order")
      ->required()
      ->type_name("JOBFILE...");
  cmd->add_flag(
      "--parse-only", args->parse_only,
      "validate the job files, print the jobs as fio does and exit 0");
  cmd->add_option("--runtime", args->runtime,
                  "override runtime= of every job (seconds, or 500ms, 2m, ...)")
      ->type_name("DURATION");
  cmd->add_option(
         "--ramp-time", args->ramp_time,
         "override ramp_time= of every job (not counted in the results)")
      ->type_name("DURATION");
  cmd->add_option("--size", args->size,
                  "override size= of every job (4g, 512m, 20%)")
      ->type_name("SIZE");
  cmd->add_option("--offset", args->offset,
                  "override offset= of every job (1g, 10%)")
      ->type_name("SIZE");
  cmd->add_option(
         "--filename", args->filename,
         "override filename= of every job: a block device or a regular file")
      ->type_name("PATH");
  cmd->add_option("--randseed", args->randseed,
                  "override randseed= of every job (repeatable random offsets)")
      ->type_name("N");
  cmd->add_flag(
      "--destructive", args->destructive,
      "permit write jobs on block devices (their contents are destroyed); "
      "mounted, held or formatted devices are refused anyway");
  cmd->add_option("--output-format", args->output_format,
                  "report format: normal, json or csv")
      ->check(CLI::IsMember(OutputFormats()))
      ->capture_default_str();
  cmd->add_option("--output", args->output,
                  "write the report to FILE instead of stdout")
      ->type_name("FILE");
  cmd->add_flag("--quiet", args->quiet,
                "no notices and no live progress line on stderr");
  cmd->add_option("--cpu-latency", args->cpu_latency_us,
                  "while the jobs run, hold every CPU out of idle states "
                  "that take longer than US microseconds to leave "
                  "(/dev/cpu_dma_latency; 0: no idle state at all)")
      ->type_name("US")
      ->check(CLI::Range(int64_t{0}, kMaxCpuLatencyUs));
  cmd->footer(
      "DESCRIPTION\n"
      "  Parses the job files as fio does (options in man tierbench-jobfile), "
      "checks "
      "every\n"
      "  target first (exists, size, O_DIRECT accepted, block sizes aligned to "
      "the\n"
      "  logical block size, and for writes to block devices: --destructive "
      "given,\n"
      "  not mounted, no holders, no filesystem/partition/bcache signature), "
      "lays\n"
      "  out missing regular files, then runs the jobs (numjobs clones as "
      "threads,\n"
      "  stonewall groups one after another) and prints fio-style results. A "
      "live\n"
      "  status line is drawn on stderr when it is a terminal.\n"
      "\n"
      "  A QD1 IO sleeps once per IO; if its CPU idles meanwhile, the wake-up\n"
      "  is part of the latency (10-40 us for a halted VM vCPU, up to ~100 us\n"
      "  for deep C-states). --cpu-latency 0 keeps the CPUs out of idle while\n"
      "  the jobs run (fio has no such option: run fio beside such a hold to\n"
      "  compare like with like).\n"
      "\n"
      "EXAMPLES\n"
      "  tierbench run --parse-only job.fio\n"
      "  tierbench run --runtime 10 --filename /tmp/tb.dat --size 1g job.fio\n"
      "  tierbench run --destructive --filename /dev/loop0 --output-format "
      "json \\\n"
      "      --output result.json randwrite.fio\n"
      "\n"
      "EXIT STATUS\n"
      "  0 success; 1 an IO failed during the run; 2 bad option or job file;\n"
      "  3 system error (missing target, permission, O_DIRECT refused);\n"
      "  4 refused for safety (--destructive missing, device mounted, held or\n"
      "  formatted); 130/143 interrupted by SIGINT/SIGTERM.");
  cmd->callback([args, exit_code]() { Execute(*args, exit_code); });
}

}  // namespace tierbench
