// --working-set parsing and expansion, the steady-state criterion of
// --cache-state warm-until-steady, and both through a whole compare over
// the fake bcache sysfs (the workload runs are replaced by a hook that
// records what each run was asked to do).
#include "orchestrate/working_set.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orchestrate/compare_runner.h"
#include "orchestrate/prepare_compare.h"
#include "orchestrate/steady_state.h"
#include "report/reporters.h"
#include "support/fake_sysfs.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

TEST(WorkingSetTest, ParsesPercentagesAndSizes) {
  const std::vector<WorkingSet> ws = ParseWorkingSets("25%, 400% ,64M");
  ASSERT_EQ(ws.size(), 3u);
  EXPECT_TRUE(ws[0].relative);
  EXPECT_EQ(ws[0].label, "25%");
  EXPECT_EQ(ws[0].Resolve(1000), 250u);
  EXPECT_EQ(ws[1].Resolve(1000), 4000u);
  EXPECT_FALSE(ws[2].relative);
  EXPECT_EQ(ws[2].Resolve(1000), 64u << 20);
}

TEST(WorkingSetTest, RefusesBadItemsWithOneLine) {
  for (const char* bad : {"", "25%,", "0%", "-5%", "abc", "25%,25%", "0"}) {
    try {
      ParseWorkingSets(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const ConfigError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("--working-set"), std::string::npos) << m;
      EXPECT_NE(m.find("Fix:"), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
  }
}

PreparedWorkload Fio(const std::string& name, uint64_t bs, uint64_t offset) {
  PreparedWorkload w;
  w.name = name;
  JobSpec j;
  j.name = "j";
  j.origin = name + ".fio:1";
  j.bs[0] = j.bs[1] = BlockSizeSpec{bs, bs, {}};
  j.size = SizeSpec{true, false, 1 << 20, 0};
  if (offset > 0) j.offset = SizeSpec{true, false, offset, 0};
  w.io.jobs.push_back(j);
  return w;
}

TEST(WorkingSetTest, ExpandsEachFioWorkloadPerWorkingSet) {
  PreparedWorkload db;
  db.name = "tpcb";
  db.is_db = true;
  std::vector<std::string> notices;
  const auto out = ExpandWorkingSets({Fio("r", 4096, 0), db},
                                     ParseWorkingSets("25%,100%,1M"),
                                     10 * 4096 + 100, 1 << 30, &notices);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].name, "r@25%");
  EXPECT_EQ(out[0].working_set, "25%");
  // 25% of 41060 bytes = 10265, rounded down to whole 4k blocks.
  EXPECT_EQ(out[0].working_set_bytes, 10265u);
  EXPECT_EQ(out[0].io.jobs[0].size.bytes, 8192u);
  EXPECT_EQ(out[1].io.jobs[0].size.bytes, 40960u);
  EXPECT_EQ(out[2].name, "r@1M");
  EXPECT_EQ(out[2].io.jobs[0].size.bytes, 1u << 20);
  EXPECT_EQ(out[3].name, "tpcb");
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("DB workload"), std::string::npos);
}

TEST(WorkingSetTest, RefusesSetsThatDoNotFitOrHaveNoReference) {
  std::vector<std::string> notices;
  EXPECT_THROW(ExpandWorkingSets({Fio("r", 4096, 0)}, ParseWorkingSets("50%"),
                                 -1, 1 << 30, &notices),
               ConfigError);
  // 400% of 1 MiB from offset 512k does not fit a 4 MiB target.
  EXPECT_THROW(
      ExpandWorkingSets({Fio("r", 4096, 512 << 10)}, ParseWorkingSets("400%"),
                        1 << 20, 4 << 20, &notices),
      ConfigError);
  // Smaller than one block.
  EXPECT_THROW(ExpandWorkingSets({Fio("r", 65536, 0)}, ParseWorkingSets("1k"),
                                 1 << 20, 1 << 30, &notices),
               ConfigError);
  // Absolute sizes need no cache capacity.
  EXPECT_EQ(ExpandWorkingSets({Fio("r", 4096, 0)}, ParseWorkingSets("64k"), -1,
                              1 << 30, &notices)[0]
                .io.jobs[0]
                .size.bytes,
            65536u);
}

