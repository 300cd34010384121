// The validity rules (validity/*_rules.h) one by one, each with a case it
// passes and a case it flags, and the pitfall table: every rule id a rule
// emits is in it, and results/README.md prints every row of it.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "util/proc_stat.h"
#include "validity/db_rules.h"
#include "validity/measurement_rules.h"
#include "validity/rule_table.h"
#include "validity/run_rules.h"
#include "validity/setup_rules.h"

namespace tierbench {
namespace {

// The findings of `rule` among `all`.
std::vector<Finding> Of(const std::vector<Finding>& all,
                        const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

// A sampled window of a cell on vda4 with `busy`% CPU and `other` IOs of
// another partition of vda.
HostEvidence RulesHost(double busy, uint64_t other = 0) {
  HostEvidence h;
  h.window_s = 10;
  h.cpus = 2;
  h.cpu_busy_pct = busy;
  h.cpu_steal_pct = 0;
  h.target = "vda4";
  h.target_busy_pct = 99;
  h.target_in_flight_before = 0;
  h.disks = {{"vda", 1500 + other, 1500}};
  return h;
}

RunResult OneJob(uint64_t ios, double cpu_s = 0.5) {
  RunResult r;
  r.jobs.resize(1);
  r.jobs[0].name = "j";
  r.jobs[0].dir[0].ios = ios;
  r.jobs[0].runtime_ns = 10'000'000'000ull;
  r.jobs[0].usr_cpu_sec = cpu_s / 2;
  r.jobs[0].sys_cpu_sec = cpu_s / 2;
  return r;
}

TEST(ValidityRulesTest, CpuBoundFromProcStatText) {
  // Two /proc/stat readings of the lab guest (2 vCPUs under TCG), 10 s
  // apart: a raw SSD cell that kept both CPUs busy, and an HDD cell that
  // left them idle waiting on the disk.
  const char* before =
      "cpu  1000 0 2000 50000 100 10 20 0 0 0\n"
      "cpu0 500 0 1000 25000 50 5 10 0 0 0\n"
      "cpu1 500 0 1000 25000 50 5 10 0 0 0\n";
  const char* busy_after =
      "cpu  1900 0 2980 50020 100 20 80 0 0 0\n"
      "cpu0 950 0 1490 25010 50 10 40 0 0 0\n"
      "cpu1 950 0 1490 25010 50 10 40 0 0 0\n";
  const char* idle_after =
      "cpu  1030 0 2050 51600 380 12 28 0 0 0\n"
      "cpu0 515 0 1025 25800 190 6 14 0 0 0\n"
      "cpu1 515 0 1025 25800 190 6 14 0 0 0\n";
  CpuTimes b, busy, idle;
  ASSERT_TRUE(ParseCpuTimes(before, &b).ok());
  ASSERT_TRUE(ParseCpuTimes(busy_after, &busy).ok());
  ASSERT_TRUE(ParseCpuTimes(idle_after, &idle).ok());
  EXPECT_EQ(b.cpus, 2);
  CpuUse use;
  ASSERT_TRUE(DiffCpuTimes(b, busy, &use));
  EXPECT_NEAR(use.busy_pct, 99.0, 0.5);
  // On the raw HDD the cell measured the CPU: invalid. On a cache cell
  // the storage stopped being the limit: a caution (a floor).
  const auto bound =
      Of(MeasurementFindings(OneJob(5000), {}, RulesHost(use.busy_pct),
                             CellRole::kRawHdd),
         "cpu-bound");
  ASSERT_EQ(bound.size(), 1u);
  EXPECT_EQ(bound[0].severity, Severity::kInvalid);
  const auto floor =
      Of(MeasurementFindings(OneJob(5000), {}, RulesHost(use.busy_pct),
                             CellRole::kCache),
         "cpu-bound");
  ASSERT_EQ(floor.size(), 1u);
  EXPECT_EQ(floor[0].severity, Severity::kCaution);
  EXPECT_NE(floor[0].text.find("a floor of what it allows"), std::string::npos);
  ASSERT_TRUE(DiffCpuTimes(b, idle, &use));
  EXPECT_LT(use.busy_pct, 10);
  EXPECT_TRUE(Of(MeasurementFindings(OneJob(5000), {}, RulesHost(use.busy_pct)),
                 "cpu-bound")
                  .empty());
  // A reading that went backwards is no window.
  EXPECT_FALSE(DiffCpuTimes(busy, b, &use));
  EXPECT_FALSE(ParseCpuTimes("intr 1 2 3\n", &b).ok());
}

// Below saturation the CPU still set the figure when the target waited on
// it: the lab's pgbench writeback cell had its 2 CPUs 86 % busy and its
// bcache device busy 39 % of the window (and measured 1.1x none where a
// device-bound run measured 2x). The same CPU share with the device busy
// is a device-bound cell.
TEST(ValidityRulesTest, CpuLimitedWhileTheTargetIdledIsCpuBound) {
  HostEvidence waiting = RulesHost(86.3);
  waiting.target_busy_pct = 39.1;
  const auto f =
      Of(MeasurementFindings(OneJob(5000), {}, waiting, CellRole::kCache),
         "cpu-bound");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].text.find("86% busy while vda4 was busy 39%"),
            std::string::npos)
      << f[0].text;
  HostEvidence busy_disk = RulesHost(86.3);
  busy_disk.target_busy_pct = 92;
  EXPECT_TRUE(
      Of(MeasurementFindings(OneJob(5000), {}, busy_disk, CellRole::kCache),
         "cpu-bound")
          .empty());
  HostEvidence light = RulesHost(60);
  light.target_busy_pct = 39.1;
  EXPECT_TRUE(Of(MeasurementFindings(OneJob(5000), {}, light, CellRole::kCache),
                 "cpu-bound")
                  .empty());
}

TEST(ValidityRulesTest, OneJobThreadSaturatedIsCpuBound) {
  // 9.6 CPU-seconds in 10 s on one thread.
  const auto f = Of(MeasurementFindings(OneJob(5000, 9.6), {}, RulesHost(50)),
                    "cpu-bound");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].text.find("threads each used 96% of a CPU"), std::string::npos)
      << f[0].text;
}

