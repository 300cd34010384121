// tierbench: measures what a block caching layer does for you.
// main() only assembles the subcommands (cli/) and maps errors to one line on
// stderr and a documented exit code (util/errors.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"

namespace {

// Levenshtein distance, for the suggestion after an unknown command.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min(
          {row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// "" when `word` (the first argument) is an option or a command; else the
// one-line error naming it, with the nearest command when one is close.
std::string UnknownCommand(const CLI::App& app, const std::string& word) {
  if (word.empty() || word[0] == '-') return "";
  std::string best;
  size_t best_d = 3;  // suggest within two edits
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == word) return "";
    if (sub->get_group().empty()) continue;  // hidden (the lab's helpers)
    const size_t d = EditDistance(word, sub->get_name());
    if (d < best_d) {
      best_d = d;
      best = sub->get_name();
    }
  }
  return "unknown command '" + word + "'. Fix: " +
         (best.empty() ? std::string("one of the commands of tierbench --help")
                       : "did you mean 'tierbench " + best + "'?");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tierbench;
  CLI::App app{"tierbench " TIERBENCH_VERSION
               " - what a block cache layer (bcache, dm-cache, dm-writecache, "
               "lvmcache) does for you, measured against the bare HDD and SSD.",
               "tierbench"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       std::string("tierbench ") + TIERBENCH_VERSION);
  app.footer(
      "EXIT STATUS\n"
      "  0 success; 1 the run failed; 2 usage or configuration error;\n"
      "  3 system error (device, permission, missing tool or module);\n"
      "  4 refused for safety (--destructive missing, device mounted or "
      "held);\n"
      "  5 database error; 130/143 interrupted by SIGINT/SIGTERM.\n"
      "\n"
      "See 'tierbench COMMAND --help' and man tierbench.");

  // Before the subcommands are added: they copy it.
  app.formatter(std::make_shared<CommandListFormatter>());

  int exit_code = kExitOk;
  RegisterCommands(app, &exit_code);

  InstallInterruptHandlers();
  if (argc > 1) {
    const std::string unknown = UnknownCommand(app, argv[1]);
    if (!unknown.empty()) {
      LogError(unknown);
      return kExitConfig;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitConfig;
  } catch (const HarnessError& e) {
    ClearProgressLine();
    LogError(e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    ClearProgressLine();
    LogError(std::string("internal error: ") + e.what());
    return kExitRunFailed;
  }
  return exit_code;
}
