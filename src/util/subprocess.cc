#include "util/subprocess.h"

#include <grp.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <sstream>

#include "util/errors.h"

namespace tierbench {

namespace bp = boost::process;

ProcessOutcome RunProcess(const std::vector<std::string>& argv,
                          const RunAs& run_as) {
  if (argv.empty() || access(argv[0].c_str(), X_OK) != 0) {
    throw SysError("cannot run '" + (argv.empty() ? "" : argv[0]) +
                   "'. Reason: missing or not executable; Fix: install it "
                   "(scripts/install-deps)");
  }
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  bp::ipstream out;
  // Runs in the child between fork and exec: become the server's user.
  auto drop_privileges = [run_as](auto& /*executor*/) {
    if (!run_as.enabled) return;
    if (setgroups(0, nullptr) != 0 || setgid(run_as.gid) != 0 ||
        setuid(run_as.uid) != 0) {
      _exit(126);
    }
  };
  ProcessOutcome outcome;
  try {
    bp::child child(bp::exe = argv[0], bp::args = args,
                    (bp::std_out & bp::std_err) > out, bp::std_in < bp::null,
                    bp::extend::on_exec_setup = drop_privileges);
    std::string line;
    while (std::getline(out, line)) {
      outcome.output += line;
      outcome.output += '\n';
    }
    child.wait();
    outcome.exit_code = child.exit_code();
    if (outcome.exit_code == 126 && run_as.enabled && outcome.output.empty()) {
      outcome.output = "could not switch to user " + run_as.name;
    }
  } catch (const bp::process_error& e) {
    throw SysError("cannot run '" + argv[0] + "'. SysErr: " + e.what());
  }
  return outcome;
}

std::string TailForMessage(const std::string& output, size_t max_chars) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      lines.push_back(line);
    }
  }
  std::string joined;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    std::string next = joined.empty() ? *it : *it + " | " + joined;
    if (next.size() > max_chars && !joined.empty()) break;
    joined = next;
  }
  if (joined.size() > max_chars) joined = joined.substr(0, max_chars) + "...";
  return joined.empty() ? "(no output)" : joined;
}

std::string FindExecutable(const std::vector<std::string>& candidates) {
  for (const auto& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return c;
  }
  return "";
}

}  // namespace tierbench
