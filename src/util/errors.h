// HarnessError: the error model of tierbench's setup layers (CLI, config and
// job-file parsing, device checks, orchestration, database setup).
//
// Setup code throws one of the subclasses below; only main() catches them,
// prints "tierbench: <what()>" as one line on stderr and exits with
// exit_code(). Messages follow "<what failed>. Key: value; Key: value" and
// name the file, option or device and, where there is one, the fix.
//
// Exit codes (documented in tierbench(1), src/man/tierbench.1.md, stable
// for scripts):
//   0   success
//   1   the run itself failed (IO error while measuring, a cell failed)
//   2   usage or configuration error (bad option, bad job/mode file)
//   3   system error (missing device, no permission, no bcache, tool missing)
//   4   refused for safety (needs --destructive, mounted or held device)
//   5   database error (server unreachable, tables missing, server died)
//   130 interrupted by SIGINT (143 by SIGTERM)
#ifndef TIERBENCH_UTIL_ERRORS_H_
#define TIERBENCH_UTIL_ERRORS_H_

#include <stdexcept>
#include <string>

#include "util/elide.h"
#include "util/status.h"

namespace tierbench {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitConfig = 2;
inline constexpr int kExitSystem = 3;
inline constexpr int kExitSafety = 4;
inline constexpr int kExitDatabase = 5;
inline constexpr int kExitInterrupted = 130;

class HarnessError : public std::runtime_error {
 public:
  // `what` is kept short: echoed input is elided (util/elide.h).
  HarnessError(const std::string& what, int exit_code)
      : std::runtime_error(ElideEchoedInput(what)), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Bad user input: options, job files, mode files, workload files.
class ConfigError : public HarnessError {
 public:
  explicit ConfigError(const std::string& what)
      : HarnessError(what, kExitConfig) {}
};

// The operating system said no: missing device, permission, missing tool.
class SysError : public HarnessError {
 public:
  explicit SysError(const std::string& what)
      : HarnessError(what, kExitSystem) {}
  // "<context>. SysErr: <status message>".
  static SysError From(const std::string& context, const Status& s) {
    return SysError(context + ". SysErr: " + s.message());
  }
};

// tierbench refuses to touch a device (mounted, held, needs --destructive).
class SafetyError : public HarnessError {
 public:
  explicit SafetyError(const std::string& what)
      : HarnessError(what, kExitSafety) {}
};

// The measured run failed after it started.
class RunError : public HarnessError {
 public:
  explicit RunError(const std::string& what)
      : HarnessError(what, kExitRunFailed) {}
};

// PostgreSQL could not be reached, set up or kept running.
class DbError : public HarnessError {
 public:
  explicit DbError(const std::string& what)
      : HarnessError(what, kExitDatabase) {}
};

// The user interrupted the run (SIGINT -> 130, SIGTERM -> 143).
class InterruptedError : public HarnessError {
 public:
  InterruptedError(const std::string& what, int signo)
      : HarnessError(what, 128 + signo) {}
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_ERRORS_H_
