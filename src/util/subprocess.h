// Runs an external tool (initdb, pg_ctl, mkfs.ext4, wipefs, lvm) to
// completion, optionally as another user, and captures its combined
// stdout+stderr.
//
// As another user (RunAs; PostgreSQL's tools run as `postgres` when
// tierbench is root, db/postgres_server.h): the child drops its
// supplementary groups, then calls setgid and setuid between fork and exec
// (a Boost.Process on_exec_setup handler), which works wherever the user has
// a passwd entry (also in the lab's busybox guest, which may lack runuser).
//
// Thread-safety: Run may be called from several threads at once.
#ifndef TIERBENCH_UTIL_SUBPROCESS_H_
#define TIERBENCH_UTIL_SUBPROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace tierbench {

// A system user's identity as the child process takes it.
struct RunAs {
  bool enabled = false;  // false: run as the current user
  uid_t uid = 0;
  gid_t gid = 0;
  std::string name;
};

struct ProcessOutcome {
  int exit_code = -1;  // exit status; 128 + signal when killed
  std::string output;  // combined stdout and stderr
};

// Runs argv[0] (an absolute path) with argv[1..] and waits for it. Does not
// throw for a non-zero exit; throws SysError when the program cannot be
// started (missing, not executable).
ProcessOutcome RunProcess(const std::vector<std::string>& argv,
                          const RunAs& run_as = RunAs());

// The last non-empty line(s) of `output` joined with " | ", at most
// `max_chars` long: tool output condensed for one-line error messages.
std::string TailForMessage(const std::string& output, size_t max_chars = 300);

// The first of `candidates` that exists and is executable, or "".
std::string FindExecutable(const std::vector<std::string>& candidates);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_SUBPROCESS_H_
