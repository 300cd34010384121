// What the integration tests read from tierbench's --help texts: the
// commands of `tierbench --help` and the option names of a command's
// --help, an oracle independent of the code that walks the CLI11
// definition (cli/bash_completion.h).
#ifndef TIERBENCH_TESTS_INTEGRATION_CLI_HELP_TEXT_H_
#define TIERBENCH_TESTS_INTEGRATION_CLI_HELP_TEXT_H_

#include <sstream>
#include <string>
#include <vector>

namespace tierbench::testing {

// The command names of the "Subcommands:" list of `tierbench --help`;
// `continued` gets each line of the list that does not start a command
// (a command whose text takes more than one line).
inline std::vector<std::string> HelpCommands(
    const std::string& help, std::vector<std::string>* continued) {
  std::vector<std::string> names;
  std::istringstream in(help);
  std::string line;
  bool listing = false;
  while (std::getline(in, line)) {
    if (line == "Subcommands:") {
      listing = true;
    } else if (listing && line.empty()) {
      break;
    } else if (listing && line.size() > 2 && line.rfind("  ", 0) == 0 &&
               line[2] != ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (listing) {
      continued->push_back(line);
    }
  }
  return names;
}

// The option names ("-h", "--help", "--verify") of a command's --help:
// the lines from "Options:" up to the first empty one that start with '-'
// (after the indent), their first word split at ','; a flag's default
// ("--verify{4M}") is not part of its name.
inline std::vector<std::string> HelpOptions(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  std::string line;
  bool listing = false;
  while (std::getline(in, line)) {
    if (line == "Options:") {
      listing = true;
      continue;
    }
    if (!listing) continue;
    if (line.empty()) break;
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line[start] != '-') continue;
    std::string word = line.substr(start, line.find(' ', start) - start);
    std::istringstream parts(word);
    std::string name;
    while (std::getline(parts, name, ',')) {
      names.push_back(name.substr(0, name.find('{')));
    }
  }
  return names;
}

}  // namespace tierbench::testing

#endif  // TIERBENCH_TESTS_INTEGRATION_CLI_HELP_TEXT_H_
