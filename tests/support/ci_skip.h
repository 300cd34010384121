// The one rule for a test whose need is missing: on a developer's machine it
// skips with a visible reason; under CI=true (CI runs as root after
// scripts/install-deps, with the lab) the same skip would hide the test, so
// it FAILS. Used by the unit, integration and guest test binaries.
#ifndef TIERBENCH_TESTS_SUPPORT_CI_SKIP_H_
#define TIERBENCH_TESTS_SUPPORT_CI_SKIP_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#define TIERBENCH_SKIP_OR_FAIL_IN_CI(why)                                  \
  do {                                                                     \
    const char* ci_env = std::getenv("CI");                                \
    if (ci_env != nullptr && std::string(ci_env) == "true")                \
      GTEST_FAIL() << "under CI=true a skip would hide the test: " << why; \
    GTEST_SKIP() << "SKIPPED: " << why;                                    \
  } while (0)

#endif  // TIERBENCH_TESTS_SUPPORT_CI_SKIP_H_
