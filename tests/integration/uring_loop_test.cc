// The io_uring engine on a real loop device (root), O_DIRECT, in-process
// through the runner: a mixed job does libaio's IO count with no errors,
// each fio option set writes every block and verifies it (crc32c), and
// latency is measured as fio measures it (slat + clat = lat, one submit and
// one reap per IO at QD1). Also runs in the lab guest (kernel 6.1,
// tests/lab/lab_compare_test.cc), where it must pass and not skip.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/io_uring_engine.h"
#include "test_env.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

using testing::LoopDevice;

constexpr uint64_t kUringDeviceBytes = 64ull << 20;

RunResult RunText(const std::string& text) {
  Workload w = ParseJobText(text, "<uring>", JobOverrides{});
  RunOptions options;
  options.progress = false;
  options.destructive = true;
  return RunWorkload(w, options);
}

std::string Job(const std::string& dev, const std::string& engine,
                const std::string& rw, const std::string& extra) {
  return "[j]\nfilename=" + dev + "\nioengine=" + engine +
         "\ndirect=1\niodepth=16\nbs=4k\nsize=4m\nrw=" + rw + "\n" + extra;
}

class UringLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TIERBENCH_REQUIRE_ROOT();
    const Status avail = IoUringEngine::Available();
    if (!avail.ok()) TIERBENCH_SKIP_OR_FAIL_IN_CI(avail.message());
  }
};

TEST_F(UringLoopTest, EveryOptionSetMatchesLibaioAndVerifies) {
  LoopDevice loop(kUringDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  // A mixed job does libaio's IO count, both directions, no errors.
  RunResult ref = RunText(Job(loop.device(), "libaio", "randrw", ""));
  RunResult mix = RunText(Job(loop.device(), "io_uring", "randrw", ""));
  ASSERT_EQ(ref.jobs.size(), 1u);
  ASSERT_EQ(mix.jobs.size(), 1u);
  const JobResult& m = mix.jobs[0];
  EXPECT_EQ(m.error, "");
  EXPECT_EQ(ref.jobs[0].dir[0].ios + ref.jobs[0].dir[1].ios, 1024u);
  EXPECT_EQ(m.dir[0].ios + m.dir[1].ios, 1024u);  // 4 MiB of 4 KiB blocks
  EXPECT_GT(m.dir[0].ios, 0u);
  EXPECT_GT(m.dir[1].ios, 0u);
  EXPECT_EQ(m.dir[0].errors + m.dir[1].errors, 0u);
  // Each option set writes every block and reads it back intact.
  for (const char* options :
       {"nonvectored=0\n", "nonvectored=1\n", "fixedbufs\nregisterfiles\n",
        "sqthread_poll\n"}) {
    SCOPED_TRACE(std::string("options: ") + options);
    RunResult v = RunText(Job(loop.device(), "io_uring", "randwrite",
                              std::string(options) + "verify=crc32c\n"));
    ASSERT_EQ(v.jobs.size(), 1u);
    EXPECT_EQ(v.jobs[0].error, "");
    EXPECT_EQ(v.jobs[0].dir[1].ios, 1024u);
    EXPECT_EQ(v.jobs[0].dir[1].errors, 0u);
    EXPECT_EQ(v.jobs[0].verify_blocks, 1024u);
    EXPECT_EQ(v.jobs[0].verify_errors, 0u);
  }
}

TEST_F(UringLoopTest, Qd1LatencyIsMeasuredAsFio) {
  LoopDevice loop(kUringDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  RunResult r = RunText(Job(loop.device(), "io_uring", "randread",
                            "iodepth=1\nruntime=1\ntime_based=1\nsize=32m\n"));
  ASSERT_EQ(r.jobs.size(), 1u);
  const JobResult& j = r.jobs[0];
  const DirectionStats& d = j.dir[0];
  ASSERT_GT(d.ios, 100u);
  EXPECT_EQ(j.error, "");
  // Every IO was submitted alone and reaped alone (fio's "submit" and
  // "complete" maps, bucket 1-4), as fio's io_uring engine does at QD1.
  EXPECT_EQ(j.submit_hist[1], d.ios);
  EXPECT_EQ(j.complete_hist[1], d.ios);
  // clat runs from the submit call's return to the reap; slat before it.
  EXPECT_EQ(d.clat.count(), d.ios);
  EXPECT_GT(d.clat.mean(), 0.0);
  EXPECT_NEAR(d.slat.mean() + d.clat.mean(), d.lat.mean(),
              0.001 * d.lat.mean());
  EXPECT_LE(d.clat.mean(), d.lat.mean());
}

}  // namespace
}  // namespace tierbench
