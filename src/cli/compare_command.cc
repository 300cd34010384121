// Placeholder until the 'compare' command lands; replaced by its owner.
#include "cli/commands.h"
#include "util/errors.h"

namespace tierbench {

void RegisterCompareCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("compare", "(not built yet)");
  cmd->callback([exit_code]() {
    *exit_code = kExitConfig;
    throw ConfigError("'compare' is not built yet");
  });
}

}  // namespace tierbench
