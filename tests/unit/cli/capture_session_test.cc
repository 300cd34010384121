// `tierbench capture`'s checks and control flow (cli/capture_session.h):
// every refusal with its exit code and fix, in order, with nothing
// written; then the run's steps with stand-ins for blktrace and blkparse
// (this host has no debugfs, so the real tools run in the lab guest:
// tests/integration/capture_replay_test.cc). The stand-ins are shell
// scripts found through PATH, which each test sets and puts back: the
// blktrace one creates its per-CPU file and waits for SIGINT, the blkparse
// one writes a known blkparse text. The device is a block node made with
// mknod in a scratch folder (tests that need one skip where mknod is not
// allowed).
#include "cli/capture_session.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/ci_skip.h"
#include "support/report_fixture.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// Sets PATH for the test's life and puts the old one back.
class CapturePath {
 public:
  explicit CapturePath(const std::string& path) {
    const char* old = std::getenv("PATH");
    old_ = old == nullptr ? "" : old;
    setenv("PATH", path.c_str(), 1);
  }
  ~CapturePath() { setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

void CaptureScript(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\nPATH=/usr/bin:/bin\n" << body;
  fs::permissions(path, fs::perms::owner_all | fs::perms::group_read |
                            fs::perms::others_read);
}

// The blkparse text the stand-in writes, for device 7,200: a read, a
// write, and the summary.
constexpr const char* kCaptureFakeBlkparse =
    "  7,200  0        1     1.000000000   900  D   R 64 + 8 [job]\n"
    "  7,200  0        2     1.000500000   900  D  WS 0 + 16 [job]\n"
    "CPU0 (7,200):\n";

// The start of every blktrace stand-in: `blktrace -d DEV -D RAW -o NAME`'s
// folder and name into $raw and $name.
constexpr const char* kCaptureArgs =
    "while [ $# -gt 0 ]; do case $1 in -D) raw=$2;; "
    "-o) name=$2;; esac; shift; done\n";

class CaptureSessionTest : public ::testing::Test {
 protected:
  CaptureSessionTest() : dir_("capture-session") {
    tools_ = dir_.path() + "/tools";
    fs::create_directories(tools_);
    // blktrace -d DEV -D RAW -o NAME: its per-CPU file, then waits.
    CaptureScript(tools_ + "/blktrace",
                  std::string(kCaptureArgs) +
                      "echo \"$raw $name\" >\"$raw/args\"\n"
                      "trap 'echo stopped >>\"$raw/args\"; exit 0' INT\n"
                      ": >\"$raw/$name.blktrace.0\"\n"
                      "while :; do sleep 0.02; done\n");
    std::ostringstream blkparse;
    blkparse << "while [ $# -gt 0 ]; do case $1 in -o) out=$2;; esac; "
                "shift; done\n"
                "printf '%s' '"
             << kCaptureFakeBlkparse << "' >\"$out\"\n";
    CaptureScript(tools_ + "/blkparse", blkparse.str());
    debugfs_ = dir_.path() + "/debug";
    fs::create_directories(debugfs_ + "/block");
    host_.debugfs = debugfs_;
    request_.out_dir = dir_.path() + "/out";
    request_.command = {"/bin/true"};
    request_.device = dir_.path() + "/no-such-device";
  }

  // A block node 7,200 (a loop device's numbers; never opened).
  bool MakeBlockNode() {
    request_.device = dir_.path() + "/blk";
    return ::mknod(request_.device.c_str(), S_IFBLK | 0600, makedev(7, 200)) ==
           0;
  }

  // The error CheckCapture throws: "<exit code>: <message>", or "".
  std::string CheckError() {
    try {
      CheckCapture(request_, host_);
    } catch (const HarnessError& e) {
      return std::to_string(e.exit_code()) + ": " + e.what();
    }
    return "";
  }

  ScratchDir dir_;
  std::string tools_, debugfs_;
  CaptureRequest request_;
  CaptureHostChecks host_;
};

#define EXPECT_CAPTURE_REFUSED(code, text)                            \
  do {                                                                \
    const std::string error = CheckError();                           \
    EXPECT_EQ(error.substr(0, 3), std::string(code) + ": ") << error; \
    EXPECT_NE(error.find(text), std::string::npos) << error;          \
    EXPECT_FALSE(fs::exists(request_.out_dir)) << error;              \
  } while (0)

TEST_F(CaptureSessionTest, DurationAndCommandBothOrNeitherAreRefused) {
  CapturePath path(tools_);
  request_.duration_s = 5;  // and /bin/true
  EXPECT_CAPTURE_REFUSED("2", "either --duration or a command, not both");
  request_.command.clear();
  request_.duration_s = 0;
  EXPECT_CAPTURE_REFUSED("2", "--duration S or a command after --");
  request_.duration_s = -1;
  EXPECT_CAPTURE_REFUSED("2", "Bad value for --duration");
}

TEST_F(CaptureSessionTest, ANonEmptyOutFolderIsRefusedAndLeftAlone) {
  CapturePath path(tools_);
  fs::create_directories(request_.out_dir);
  std::ofstream(request_.out_dir + "/old.iolog") << "x";
  const std::string error = CheckError();
  EXPECT_EQ(error.substr(0, 3), "2: ") << error;
  EXPECT_NE(error.find("is not empty"), std::string::npos) << error;
  EXPECT_EQ(std::distance(fs::directory_iterator(request_.out_dir),
                          fs::directory_iterator()),
            1);
}

TEST_F(CaptureSessionTest, ACommandNotFoundIsRefused) {
  CapturePath path(tools_);
  request_.command = {"no-such-command-xyz", "-x"};
  EXPECT_CAPTURE_REFUSED("2",
                         "'no-such-command-xyz', is not an executable "
                         "on PATH");
}

TEST_F(CaptureSessionTest, MissingToolsNameTheirPackage) {
  {
    CapturePath path(dir_.path());  // neither tool
    EXPECT_CAPTURE_REFUSED("3", "blktrace is not on PATH");
    EXPECT_CAPTURE_REFUSED("3", "Fix: apt-get install blktrace");
  }
  fs::remove(tools_ + "/blkparse");
  CapturePath path(tools_);  // blktrace only
  EXPECT_CAPTURE_REFUSED("3", "blkparse is not on PATH");
}

TEST_F(CaptureSessionTest, ADeviceMissingOrNotABlockDeviceIsRefused) {
  CapturePath path(tools_);
  EXPECT_CAPTURE_REFUSED("3", "no-such-device: No such file or directory");
  request_.device = tools_ + "/blktrace";
  EXPECT_CAPTURE_REFUSED("3", "is not a block device");
}

TEST_F(CaptureSessionTest, NotRootAndNoDebugfsAreRefusedWithTheFix) {
  if (!MakeBlockNode())
    TIERBENCH_SKIP_OR_FAIL_IN_CI("mknod of a block node not allowed here");
  CapturePath path(tools_);
  host_.root = false;
  EXPECT_CAPTURE_REFUSED("3", "needs root");
  host_.root = true;
  host_.debugfs = dir_.path() + "/no-debugfs";
  EXPECT_CAPTURE_REFUSED(
      "3", "Fix: mount -t debugfs none " + dir_.path() + "/no-debugfs");
  host_.debugfs = debugfs_;
  const CapturePlan plan = CheckCapture(request_, host_);
  EXPECT_EQ(plan.blktrace, tools_ + "/blktrace");
  EXPECT_EQ(plan.blkparse, tools_ + "/blkparse");
  EXPECT_EQ(plan.command_path, "/bin/true");
  EXPECT_EQ(plan.name, "blk");
  EXPECT_EQ(plan.volume, "7,200");
  EXPECT_FALSE(fs::exists(request_.out_dir));
}

TEST_F(CaptureSessionTest, RunTracesTheCommandAndWritesTheIolog) {
  if (!MakeBlockNode())
    TIERBENCH_SKIP_OR_FAIL_IN_CI("mknod of a block node not allowed here");
  ResetInterruptForTest();
  CapturePath path(tools_ + ":/usr/bin:/bin");
  request_.command = {"sh", "-c", "exit 3"};
  const CapturePlan plan = CheckCapture(request_, host_);
  std::ostringstream out;
  const CaptureOutcome outcome = RunCapture(request_, plan, out);
  EXPECT_EQ(outcome.command_exit, 3);
  EXPECT_FALSE(outcome.interrupted);
  // blktrace got its folder and name, and SIGINT at the end.
  EXPECT_EQ(ReadText(request_.out_dir + "/raw/args"),
            request_.out_dir + "/raw blk\nstopped\n");
  EXPECT_EQ(outcome.iolog, request_.out_dir + "/blk.iolog");
  EXPECT_EQ(ReadText(outcome.iolog),
            "fio version 3 iolog\n0 " + request_.device + " add\n0 " +
                request_.device + " open\n0 " + request_.device +
                " read 32768 4096\n500 " + request_.device +
                " write 0 8192\n500 " + request_.device + " close\n");
  EXPECT_EQ(ReadText(outcome.blkparse_text), kCaptureFakeBlkparse);
  EXPECT_NE(out.str().find("capture: 1 reads, 1 writes, 0 flushes"),
            std::string::npos)
      << out.str();
  // The profile, as trace-stats prints it.
  EXPECT_NE(out.str().find("fio iolog v3, 2 requests"), std::string::npos)
      << out.str();
}

TEST_F(CaptureSessionTest, ADurationCaptureStopsAfterItsTime) {
  if (!MakeBlockNode())
    TIERBENCH_SKIP_OR_FAIL_IN_CI("mknod of a block node not allowed here");
  ResetInterruptForTest();
  CapturePath path(tools_);
  request_.command.clear();
  request_.duration_s = 0.2;
  const CapturePlan plan = CheckCapture(request_, host_);
  std::ostringstream out;
  const CaptureOutcome outcome = RunCapture(request_, plan, out);
  EXPECT_EQ(outcome.command_exit, 0);
  EXPECT_EQ(outcome.counts.reads, 1u);
  EXPECT_EQ(outcome.counts.writes, 1u);
}

// compare --capture-replay's use (capture/block_capture.h): the caller
// runs the IO itself between the start and Finish, so neither --duration
// nor a command is asked for; a capture dropped before Finish stops its
// tracer all the same.
TEST_F(CaptureSessionTest, ACallerThatRunsTheIoStartsAndFinishesACapture) {
  if (!MakeBlockNode())
    TIERBENCH_SKIP_OR_FAIL_IN_CI("mknod of a block node not allowed here");
  ResetInterruptForTest();
  CapturePath path(tools_);
  request_.command.clear();
  request_.caller_runs_io = true;
  const CapturePlan plan = CheckCapture(request_, host_);
  EXPECT_TRUE(plan.command_path.empty());
  {
    BlockCapture capture(request_, plan);
    EXPECT_EQ(ReadText(request_.out_dir + "/raw/args"),
              request_.out_dir + "/raw blk\n");
    const CaptureOutcome outcome = capture.Finish();
    EXPECT_EQ(outcome.iolog, request_.out_dir + "/blk.iolog");
    EXPECT_EQ(outcome.counts.reads, 1u);
    EXPECT_EQ(outcome.counts.writes, 1u);
  }
  EXPECT_EQ(ReadText(request_.out_dir + "/raw/args"),
            request_.out_dir + "/raw blk\nstopped\n");
  fs::remove_all(request_.out_dir);
  {
    BlockCapture dropped(request_, plan);  // e.g. the cell was interrupted
  }
  EXPECT_EQ(ReadText(request_.out_dir + "/raw/args"),
            request_.out_dir + "/raw blk\nstopped\n");
  EXPECT_FALSE(fs::exists(request_.out_dir + "/blk.iolog"));
}

// A trace blktrace ended on its own (before the caller stopped it), or
// whose summary counts dropped events, is not the IO that ran: Finish
// refuses it (exit 1) rather than write an iolog that looks whole.
TEST_F(CaptureSessionTest, ACaptureCutShortOrWithDroppedEventsIsRefused) {
  if (!MakeBlockNode())
    TIERBENCH_SKIP_OR_FAIL_IN_CI("mknod of a block node not allowed here");
  ResetInterruptForTest();
  request_.command.clear();
  request_.caller_runs_io = true;
  CaptureScript(
      tools_ + "/blktrace",
      std::string(kCaptureArgs) + ": >\"$raw/$name.blktrace.0\"\nexit 0\n");
  {
    CapturePath path(tools_);
    const CapturePlan plan = CheckCapture(request_, host_);
    BlockCapture capture(request_, plan);
    ::usleep(1'500'000);  // blktrace has ended by now
    try {
      capture.Finish();
      ADD_FAILURE() << "a capture blktrace ended on its own was accepted";
    } catch (const HarnessError& e) {
      EXPECT_EQ(e.exit_code(), 1) << e.what();
      EXPECT_NE(std::string(e.what()).find("before the capture of"),
                std::string::npos)
          << e.what();
    }
  }
  fs::remove_all(request_.out_dir);
  CaptureScript(
      tools_ + "/blktrace",
      std::string(kCaptureArgs) +
          "trap 'echo \"  Total: 10 events (dropped 3), 1 KiB data\"; "
          "exit 0' INT\n"
          ": >\"$raw/$name.blktrace.0\"\n"
          "while :; do sleep 0.02; done\n");
  CapturePath path(tools_);
  const CapturePlan plan = CheckCapture(request_, host_);
  BlockCapture capture(request_, plan);
  try {
    capture.Finish();
    ADD_FAILURE() << "a capture with dropped events was accepted";
  } catch (const HarnessError& e) {
    EXPECT_EQ(e.exit_code(), 1) << e.what();
    EXPECT_NE(std::string(e.what()).find("blktrace dropped 3 events"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(request_.out_dir + "/blk.iolog"));
}

TEST_F(CaptureSessionTest, BlktraceThatExitsAtOnceIsASystemError) {
  if (!MakeBlockNode())
    TIERBENCH_SKIP_OR_FAIL_IN_CI("mknod of a block node not allowed here");
  CaptureScript(tools_ + "/blktrace",
                "echo 'BLKTRACESETUP(2) /dev/x failed: 2/No such file' >&2\n"
                "exit 1\n");
  CapturePath path(tools_);
  const CapturePlan plan = CheckCapture(request_, host_);
  std::ostringstream out;
  try {
    RunCapture(request_, plan, out);
    FAIL() << "no error";
  } catch (const SysError& e) {
    EXPECT_NE(std::string(e.what()).find("blktrace exited (status 1) before "
                                         "tracing"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("BLKTRACESETUP(2)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tierbench
