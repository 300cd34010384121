// write_iolog / read_iolog on real loop devices (root): libaio with O_DIRECT
// records a trace that names the device, tierbench replays it onto that
// device and fio (/usr/bin/fio) replays the same trace with the same IO
// sequence; a trace larger than a redirect target is refused before IO; a
// blkparse trace's reads, writes and flushes are counted by the device
// (/sys/block/loopN/stat); a timed trace replays in its own duration.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_env.h"
#include "tracefile/iolog.h"
#include "util/errors.h"
#include "util/units.h"
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

// The fields of /sys/block/<loopN>/stat (Documentation/block/stat.rst):
// 0 read ios, 2 read sectors, 4 write ios, 6 write sectors, 15 flush ios.
std::vector<uint64_t> ReplayLoopStat(const std::string& device) {
  std::ifstream in("/sys/block/" + device.substr(device.rfind('/') + 1) +
                   "/stat");
  std::vector<uint64_t> out;
  for (uint64_t v = 0; in >> v;) out.push_back(v);
  return out;
}

// Drops the device's page cache (BLKFLSBUF), so the device guard's libblkid
// probe, which reads through it, reads the same blocks in every run.
void ReplayLoopDropCache(const std::string& device) {
  const int fd = ::open(device.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ioctl(fd, BLKFLSBUF, 0), 0);
  ::close(fd);
}

TEST(ReplayLoopTest, BlkparseTraceIsCountedByTheDevice) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(16ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  // blkparse's default output: ISSUE events of 5 reads, 4 writes (one with
  // a preflush, F before W; one FUA, F after W) and 2 flushes without data
  // (FN): 3 flushes in all. Other events are ignored by the reader.
  const std::string trace = dir.path() + "/b.txt";
  std::ofstream(trace)
      << "  7,0    0        1     0.000000000  100  Q   R 0 + 8 [fio]\n"
         "  7,0    0        2     0.000001000  100  D   R 0 + 8 [fio]\n"
         "  7,0    0        3     0.000100000  100  D  WS 2048 + 16 [fio]\n"
         "  7,0    0        4     0.000200000  100  D  FN [kworker/0:1H]\n"
         "  7,0    0        5     0.000300000  100  D   R 4096 + 64 [fio]\n"
         "  7,0    0        6     0.000400000  100  D FWS 8192 + 8 [jbd2]\n"
         "  7,0    0        7     0.000500000  100  D   R 100 + 8 [fio]\n"
         "  7,0    0        8     0.000600000  100  D WFS 12000 + 24 [jbd2]\n"
         "  7,0    0        9     0.000700000  100  C WFS 12000 + 24 [0]\n"
         "  7,0    0       10     0.000800000  100  D   R 20000 + 128 [fio]\n"
         "  7,0    0       11     0.000900000  100  D   W 30000 + 8 [fio]\n"
         "  7,0    0       12     0.001000000  100  D  FN [kworker/0:1H]\n"
         "  7,0    0       13     0.001100000  100  D   R 31000 + 8 [fio]\n";
  const uint64_t reads = 5, read_sectors = 8 + 64 + 8 + 128 + 8;
  const uint64_t writes = 4, write_sectors = 16 + 8 + 24 + 8;
  const uint64_t flushes = 3;
  const std::string job = "\nreplay_redirect=" + loop.device() +
                          "\nioengine=libaio\ndirect=1\niodepth=1\n";

  // How this kernel counts an fdatasync of the device: one flush, and the
  // empty REQ_PREFLUSH write that carries it completes as a write of 0
  // sectors on blk-mq (measured: 6.18 counts it) or not at all.
  const std::vector<uint64_t> c0 = ReplayLoopStat(loop.device());
  ASSERT_GE(c0.size(), 17u) << "no flush fields in the stat file";
  const int fd = ::open(loop.device().c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::fdatasync(fd), 0);
  ::close(fd);
  const std::vector<uint64_t> c1 = ReplayLoopStat(loop.device());
  ASSERT_EQ(c1[15] - c0[15], 1u) << "an fdatasync of " << loop.device()
                                 << " sent no flush (write cache off?)";
  const uint64_t writes_per_flush = c1[4] - c0[4];
  ASSERT_LE(writes_per_flush, 1u);

  // Before writing, the run's device guard probes the device with libblkid
  // (buffered reads): measured on a one-write trace, from a cold cache.
  const std::string one = dir.path() + "/one.txt";
  std::ofstream(one)
      << "  7,0    0        1     0.000000000  100  D   W 24000 + 8 [fio]\n";
  ReplayLoopDropCache(loop.device());
  RunText("[one]\nread_iolog=" + one + job);
  const std::vector<uint64_t> c2 = ReplayLoopStat(loop.device());
  ASSERT_EQ(c2[4] - c1[4], 1u);
  const uint64_t probe_reads = c2[0] - c1[0];
  const uint64_t probe_sectors = c2[2] - c1[2];

  ReplayLoopDropCache(loop.device());
  const RunResult r = RunText("[play]\nread_iolog=" + trace + job);
  const std::vector<uint64_t> c3 = ReplayLoopStat(loop.device());
  ASSERT_EQ(r.jobs.size(), 1u);
  ASSERT_EQ(r.jobs[0].error, "");
  EXPECT_EQ(r.jobs[0].dir[0].ios, reads);
  EXPECT_EQ(r.jobs[0].dir[1].ios, writes);
  EXPECT_EQ(r.jobs[0].syncs, flushes);
  EXPECT_EQ(c3[0] - c2[0], reads + probe_reads)
      << "probe: " << probe_reads << " reads";
  EXPECT_EQ(c3[2] - c2[2], read_sectors + probe_sectors)
      << "probe: " << probe_sectors << " sectors";
  EXPECT_EQ(c3[4] - c2[4], writes + flushes * writes_per_flush);
  EXPECT_EQ(c3[6] - c2[6], write_sectors);
  EXPECT_EQ(c3[15] - c2[15], flushes);
}

// An open-loop schedule: 2000 reads 1 ms apart take 2 s (the last is due
// 1.999 s after the first), within 10 %, whatever each IO's lateness.
// Relative delays (each counted from the previous issue, as fio's
// delay_since_ttime) add every IO's overshoot and run long under load.
TEST(ReplayLoopTest, TimedTraceReplaysInItsOwnDuration) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(16ull << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  const std::string trace = dir.path() + "/timed.iolog";
  {
    std::ofstream out(trace);
    out << "fio version 3 iolog\n0 /dev/tb-trace add\n0 /dev/tb-trace open\n";
    for (uint64_t i = 0; i < 2000; ++i) {
      out << i * 1000 << " /dev/tb-trace read " << (i * 4096) % (16 << 20)
          << " 4096\n";
    }
    out << "2000000 /dev/tb-trace close\n";
  }
  const RunResult r = RunText("[timed]\nread_iolog=" + trace +
                              "\nreplay_redirect=" + loop.device() +
                              "\nioengine=libaio\ndirect=1\niodepth=1\n");
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].dir[0].ios, 2000u);
  const double seconds = static_cast<double>(r.jobs[0].runtime_ns) /
                         static_cast<double>(kNsPerSec);
  std::printf("timed replay of 2000 IOs over 1.999 s of trace: %.3f s\n",
              seconds);
  EXPECT_GE(seconds, 1.999);  // never early
  EXPECT_LE(seconds, 2.0 * 1.1);
  // Late IOs record their lateness: sched_lat from the scheduled time.
  EXPECT_EQ(r.jobs[0].dir[0].sched_lat.count(), 2000u);
}

}  // namespace
}  // namespace tierbench
