// tierbench's fio-style counter lines against the real fio (/usr/bin/fio,
// installed by scripts/install-deps) on the same loop device and job: the
// "submit", "complete", "issued rwts" and "latency" lines are fio's own for
// a size-bound libaio job and a psync job with fsync=, and the header and
// cpu lines carry pid/date and majf/minf in fio's format.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "test_env.h"

namespace tierbench::testing {
namespace {

// The first line of `text` that starts with `prefix`, or "".
std::string LineStarting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

// Runs `job` with fio and with tierbench on a fresh loop device; returns
// their normal outputs.
void RunBoth(const std::string& job, std::string* fio, std::string* ours) {
  LoopDevice loop(64ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  const std::string path = dir.path() + "/job.fio";
  std::ofstream(path) << job;
  std::string console;
  ASSERT_EQ(RunShell("fio --filename=" + loop.device() +
                         " --output=" + dir.path() + "/fio.txt " + path,
                     &console),
            0)
      << console;
  ASSERT_EQ(
      RunShell(std::string(TIERBENCH_BINARY) +
                   " run --quiet --destructive --filename " + loop.device() +
                   " --output " + dir.path() + "/ours.txt " + path,
               &console),
      0)
      << console;
  std::ifstream f(dir.path() + "/fio.txt"), o(dir.path() + "/ours.txt");
  std::stringstream fs, os;
  fs << f.rdbuf();
  os << o.rdbuf();
  *fio = fs.str();
  *ours = os.str();
}

TEST(FioCountsTest, LibaioSizeBoundJobPrintsFiosLines) {
  TIERBENCH_REQUIRE_ROOT();
  TIERBENCH_REQUIRE_TOOL("fio", "fio");
  std::string fio, ours;
  RunBoth(
      "[t]\nrw=randread\nbs=4k\nsize=4M\ndirect=1\nioengine=libaio\n"
      "iodepth=8\n",
      &fio, &ours);
  // 1024 IOs, one per io_submit; one reap each, but the last 8 at once.
  for (const char* p :
       {"     submit    :", "     issued rwts:", "     latency   :"}) {
    EXPECT_EQ(LineStarting(ours, p), LineStarting(fio, p))
        << p << "\nfio:\n"
        << fio << "\ntierbench:\n"
        << ours;
  }
  EXPECT_EQ(LineStarting(fio, "     issued rwts:"),
            "     issued rwts: total=1024,0,0,0 short=0,0,0,0 "
            "dropped=0,0,0,0");
  // The final reap waits for all 8 in one call in both; a loaded machine
  // can split tierbench's into 50 ms slices, so only the main bucket is
  // compared exactly.
  EXPECT_TRUE(std::regex_search(
      LineStarting(ours, "     complete  :"),
      std::regex(R"(^     complete  : 0=0\.0%, 4=(99\.9|100\.0)%, 8=)")))
      << ours;
  const std::regex header(
      R"(^t: \(groupid=0, jobs=1\): err= 0: pid=\d+: [A-Z][a-z]{2} [A-Z][a-z]{2} [ 1-3]\d \d\d:\d\d:\d\d \d{4}$)");
  EXPECT_TRUE(std::regex_search(LineStarting(fio, "t: (groupid"), header))
      << fio;
  EXPECT_TRUE(std::regex_search(LineStarting(ours, "t: (groupid"), header))
      << ours;
  const std::regex cpu(
      R"(^  cpu          : usr=\d+\.\d\d%, sys=\d+\.\d\d%, ctx=\d+, majf=\d+, minf=\d+$)");
  EXPECT_TRUE(std::regex_search(LineStarting(ours, "  cpu"), cpu)) << ours;
  EXPECT_TRUE(std::regex_search(LineStarting(fio, "  cpu"), cpu)) << fio;
}

TEST(FioCountsTest, PsyncWithFsyncCountsSyncsAsFio) {
  TIERBENCH_REQUIRE_ROOT();
  TIERBENCH_REQUIRE_TOOL("fio", "fio");
  std::string fio, ours;
  RunBoth("[t]\nrw=write\nbs=4k\nsize=4M\nioengine=psync\nfsync=4\n", &fio,
          &ours);
  // 1024 writes and 255 fsyncs (none after the last write), each 1 and 1.
  for (const char* p : {"     submit    :", "     complete  :",
                        "     issued rwts:", "     latency   :"}) {
    EXPECT_EQ(LineStarting(ours, p), LineStarting(fio, p))
        << p << "\nfio:\n"
        << fio << "\ntierbench:\n"
        << ours;
  }
  EXPECT_EQ(LineStarting(ours, "     issued rwts:"),
            "     issued rwts: total=0,1024,0,255 short=0,0,0,0 "
            "dropped=0,0,0,0");
}

}  // namespace
}  // namespace tierbench::testing
