// The rate schedule (workload/rate_pacer.h) computed by hand from fio's
// usec_for_io(), and the parsing and checks of the rate and steady-state
// options (workload/job_file_rate.h).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "support/job_text.h"
#include "util/errors.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/rate_pacer.h"

namespace tierbench {
namespace {

JobSpec Fixed(uint64_t bs) {
  JobSpec s;
  s.bs[0].min = s.bs[0].max = bs;
  s.bs[1].min = s.bs[1].max = bs;
  return s;
}

TEST(RatePacerTest, UnlimitedByDefault) {
  RatePacer p;
  EXPECT_FALSE(p.limited());
  EXPECT_FALSE(RatePacer(Fixed(4096), IoDir::kRead, 1).limited());
}

TEST(RatePacerTest, LinearBandwidthSchedule) {
  JobSpec s = Fixed(4096);
  s.rate[0] = 1048576;  // rate=1m: 256 4k IOs per second
  RatePacer p(s, IoDir::kRead, 1);
  ASSERT_TRUE(p.limited());
  EXPECT_EQ(p.due_ns(), 0u);  // the first IO is due at the epoch
  p.Issued(4096);
  EXPECT_EQ(p.due_ns(), 3906250u);  // 4096 / 1048576 s
  for (int i = 1; i < 256; ++i) p.Issued(4096);
  EXPECT_EQ(p.due_ns(), kNsPerSec);
  p.Restart();
  EXPECT_EQ(p.due_ns(), 0u);
  EXPECT_FALSE(RatePacer(s, IoDir::kWrite, 1).limited());
}

TEST(RatePacerTest, RateIopsWithARangeChargesBytes) {
  // fio: rate_iops x the smallest block is the bandwidth; an 8k IO of a
  // 4k-8k range takes two 4k slots.
  JobSpec s = Fixed(4096);
  s.bs[0].max = 8192;
  s.rate_iops[0] = 100;
  RatePacer p(s, IoDir::kRead, 1);
  EXPECT_EQ(p.bps(), 409600u);
  p.Issued(8192);
  EXPECT_EQ(p.due_ns(), 20 * kNsPerMs);
  p.Issued(4096);
  EXPECT_EQ(p.due_ns(), 30 * kNsPerMs);
}

TEST(RatePacerTest, RateIopsWithBssplitCountsIos) {
  JobSpec s = Fixed(4096);
  s.bs[1].split = {{4096, 50}, {65536, 50}};
  s.bs[1].max = 65536;
  s.rate_iops[1] = 100;
  RatePacer p(s, IoDir::kWrite, 1);
  p.Issued(65536);
  EXPECT_EQ(p.due_ns(), 10 * kNsPerMs);
  p.Issued(4096);
  EXPECT_EQ(p.due_ns(), 20 * kNsPerMs);
}

TEST(RatePacerTest, PoissonHasExponentialGaps) {
  JobSpec s = Fixed(4096);
  s.rate_iops[0] = 1000;  // mean gap 1 ms
  s.rate_process = RateProcess::kPoisson;
  RatePacer p(s, IoDir::kRead, 42);
  constexpr int kN = 20000;
  uint64_t prev = 0;
  int above_mean = 0;
  int distinct = 0;
  uint64_t last_gap = 0;
  for (int i = 0; i < kN; ++i) {
    p.Issued(4096);
    const uint64_t gap = p.due_ns() - prev;
    prev = p.due_ns();
    if (gap > kNsPerMs) ++above_mean;
    if (gap != last_gap) ++distinct;
    last_gap = gap;
  }
  // Mean gap 1 ms (the standard error over 20000 draws is 0.7 %).
  EXPECT_NEAR(static_cast<double>(prev) / kN, 1e6, 0.03e6);
  // P(gap > mean) = e^-1 for an exponential distribution.
  EXPECT_NEAR(static_cast<double>(above_mean) / kN, std::exp(-1.0), 0.02);
  EXPECT_GT(distinct, kN / 2);  // not a fixed spacing
  // The same seed gives the same schedule.
  RatePacer again(s, IoDir::kRead, 42);
  for (int i = 0; i < kN; ++i) again.Issued(4096);
  EXPECT_EQ(again.due_ns(), prev);
}

TEST(RatePacerTest, SkipIdleShiftsTheSchedule) {
  JobSpec s = Fixed(4096);
  s.rate_iops[0] = 100;  // 409600 B/s, one IO per 10 ms
  RatePacer p(s, IoDir::kRead, 1);
  p.Issued(4096);  // next due at 10 ms
  // Slept 50 ms: fio adds 50 ms worth of bytes (20480) less one block.
  p.SkipIdle(50 * kNsPerMs);
  EXPECT_EQ(p.due_ns(), 50 * kNsPerMs);
  // A sleep shorter than one period adds its bytes without the block.
  p.SkipIdle(5 * kNsPerMs);
  EXPECT_EQ(p.due_ns(), 55 * kNsPerMs);
}

Workload RateParse(const std::string& text) {
  return ParseJobTextForTest(text);
}
std::string RateErrorOf(const std::string& text) { return JobTextError(text); }

const char* kHead = "[j]\nfilename=/dev/null\nioengine=null\n";

TEST(RateOptionsTest, ParsesFioSpellings) {
  Workload w = RateParse(std::string(kHead) +
                         "rw=randrw\nrate=1m,500k\nrate_min=512k,100k\n"
                         "rate_process=poisson\nratecycle=500\n"
                         "rate_ignore_thinktime=1\n");
  const JobSpec& s = w.jobs[0];
  EXPECT_EQ(s.rate[0], 1048576u);
  EXPECT_EQ(s.rate[1], 512000u);
  EXPECT_EQ(s.rate_min[0], 524288u);
  EXPECT_EQ(s.rate_min[1], 102400u);
  EXPECT_EQ(s.rate_process, RateProcess::kPoisson);
  EXPECT_EQ(s.rate_cycle_ns, 500 * kNsPerMs);
  EXPECT_TRUE(s.rate_ignore_thinktime);

  const JobSpec w_only = RateParse(std::string(kHead) + "rate=,500k\n").jobs[0];
  EXPECT_EQ(w_only.rate[0], 0u);
  EXPECT_EQ(w_only.rate[1], 512000u);
  const JobSpec r_only = RateParse(std::string(kHead) + "rate=500k,\n").jobs[0];
  EXPECT_EQ(r_only.rate[0], 512000u);
  EXPECT_EQ(r_only.rate[1], 0u);
  const JobSpec iops =
      RateParse(std::string(kHead) + "rate_iops=200\nrate_iops_min=150\n")
          .jobs[0];
  EXPECT_EQ(iops.rate_iops_min[0], 150u);
  EXPECT_EQ(iops.rate_iops_min[1], 150u);
}

TEST(RateOptionsTest, RefusesWhatFioRefuses) {
  struct Case {
    const char* lines;
    const char* want;
  } cases[] = {
      {"rate=1m\nrate_iops=100\n",
       "t.fio:5: option 'rate_iops': rate and rate_iops are mutually "
       "exclusive"},
      {"rate_min=1m\nrate_iops_min=100\n", "mutually exclusive"},
      {"rate=1m\nrate_min=2m\n",
       "t.fio:5: option 'rate_min': minimum rate exceeds rate for read"},
      {"rate_iops=10\nrate_iops_min=20\n", "minimum rate exceeds rate"},
      {"rate_process=bursty\n", "'bursty' is not a rate process"},
      {"rate=1k\nrate_process=poisson\n",
       "rate_process=poisson has no IO rate"},
      {"rate=fast\n", "option 'rate'"},
      {"ratecycle=0\n", "must be at least 1"},
      {"steadystate=latency:1%\nss_dur=5\n", "not a supported criterion"},
      {"steadystate=iops\nss_dur=5\n", "threshold must be specified"},
      {"steadystate=iops:abc\nss_dur=5\n", "not a non-negative number"},
      {"steadystate=iops:1%\nss_dur=500ms\n", "shorter than one second"},
      {"steadystate=iops_slope:1%\nss_dur=1\n", "at least 2 one-second"},
  };
  for (const Case& c : cases) {
    const std::string err = RateErrorOf(std::string(kHead) + c.lines);
    EXPECT_NE(err.find(c.want), std::string::npos) << c.lines << " -> " << err;
    EXPECT_NE(err.find("Fix: "), std::string::npos) << err;
  }
}

TEST(RateOptionsTest, SteadyStateSpellings) {
  const JobSpec a =
      RateParse(
          std::string(kHead) +
          "time_based\nruntime=60\nss=iops_slope:0.1%\nss_dur=10\nss_ramp=5\n")
          .jobs[0];
  EXPECT_TRUE(a.steadystate.enabled());
  EXPECT_EQ(a.steadystate.metric, SteadyStateMetric::kIops);
  EXPECT_TRUE(a.steadystate.slope);
  EXPECT_TRUE(a.steadystate.percent);
  EXPECT_DOUBLE_EQ(a.steadystate.limit, 0.1);
  EXPECT_EQ(a.steadystate.intervals(), 10u);
  EXPECT_EQ(a.steadystate.ramp_ns, 5 * kNsPerSec);

  const JobSpec b = RateParse(std::string(kHead) +
                              "steadystate=bw:10m\nsteadystate_duration=3\n")
                        .jobs[0];
  EXPECT_EQ(b.steadystate.metric, SteadyStateMetric::kBw);
  EXPECT_FALSE(b.steadystate.slope);
  EXPECT_FALSE(b.steadystate.percent);
  EXPECT_DOUBLE_EQ(b.steadystate.limit, 10.0 * 1048576);

  // ss_dur alone: fio's default criterion iops_slope:0.01%.
  const JobSpec c = RateParse(std::string(kHead) + "ss_dur=4\n").jobs[0];
  EXPECT_EQ(c.steadystate.Describe(), "iops_slope:0.010000%");

  // steadystate without ss_dur does nothing, as in fio, and says so.
  Workload d = RateParse(std::string(kHead) + "steadystate=iops:2\n");
  EXPECT_FALSE(d.jobs[0].steadystate.enabled());
  ASSERT_EQ(d.notices.size(), 1u);
  EXPECT_NE(d.notices[0].find("t.fio:4: option 'steadystate' has no effect"),
            std::string::npos);
}

TEST(RateOptionsTest, SteadyStateMustAgreeWithinAGroup) {
  const std::string two = std::string(kHead) +
                          "ss=iops:2%\nss_dur=3\n[k]\nfilename=/dev/null\n"
                          "ioengine=null\n";
  EXPECT_NE(
      RateErrorOf(two).find("steadystate options must be consistent within "
                            "reporting groups"),
      std::string::npos);
  EXPECT_EQ(RateErrorOf(two + "ss=iops:2%\nss_dur=3\n"), "");
  EXPECT_EQ(RateErrorOf(two + "stonewall\n"), "");  // a new group
}

}  // namespace
}  // namespace tierbench
