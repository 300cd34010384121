// Helpers for integration tests that need the real machine: root, loop
// devices, external tools. Each Require*() skips the calling test with a
// visible reason (GTEST_SKIP) when its need is not met.
#ifndef TIERBENCH_TESTS_INTEGRATION_TEST_ENV_H_
#define TIERBENCH_TESTS_INTEGRATION_TEST_ENV_H_

#include <cstdlib>
#include <string>

#include "support/ci_skip.h"  // TIERBENCH_SKIP_OR_FAIL_IN_CI

namespace tierbench::testing {

bool IsRoot();
// True when `tool` is found on PATH.
bool HaveTool(const std::string& tool);
// Runs a shell command, returns its exit status; output goes to *out if given.
int RunShell(const std::string& cmd, std::string* out = nullptr);

// A loop device over a sparse image file (loop ioctls, autoclear), detached
// and its file deleted on destruction. `dir` holds the image (/dev/shm for RAM
// speed).
class LoopDevice {
 public:
  LoopDevice(uint64_t bytes, const std::string& dir = "/dev/shm",
             bool direct_io = true);
  ~LoopDevice();
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;

  bool ok() const { return !device_.empty(); }
  const std::string& device() const { return device_; }  // "/dev/loopN"
  const std::string& image() const { return image_; }
  const std::string& error() const { return error_; }

 private:
  std::string device_;
  std::string image_;
  std::string error_;
  int loop_fd_ = -1;  // held open until LOOP_CLR_FD
};

// A fresh temporary directory, removed recursively on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace tierbench::testing

#define TIERBENCH_REQUIRE_ROOT()                                   \
  do {                                                             \
    if (!::tierbench::testing::IsRoot())                           \
      TIERBENCH_SKIP_OR_FAIL_IN_CI(                                \
          "needs root (loop devices, O_DIRECT on block devices); " \
          "run ./scripts/test as root");                           \
  } while (0)

// `tool` on PATH, from Debian package `package` (scripts/install-deps).
#define TIERBENCH_REQUIRE_TOOL(tool, package)                         \
  do {                                                                \
    if (!::tierbench::testing::HaveTool(tool))                        \
      TIERBENCH_SKIP_OR_FAIL_IN_CI(std::string(tool) + " missing (" + \
                                   package + ")");                    \
  } while (0)

#endif  // TIERBENCH_TESTS_INTEGRATION_TEST_ENV_H_
