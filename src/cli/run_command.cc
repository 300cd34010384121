// Placeholder until the 'run' command lands; replaced by its owner.
#include "cli/commands.h"
#include "util/errors.h"

namespace tierbench {

void RegisterRunCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("run", "(not built yet)");
  cmd->callback([exit_code]() {
    *exit_code = kExitConfig;
    throw ConfigError("'run' is not built yet");
  });
}

}  // namespace tierbench
