// The command line a newcomer meets first (issue 31): `tierbench --help`
// lists each command once and names every layer and engine; a mistyped
// command is one line naming it, with the nearest command, exit 2; `list`
// describes each mode and workload and lists no data files as workloads;
// compare's --time-based without --runtime is refused before anything runs;
// each visible command's --help shows an example before its options, and
// `tierbench --help` keeps to one line per command.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_help_text.h"
#include "test_env.h"

namespace tierbench::testing {
namespace {

const std::string kHelpBin = TIERBENCH_BINARY;

size_t HelpCount(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos;
       p = text.find(what, p + 1)) {
    ++n;
  }
  return n;
}

TEST(CliHelpTest, HelpListsEachCommandOnceAndEveryLayer) {
  std::string out;
  ASSERT_EQ(RunShell(kHelpBin + " --help 2>&1", &out), 0) << out;
  for (const char* cmd :
       {"run", "compare", "lab", "pgbench", "list", "restore", "report",
        "check", "replay-log", "trace-stats", "capture"}) {
    EXPECT_EQ(HelpCount(out, std::string("\n  ") + cmd + " "), 1u)
        << cmd << ":\n"
        << out;
  }
  for (const char* word :
       {"dm-cache", "dm-writecache", "lvmcache", "io_uring", "EXIT STATUS"}) {
    EXPECT_NE(out.find(word), std::string::npos) << word << ":\n" << out;
  }
  EXPECT_EQ(out.find("(bcache) does"), std::string::npos) << out;
  EXPECT_EQ(out.find("calibrate"), std::string::npos) << out;  // hidden
}

TEST(CliHelpTest, EveryCommandsHelpShowsAnExampleBeforeItsOptions) {
  std::string help;
  ASSERT_EQ(RunShell(kHelpBin + " --help", &help), 0) << help;
  std::vector<std::string> continued;
  const std::vector<std::string> commands = HelpCommands(help, &continued);
  EXPECT_GE(commands.size(), 9u) << help;
  // One line per command: the purpose, not the example.
  EXPECT_TRUE(continued.empty()) << continued.front() << "\n" << help;
  EXPECT_EQ(help.find("Example:"), std::string::npos) << help;
  for (const std::string& cmd : commands) {
    std::string out;
    ASSERT_EQ(RunShell(kHelpBin + " " + cmd + " --help", &out), 0) << out;
    const size_t example = out.find("\nExample: ");
    const size_t options = out.find("\nOptions:\n");
    ASSERT_NE(example, std::string::npos) << cmd << ":\n" << out;
    ASSERT_NE(options, std::string::npos) << cmd << ":\n" << out;
    EXPECT_LT(example, options) << cmd << ":\n" << out;
    // The purpose is the first line, the example the second, one line.
    EXPECT_EQ(std::count(out.begin(), out.begin() + example, '\n'), 0)
        << cmd << ":\n"
        << out;
    const std::string line =
        out.substr(example + 1, out.find('\n', example + 1) - example - 1);
    EXPECT_NE(line.find("tierbench " + cmd), std::string::npos) << line;
    EXPECT_EQ(out.find("\nUsage: tierbench " + cmd),
              out.find('\n', example + 1))
        << cmd << ":\n"
        << out;
  }
}

TEST(CliHelpTest, AMistypedCommandIsNamedWithTheNearestOne) {
  struct Case {
    const char* word;
    const char* hint;
  } cases[] = {{"restor", "did you mean 'tierbench restore'?"},
               {"compair", "did you mean 'tierbench compare'?"},
               {"frobnicate", "one of the commands of tierbench --help"}};
  for (const Case& c : cases) {
    std::string out;
    EXPECT_EQ(RunShell(kHelpBin + " " + c.word + " 2>&1", &out), 2) << out;
    EXPECT_NE(out.find(std::string("unknown command '") + c.word + "'"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find(c.hint), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  }
}

TEST(CliHelpTest, ListDescribesModesAndListsNoDataFiles) {
  std::string out;
  ASSERT_EQ(RunShell(kHelpBin + " list 2>&1", &out), 0) << out;
  std::istringstream in(out);
  std::string line;
  int modes = 0, workloads = 0;
  std::string section;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ') {
      section = line.substr(0, line.find(' '));
      continue;
    }
    // The entry's name: no data file (example-trace.iolog) is listed.
    const std::string name = line.substr(2, line.find(' ', 2) - 2);
    EXPECT_FALSE(name.ends_with(".iolog")) << line;
    if (section == "modes") {
      ++modes;
      EXPECT_NE(line.find(".json - "), std::string::npos) << line;
    } else if (section == "workloads") {
      ++workloads;
      EXPECT_TRUE(line.find(".fio") != std::string::npos ||
                  line.find(".json") != std::string::npos)
          << line;
    }
  }
  EXPECT_GE(modes, 10) << out;
  EXPECT_GE(workloads, 10) << out;
  EXPECT_NE(out.find("tpcb-like.sql - "), std::string::npos) << out;
}

// A data directory that is not there (a wrong TIERBENCH_DATA_DIR, an install
// prefix without share/tierbench) is one line naming where it looked and the
// fix, exit 2; nothing is listed from elsewhere.
TEST(CliHelpTest, ListWithoutItsDataDirectoryIsOneLineAndExitTwo) {
  std::string out;
  EXPECT_EQ(RunShell("TIERBENCH_DATA_DIR=/nonexistent-tierbench-data " +
                         kHelpBin + " list 2>&1",
                     &out),
            2)
      << out;
  EXPECT_NE(out.find("/nonexistent-tierbench-data"), std::string::npos) << out;
  EXPECT_NE(out.find("Fix: "), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

TEST(CliHelpTest, TimeBasedWithoutRuntimeIsRefused) {
  TempDir tmp;
  const std::string job = tmp.path() + "/r.fio";
  ASSERT_EQ(RunShell("printf '[r]\\nrw=randread\\nsize=1m\\n' > " + job), 0);
  std::string out;
  EXPECT_EQ(
      RunShell(kHelpBin + " compare --time-based --hdd /dev/null --workloads " +
                   job + " --results " + tmp.path() + "/results 2>&1",
               &out),
      2)
      << out;
  EXPECT_NE(out.find("--time-based needs --runtime"), std::string::npos) << out;
  EXPECT_NE(out.find("Fix:"), std::string::npos) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_FALSE(std::filesystem::exists(tmp.path() + "/results"));
}

}  // namespace
}  // namespace tierbench::testing
