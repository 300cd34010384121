// One-line messages to stderr, all prefixed "tierbench: ".
//   LogNotice("...")  -> "tierbench: notice: ..."   (informational)
//   LogWarning("...") -> "tierbench: warning: ..."  (a result may mislead)
//   LogError("...")   -> "tierbench: ..."           (used by main for errors)
// Lines are written with a single write(2) so concurrent threads do not
// interleave; a live progress line on the terminal is cleared first.
// SetQuiet(true) suppresses notices (not warnings or errors).
#ifndef TIERBENCH_UTIL_LOG_H_
#define TIERBENCH_UTIL_LOG_H_

#include <string>

namespace tierbench {

void LogNotice(const std::string& msg);
void LogWarning(const std::string& msg);
void LogError(const std::string& msg);
void SetQuiet(bool quiet);
// Whether notices are suppressed now.
bool IsQuiet();

// True when stderr is a terminal (progress lines are only drawn then).
bool StderrIsTerminal();

// Draws `line` as the live progress line on stderr (\r + erase), when stderr
// is a terminal; a no-op otherwise. ClearProgressLine() erases it.
void DrawProgressLine(const std::string& line);
void ClearProgressLine();

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_LOG_H_
