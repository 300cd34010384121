// The subcommands of the tierbench executable. Each Register*Command adds one
// CLI11 subcommand to `app`, described by its purpose and an example
// (CommandDescription, cli/help_format.h), declares each of its options
// exactly once (help text, default, check), and sets a callback that runs
// the command and stores its exit code (util/errors.h) in *exit_code.
// Callbacks throw HarnessError for failures; main() turns those into one
// line and the exit code.
#ifndef TIERBENCH_CLI_COMMANDS_H_
#define TIERBENCH_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace tierbench {

// Every command, in the order `tierbench --help` lists them (cli/commands.cc):
// what main() and the tests that walk the command line (the man pages')
// register.
void RegisterCommands(CLI::App& app, int* exit_code);

// In cli/<name>_command.cc.
void RegisterRunCommand(CLI::App& app, int* exit_code);
void RegisterCompareCommand(CLI::App& app, int* exit_code);
void RegisterLabCommand(CLI::App& app, int* exit_code);
void RegisterPgbenchCommand(CLI::App& app, int* exit_code);
void RegisterListCommand(CLI::App& app, int* exit_code);
void RegisterReportCommand(CLI::App& app, int* exit_code);
void RegisterCheckCommand(CLI::App& app, int* exit_code);
void RegisterRestoreCommand(CLI::App& app, int* exit_code);
void RegisterReplayLogCommand(CLI::App& app, int* exit_code);
// `tierbench completion bash`: the script is generated from `app` as it is
// when the command runs, so register it with the others.
void RegisterCompletionCommand(CLI::App& app, int* exit_code);
void RegisterTraceStatsCommand(CLI::App& app, int* exit_code);
// `tierbench capture` (cli/capture_command.cc).
void RegisterCaptureCommand(CLI::App& app, int* exit_code);
// Hidden: the lab's CPU calibration loop (lab/lab_cpu_loop.h).
void RegisterCalibrateCpuCommand(CLI::App& app, int* exit_code);
// Hidden: the fault scenario's block checker (workload/block_check.h).
void RegisterCheckBlocksCommand(CLI::App& app, int* exit_code);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_COMMANDS_H_
