// `tierbench run` with ioengine=io_uring where a seccomp filter refuses
// io_uring_setup (EPERM, as a container's profile does): one clear line on
// stderr naming the cause and the fix, and exit code 3 (system error).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "support/seccomp_deny.h"
#include "test_env.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TEST(UringCliTest, RefusedIoUringIsOneLineAndExit3) {
  testing::TempDir dir;
  const std::string job = dir.path() + "/uring.fio";
  const std::string err = dir.path() + "/stderr.txt";
  std::ofstream(job) << "[j]\nfilename=" << dir.path()
                     << "/data\nsize=1m\nioengine=io_uring\nrw=read\n";
  const int rc =
      testing::RunWithSyscallDenied(__NR_io_uring_setup, EPERM, [&]() -> int {
        const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 2) < 0) return 120;
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execl(TIERBENCH_BINARY, TIERBENCH_BINARY, "run", "--quiet", job.c_str(),
              static_cast<char*>(nullptr));
        return 121;
      });
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  const std::string out = text.str();
  ASSERT_NE(rc, -1) << "could not install the seccomp filter";
  std::cout << "tierbench said: " << out;
  EXPECT_EQ(rc, kExitSystem) << out;
  // One line: "tierbench: Cannot start the IO engine. ... Fix: ...".
  EXPECT_EQ(out.find('\n'), out.size() - 1) << out;
  EXPECT_NE(out.find("io_uring_setup"), std::string::npos) << out;
  EXPECT_NE(out.find("Operation not permitted"), std::string::npos) << out;
  EXPECT_NE(out.find("Fix: use ioengine=libaio"), std::string::npos) << out;
}

}  // namespace
}  // namespace tierbench
