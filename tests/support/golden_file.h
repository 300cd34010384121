// ExpectGolden: compares a test's output with its golden file under
// tests/golden/, or rewrites that file when TIERBENCH_UPDATE_GOLDEN is set
// (a developer's explicit request, reviewed as a diff; under CI=true the
// rewrite fails the test instead, so CI always compares). A rewrite skips
// the calling test with "SKIPPED: rewrote <path>". Header-only test helper.
#ifndef TIERBENCH_TESTS_SUPPORT_GOLDEN_FILE_H_
#define TIERBENCH_TESTS_SUPPORT_GOLDEN_FILE_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace tierbench {

// The path of golden file `name` (relative to tests/golden/).
inline std::string GoldenPath(const std::string& name) {
  return std::string(TIERBENCH_SOURCE_DIR) + "/tests/golden/" + name;
}

// Compares `got` with tests/golden/`name`, or rewrites it on request.
inline void ExpectGolden(const std::string& name, const std::string& got) {
  const std::string path = GoldenPath(name);
  if (std::getenv("TIERBENCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << got;
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true")
      GTEST_FAIL() << "TIERBENCH_UPDATE_GOLDEN is set under CI=true";
    GTEST_SKIP() << "SKIPPED: rewrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path;
  std::stringstream want;
  want << in.rdbuf();
  ASSERT_FALSE(want.str().empty()) << "empty golden file " << path;
  EXPECT_EQ(got, want.str()) << name << " differs from " << path;
}

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_GOLDEN_FILE_H_
