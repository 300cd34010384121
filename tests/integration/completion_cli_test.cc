// `tierbench completion bash` (issue 31): the script names every command of
// `tierbench --help` and every option of each command's --help, and no
// hidden one; sourced into a real bash (without bash-completion's helpers,
// and through bash-completion's on-demand loading) it completes commands,
// options, a set's values, mode and workload files (the shipped ones and
// those of the working directory) and file names. An unknown shell is one
// line, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_help_text.h"
#include "test_env.h"

namespace tierbench::testing {
namespace {

const std::string kCompletionBin = TIERBENCH_BINARY;

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// The script, written by the binary into a temporary folder that also
// serves as the working directory of the completions.
class CompletionCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    script_ = tmp_.path() + "/tierbench.bash";
    std::string out;
    ASSERT_EQ(RunShell(kCompletionBin + " completion bash > " + script_ +
                           " 2>/dev/null",
                       &out),
              0)
        << out;
  }

  // Runs `body` in a bash without startup files (so without
  // bash-completion) in the temporary folder; its output lines.
  std::vector<std::string> Bash(const std::string& body, int* rc = nullptr) {
    const std::string file = tmp_.path() + "/body.bash";
    std::ofstream(file) << body;
    std::string out;
    const int status = RunShell(
        "cd " + Quote(tmp_.path()) + " && bash --norc --noprofile " + file,
        &out);
    if (rc != nullptr) *rc = status;
    return Lines(out);
  }

  // The completions of the command line `words` (its last word is the one
  // being completed), as bash runs the script: COMP_WORDS, COMP_CWORD,
  // then _tierbench; COMPREPLY sorted.
  std::vector<std::string> Complete(std::vector<std::string> words) {
    std::string assign = "COMP_WORDS=(" + Quote(kCompletionBin);
    for (const std::string& w : words) assign += " " + Quote(w);
    assign += ")\nCOMP_CWORD=" + std::to_string(words.size()) + "\n";
    std::vector<std::string> got =
        Bash("source " + script_ + "\n" + assign +
             "COMP_LINE=\"${COMP_WORDS[*]}\"\nCOMP_POINT=${#COMP_LINE}\n"
             "_tierbench\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n");
    got.erase(std::remove(got.begin(), got.end(), ""), got.end());
    std::sort(got.begin(), got.end());
    return got;
  }

  TempDir tmp_;
  std::string script_;
};

TEST_F(CompletionCliTest, NamesEveryCommandAndOptionOfTheHelpAndNoHiddenOne) {
  std::string help;
  ASSERT_EQ(RunShell(kCompletionBin + " --help", &help), 0) << help;
  std::vector<std::string> continued;
  std::vector<std::string> commands = HelpCommands(help, &continued);
  ASSERT_GE(commands.size(), 10u) << help;
  EXPECT_NE(std::find(commands.begin(), commands.end(), "completion"),
            commands.end())
      << help;
  // Every command, and no other (calibrate-cpu and check-blocks are
  // hidden): what `tierbench <TAB>` offers.
  std::sort(commands.begin(), commands.end());
  EXPECT_EQ(Complete({""}), commands);
  for (const std::string& cmd : commands) {
    std::string out;
    ASSERT_EQ(RunShell(kCompletionBin + " " + cmd + " --help", &out), 0) << out;
    std::vector<std::string> want = HelpOptions(out);
    ASSERT_FALSE(want.empty()) << cmd << ":\n" << out;
    std::sort(want.begin(), want.end());
    // The command's option list in the script, and `tierbench CMD -<TAB>`.
    std::vector<std::string> listed =
        Bash("source " + script_ + "\n_tierbench_options " + cmd +
             "\nprintf '%s\\n' $_tierbench_r\n");
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, want) << cmd;
    EXPECT_EQ(Complete({cmd, "-"}), want) << cmd;
  }
  std::ifstream in(script_);
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  for (const char* hidden : {"calibrate-cpu", "check-blocks"}) {
    EXPECT_EQ(text.find(hidden), std::string::npos) << hidden;
  }
}

