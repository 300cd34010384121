// The help text of tierbench's commands (issue 31). Each visible command's
// description is its one-line purpose, then an "Example:" line with a
// realistic command line, so that `tierbench CMD --help` shows the example
// before the usage and the options. The top-level `tierbench --help` lists
// each command on one line, with its purpose only (CommandListFormatter).
// Thread-safety: pure functions; the formatter holds no state of its own.
#ifndef TIERBENCH_CLI_HELP_FORMAT_H_
#define TIERBENCH_CLI_HELP_FORMAT_H_

#include <CLI/CLI.hpp>
#include <string>

namespace tierbench {

// "PURPOSE\nExample: EXAMPLE". `purpose` is one line (no '\n'), `example`
// one shell command line (e.g. "tierbench list").
std::string CommandDescription(const std::string& purpose,
                               const std::string& example);

// The first line of a description (a whole one-line description).
std::string CommandPurpose(const std::string& description);

// CLI11's formatter, except that a line of a command list shows the
// command's purpose (CommandPurpose) instead of its whole description. Set
// it on the root app before adding subcommands: they copy the root's
// formatter when they are added.
class CommandListFormatter : public CLI::Formatter {
 public:
  std::string make_subcommand(const CLI::App* sub) const override;
};

}  // namespace tierbench

#endif  // TIERBENCH_CLI_HELP_FORMAT_H_