TEST(ValidityRulesTest, UnsampledCpuIsUnknownNeverValid) {
  HostEvidence h = RulesHost(10);
  h.cpu_busy_pct = -1;
  h.cpu_unknown_why = "proc/stat unreadable";
  const auto all = MeasurementFindings(OneJob(5000), {}, h);
  ASSERT_EQ(Of(all, "cpu").size(), 1u);
  EXPECT_EQ(ValidityOf(all), Validity::kUnknown);
  EXPECT_EQ(ValidityOf(MeasurementFindings(OneJob(5000), {}, RulesHost(10))),
            Validity::kValid);
}

TEST(ValidityRulesTest, OtherIoOnTheDisk) {
  EXPECT_TRUE(
      Of(MeasurementFindings(OneJob(5000), {}, RulesHost(10, 20)), "other-io")
          .empty());  // within the slack
  const auto f =
      Of(MeasurementFindings(OneJob(5000), {}, RulesHost(10, 400)), "other-io");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kInvalid);
  EXPECT_NE(f[0].text.find("vda did 400 IOs"), std::string::npos) << f[0].text;
  HostEvidence h = RulesHost(10);
  h.target_in_flight_before = 3;
  EXPECT_EQ(Of(MeasurementFindings(OneJob(5000), {}, h), "in-flight").size(),
            1u);
}

