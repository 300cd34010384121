// BashCompletionScript (cli/bash_completion.h) on a small CLI11 definition:
// which commands and options the script lists, hidden ones left out, and
// what it completes after each option (a set's words, mode and workload
// files, file names, nothing after a flag). The script in a real bash:
// tests/integration/completion_cli_test.cc.
#include "cli/bash_completion.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tierbench {
namespace {

struct Values {
  std::string state, shell, text;
  int repeat = 1;
  bool quiet = false;
  std::string verify;
  std::vector<std::string> modes, workloads, labels, files;
};

std::string MakeScript(Values* v) {
  CLI::App app{"test", "tierbench"};
  CLI::App* a = app.add_subcommand("alpha", "first");
  a->add_option("-r,--repeat", v->repeat, "repetitions");
  a->add_option("--state", v->state, "state")
      ->check(CLI::IsMember({"cold", "warm"}));
  a->add_option("--modes", v->modes, "mode files");
  a->add_option("--workloads", v->workloads, "workloads");
  a->add_option("--label", v->labels, "one per --label")
      ->allow_extra_args(false);
  a->add_flag("--quiet", v->quiet, "a flag");
  a->add_flag("--verify{4M}", v->verify, "a flag with a default value");
  a->add_option("--secret", v->text, "hidden")->group("");
  CLI::App* group = a->add_option_group("Connection");
  group->add_option("-H,--host", v->text, "in an option group");
  group->add_option("--mapped", v->text, "a map is no word list")
      ->check(CLI::IsMember({std::string("a b"), std::string("c")}));
  CLI::App* b = app.add_subcommand("beta", "second");
  b->add_option("SHELL", v->shell, "positional")->type_name("{bash}");
  CLI::App* c = app.add_subcommand("gamma", "third");
  c->add_option("FILES", v->files, "positionals");
  app.add_subcommand("hidden-tool", "hidden")->group("");
  return BashCompletionScript(app);
}

bool Has(const std::string& script, const std::string& line) {
  return script.find(line) != std::string::npos;
}

TEST(BashCompletionScript, ListsVisibleCommandsAndTheirOptions) {
  Values v;
  const std::string s = MakeScript(&v);
  EXPECT_TRUE(Has(s, "_tierbench_r='alpha beta gamma'")) << s;
  EXPECT_FALSE(Has(s, "hidden-tool")) << s;
  EXPECT_TRUE(Has(s, "    '') _tierbench_r='-h --help' ;;")) << s;
  EXPECT_TRUE(
      Has(s,
          "    alpha) _tierbench_r='-h --help -r --repeat --state --modes "
          "--workloads\n"
          "      --label --quiet --verify -H --host --mapped' ;;"))
      << s;
  EXPECT_FALSE(Has(s, "--secret")) << s;
  EXPECT_TRUE(Has(s, "    beta) _tierbench_r='-h --help' ;;")) << s;
  EXPECT_TRUE(Has(s, "complete -F _tierbench tierbench\n")) << s;
  EXPECT_TRUE(Has(s, "completion --data-dir")) << s;
}

TEST(BashCompletionScript, CompletesEachValueByItsKind) {
  Values v;
  const std::string s = MakeScript(&v);
  // Single values are files unless a set names their words, and a
  // number's (--repeat) has no word at all; --label takes one value per
  // name, --modes and --workloads several.
  EXPECT_TRUE(Has(s,
                  "    alpha)\n"
                  "      case $2 in\n"
                  "        -r|--repeat) _tierbench_r='words' ;;\n"
                  "        --state) _tierbench_r='words cold warm' ;;\n"
                  "        --modes) _tierbench_r='+modes' ;;\n"
                  "        --workloads) _tierbench_r='+workloads' ;;\n"
                  "        --label|-H|--host|--mapped) "
                  "_tierbench_r='files' ;;\n"
                  "      esac\n"))
      << s;
  EXPECT_FALSE(Has(s, "--quiet)")) << s;
  EXPECT_FALSE(Has(s, "--verify)")) << s;
  EXPECT_TRUE(Has(s,
                  "    beta)\n      case $2 in\n"
                  "        @arg) _tierbench_r='words bash' ;;\n"))
      << s;
  EXPECT_TRUE(Has(s,
                  "    gamma)\n      case $2 in\n"
                  "        @arg) _tierbench_r='files' ;;\n"))
      << s;
}

}  // namespace
}  // namespace tierbench
