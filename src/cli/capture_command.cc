// `tierbench capture --device DEV [--out DIR] (--duration S | -- COMMAND...)`
// (issue 30 item 1): the device's block IO recorded with blktrace while
// COMMAND runs (or for S seconds) and written as a fio iolog that
// read_iolog= replays, with its profile (cli/capture_session.h does the
// work; this file declares the options).
#include <unistd.h>

#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/capture_session.h"
#include "cli/commands.h"
#include "cli/help_format.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// "capture-loop0-20261205-082300" in the current folder (UTC).
std::string CaptureDefaultOut(const std::string& device) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  const size_t slash = device.rfind('/');
  return "capture-" +
         (slash == std::string::npos ? device : device.substr(slash + 1)) +
         "-" + stamp;
}

}  // namespace

void RegisterCaptureCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<CaptureRequest>();
  CLI::App* cmd = app.add_subcommand(
      "capture",
      CommandDescription(
          "Record a block device's IO with blktrace while a command runs "
          "(or for --duration seconds) and write it as a fio iolog that "
          "read_iolog= replays, with the trace's profile",
          "tierbench capture --device /dev/sdb --out cap -- tierbench run "
          "app.fio"));
  cmd->add_option("--device", a->device,
                  "the block device whose IO is recorded (blktrace -d)")
      ->required();
  cmd->add_option("--out", a->out_dir,
                  "a new or empty folder for the trace (default: "
                  "capture-NAME-YYYYmmdd-HHMMSS here, UTC)");
  cmd->add_option("--duration", a->duration_s,
                  "trace whatever runs for this many seconds instead of a "
                  "command");
  cmd->add_option("COMMAND", a->command,
                  "the command to trace, after -- (run to its end with "
                  "tierbench's stdin, stdout and stderr)");
  cmd->footer(
      "DESCRIPTION\n"
      "  blktrace -d DEV -D OUT/raw -o NAME runs while COMMAND does; then "
      "blkparse merges\n"
      "  the per-CPU files into OUT/NAME.blkparse.txt, and its ISSUE (D) "
      "events (the\n"
      "  requests as the device saw them) become OUT/NAME.iolog, a fio iolog "
      "v3: reads,\n"
      "  writes and flushes (sync). NAME is the device's base name. Needs "
      "root, blktrace\n"
      "  (apt-get install blktrace) and debugfs (mount -t debugfs none "
      "/sys/kernel/debug).\n"
      "\n"
      "EXAMPLE\n"
      "  tierbench capture --device /dev/sdb --out cap -- tierbench run "
      "app.fio\n"
      "  tierbench capture --device /dev/sdb --out cap --duration 60\n"
      "\n"
      "EXIT STATUS\n"
      "  0 captured; 1 COMMAND failed (the trace is still written) or no "
      "request of DEV\n"
      "  was recorded; 2 bad options (both or neither of --duration and a "
      "command, OUT\n"
      "  not empty, COMMAND not found); 3 DEV missing or not a block device, "
      "blktrace or\n"
      "  blkparse missing, not root, debugfs not mounted, blktrace or "
      "blkparse failed.");
  cmd->callback([a, exit_code]() {
    CaptureRequest request = *a;
    if (request.out_dir.empty()) {
      request.out_dir = CaptureDefaultOut(request.device);
    }
    CaptureHostChecks host;
    host.root = ::geteuid() == 0;
    const CapturePlan plan = CheckCapture(request, host);
    const CaptureOutcome outcome = RunCapture(request, plan, std::cout);
    if (outcome.interrupted) {
      std::cout << "capture: interrupted; the trace up to then is written\n";
    }
    if (outcome.command_exit != 0) {
      throw RunError("The captured command exited with status " +
                     std::to_string(outcome.command_exit) +
                     "; its trace is written. Iolog: " + outcome.iolog);
    }
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
