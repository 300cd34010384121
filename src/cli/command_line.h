// What tierbench's command line shows of itself (issue 31): the commands
// and options a user sees in --help, which the bash completion script and
// the man pages' test both walk. A command in the group "" is hidden (the
// lab's helpers), as is an option in the group ""; an option group is a
// nameless subcommand whose options belong to its command.
// Thread-safety: pure (reads `app` only).
#ifndef TIERBENCH_CLI_COMMAND_LINE_H_
#define TIERBENCH_CLI_COMMAND_LINE_H_

#include <CLI/CLI.hpp>
#include <vector>

namespace tierbench {

// The named, visible and enabled subcommands of `app`, in order.
std::vector<const CLI::App*> VisibleCommands(const CLI::App& app);

// The options of `cmd` and of its option groups (without the groups' copies
// of the help flag), in order; hidden ones only when `with_hidden`.
std::vector<const CLI::Option*> CommandOptions(const CLI::App& cmd,
                                               bool with_hidden);

}  // namespace tierbench

#endif  // TIERBENCH_CLI_COMMAND_LINE_H_
