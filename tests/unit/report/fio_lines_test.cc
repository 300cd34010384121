// The fio lines of the normal report that carry tierbench's counters, each
// compared with the exact line fio 3.28 printed in seed 000
// (tests/golden/seed000/): the header's pid and date, per= of the bw line,
// majf/minf, the submit/complete batch sizes, "issued rwts" and "latency".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>

#include "report/console_reporter.h"
#include "util/units.h"

namespace tierbench {
namespace {

using ::testing::HasSubstr;

class ReportFioLinesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tz = std::getenv("TZ");
    had_tz_ = tz != nullptr;
    if (had_tz_) old_tz_ = tz;
    setenv("TZ", "UTC", 1);  // the seed's dates are the fio host's local time
    tzset();
  }
  void TearDown() override {
    if (had_tz_) {
      setenv("TZ", old_tz_.c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  bool had_tz_ = false;
  std::string old_tz_;
};

// Seed 000 case 1 in counts: 4 jobs of libaio iodepth 64 reading for
// 120082 ms, 546846 IOs issued one per io_submit and reaped one per
// io_getevents, except the final reap of the 64 in flight per job.
JobResult Case01() {
  JobResult j;
  j.name = "job1";
  j.jobs = 4;
  j.spec.iodepth = 64;
  j.spec.ioengine = "libaio";
  j.runtime_ns = 120082 * kNsPerMs;
  j.dir[0].ios = 546846;
  j.dir[0].issued = 546846;
  j.dir[0].bytes = 546846ull * 256 * 1024;
  j.usr_cpu_sec = 0.0081 * 4 * 120.082;
  j.sys_cpu_sec = 0.2225 * 4 * 120.082;
  j.ctx_switches = 449921;
  j.minf = 50116;
  j.pid = 63081;
  j.end_time = 1739021902;  // Sat Feb  8 13:38:22 2025 UTC
  j.depth_hist[6] = 546846;
  j.submit_hist[1] = 546846;
  j.complete_hist[1] = 546846 - 4 * 64;
  j.complete_hist[5] = 4;
  return j;
}

std::string Report(const JobResult& j) {
  RunResult r;
  r.jobs.push_back(j);
  std::ostringstream out;
  WriteConsoleReport(r, out);
  return out.str();
}

TEST_F(ReportFioLinesTest, HeaderHasPidAndDate) {
  EXPECT_EQ(FioCtime(1739021902), "Sat Feb  8 13:38:22 2025");
  EXPECT_EQ(FioCtime(1739108843), "Sun Feb  9 13:47:23 2025");
  EXPECT_THAT(Report(Case01()),
              HasSubstr("job1: (groupid=0, jobs=4): err= 0: pid=63081: Sat "
                        "Feb  8 13:38:22 2025\n"));
}

TEST_F(ReportFioLinesTest, FailedOrThreadlessJobsHaveNoPid) {
  JobResult j = Case01();
  j.error = "read failed";
  EXPECT_THAT(Report(j),
              HasSubstr("job1: (groupid=0, jobs=4): err= 1: read failed\n"));
  j = Case01();
  j.pid = 0;  // e.g. the transaction driver's merged result
  EXPECT_THAT(Report(j), HasSubstr("job1: (groupid=0, jobs=4): err= 0\n"));
}

TEST_F(ReportFioLinesTest, CpuLineHasPageFaults) {
  EXPECT_THAT(Report(Case01()),
              HasSubstr("  cpu          : usr=0.81%, sys=22.25%, ctx=449921, "
                        "majf=0, minf=50116\n"));
}

TEST_F(ReportFioLinesTest, SubmitAndCompleteLinesAsTheSeed) {
  const JobResult j = Case01();
  EXPECT_EQ(FioBatchLine("submit", j.submit_hist),
            "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, "
            "64=0.0%, >=64=0.0%");
  // 4 of 546846 is 0.0007 %: fio shows a non-empty bucket as 0.1 %.
  EXPECT_EQ(FioBatchLine("complete", j.complete_hist),
            "     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, "
            "64=0.1%, >=64=0.0%");
  const uint64_t mixed[7] = {1, 1, 2, 0, 0, 0, 4};
  EXPECT_EQ(FioBatchLine("submit", mixed),
            "     submit    : 0=12.5%, 4=12.5%, 8=25.0%, 16=0.0%, 32=0.0%, "
            "64=0.0%, >=64=50.0%");
  const uint64_t none[7] = {0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(FioBatchLine("complete", none),
            "     complete  : 0=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, "
            "64=0.0%, >=64=0.0%");
  const std::string report = Report(j);
  EXPECT_THAT(report,
              HasSubstr("  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=0.0%, "
                        "16=0.0%, 32=0.0%, >=64=100.0%\n"
                        "     submit    : 0=0.0%, 4=100.0%,"));
}

TEST_F(ReportFioLinesTest, IssuedAndLatencyLinesAsTheSeed) {
  const std::string report = Report(Case01());
  EXPECT_THAT(report,
              HasSubstr("     issued rwts: total=546846,0,0,0 short=0,0,0,0 "
                        "dropped=0,0,0,0\n"
                        "     latency   : target=0, window=0, "
                        "percentile=100.00%, depth=64\n"));
  // Case 12: randrw at iodepth 1.
  JobResult j = Case01();
  j.jobs = 1;
  j.spec.iodepth = 1;
  j.dir[0].issued = 1762;
  j.dir[1].issued = 1839;
  j.dir[1].ios = 1839;
  j.dir[1].bytes = 1839ull * 4096;
  EXPECT_THAT(Report(j),
              HasSubstr("     issued rwts: total=1762,1839,0,0 short=0,0,0,0 "
                        "dropped=0,0,0,0\n"
                        "     latency   : target=0, window=0, "
                        "percentile=100.00%, depth=1\n"));
  // fsync= syncs are the fourth column, short transfers the second field.
  j.issued_syncs = 255;
  j.dir[0].short_ios = 3;
  EXPECT_THAT(Report(j), HasSubstr("     issued rwts: total=1762,1839,0,255 "
                                   "short=3,0,0,0 dropped=0,0,0,0\n"));
}

TEST_F(ReportFioLinesTest, PerIsTheShareOfTheGroupsBandwidth) {
  // Case 12's write: mean 61.52 KiB/s (fio truncates it to 61) of a group
  // moving 62733 B/s: "per=99.57%".
  char buf[32];
  std::snprintf(buf, sizeof buf, "%3.2f", FioPercentOfGroup(61.52, 62733));
  EXPECT_STREQ(buf, "99.57");
  EXPECT_DOUBLE_EQ(FioPercentOfGroup(2000.0, 1024 * 1000), 100.0);  // capped
  EXPECT_DOUBLE_EQ(FioPercentOfGroup(0.5, 1024), 100.0);  // agg <= 1 KiB/s
  EXPECT_DOUBLE_EQ(FioPercentOfGroup(250.0, 1024 * 1000), 25.0);
}

TEST_F(ReportFioLinesTest, PerInTheBwLineOfTwoJobs) {
  // Two jobs of one group reading 1 MiB/s and 3 MiB/s for 4 s each: the
  // group moves 4 MiB/s, so 25 % and 75 %.
  RunResult r;
  for (uint64_t mib_per_sec : {1, 3}) {
    JobResult j = Case01();
    j.jobs = 1;
    j.runtime_ns = 4 * kNsPerSec;
    j.dir[0] = DirectionStats();
    for (uint64_t i = 0; i < 4 * mib_per_sec; ++i) {
      j.dir[0].ios++;
      j.dir[0].bytes += 1 << 20;
      j.dir[0].series.Add(i * kNsPerSec / mib_per_sec, 1 << 20);
    }
    r.jobs.push_back(j);
  }
  std::ostringstream out;
  WriteConsoleReport(r, out);
  EXPECT_THAT(out.str(), HasSubstr("   bw (  KiB/s): min= 1024, max= 1024, "
                                   "per=25.00%, avg=1024.00, stdev= 0.00, "
                                   "samples=4\n"));
  EXPECT_THAT(out.str(), HasSubstr("   bw (  KiB/s): min= 3072, max= 3072, "
                                   "per=75.00%, avg=3072.00, stdev= 0.00, "
                                   "samples=4\n"));
}

}  // namespace
}  // namespace tierbench