TEST(SteadyStateTest, NeedsAFullWindowOfStableIopsAndHits) {
  SteadyStateTracker t;  // window 3, IOPS +-10%, hits within 3 points
  t.Add({100, 10});
  t.Add({400, 40});
  EXPECT_FALSE(t.Steady());
  t.Add({1000, 80});
  EXPECT_FALSE(t.Steady());  // still rising
  t.Add({1040, 81});
  t.Add({980, 82});
  // IOPS mean 1006.7, all within 10%; hits 80..82.
  EXPECT_TRUE(t.Steady());
  EXPECT_EQ(t.LastHitPct(), 82);
  EXPECT_NE(t.Describe().find("read hits 80..82%"), std::string::npos)
      << t.Describe();
}

// Measured in the lab: bcache warming zipf reads over 4x its size climbed
// ~10% per chunk; each chunk was within 10% of the window's mean.
TEST(SteadyStateTest, SlowClimbIsNotSteady) {
  SteadyStateTracker t;
  t.Add({4866, 98});
  t.Add({5336, 98});
  t.Add({5863, 99});
  EXPECT_FALSE(t.Steady());  // trend 997 = 18.6% of the mean
  t.Add({5900, 99});
  t.Add({5950, 99});  // 5863, 5900, 5950: trend 87, 1.5%
  EXPECT_TRUE(t.Steady());
}

TEST(SteadyStateTest, HitRatioStillClimbingIsNotSteady) {
  SteadyStateTracker t;
  t.Add({1000, 50});
  t.Add({1000, 53});
  t.Add({1000, 56});  // IOPS flat, hits span 6 points
  EXPECT_FALSE(t.Steady());
}

TEST(SteadyStateTest, IopsOutsideTheBandIsNotSteady) {
  SteadyStateTracker t;
  t.Add({1000, -1});
  t.Add({1000, -1});
  t.Add({1300, -1});  // mean 1100: 1300 is 18% above
  EXPECT_FALSE(t.Steady());
  t.Add({1100, -1});
  t.Add({1050, -1});  // 1300, 1100, 1050: mean 1150, 1300 is 13% above
  EXPECT_FALSE(t.Steady());
  t.Add({1100, -1});  // 1100, 1050, 1100: write-only, judged on IOPS
  EXPECT_TRUE(t.Steady());
  EXPECT_EQ(t.LastHitPct(), -1);
}

TEST(SteadyStateTest, LaggingCountersMayMissOneChunk) {
  SteadyStateTracker t;
  t.Add({1000, 70});
  t.Add({1000, -1});  // a chunk without reads
  t.Add({1000, 71});
  EXPECT_TRUE(t.Steady());
  SteadyStateTracker u;
  u.Add({1000, 70});
  u.Add({1000, -1});
  u.Add({1000, -1});
  u.Add({1000, 70});  // one ratio in the last three: not enough
  EXPECT_FALSE(u.Steady());
}

std::string WorkingSetReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class WarmSteadyCompareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetInterruptForTest();
    char tmpl[] = "/tmp/tierbench-steady-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    fs::create_directories(fake_.root() + "/dev");
    target_ = fake_.root() + "/dev/bcache0";
    for (const std::string& f : {target_, dir_ + "/hdd.img"}) {
      std::ofstream(f).close();
      fs::resize_file(f, 4 << 20);
    }
    std::ofstream(dir_ + "/r.fio")
        << "[r]\nrw=randread\nbs=4k\nioengine=psync\n";
  }
  void TearDown() override {
    ResetInterruptForTest();
    fs::remove_all(dir_);
  }
  std::string Mode(const std::string& name, const std::string& body) {
    const std::string p = dir_ + "/" + name + ".json";
    std::ofstream(p) << "{\"schema_version\": 1, \"name\": \"" << name
                     << "\", \"description\": \"t\", " << body << "}";
    return p;
  }
  CompareOptions Options() {
    CompareOptions o;
    // The cold protocol (the default warms until steady, which these
    // fake runs would loop through; its own tests set it).
    o.cache_state = CacheState::kCold;
    o.stacks = {target_};
    o.hdd = dir_ + "/hdd.img";
    o.mode_paths = {
        Mode("hdd", "\"layer\": \"raw\", \"target\": \"hdd\""),
        Mode("writeback",
             "\"layer\": \"bcache\", \"cache_mode\": \"writeback\"")};
    o.workload_paths = {dir_ + "/r.fio"};
    o.results_dir = dir_ + "/results";
    o.run_id = "t";
    o.sysfs_root = fake_.root();
    o.quiet = true;
    o.stats_lag_s = 0;
    o.drain_timeout_s = 5;
    return o;
  }

  FakeBcacheSysfs fake_;
  std::string dir_;
  std::string target_;
};

