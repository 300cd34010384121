// The visible commands and options of a CLI11 command line
// (cli/command_line.h).
#include "cli/command_line.h"

namespace tierbench {
namespace {

void CollectCommandOptions(const CLI::App& cmd, bool is_group, bool with_hidden,
                           std::vector<const CLI::Option*>* out) {
  for (const CLI::Option* o : cmd.get_options()) {
    if (!with_hidden && o->get_group().empty()) continue;
    if (is_group && o == cmd.get_help_ptr()) continue;
    out->push_back(o);
  }
  for (const CLI::App* group : cmd.get_subcommands({})) {
    if (group->get_name().empty() && !group->get_group().empty()) {
      CollectCommandOptions(*group, /*is_group=*/true, with_hidden, out);
    }
  }
}

}  // namespace

std::vector<const CLI::App*> VisibleCommands(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name().empty() || sub->get_group().empty() ||
        sub->get_disabled()) {
      continue;  // an option group, a hidden or a disabled command
    }
    out.push_back(sub);
  }
  return out;
}

std::vector<const CLI::Option*> CommandOptions(const CLI::App& cmd,
                                               bool with_hidden) {
  std::vector<const CLI::Option*> out;
  CollectCommandOptions(cmd, /*is_group=*/false, with_hidden, &out);
  return out;
}

}  // namespace tierbench