TEST(ValidityRulesTest, BufferedIoAndFewIos) {
  JobSpec direct, buffered;
  direct.name = buffered.name = "j";
  direct.direct = true;
  EXPECT_TRUE(Of(MeasurementFindings(OneJob(5000), {direct}, RulesHost(10)),
                 "buffered-io")
                  .empty());
  EXPECT_EQ(Of(MeasurementFindings(OneJob(5000), {buffered}, RulesHost(10)),
               "buffered-io")
                .size(),
            1u);
  EXPECT_EQ(
      Of(MeasurementFindings(OneJob(99), {}, RulesHost(10)), "few-ios").size(),
      1u);
}

TEST(ValidityRulesTest, DriftBetweenTheThirds) {
  double first = 0, last = 0;
  EXPECT_FALSE(SeriesDrifted({100, 102, 98, 101, 99, 100}, &first, &last));
  EXPECT_TRUE(
      SeriesDrifted({9000, 9100, 8800, 5000, 4200, 4100}, &first, &last));
  EXPECT_NEAR(first, 9050, 1);
  EXPECT_NEAR(last, 4150, 1);
  EXPECT_FALSE(SeriesDrifted({9000, 4000}, &first, &last));  // too short
}

TEST(ValidityRulesTest, DatabaseSizing) {
  DbEvidence db;
  db.is_db = true;
  db.scale = 8;
  db.clients = 4;
  db.db_size_bytes = 133258599;  // measured: scale 8 after the load
  db.shared_buffers_bytes = 16 << 20;
  db.mem_total_bytes = 2ll << 30;
  db.restarted_after_load = 1;
  db.device_read_bytes = 94 << 20;
  EXPECT_EQ(ValidityOf(DbFindings(db)), Validity::kValid);
  DbEvidence in_buffers = db;
  in_buffers.scale = 2;
  in_buffers.db_size_bytes = 39181671;  // measured: scale 2
  in_buffers.shared_buffers_bytes = 128 << 20;
  EXPECT_EQ(Of(DbFindings(in_buffers), "db-buffers")[0].severity,
            Severity::kInvalid);
  DbEvidence contended = db;
  contended.scale = 2;
  EXPECT_EQ(Of(DbFindings(contended), "db-scale").size(), 1u);
  DbEvidence no_restart = db;
  no_restart.restarted_after_load = 0;
  EXPECT_EQ(Of(DbFindings(no_restart), "db-restart")[0].severity,
            Severity::kInvalid);
  DbEvidence in_memory = db;
  in_memory.device_read_bytes = 1 << 20;
  EXPECT_EQ(Of(DbFindings(in_memory), "db-in-memory")[0].severity,
            Severity::kCaution);
  DbEvidence unknown = db;
  unknown.db_size_bytes = -1;
  EXPECT_EQ(ValidityOf(DbFindings(unknown)), Validity::kUnknown);
}

TEST(ValidityRulesTest, BaselinesOnOtherDisksMustMatch) {
  QueueSettings raw, member;
  raw.queue_owner = "sdb";
  member.queue_owner = "sdc";
  raw.write_cache = member.write_cache = "write back";
  raw.scheduler = member.scheduler = "mq-deadline";
  raw.wbt_lat_usec = member.wbt_lat_usec = 75000;
  EXPECT_TRUE(
      BaselineFindings(raw, "the raw HDD", member, "the origin").empty());
  member.write_cache = "write through";
  member.scheduler = "none";
  const auto f = BaselineFindings(raw, "the raw HDD", member, "the origin");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].rule, "baseline-write-cache");
  EXPECT_EQ(f[0].severity, Severity::kInvalid);
  EXPECT_EQ(f[1].rule, "baseline-queue");
  EXPECT_NE(f[1].text.find("scheduler mq-deadline against none"),
            std::string::npos)
      << f[1].text;
  // One disk, one queue: never a difference.
  member.queue_owner = "sdb";
  EXPECT_TRUE(
      BaselineFindings(raw, "the raw HDD", member, "the origin").empty());
}

