// LabChild: one external program the lab runs (QEMU, the guest builder, tar),
// started in its own process group with stdout and stderr on one pipe that
// the caller reads line by line, and stdin from /dev/null or, on request,
// from a pipe the caller writes (QEMU's serial console input: the lab's
// handshake, lab/lab_dilation.h).
//
// Its own process group means a terminal's Ctrl-C reaches only tierbench,
// which then decides: KillGroup() ends the child and everything it started
// (QEMU helpers, the builder's apt-get). The destructor kills and reaps a
// child that is still running, so no process outlives its LabChild, also
// when an exception unwinds.
//
// Thread-safety: one LabChild is used by one thread.
#ifndef TIERBENCH_LAB_LAB_CHILD_H_
#define TIERBENCH_LAB_LAB_CHILD_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "util/status.h"

namespace tierbench {

class LabChild {
 public:
  LabChild() = default;
  ~LabChild();
  LabChild(const LabChild&) = delete;
  LabChild& operator=(const LabChild&) = delete;

  // Starts argv[0] (looked up on PATH) with stdin from /dev/null (from a
  // pipe that WriteInput writes when `stdin_pipe`), in `cwd` when not
  // empty. Returns NotFound when the program cannot be executed.
  Status Start(const std::vector<std::string>& argv,
               const std::string& cwd = "", bool stdin_pipe = false);

  // Writes all of `text` to the child's stdin pipe (blocking). Returns
  // InvalidArgument without a stdin pipe, an IoError when the child closed
  // its stdin or exited (EPIPE: no SIGPIPE reaches tierbench).
  Status WriteInput(const std::string& text);

  enum class Read { kLine, kTimeout, kEof };
  // Waits up to `timeout_ms` for one complete output line (without its
  // newline and any trailing '\r') and stores it in *line. kEof once the
  // child closed its output and every buffered line was returned.
  Read ReadLine(int timeout_ms, std::string* line);

  // Sends SIGKILL to the child's process group (no-op when not running).
  void KillGroup();

  // Waits for the child to exit; returns its exit status, or 128 + signal.
  int Wait();

  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int in_fd_ = -1;  // write end of the stdin pipe
  bool reaped_ = false;
  int exit_code_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

// Runs argv to completion and returns its exit status; the combined output
// goes to *output when given. Returns NotFound (exit status unset) when the
// program cannot be started.
Status RunLabTool(const std::vector<std::string>& argv, int* exit_code,
                  std::string* output = nullptr);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_CHILD_H_
