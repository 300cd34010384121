#include "cli/help_format.h"

#include <sstream>

namespace tierbench {

std::string CommandDescription(const std::string& purpose,
                               const std::string& example) {
  return purpose + "\nExample: " + example;
}

std::string CommandPurpose(const std::string& description) {
  return description.substr(0, description.find('\n'));
}

std::string CommandListFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true),
                           CommandPurpose(sub->get_description()),
                           get_column_width());
  return out.str();
}

}  // namespace tierbench
