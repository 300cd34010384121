// Rated runs end to end (workload/runner.h): open-loop scheduled latency on
// a deliberately slow engine, fio's rate_min/rate_iops_min failures, and
// steady-state detection ending a job early. The "slow-null" engine is the
// null engine with a fixed service time per IO, so a rate above its
// capacity is overload by construction; assertions use the measured
// latencies, not the test's wall time.
#include <gtest/gtest.h>
#include <time.h>

#include <string>

#include "io/engine_registry.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

constexpr uint64_t kServiceNs = 2 * kNsPerMs;  // the slow engine's IO time

// Completes every IO inside Queue() after sleeping kServiceNs.
class SlowNullEngine : public IoEngine {
 public:
  const char* name() const override { return "slow-null"; }
  Status Init(int, uint32_t) override { return Status::Ok(); }
  Status Queue(IoRequest* req, QueueResult* result) override {
    req->issue_ns = NowNs();
    timespec ts{0, static_cast<long>(kServiceNs)};
    while (nanosleep(&ts, &ts) != 0) {
    }
    req->result = req->length;
    *result = QueueResult::kCompleted;
    return Status::Ok();
  }
  Status Commit(uint32_t* submitted) override {
    *submitted = 0;
    return Status::Ok();
  }
  Status Reap(uint32_t, uint32_t, uint64_t, std::vector<IoRequest*>*) override {
    return Status::Ok();
  }
  void Cleanup() override {}
};

RunResult RunJob(const std::string& text, bool slow) {
  static const bool registered = [] {
    EngineRegistry::Default().Register(
        {"slow-null", "null engine with a fixed service time (tests)", false,
         [] { return std::make_unique<SlowNullEngine>(); }});
    return true;
  }();
  (void)registered;
  Workload w = ParseJobText(
      "[global]\nioengine=null\nfilename=/tmp/tb-rate-run-unused\n"
      "rw=randread\nbs=4k\nsize=64m\n" +
          text,
      "<test>", JobOverrides{});
  if (slow) {
    for (JobSpec& s : w.jobs) s.ioengine = "slow-null";
  }
  RunOptions options;
  options.progress = false;
  return RunWorkload(w, options);
}

TEST(RateRunTest, OverloadGrowsScheduledLatencyNotServiceLatency) {
  // 2000 IOPS asked of a target that serves one IO per >= 2 ms at QD 1.
  constexpr uint64_t kN = 400;
  constexpr uint64_t kPeriodNs = kNsPerSec / 2000;
  RunResult r = RunJob("[j]\nsize=1600k\nrate_iops=2000\n", true);
  const DirectionStats& s = r.jobs[0].dir[0];
  ASSERT_EQ(s.ios, kN);
  ASSERT_EQ(s.sched_lat.count(), kN);  // every IO had a scheduled time
  const double clat_min = s.clat.min();
  ASSERT_GE(clat_min, static_cast<double>(kServiceNs));
  // IO k cannot start before k earlier IOs were served (>= k * clat_min)
  // but was due at k * period: its scheduled latency is at least
  // k * (clat_min - period) + clat_min. The last IO and the mean show it.
  const double slip = clat_min - static_cast<double>(kPeriodNs);
  EXPECT_GE(s.sched_lat.max(), (kN - 1) * slip + clat_min);
  EXPECT_GE(s.sched_lat.mean(), (kN - 1) / 2.0 * slip + clat_min);
  // The service latency stays at the target's service time.
  EXPECT_LT(s.clat.mean() * 10, s.sched_lat.mean());
  EXPECT_LT(s.clat_hist.Percentile(50) * 10, s.sched_lat_hist.Percentile(50));
  // Scheduled latency includes the whole IO: never below lat.
  EXPECT_GE(s.sched_lat.min(), s.lat.min());
  EXPECT_GE(s.sched_lat.mean(), s.lat.mean());
}

TEST(RateRunTest, KeepingUpKeepsScheduledLatencyNearLatency) {
  // 200 IOPS (5 ms apart) of a target that serves an IO in about 2 ms.
  constexpr uint64_t kPeriodNs = kNsPerSec / 200;
  RunResult r = RunJob("[j]\nsize=400k\nrate_iops=200\n", true);
  const DirectionStats& s = r.jobs[0].dir[0];
  ASSERT_EQ(s.ios, 100u);
  ASSERT_EQ(s.sched_lat.count(), 100u);
  EXPECT_GE(s.sched_lat.min(), s.lat.min());
  // Only the wake-up delay separates the two; the schedule never slips.
  EXPECT_LT(s.sched_lat_hist.Percentile(50),
            s.lat_hist.Percentile(50) + kPeriodNs);
}

TEST(RateRunTest, UnratedJobHasNoScheduledLatency) {
  RunResult r = RunJob("[j]\nsize=256k\n", false);
  EXPECT_EQ(r.jobs[0].dir[0].ios, 64u);
  EXPECT_EQ(r.jobs[0].dir[0].sched_lat.count(), 0u);
  EXPECT_EQ(r.jobs[0].dir[0].sched_lat_hist.count(), 0u);
}

