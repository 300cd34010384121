// A JUnit consumer other than tierbench's own code, for the tests that
// write a --junit file: python3-junitparser (Debian's package) reads the
// file through tests/support/junit_counts.py, so a file that only
// tierbench's string checks accept fails. Run by /usr/bin/python3, Debian's
// interpreter: a pyenv or venv python3 first on PATH does not see Debian's
// python3-* packages.
#ifndef TIERBENCH_TESTS_INTEGRATION_JUNIT_CONSUMER_H_
#define TIERBENCH_TESTS_INTEGRATION_JUNIT_CONSUMER_H_

#include <ostream>
#include <string>

#include "support/ci_skip.h"  // TIERBENCH_SKIP_OR_FAIL_IN_CI

namespace tierbench::testing {

struct JUnitCounts {
  int tests = -1, failures = -1, errors = -1, skipped = -1;
  bool operator==(const JUnitCounts&) const = default;
};

struct JUnitParsed {
  std::string error;  // "" when junitparser read the file
  int suites = 0;
  JUnitCounts declared;  // the suites' tests/failures/errors/skipped
  JUnitCounts counted;   // the test cases and their results
};

// True when /usr/bin/python3 imports junitparser's JUnitXml.
bool HaveJunitparser();

// The file as junitparser reads it.
JUnitParsed ReadWithJunitparser(const std::string& path);

std::string ToString(const JUnitCounts& c);
// For gtest's messages.
inline void PrintTo(const JUnitCounts& c, std::ostream* os) {
  *os << ToString(c);
}

}  // namespace tierbench::testing

// Skips the calling test (fails it under CI=true) without junitparser.
#define TIERBENCH_REQUIRE_JUNITPARSER()                                 \
  do {                                                                  \
    if (!::tierbench::testing::HaveJunitparser())                       \
      TIERBENCH_SKIP_OR_FAIL_IN_CI(                                     \
          "/usr/bin/python3 cannot import junitparser (Debian package " \
          "python3-junitparser; scripts/install-deps installs it)");    \
  } while (0)

#endif  // TIERBENCH_TESTS_INTEGRATION_JUNIT_CONSUMER_H_
