// write_iolog / read_iolog on real loop devices (root): libaio with O_DIRECT
// records a trace that names the device, tierbench replays it onto that
// device and fio (/usr/bin/fio) replays the same trace with the same IO
// sequence; a trace larger than a redirect target is refused before IO.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "test_env.h"
#include "tracefile/iolog.h"
#include "util/errors.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

using testing::LoopDevice;
using testing::RunShell;
using testing::TempDir;

RunResult RunText(const std::string& text) {
  Workload w = ParseJobText(text, "<test>", JobOverrides{});
  RunOptions options;
  options.progress = false;
  options.destructive = true;
  return RunWorkload(w, options);
}

TEST(ReplayLoopTest, RecordReplayAndFioReplayOnALoopDevice) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(64ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  const std::string trace = dir.path() + "/loop.iolog";
  const RunResult rec =
      RunText("[rec]\nfilename=" + loop.device() +
              "\nioengine=libaio\ndirect=1\niodepth=16\nsize=16m\nrw=randrw\n"
              "bssplit=4k/60:64k/40\nwrite_iolog=" +
              trace + "\n");
  const IoLog log = LoadIoLog(trace);
  ASSERT_EQ(log.files, std::vector<std::string>{loop.device()});
  EXPECT_EQ(log.ios[0], rec.jobs[0].dir[0].ios);
  EXPECT_EQ(log.ios[1], rec.jobs[0].dir[1].ios);
  // The budget is size=; the last IO may cross it (as fio).
  EXPECT_GE(log.bytes[0] + log.bytes[1], 16ull << 20);
  EXPECT_LT(log.bytes[0] + log.bytes[1], (16ull << 20) + (64 << 10));

  // tierbench replays onto the trace's own device.
  const RunResult play = RunText("[play]\nread_iolog=" + trace +
                                 "\nioengine=libaio\ndirect=1\niodepth=16\n"
                                 "replay_no_stall=1\n");
  ASSERT_EQ(play.jobs.size(), 1u);
  EXPECT_EQ(play.jobs[0].spec.filename, loop.device());
  for (int d = 0; d < kNumDirs; ++d) {
    EXPECT_EQ(play.jobs[0].dir[d].ios, log.ios[d]);
    EXPECT_EQ(play.jobs[0].dir[d].bytes, log.bytes[d]);
    EXPECT_EQ(play.jobs[0].dir[d].errors, 0u);
  }

  // fio replays the same sequence (its debug log names each queued IO).
  std::string out;
  ASSERT_EQ(RunShell("/usr/bin/fio --name=fioplay --ioengine=libaio "
                     "--direct=1 --iodepth=16 --replay_no_stall=1 "
                     "--debug=io --read_iolog=" +
                         trace + " 2>&1",
                     &out),
            0)
      << out;
  std::vector<std::string> fio_ios, trace_ios;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const size_t q = line.find(" queue: io_u ");
    if (q == std::string::npos) continue;
    unsigned long long off = 0, len = 0;
    int ddir = -1;
    const size_t f = line.find("off=", q);
    ASSERT_NE(f, std::string::npos) << line;
    ASSERT_EQ(std::sscanf(line.c_str() + f, "off=%llx,len=%llx,ddir=%d", &off,
                          &len, &ddir),
              3);
    fio_ios.push_back(std::to_string(ddir) + " " + std::to_string(off) + " " +
                      std::to_string(len));
  }
  for (const IoLogEntry& e : log.entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    trace_ios.push_back(std::to_string(e.action == IoLogAction::kRead ? 0 : 1) +
                        " " + std::to_string(e.offset) + " " +
                        std::to_string(e.length));
  }
  EXPECT_EQ(fio_ios, trace_ios);

  // Redirected onto a device smaller than the trace's extent: refused.
  LoopDevice small(4ull << 20);
  ASSERT_TRUE(small.ok()) << small.error();
  try {
    RunText("[play]\nread_iolog=" + trace +
            "\nreplay_redirect=" + small.device() + "\n");
    ADD_FAILURE() << "a trace reaching " << log.extent
                  << " bytes replayed onto a 4 MiB device";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("past the end of " + small.device()),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace tierbench