TEST_F(CompletionCliTest, CompletesInARealBashWithoutBashCompletion) {
  TIERBENCH_REQUIRE_TOOL("bash", "bash");
  int rc = -1;
  EXPECT_EQ(Bash("bash -n " + script_ + " && echo ok", &rc),
            std::vector<std::string>{"ok"});
  // The shell has none of bash-completion's helpers: the script needs none.
  EXPECT_EQ(
      Bash("source " + script_ +
           "\ndeclare -F _init_completion _filedir || echo none\n"
           "complete -p tierbench\n"),
      (std::vector<std::string>{"none", "complete -F _tierbench tierbench"}));
  EXPECT_EQ(Complete({"com"}),
            (std::vector<std::string>{"compare", "completion"}));
  EXPECT_EQ(Complete({"calib"}), std::vector<std::string>{});  // hidden
  EXPECT_EQ(Complete({"compare", "--work"}),
            (std::vector<std::string>{"--working-set", "--workload-modes",
                                      "--workloads"}));
  EXPECT_EQ(Complete({"compare", "--workloads", "a.fio", "--quiet", "-q"}),
            std::vector<std::string>{});
  EXPECT_EQ(Complete({"compare", "--cache-state", "w"}),
            (std::vector<std::string>{"warm", "warm-until-steady"}));
  EXPECT_EQ(Complete({"pgbench", "-M", "p"}),  // in an option group
            std::vector<std::string>{"prepared"});
  EXPECT_EQ(Complete({"completion", ""}), std::vector<std::string>{"bash"});
  EXPECT_EQ(Complete({"completion", "--d"}),
            std::vector<std::string>{"--data-dir"});
  EXPECT_EQ(Complete({"compare", "--quiet", "--hdd", "/dev/nul"}),
            std::vector<std::string>{"/dev/null"});
  // --hdd=VALUE, split at '=' as bash does by default, and whole (when
  // COMP_WORDBREAKS lacks '=': the word replaced is the whole of it).
  EXPECT_EQ(Complete({"compare", "--verify", "--hdd", "=", "/dev/nul"}),
            std::vector<std::string>{"/dev/null"});
  EXPECT_EQ(Complete({"compare", "--hdd", "="}).empty(), false);
  EXPECT_EQ(Complete({"compare", "--hdd=/dev/nul"}),
            std::vector<std::string>{"--hdd=/dev/null"});
  EXPECT_EQ(Complete({"compare", "--cache-state=c"}),
            std::vector<std::string>{"--cache-state=cold"});
  EXPECT_EQ(Complete({"compare", "--quiet", "="}), std::vector<std::string>{});
  // A number's value gets nothing (not the files of the directory).
  EXPECT_EQ(Complete({"compare", "--repeat", ""}), std::vector<std::string>{});
  EXPECT_EQ(Complete({"pgbench", "-c", ""}), std::vector<std::string>{});

  // Mode files: the shipped ones from the data dir the binary names, as
  // absolute paths matched on their name, and those of the working
  // directory; --modes takes several values.
  std::string data;
  ASSERT_EQ(
      RunShell(kCompletionBin + " completion --data-dir 2>/dev/null", &data), 0)
      << data;
  data = data.substr(0, data.find('\n'));
  ASSERT_TRUE(std::filesystem::is_regular_file(data + "/modes/writeback.json"))
      << data;
  std::ofstream(tmp_.path() + "/wr-local.json") << "{}";
  std::ofstream(tmp_.path() + "/wr-notes.txt") << "x";
  std::filesystem::create_directory(tmp_.path() + "/wrdir");
  std::vector<std::string> want = {"wr-local.json", "wrdir"};
  for (const char* m :
       {"writearound", "writeback", "writeback-nocutoff", "writethrough"}) {
    want.push_back(data + "/modes/" + m + ".json");
  }
  std::sort(want.begin(), want.end());
  EXPECT_EQ(Complete({"compare", "--modes", "wr"}), want);
  EXPECT_EQ(Complete({"compare", "--modes", "a.json", "wr"}), want);
  EXPECT_EQ(Complete({"lab", "--modes", "wr"}), want);
  // A flag ends --modes: then it is the command's options again.
  EXPECT_EQ(Complete({"compare", "--modes", "a.json", "--quiet", "--qu"}),
            std::vector<std::string>{"--quiet"});

  // Workloads: job files and DB workloads, never their data files.
  const std::vector<std::string> workloads =
      Complete({"compare", "--workloads", ""});
  std::set<std::string> names;
  for (const std::string& w : workloads) {
    names.insert(std::filesystem::path(w).filename().string());
    const std::string ext = std::filesystem::path(w).extension().string();
    EXPECT_TRUE(ext == ".fio" || ext == ".json" ||
                std::filesystem::is_directory(tmp_.path() + "/" + w))
        << w;
  }
  for (const char* w :
       {"randread-4k.fio", "anandtech-mix.fio", "pgbench-tpcb.json",
        "case01-seq-read-256k.fio", "wr-local.json"}) {
    EXPECT_EQ(names.count(w), 1u) << w;
  }
  EXPECT_EQ(Complete({"compare", "--workloads", "seed000/case01"}),
            std::vector<std::string>{
                data + "/workloads/seed000/case01-seq-read-256k.fio"});
}

// Installed where bash-completion looks, the script loads on demand (it is
// then sourced inside a bash-completion function) and completes.
TEST_F(CompletionCliTest, LoadsThroughBashCompletionOnDemand) {
  const std::string loader = "/usr/share/bash-completion/bash_completion";
  if (!std::filesystem::exists(loader)) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI("no " + loader + " (package bash-completion)");
  }
  std::filesystem::create_directories(tmp_.path() + "/user/completions");
  std::filesystem::copy_file(script_,
                             tmp_.path() + "/user/completions/tierbench");
  EXPECT_EQ(
      Bash("BASH_COMPLETION_USER_DIR=" + tmp_.path() + "/user\nsource " +
           loader +
           "\n__load_completion tierbench && complete -p tierbench\n"
           "COMP_WORDS=(" +
           Quote(kCompletionBin) +
           " compare --modes writeb)\nCOMP_CWORD=3\n_tierbench\n"
           "printf '%s\\n' \"${COMPREPLY[@]##*/}\" | LC_ALL=C sort\n"),
      (std::vector<std::string>{"complete -F _tierbench tierbench",
                                "writeback-nocutoff.json", "writeback.json"}));
}

TEST(CompletionCommandTest, AnUnknownShellIsOneLineExitTwo) {
  std::string out;
  EXPECT_EQ(RunShell(kCompletionBin + " completion zsh", &out), 2) << out;
  EXPECT_NE(out.find("unknown shell 'zsh'"), std::string::npos) << out;
  EXPECT_NE(out.find("Fix: tierbench completion bash"), std::string::npos)
      << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_EQ(RunShell(kCompletionBin + " completion", &out), 2) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

}  // namespace
}  // namespace tierbench::testing