TEST(ValidityRulesTest, LoopWithoutDirectIoAndTheLabsPageCache) {
  EXPECT_TRUE(LoopFindings("loop0", "1").empty());
  ASSERT_EQ(LoopFindings("loop0", "0").size(), 1u);
  EXPECT_EQ(LoopFindings("loop0", "0")[0].severity, Severity::kInvalid);
  EXPECT_TRUE(LabFindings({{"lab.hdd_cache", "none"}}).empty());
  EXPECT_EQ(LabFindings({{"lab.hdd_cache", "writeback"}}).size(), 1u);
}

TEST(ValidityRulesTest, AWorkloadTheDisksDoNotBound) {
  // The committed sample's TPC-B (59.4 tps on the raw SSD, 47.1 on the
  // raw HDD) beside its 4k random reads (11,115 against 149 IOPS).
  const auto f = DiscriminationFindings(
      {{"pgbench-tpcb", "pgbench-tpcb/write", "tps", 47.1, 59.4},
       {"randread-4k", "randread-4k/read", "IOPS", 149, 11115}});
  ASSERT_EQ(f.size(), 1u);
  const Finding& pg = f.at("pgbench-tpcb");
  EXPECT_EQ(pg.severity, Severity::kInvalid);
  EXPECT_NE(
      pg.text.find("the raw SSD did 59.4 tps and the raw HDD 47.1 (1.26x)"),
      std::string::npos)
      << pg.text;
  EXPECT_NE(pg.text.find("randread-4k shows 75x"), std::string::npos)
      << pg.text;
}

TEST(ValidityRulesTest, EveryRuleIsInThePitfallTable) {
  const std::vector<std::string> ids = AllRuleIds();
  const std::set<std::string> known(ids.begin(), ids.end());
  // Findings of every rule family in their flagging cases.
  std::vector<Finding> all;
  for (const Finding& f :
       MeasurementFindings(OneJob(99, 9.9), {JobSpec{}}, RulesHost(99, 900))) {
    all.push_back(f);
  }
  DbEvidence db;
  db.is_db = true;
  db.scale = 1;
  db.clients = 4;
  db.db_size_bytes = 1;
  db.shared_buffers_bytes = 2;
  for (const Finding& f : DbFindings(db)) all.push_back(f);
  QueueSettings a, b;
  a.queue_owner = "x";
  b.queue_owner = "y";
  a.write_cache = "write back";
  b.write_cache = "write through";
  a.scheduler = "none";
  b.scheduler = "bfq";
  for (const Finding& f : BaselineFindings(a, "a", b, "b")) all.push_back(f);
  for (const Finding& f : LoopFindings("loop0", "0")) all.push_back(f);
  for (const Finding& f : LabFindings({{"lab.ssd_cache", "writeback"}})) {
    all.push_back(f);
  }
  ASSERT_GT(all.size(), 10u);
  for (const Finding& f : all) {
    EXPECT_EQ(known.count(f.rule), 1u) << f.rule << " is not in the table";
    EXPECT_EQ(f.text.find(';'), std::string::npos) << f.text;
  }
  EXPECT_EQ(PitfallTable().size(), 35u);
}

TEST(ValidityRulesTest, ResultsReadmePrintsThePitfallTable) {
  std::ifstream in(std::string(TIERBENCH_SOURCE_DIR) + "/results/README.md");
  std::stringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const size_t section = text.find("## Validity");
  ASSERT_NE(section, std::string::npos);
  for (const PitfallEntry& e : PitfallTable()) {
    EXPECT_NE(text.find("| " + e.pitfall + " | " + e.title + " |", section),
              std::string::npos)
        << "results/README.md lacks pitfall " << e.pitfall;
  }
  for (const std::string& id : AllRuleIds()) {
    EXPECT_NE(text.find("`" + id + "`", section), std::string::npos)
        << "results/README.md lacks rule " << id;
  }
}

}  // namespace
}  // namespace tierbench
