// Keeps echoed user input short in error messages.
//
// An error line names the file, line, option and fix, and often quotes the
// offending value. A value can be anything a user's file holds -- a 200 KB
// line, a binary blob -- and must not flood the terminal or a log. Every
// HarnessError message (util/errors.h) passes through ElideEchoedInput:
//  - each run of more than `max_token` characters without white space is
//    cut to its first max_token - 20 characters plus "...[N more bytes]"
//    (a path, a run starting with '/' or "'/", may have 4 * max_token);
//  - a message still longer than 16 * max_token keeps its head and its tail
//    (where the fix is) around "...[N bytes elided]...".
// Line breaks become blanks (one line) and other control characters '?', so a
// binary value cannot move the cursor or ring the bell. Pure function;
// thread-safe.
#ifndef TIERBENCH_UTIL_ELIDE_H_
#define TIERBENCH_UTIL_ELIDE_H_

#include <cstddef>
#include <string>

namespace tierbench {

inline constexpr size_t kEchoMaxToken = 80;

std::string ElideEchoedInput(const std::string& message,
                             size_t max_token = kEchoMaxToken);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_ELIDE_H_
