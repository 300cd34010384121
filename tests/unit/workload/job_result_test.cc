// JobResult and DirectionStats: rates and group_reporting merges.
#include <gtest/gtest.h>

#include "util/units.h"
#include "workload/job_result.h"

namespace tierbench {
namespace {

JobResult MakeJob(uint64_t read_ios, uint64_t runtime_ns,
                  const std::string& error) {
  JobResult r;
  r.name = "job";
  r.runtime_ns = runtime_ns;
  r.usr_cpu_sec = 1.5;
  r.sys_cpu_sec = 0.25;
  r.ctx_switches = 10;
  r.depth_hist[0] = 1;
  r.depth_hist[6] = read_ios;
  r.error = error;
  DirectionStats& d = r.dir[static_cast<int>(IoDir::kRead)];
  for (uint64_t i = 0; i < read_ios; ++i) {
    d.ios++;
    d.bytes += 4096;
    d.lat.Add(1000.0 * (i + 1));
    d.lat_hist.Add(1000 * (i + 1));
    d.series.Add(i * kNsPerMs, 4096);
  }
  return r;
}

TEST(JobResultTest, Rates) {
  struct {
    uint64_t ios, runtime_ns;
    double iops, bytes_per_sec;
  } cases[] = {
      {100, 2 * kNsPerSec, 50, 50 * 4096.0},
      {3, kNsPerSec / 2, 6, 6 * 4096.0},
      {7, 0, 0, 0},
  };
  for (const auto& c : cases) {
    const JobResult r = MakeJob(c.ios, c.runtime_ns, "");
    EXPECT_DOUBLE_EQ(r.Iops(IoDir::kRead), c.iops) << c.ios;
    EXPECT_DOUBLE_EQ(r.BytesPerSec(IoDir::kRead), c.bytes_per_sec) << c.ios;
    EXPECT_EQ(r.Iops(IoDir::kWrite), 0.0);
  }
}

TEST(JobResultTest, MergeCombinesEverything) {
  JobResult a = MakeJob(10, 2 * kNsPerSec, "");
  const JobResult b = MakeJob(30, 3 * kNsPerSec, "");
  a.Merge(b);
  EXPECT_EQ(a.name, "job");
  EXPECT_EQ(a.jobs, 2u);
  EXPECT_EQ(a.runtime_ns, 3 * kNsPerSec);
  EXPECT_DOUBLE_EQ(a.usr_cpu_sec, 3.0);
  EXPECT_DOUBLE_EQ(a.sys_cpu_sec, 0.5);
  EXPECT_EQ(a.ctx_switches, 20u);
  EXPECT_EQ(a.depth_hist[0], 2u);
  EXPECT_EQ(a.depth_hist[6], 40u);
  const DirectionStats& d = a.dir[static_cast<int>(IoDir::kRead)];
  EXPECT_EQ(d.ios, 40u);
  EXPECT_EQ(d.bytes, 40u * 4096);
  EXPECT_EQ(d.lat.count(), 40u);
  EXPECT_EQ(d.lat.max(), 30000.0);
  EXPECT_EQ(d.lat_hist.count(), 40u);
  EXPECT_EQ(d.series.points()[0].ios, 40u);
  EXPECT_DOUBLE_EQ(a.Iops(IoDir::kRead), 40 / 3.0);
  EXPECT_TRUE(a.error.empty());
}

TEST(JobResultTest, MergeJoinsErrors) {
  struct {
    const char* a;
    const char* b;
    const char* want;
  } cases[] = {
      {"", "", ""},
      {"", "read failed", "read failed"},
      {"open failed", "", "open failed"},
      {"open failed", "read failed", "open failed; read failed"},
  };
  for (const auto& c : cases) {
    JobResult a = MakeJob(1, kNsPerSec, c.a);
    a.Merge(MakeJob(1, kNsPerSec, c.b));
    EXPECT_EQ(a.error, c.want) << "'" << c.a << "' + '" << c.b << "'";
  }
}

TEST(DirectionStatsTest, MergeCountsErrors) {
  DirectionStats a, b;
  a.errors = 2;
  b.errors = 3;
  b.slat.Add(5);
  b.clat.Add(7);
  b.clat_hist.Add(7);
  a.Merge(b);
  EXPECT_EQ(a.errors, 5u);
  EXPECT_EQ(a.slat.count(), 1u);
  EXPECT_EQ(a.clat.mean(), 7.0);
  EXPECT_EQ(a.clat_hist.count(), 1u);
}

}  // namespace
}  // namespace tierbench
