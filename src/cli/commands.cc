// The list of tierbench's commands (cli/commands.h).
#include "cli/commands.h"

namespace tierbench {

void RegisterCommands(CLI::App& app, int* exit_code) {
  RegisterRunCommand(app, exit_code);
  RegisterCompareCommand(app, exit_code);
  RegisterLabCommand(app, exit_code);
  RegisterPgbenchCommand(app, exit_code);
  RegisterListCommand(app, exit_code);
  RegisterRestoreCommand(app, exit_code);
  RegisterReportCommand(app, exit_code);
  RegisterCheckCommand(app, exit_code);
  RegisterReplayLogCommand(app, exit_code);
  RegisterCompletionCommand(app, exit_code);
  RegisterTraceStatsCommand(app, exit_code);
  RegisterCaptureCommand(app, exit_code);
  RegisterCalibrateCpuCommand(app, exit_code);
  RegisterCheckBlocksCommand(app, exit_code);
}

}  // namespace tierbench