// The fake cache holds 160 x 512k = 80 MiB: 1% is 838860 bytes, 204 whole
// 4k blocks.
TEST_F(WarmSteadyCompareTest, WorkingSetsSizeTheRegionAndChunksWarmToSteady) {
  CompareOptions o = Options();
  o.working_sets = "1%,256k";
  o.cache_state = CacheState::kWarmUntilSteady;
  o.warm_chunk_s = 2;
  o.warm_max_s = 60;
  Host host;
  CompareHooks hooks;
  host.sysfs = fake_.sysfs();
  host.sleep = [](double) {};
  // target size [tb] runtime s<draw stream>
  std::vector<std::string> runs;
  int chunk = 0;
  hooks.run_workload = [&](const Workload& w, const RunOptions&) {
    const JobSpec& j = w.jobs[0];
    runs.push_back(fs::path(j.filename).filename().string() + " " +
                   std::to_string(j.size.bytes) + " " +
                   (j.time_based ? "tb " : "") +
                   std::to_string(j.runtime_ns / 1000000000) + " s" +
                   std::to_string(j.draw_stream));
    RunResult r;
    JobResult jr;
    jr.name = j.name;
    jr.spec = j;
    jr.runtime_ns = 1000000000;
    // Warm-up chunks ramp up, then hold steady at 1000 IOPS.
    const bool warming = j.time_based && j.runtime_ns == 2000000000ull;
    jr.dir[0].ios = warming ? std::min(1000, 200 * ++chunk) : 500;
    jr.dir[0].bytes = jr.dir[0].ios * 4096;
    r.jobs.push_back(jr);
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  // Chunks give 200, 400, ..., 1000, 1000, 1000 IOPS: steady at the 7th
  // (the fake stack counts no reads, so IOPS alone decide); the second
  // working set is steady after 3. Chunk n draws from stream n, the
  // measured runs from the seed's own stream 0 (none replays a chunk).
  std::vector<std::string> expected = {"hdd.img 835584 0 s0",
                                       "hdd.img 262144 0 s0"};
  for (int i = 1; i <= 7; ++i)
    expected.push_back("bcache0 835584 tb 2 s" + std::to_string(i));
  expected.push_back("bcache0 835584 0 s0");
  for (int i = 1; i <= 3; ++i)
    expected.push_back("bcache0 262144 tb 2 s" + std::to_string(i));
  expected.push_back("bcache0 262144 0 s0");
  EXPECT_EQ(runs, expected);
  const std::string csv = WorkingSetReadAll(dir_ + "/results/t/runs.csv");
  EXPECT_NE(csv.find("r@1%,1%,838860,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("r@256k,256k,262144,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("warm_s,warm_hit_ratio_pct,warm_steady"),
            std::string::npos);
  EXPECT_NE(csv.find("warm-until-steady"), std::string::npos);
}

TEST_F(WarmSteadyCompareTest, NotSteadyByWarmMaxIsAWarning) {
  CompareOptions o = Options();
  o.mode_paths = {o.mode_paths[1]};
  o.cache_state = CacheState::kWarmUntilSteady;
  o.warm_chunk_s = 1;
  o.warm_max_s = 3;
  Host host;
  CompareHooks hooks;
  host.sysfs = fake_.sysfs();
  host.sleep = [](double) {};
  int n = 0;
  hooks.run_workload = [&](const Workload& w, const RunOptions&) {
    RunResult r;
    JobResult jr;
    jr.name = w.jobs[0].name;
    jr.spec = w.jobs[0];
    jr.runtime_ns = 1000000000;
    jr.dir[0].ios = 100 * (1 << ++n);  // doubling: never steady
    r.jobs.push_back(jr);
    return r;
  };
  std::ostringstream out;
  CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  const std::string csv = WorkingSetReadAll(dir_ + "/results/t/runs.csv");
  EXPECT_NE(csv.find("not steady after"), std::string::npos) << csv;
  EXPECT_NE(csv.find("fix: a larger --warm-max"), std::string::npos);
}

}  // namespace
}  // namespace tierbench
