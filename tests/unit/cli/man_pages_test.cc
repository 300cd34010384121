// The man pages against the command line (issue 31): every option CLI11
// knows for a visible command is in the OPTIONS section of the command's
// page (src/man/tierbench-COMMAND.1.md), every option named there exists,
// and tierbench(1) names every command. An option added without its page,
// or a page that keeps a removed option, fails here naming both.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands.h"

namespace tierbench {
namespace {

std::string ReadManSource(const std::string& page) {
  std::ifstream in(std::string(TIERBENCH_SOURCE_DIR) + "/src/man/" + page +
                   ".md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The option names (-x, --long) of `cmd` and of its option groups;
// hidden ones (empty group) only into *hidden.
void CollectOptionNames(const CLI::App& cmd, std::set<std::string>* visible,
                        std::set<std::string>* hidden) {
  for (const CLI::Option* opt : CommandOptions(cmd, /*with_hidden=*/true)) {
    std::set<std::string>* into = opt->get_group().empty() ? hidden : visible;
    for (const std::string& s : opt->get_snames()) into->insert("-" + s);
    for (const std::string& l : opt->get_lnames()) into->insert("--" + l);
  }
}

// The options a page's OPTIONS section names: **-x** and **--long** on the
// lines that are a definition's term (not its ":   " text).
std::set<std::string> DocumentedOptions(const std::string& page) {
  const std::string text = ReadManSource(page);
  const size_t start = text.find("\n# OPTIONS\n");
  EXPECT_NE(start, std::string::npos) << page << " has no # OPTIONS section";
  if (start == std::string::npos) return {};
  const size_t end = text.find("\n# ", start + 1);
  std::istringstream section(text.substr(start, end - start));
  const std::regex bold(R"(\*\*(--?[A-Za-z0-9][A-Za-z0-9-]*)\*\*)");
  std::set<std::string> names;
  for (std::string line; std::getline(section, line);) {
    if (line.empty() || line[0] == ':' || line[0] == ' ') continue;
    for (std::sregex_iterator it(line.begin(), line.end(), bold), e; it != e;
         ++it) {
      names.insert((*it)[1]);
    }
  }
  return names;
}

TEST(ManPagesTest, EveryOptionOfEveryCommandIsInItsPageAndNoOther) {
  CLI::App app{"tierbench", "tierbench"};
  int exit_code = 0;
  RegisterCommands(app, &exit_code);
  const std::vector<const CLI::App*> commands = VisibleCommands(app);
  ASSERT_GE(commands.size(), 9u);
  for (const CLI::App* command : commands) {
    const std::string page = "tierbench-" + command->get_name() + ".1";
    SCOPED_TRACE("src/man/" + page + ".md");
    ASSERT_FALSE(ReadManSource(page).empty())
        << "no man page for the command " << command->get_name();
    std::set<std::string> visible, hidden;
    CollectOptionNames(*command, &visible, &hidden);
    ASSERT_FALSE(visible.empty());
    const std::set<std::string> documented = DocumentedOptions(page);
    for (const std::string& name : visible) {
      EXPECT_EQ(documented.count(name), 1u)
          << "tierbench " << command->get_name() << " " << name
          << " is missing from the page's OPTIONS";
    }
    for (const std::string& name : documented) {
      EXPECT_TRUE(visible.count(name) + hidden.count(name) > 0)
          << "the page's OPTIONS names " << name << ", which tierbench "
          << command->get_name() << " does not have";
    }
  }
}

// Every term of an OPTIONS section is followed by its definition (":   "
// and a sentence, backquotes paired): a term whose text was lost or cut in
// an edit ("flush`") fails here.
TEST(ManPagesTest, EveryOptionHasADefinition) {
  CLI::App app{"tierbench", "tierbench"};
  int exit_code = 0;
  RegisterCommands(app, &exit_code);
  for (const CLI::App* command : VisibleCommands(app)) {
    const std::string page = "tierbench-" + command->get_name() + ".1";
    const std::string text = ReadManSource(page);
    const size_t start = text.find("\n# OPTIONS\n");
    ASSERT_NE(start, std::string::npos) << page;
    std::istringstream section(
        text.substr(start, text.find("\n# ", start + 1) - start));
    std::vector<std::string> lines;
    for (std::string line; std::getline(section, line);) lines.push_back(line);
    int terms = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind("**-", 0) != 0) continue;
      ++terms;
      const std::string def = i + 1 < lines.size() ? lines[i + 1] : "";
      EXPECT_EQ(def.rfind(":   ", 0), 0u)
          << page << ": the term " << lines[i] << " has no definition";
      EXPECT_GE(def.size(), 4u + 12u) << page << ": " << lines[i] << "\n"
                                      << def;
      EXPECT_EQ(std::count(def.begin(), def.end(), '`') % 2, 0)
          << page << ": unpaired ` in the definition of " << lines[i] << "\n"
          << def;
    }
    EXPECT_GE(terms, 1) << page;
  }
}

TEST(ManPagesTest, TierbenchOneNamesEveryCommandsPage) {
  CLI::App app{"tierbench", "tierbench"};
  int exit_code = 0;
  RegisterCommands(app, &exit_code);
  const std::string top = ReadManSource("tierbench.1");
  ASSERT_FALSE(top.empty());
  for (const CLI::App* command : VisibleCommands(app)) {
    EXPECT_NE(top.find("**tierbench-" + command->get_name() + "**(1)"),
              std::string::npos)
        << "tierbench.1.md does not name tierbench-" << command->get_name()
        << "(1)";
  }
}

// Every page has pandoc's title line and a NAME section whose name is the
// file's: what man(1) and apropos(1) index.
TEST(ManPagesTest, EveryPageHasItsTitleAndName) {
  const std::vector<std::string> pages = {"tierbench.1",
                                          "tierbench-run.1",
                                          "tierbench-compare.1",
                                          "tierbench-lab.1",
                                          "tierbench-report.1",
                                          "tierbench-check.1",
                                          "tierbench-pgbench.1",
                                          "tierbench-list.1",
                                          "tierbench-restore.1",
                                          "tierbench-replay-log.1",
                                          "tierbench-completion.1",
                                          "tierbench-trace-stats.1",
                                          "tierbench-capture.1",
                                          "tierbench-jobfile.5",
                                          "tierbench-modes.5",
                                          "tierbench-results.5"};
  for (const std::string& page : pages) {
    SCOPED_TRACE(page);
    const std::string text = ReadManSource(page);
    const std::string name = page.substr(0, page.rfind('.'));
    std::string upper;
    for (char c : name) upper += static_cast<char>(std::toupper(c));
    const std::string section = page.substr(page.rfind('.') + 1);
    EXPECT_EQ(text.rfind("% " + upper + "(" + section + ")", 0), 0u)
        << text.substr(0, 80);
    EXPECT_NE(text.find("# NAME\n\n" + name + " - "), std::string::npos);
  }
}

}  // namespace
}  // namespace tierbench
