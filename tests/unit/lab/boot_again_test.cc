// BootLabGuestAgainAfterAHang (lab/lab_workspace.h) with a stand-in for
// QEMU, a shell script that ignores its arguments: a guest that sends no
// CPU calibration line within the handshake timeout is killed and booted
// once more (ci49: a guest silent for 300 s from QEMU's start, while the
// same image booted in 7 s just before); a second silence is returned as
// it is, for the caller to fail. The real guest's boots are the lab tests'.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "lab/lab_boot.h"
#include "lab/lab_runner.h"
#include "lab/lab_workspace.h"
#include "support/report_fixture.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// A QEMU stand-in: silent (sleeps) on the first `silent` starts, then
// sends its calib line, reads the answer and reports done.
std::string BaFakeQemu(const std::string& dir, int silent) {
  const std::string path = dir + "/qemu";
  std::ofstream(path)
      << "#!/bin/sh\n"
         "n=$(cat '"
      << dir << "/starts' 2>/dev/null || echo 0)\n"
      << "echo $((n + 1)) >'" << dir << "/starts'\n"
      << "if [ \"$n\" -lt " << silent << " ]; then exec sleep 30; fi\n"
      << "echo '@@LAB:calib ns=1000'\nread answer\necho \"$answer\" >'" << dir
      << "/answer'\necho '@@LAB:done rc=0'\n";
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

struct BaBoot {
  LabBootResult result;
  std::string hung;
  int again = 0;
};

BaBoot BaRun(const std::string& dir, int silent) {
  LabOptions o;
  o.tmp_dir = dir;
  LabWorkspace ws(o);
  LabMachine m;
  m.qemu = BaFakeQemu(dir, silent);
  LabBootOptions b;
  b.timeout_s = 20;
  b.handshake_timeout_s = 1;
  b.answer_calibration = [](const std::string&) { return "factor=1"; };
  std::ostringstream log;
  BaBoot out;
  out.result = BootLabGuestAgainAfterAHang(
      ws, m, b, "run", log, [](const std::string&) {}, [&out] { ++out.again; },
      &out.hung);
  return out;
}

TEST(LabBootAgain, AGuestSilentPastTheHandshakeTimeoutIsBootedOnceMore) {
  ScratchDir dir("boot-again");
  const BaBoot b = BaRun(dir.path(), 1);
  EXPECT_EQ(b.again, 1);
  EXPECT_FALSE(b.result.handshake_timed_out);
  EXPECT_EQ(b.result.done_rc, 0);
  EXPECT_EQ(ReadText(dir.path() + "/starts"), "2\n");
  EXPECT_EQ(ReadText(dir.path() + "/answer"), "factor=1\n");
  EXPECT_NE(b.hung.find("no CPU calibration line within 1 s"),
            std::string::npos)
      << b.hung;
}

TEST(LabBootAgain, ASecondSilenceIsReturnedForTheCallerToFail) {
  ScratchDir dir("boot-again-twice");
  const BaBoot b = BaRun(dir.path(), 2);
  EXPECT_EQ(b.again, 1);
  EXPECT_TRUE(b.result.handshake_timed_out);
  EXPECT_EQ(b.result.done_rc, -1);
  EXPECT_EQ(ReadText(dir.path() + "/starts"), "2\n");
}

TEST(LabBootAgain, AGuestThatAnswersInTimeBootsOnce) {
  ScratchDir dir("boot-once");
  const BaBoot b = BaRun(dir.path(), 0);
  EXPECT_EQ(b.again, 0);
  EXPECT_TRUE(b.hung.empty());
  EXPECT_EQ(b.result.done_rc, 0);
  EXPECT_EQ(ReadText(dir.path() + "/starts"), "1\n");
}

}  // namespace
}  // namespace tierbench
