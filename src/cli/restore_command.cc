// `tierbench restore`: puts back every cache stack a killed compare left
// changed, from the restore state file (orchestrate/restore_state.h).
#include <unistd.h>

#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "orchestrate/restore_state.h"
#include "util/errors.h"
#include "util/host.h"

namespace tierbench {

void RegisterRestoreCommand(CLI::App& app, int* exit_code) {
  auto root = std::make_shared<std::string>("/");
  CLI::App* cmd = app.add_subcommand(
      "restore",
      CommandDescription(
          "Put back the cache modes, knobs and dm tables a compare changed "
          "and could not restore (it was killed, crashed or the power "
          "failed)",
          "tierbench restore"));
  cmd->add_option("--sysfs-root", *root,
                  "directory that plays / for sys/, proc/ and run/ (tests "
                  "only)")
      ->default_val("/");
  cmd->footer(
      "DESCRIPTION\n"
      "  tierbench compare writes what it must restore to "
      "/run/tierbench/state.json\n"
      "  before it changes anything, and removes the file once it restored "
      "every stack.\n"
      "  A compare killed with SIGKILL (or a crash) leaves the file: a new "
      "compare then\n"
      "  refuses to start, and this command opens each stack again, checks "
      "it is still\n"
      "  the same layer, restores the original mode, knobs or table (each "
      "read back) and\n"
      "  removes the file. A stack that cannot be restored is named and the "
      "file kept.\n"
      "\n"
      "EXIT STATUS\n"
      "  0 restored (or nothing to restore); 2 malformed state file; 3 a "
      "stack could not\n"
      "  be restored; 4 the compare that wrote the state is still running.");
  cmd->callback([root, exit_code]() {
    const Host host = RealHost(*root);
    if (host.sysfs.IsRealRoot() && ::geteuid() != 0) {
      throw SysError(
          "tierbench restore needs root: it writes sysfs knobs and dm "
          "tables. Fix: run it as root (sudo)");
    }
    const bool ok = RestoreFromState(host, std::cout);
    *exit_code = ok ? kExitOk : kExitSystem;
  });
}

}  // namespace tierbench
