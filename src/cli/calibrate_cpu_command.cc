// `tierbench calibrate-cpu` (hidden): times the lab's CPU calibration loop
// (lab/lab_cpu_loop.h) and prints the fastest pass in nanoseconds, one
// number on stdout; with --parts "ns=N memory_ns=N integer_ns=N
// syscall_ns=N" (the payload of the guest's "@@LAB:calib" line,
// lab/lab_dilation.h). The lab's guest runs it first thing; the host runs
// the same loop in-process.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "lab/lab_cpu_loop.h"
#include "util/errors.h"

namespace tierbench {
namespace {

struct CalibrateCpuArgs {
  int repeat = 5;
  bool parts = false;
};

void Run(const CalibrateCpuArgs& a) {
  CpuLoopTimes t;
  Status s = TimeCpuCalibrationLoop(a.repeat, &t);
  if (!s.ok()) throw SysError::From("Cannot run the CPU calibration loop", s);
  if (a.parts) {
    std::cout << "ns=" << t.total_ns() << " memory_ns=" << t.memory_ns
              << " integer_ns=" << t.integer_ns
              << " syscall_ns=" << t.syscall_ns << std::endl;
  } else {
    std::cout << t.total_ns() << std::endl;
  }
}

}  // namespace

void RegisterCalibrateCpuCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CalibrateCpuArgs>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate-cpu",
      "Time the lab's fixed CPU calibration loop (memory, branches, system "
      "calls) and print the fastest pass in nanoseconds");
  cmd->group("");  // hidden: a tool of `tierbench lab`
  cmd->add_option("--repeat", args->repeat, "passes; the fastest is printed")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd->add_flag("--parts", args->parts,
                "print ns=N memory_ns=N integer_ns=N syscall_ns=N");
  cmd->callback([args, exit_code]() {
    Run(*args);
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