TEST(RateRunTest, BandwidthRateIsKept) {
  // rate=1m of 4k IOs on the null engine: 256 IOs due per second, 64 in
  // the 250 ms window (+1 for the IO due at the window's start).
  RunResult r = RunJob("[j]\ntime_based\nruntime=250ms\nrate=1m\n", false);
  const DirectionStats& s = r.jobs[0].dir[0];
  EXPECT_GE(s.ios, 60u);
  EXPECT_LE(s.ios, 65u);
  EXPECT_EQ(s.sched_lat.count(), s.ios);
}

TEST(RateRunTest, ThinktimeAppliesToSynchronousEngines) {
  // 10 IOs, each followed by a 10 ms pause: the last one completes at
  // least 9 pauses after the first started.
  RunResult r = RunJob("[j]\nsize=40k\nthinktime=10ms\n", false);
  EXPECT_EQ(r.jobs[0].dir[0].ios, 10u);
  EXPECT_GE(r.jobs[0].runtime_ns, 90 * kNsPerMs);
}

TEST(RateRunTest, RateIgnoreThinktimeDoesNotCatchUp) {
  // 1000 IOPS asked, but every IO is followed by a 5 ms pause. By default
  // the schedule stays put and IO k is late by >= k * (5 ms - 1 ms); with
  // rate_ignore_thinktime the pause moves the schedule on.
  constexpr uint64_t kN = 20;
  const std::string job = "[j]\nsize=80k\nrate_iops=1000\nthinktime=5ms\n";
  RunResult behind = RunJob(job, false);
  const DirectionStats& b = behind.jobs[0].dir[0];
  ASSERT_EQ(b.ios, kN);
  EXPECT_GE(b.sched_lat.max(), (kN - 1) * 4.0 * kNsPerMs);
  RunResult moved = RunJob(job + "rate_ignore_thinktime=1\n", false);
  const DirectionStats& m = moved.jobs[0].dir[0];
  ASSERT_EQ(m.ios, kN);
  EXPECT_LT(m.sched_lat_hist.Percentile(50), 5 * kNsPerMs);
}

std::string RunErrorOf(const std::string& text) {
  try {
    RunJob(text, true);
  } catch (const RunError& e) {
    return e.what();
  }
  return "";
}

TEST(RateRunTest, MinimumsFailTheJobAsFio) {
  // The slow target serves < 500 IOPS; the minimums ask for more.
  const std::string iops = RunErrorOf(
      "[j]\ntime_based\nruntime=5\nrate_iops=2000\nrate_iops_min=1000\n"
      "rate_cycle=500\n");
  EXPECT_NE(iops.find("j: rate_iops_min=1000 not met, got "), std::string::npos)
      << iops;
  EXPECT_NE(iops.find(" IOPS; Fix: lower rate_iops_min="), std::string::npos)
      << iops;
  const std::string bytes = RunErrorOf(
      "[j]\ntime_based\nruntime=5\nrate=8m\nrate_min=4m\nrate_cycle=500\n");
  EXPECT_NE(bytes.find("j: rate_min=4194304B/s not met, got "),
            std::string::npos)
      << bytes;
  EXPECT_NE(bytes.find("B/s; Fix: lower rate_min="), std::string::npos)
      << bytes;
  // A minimum the target meets passes.
  EXPECT_EQ(RunErrorOf("[j]\ntime_based\nruntime=3\nrate_iops=200\n"
                       "rate_iops_min=100\nrate_cycle=500\n"),
            "");
}

TEST(RateRunTest, SteadyTargetEndsTheJobEarly) {
  // Two clones at 500 IOPS each, judged together (group_reporting): every
  // second of the window holds about 1000 IOs, well within 5 %.
  RunResult r = RunJob(
      "[j]\nnumjobs=2\ngroup_reporting\ntime_based\nruntime=30\n"
      "rate_iops=500\nsteadystate=iops:5%\nss_dur=2\nss_ramp=1\n",
      false);
  ASSERT_EQ(r.jobs.size(), 1u);
  const JobResult& j = r.jobs[0];
  const SteadyStateResult& ss = j.steadystate;
  ASSERT_TRUE(ss.enabled);
  EXPECT_TRUE(ss.attained);
  ASSERT_EQ(ss.iops.size(), 2u);
  for (uint64_t v : ss.iops) {
    EXPECT_NEAR(static_cast<double>(v), 1000.0, 50.0);
  }
  EXPECT_EQ(ss.bw[0], ss.iops[0] * 4096);
  EXPECT_LT(ss.criterion, 5.0);
  // Sampling starts after ss_ramp (second 1) and needs two seconds, then
  // the job stops instead of running its 30 s.
  EXPECT_GE(j.runtime_ns, 3 * kNsPerSec - 100 * kNsPerMs);
  EXPECT_LT(j.runtime_ns, 10 * kNsPerSec);
}

TEST(RateRunTest, UnreachedSteadyStateRunsToTheEnd) {
  // A limit of 0 can never be beaten (criterion < limit).
  RunResult r = RunJob(
      "[j]\ntime_based\nruntime=3\nrate_iops=100\nsteadystate=iops:0\n"
      "ss_dur=2\n",
      false);
  const JobResult& j = r.jobs[0];
  EXPECT_TRUE(j.steadystate.enabled);
  EXPECT_TRUE(j.steadystate.evaluated);
  EXPECT_FALSE(j.steadystate.attained);
  EXPECT_GE(j.runtime_ns, 3 * kNsPerSec);
}

}  // namespace
}  // namespace tierbench
