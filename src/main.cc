// tierbench: measures what a block caching layer does for you.
// main() only assembles the subcommands (cli/) and maps errors to one line on
// stderr and a documented exit code (util/errors.h).
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli/commands.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"

int main(int argc, char** argv) {
  using namespace tierbench;
  CLI::App app{
      "tierbench " TIERBENCH_VERSION
      " - what a block cache (bcache) does for you, measured against the bare "
      "HDD and SSD.",
      "tierbench"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       std::string("tierbench ") + TIERBENCH_VERSION);
  app.footer(
      "COMMANDS\n"
      "  run       run fio-style job files on tierbench's own IO engine\n"
      "  compare   measure bcache cache modes against the raw HDD and SSD\n"
      "  lab       the same comparison on real bcache inside a QEMU guest\n"
      "  pgbench   pgbench-style TPC-B driver on PostgreSQL\n"
      "  list      engines, modes and workloads tierbench knows\n"
      "  report    HTML report, SVG charts and summary.md of a compare run\n"
      "  restore   put back what a killed compare left changed\n"
      "  replay-log  replay a dm-log-writes log onto a device up to a mark\n"
      "\n"
      "EXIT STATUS\n"
      "  0 success; 1 the run failed; 2 usage or configuration error;\n"
      "  3 system error (device, permission, missing tool or module);\n"
      "  4 refused for safety (--destructive missing, device mounted or "
      "held);\n"
      "  5 database error; 130/143 interrupted by SIGINT/SIGTERM.\n"
      "\n"
      "See 'tierbench COMMAND --help' and README.md.");

  int exit_code = kExitOk;
  RegisterRunCommand(app, &exit_code);
  RegisterCompareCommand(app, &exit_code);
  RegisterLabCommand(app, &exit_code);
  RegisterPgbenchCommand(app, &exit_code);
  RegisterListCommand(app, &exit_code);
  RegisterRestoreCommand(app, &exit_code);
  RegisterReportCommand(app, &exit_code);
  RegisterReplayLogCommand(app, &exit_code);
  RegisterCalibrateCpuCommand(app, &exit_code);

  InstallInterruptHandlers();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitConfig;
  } catch (const HarnessError& e) {
    ClearProgressLine();
    LogError(e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    ClearProgressLine();
    LogError(std::string("internal error: ") + e.what());
    return kExitRunFailed;
  }
  return exit_code;
}
