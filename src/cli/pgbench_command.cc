// Placeholder until the 'pgbench' command lands; replaced by its owner.
#include "cli/commands.h"
#include "util/errors.h"

namespace tierbench {

void RegisterPgbenchCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("pgbench", "(not built yet)");
  cmd->callback([exit_code]() {
    *exit_code = kExitConfig;
    throw ConfigError("'pgbench' is not built yet");
  });
}

}  // namespace tierbench
