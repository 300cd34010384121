// `tierbench completion bash`: prints the bash completion script generated
// from the command line as registered (cli/bash_completion.h), like kubectl
// and gh do. Another shell is refused in one line (exit 2).
// `tierbench completion --data-dir` prints the data dir (util/data_dir.h)
// whose modes and workloads the script offers; exit 2 when none is found.
#include <iostream>
#include <memory>
#include <string>

#include "cli/bash_completion.h"
#include "cli/commands.h"
#include "cli/help_format.h"
#include "util/data_dir.h"
#include "util/errors.h"

namespace tierbench {
namespace {

struct CompletionArgs {
  std::string shell;
  bool data_dir = false;
};

void RunCompletion(const CLI::App& root, const CompletionArgs& a) {
  if (a.data_dir) {
    const DataDirLookup data = FindDataDir();
    if (data.dir.empty()) {
      throw ConfigError(
          "no data dir found (no modes/ folder). Fix: set "
          "TIERBENCH_DATA_DIR to the folder holding modes/ and workloads/");
    }
    std::cout << data.dir << "\n";
    return;
  }
  if (a.shell != "bash") {
    throw ConfigError(
        (a.shell.empty() ? std::string("completion needs a shell")
                         : "unknown shell '" + a.shell + "'") +
        ". Fix: tierbench completion bash (bash is the one shell supported)");
  }
  std::cout << BashCompletionScript(root);
}

}  // namespace

void RegisterCompletionCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<CompletionArgs>();
  CLI::App* cmd = app.add_subcommand(
      "completion",
      CommandDescription("Print the shell completion script of tierbench's "
                         "commands, options and files",
                         "source <(tierbench completion bash)"));
  cmd->add_option("SHELL", args->shell, "the shell: bash")->type_name("{bash}");
  cmd->add_flag(kCompletionDataDirFlag, args->data_dir,
                "print the data dir whose modes/ and workloads/ the script "
                "offers after --modes and --workloads (the script asks the "
                "tierbench it completes), and exit");
  cmd->footer(
      "INSTALL\n"
      "  this shell:   source <(tierbench completion bash)\n"
      "  every shell:  tierbench completion bash > "
      "~/.local/share/bash-completion/completions/tierbench\n"
      "  The Debian package installs it in "
      "/usr/share/bash-completion/completions/.\n"
      "\n"
      "EXIT STATUS\n"
      "  0 printed; 2 an unknown shell, or --data-dir found none.");
  const CLI::App* root = &app;
  cmd->callback([root, args, exit_code]() {
    RunCompletion(*root, *args);
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
