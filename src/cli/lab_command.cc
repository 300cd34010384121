// Placeholder until the 'lab' command lands; replaced by its owner.
#include "cli/commands.h"
#include "util/errors.h"

namespace tierbench {

void RegisterLabCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("lab", "(not built yet)");
  cmd->callback([exit_code]() {
    *exit_code = kExitConfig;
    throw ConfigError("'lab' is not built yet");
  });
}

}  // namespace tierbench
