// `tierbench replay-log` as a user runs it: a log built in the kernel's
// layout (write_log_builder.h) replayed onto an image file and onto a real
// loop device, and the bad input it refuses with one line and its exit
// code. The lab's power-cut test replays a log the kernel's dm-log-writes
// wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/write_log_builder.h"
#include "test_env.h"
#include "util/errors.h"

namespace tierbench {
namespace {

using testing::LogBuilder;
using testing::LoopDevice;
using testing::RunShell;
using testing::TempDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Spill(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// tierbench replay-log ARGS; stdout and stderr in *out.
int ReplayLog(const std::string& args, std::string* out) {
  return RunShell(
      std::string(TIERBENCH_BINARY) + " replay-log " + args + " 2>&1", out);
}

// One line, naming `named` and the fix.
void ExpectOneLine(const std::string& out, const std::string& named) {
  EXPECT_EQ(out.find('\n'), out.size() - 1) << out;
  EXPECT_NE(out.find(named), std::string::npos) << out;
  EXPECT_NE(out.find("Fix:"), std::string::npos) << out;
}

const std::string kLog = LogBuilder(512)
                             .Write(0, 2, 'a')
                             .Flush()
                             .Mark("r0")
                             .Write(2, 2, 'b', kWriteLogFua)
                             .Mark("r1")
                             .Bytes();

TEST(ReplayLogCliTest, ListsAndReplaysOntoAnImageUpToAMark) {
  TempDir dir;
  const std::string log = dir.path() + "/log", img = dir.path() + "/img";
  Spill(log, kLog);
  Spill(img, std::string(4096, '\0'));
  std::string out;
  ASSERT_EQ(ReplayLog("--log " + log + " --list", &out), 0) << out;
  EXPECT_NE(out.find("mark r0 (entry 2)\nmark r1 (entry 4)\n5 entries"),
            std::string::npos)
      << out;
  ASSERT_EQ(
      ReplayLog("--log " + log + " --target " + img + " --end-mark r0", &out),
      0)
      << out;
  EXPECT_NE(out.find("replay-log: 3 of 5 entries replayed onto " + img +
                     " (up to mark r0, entry 2): 1 writes"),
            std::string::npos)
      << out;
  EXPECT_EQ(Slurp(img), std::string(1024, 'a') + std::string(3072, '\0'));
  ASSERT_EQ(ReplayLog("--log " + log + " --target " + img, &out), 0) << out;
  EXPECT_EQ(Slurp(img), std::string(1024, 'a') + std::string(1024, 'b') +
                            std::string(2048, '\0'));
}

TEST(ReplayLogCliTest, RefusesBadInputWithOneLine) {
  TempDir dir;
  const std::string log = dir.path() + "/log", img = dir.path() + "/img";
  const std::string junk = dir.path() + "/junk", small = dir.path() + "/small";
  Spill(log, kLog);
  Spill(img, std::string(4096, '\0'));
  Spill(junk, std::string(4096, 'j'));
  Spill(small, std::string(1024, '\0'));
  const std::string link = dir.path() + "/link";
  ASSERT_EQ(::symlink(log.c_str(), link.c_str()), 0);
  struct Case {
    std::string args;
    std::string named;
  } cases[] = {
      {"--log " + junk + " --list", "Bad --log " + junk + ": not a dm-log"},
      {"--log " + dir.path() + "/none --list", "--log " + dir.path() + "/none"},
      {"--log " + log, "needs --target"},
      {"--log " + log + " --target " + img + " --end-mark r7",
       "no mark 'r7'; its marks: r0, r1"},
      {"--log " + log + " --target " + small,
       "past the end of the 1024-byte target"},
      // The log itself, by its name or through a link to it.
      {"--log " + log + " --target " + log, "is the log (--log " + log},
      {"--log " + log + " --target " + link, "is the log (--log " + log},
  };
  for (const Case& c : cases) {
    std::string out;
    EXPECT_EQ(ReplayLog(c.args, &out), kExitConfig) << c.args << "\n" << out;
    ExpectOneLine(out, c.named);
  }
  // Nothing was written to the small target or the log.
  EXPECT_EQ(Slurp(small), std::string(1024, '\0'));
  EXPECT_EQ(Slurp(log), kLog);
}

// A block device target needs --destructive, and a signed one is refused
// even with it; a blank one is replayed onto.
TEST(ReplayLogCliTest, GuardsABlockDeviceTarget) {
  TIERBENCH_REQUIRE_ROOT();
  TempDir dir;
  const std::string log = dir.path() + "/log";
  Spill(log, kLog);
  LoopDevice loop(8ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  std::string out;
  EXPECT_EQ(ReplayLog("--log " + log + " --target " + loop.device(), &out),
            kExitSafety)
      << out;
  ExpectOneLine(out, "would overwrite " + loop.device());
  ASSERT_EQ(ReplayLog("--log " + log + " --target " + loop.device() +
                          " --destructive",
                      &out),
            0)
      << out;
  std::string head;
  ASSERT_EQ(RunShell("dd if=" + loop.device() +
                         " bs=2048 count=1 status=none | od -An -c | head -1",
                     &head),
            0);
  EXPECT_NE(head.find("a   a   a"), std::string::npos) << head;
  ASSERT_EQ(RunShell("mkswap " + loop.device() + " >/dev/null 2>&1"), 0);
  EXPECT_EQ(ReplayLog("--log " + log + " --target " + loop.device() +
                          " --destructive",
                      &out),
            kExitSafety)
      << out;
  EXPECT_NE(out.find("swap"), std::string::npos) << out;
}

}  // namespace
}  // namespace tierbench
