// Result columns: one list for names and values, empty cells for unmeasured
// statistics, reported directions.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "report/result_columns.h"
#include "util/units.h"

namespace tierbench {
namespace {

size_t Index(const std::string& name) {
  const auto names = ResultColumnNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

JobResult IoJob() {
  JobResult r;
  r.name = "rr";
  r.group_id = 2;
  r.jobs = 4;
  r.runtime_ns = 2 * kNsPerSec;
  r.spec.rw = RwPattern::kRandRead;
  DirectionStats& s = r.dir[static_cast<int>(IoDir::kRead)];
  for (uint64_t i = 1; i <= 100; ++i) {
    s.ios++;
    s.bytes += 4096;
    s.slat.Add(1000);
    s.clat.Add(i * 1000.0);
    s.lat.Add(i * 1000.0 + 1000);
    s.clat_hist.Add(i * 1000);
    s.lat_hist.Add(i * 1000 + 1000);
    s.series.Add(i * 15 * kNsPerMs, 4096);  // 66 IOs in s0, 34 in s1
  }
  return r;
}

TEST(ResultColumnsTest, NamesAreUniqueAndDocumented) {
  std::set<std::string> seen;
  for (const ResultColumn& c : ResultColumns()) {
    EXPECT_TRUE(seen.insert(c.name).second) << "duplicate " << c.name;
    EXPECT_FALSE(c.meaning.empty()) << c.name;
  }
  EXPECT_EQ(ResultColumnNames().size(), ResultColumns().size());
  EXPECT_EQ(ResultColumnNames().front(), "job");
  EXPECT_EQ(ResultColumnNames().back(), "error");
  // One clat percentile column per default percentile.
  for (double p : LatencyHistogram::DefaultPercentiles()) {
    EXPECT_EQ(seen.count("clat_p" + PercentileLabel(p) + "_us"), 1u) << p;
  }
  for (const char* name :
       {"ios", "bytes", "runtime_ms", "iops", "bw_mib_s", "slat_min_us",
        "clat_stddev_us", "lat_max_us", "lat_p50_us", "lat_p99_us", "iops_min",
        "iops_stddev", "usr_cpu_s", "sys_cpu_s", "errors", "unit"}) {
    EXPECT_EQ(seen.count(name), 1u) << name;
  }
}

TEST(ResultColumnsTest, ValuesOfAnIoJob) {
  const JobResult r = IoJob();
  const auto v = ResultColumnValues(r, IoDir::kRead);
  ASSERT_EQ(v.size(), ResultColumns().size());
  struct {
    const char* column;
    const char* want;
  } cases[] = {
      {"job", "rr"},
      {"group", "2"},
      {"jobs", "4"},
      {"direction", "read"},
      {"unit", "io"},
      {"ios", "100"},
      {"bytes", "409600"},
      {"runtime_ms", "2000.000"},
      {"iops", "50.000"},
      {"bw_mib_s", "0.195"},
      {"slat_min_us", "1.000"},
      {"slat_stddev_us", "0.000"},
      {"clat_min_us", "1.000"},
      {"clat_max_us", "100.000"},
      {"clat_mean_us", "50.500"},
      {"lat_mean_us", "51.500"},
      {"clat_p50_us", "49.920"},
      {"clat_p1_us", "1.004"},
      {"iops_min", "34.000"},
      {"iops_max", "66.000"},
      {"iops_mean", "50.000"},
      {"iops_samples", "2"},
      {"errors", "0"},
      {"error", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(v[Index(c.column)], c.want) << c.column;
  }
}

TEST(ResultColumnsTest, TxJobLeavesSlatAndClatEmpty) {
  JobResult r;
  r.name = "tpcb";
  r.unit = "tx";
  r.runtime_ns = kNsPerSec / 2;  // no complete second: no per-second stats
  DirectionStats& s = r.dir[static_cast<int>(IoDir::kWrite)];
  s.ios = 3;
  for (uint64_t ns : {2'000'000, 3'000'000, 4'000'000}) {
    s.lat.Add(static_cast<double>(ns));
    s.lat_hist.Add(ns);
  }
  ASSERT_EQ(ReportedDirections(r), std::vector<IoDir>{IoDir::kWrite});
  const auto v = ResultColumnValues(r, IoDir::kWrite);
  for (const char* empty : {"slat_min_us", "slat_mean_us", "clat_max_us",
                            "clat_p99_us", "iops_min", "iops_stddev"}) {
    EXPECT_EQ(v[Index(empty)], "") << empty;
  }
  EXPECT_EQ(v[Index("unit")], "tx");
  EXPECT_EQ(v[Index("iops")], "6.000");
  EXPECT_EQ(v[Index("lat_mean_us")], "3000.000");
  EXPECT_NE(v[Index("lat_p99_us")], "");
  EXPECT_EQ(v[Index("iops_samples")], "0");
}

TEST(ResultColumnsTest, ReportedDirections) {
  struct {
    RwPattern rw;
    uint64_t read_ios, write_ios, write_errors;
    std::vector<IoDir> want;
  } cases[] = {
      {RwPattern::kRandRead, 5, 0, 0, {IoDir::kRead}},
      {RwPattern::kRandReadWrite, 5, 5, 0, {IoDir::kRead, IoDir::kWrite}},
      {RwPattern::kWrite, 0, 0, 2, {IoDir::kWrite}},  // only failed IOs
      {RwPattern::kWrite, 0, 0, 0, {IoDir::kWrite}},  // failed before any IO
      {RwPattern::kReadWrite, 0, 0, 0, {IoDir::kRead}},
  };
  for (const auto& c : cases) {
    JobResult r;
    r.spec.rw = c.rw;
    r.dir[0].ios = c.read_ios;
    r.dir[1].ios = c.write_ios;
    r.dir[1].errors = c.write_errors;
    EXPECT_EQ(ReportedDirections(r), c.want) << RwPatternName(c.rw);
  }
}

TEST(ResultColumnsTest, PercentileLabel) {
  struct {
    double p;
    const char* want;
  } cases[] = {
      {1, "1"}, {50, "50"}, {99.5, "99_5"}, {99.99, "99_99"}, {99.95, "99_95"}};
  for (const auto& c : cases) EXPECT_EQ(PercentileLabel(c.p), c.want);
}

}  // namespace
}  // namespace tierbench
