// iops_sustained (record/sustained.h) on fixed figures: IOs over
// runtime + time to clean, the burst itself when nothing was dirty and for
// raw cells, empty when the drain timed out or the cell failed; its median
// and change vs the baselines in the comparison; and the harness overhead
// of a cell.
#include "record/sustained.h"

#include <gtest/gtest.h>

#include "cache/mode_spec.h"
#include "record/cell_record.h"
#include "record/comparison.h"

namespace tierbench {
namespace {

JobResult Job(uint64_t write_ios, double runtime_s) {
  JobResult j;
  j.name = "randwrite";
  j.runtime_ns = static_cast<uint64_t>(runtime_s * 1e9);
  j.dir[static_cast<int>(IoDir::kWrite)].ios = write_ios;
  return j;
}

TEST(SustainedTest, IosOverRuntimePlusTimeToClean) {
  const JobResult j = Job(120000, 30);  // 4000 IOPS burst
  EXPECT_DOUBLE_EQ(j.Iops(IoDir::kWrite), 4000);
  EXPECT_DOUBLE_EQ(*SustainedIops(j, IoDir::kWrite, 50), 1500);
  EXPECT_DOUBLE_EQ(*SustainedIops(j, IoDir::kWrite, 10), 3000);
  EXPECT_EQ(*SustainedIops(j, IoDir::kWrite, 0), j.Iops(IoDir::kWrite));
  EXPECT_FALSE(SustainedIops(j, IoDir::kWrite, -1).has_value());
  EXPECT_FALSE(SustainedIops(Job(5, 0), IoDir::kWrite, 1).has_value());
}

TEST(SustainedTest, CellRules) {
  ModeSpec raw;
  raw.layer = std::string(kRawLayerName);
  ModeSpec wb;
  wb.layer = "bcache";
  const JobResult j = Job(120000, 30);
  CellRecord rec;
  rec.mode = &wb;
  rec.drain_after_s = 90;
  EXPECT_DOUBLE_EQ(*CellSustainedIops(rec, j, IoDir::kWrite), 1000);
  rec.drain_after_s = 0;  // nothing was dirty: sustained = burst
  EXPECT_EQ(*CellSustainedIops(rec, j, IoDir::kWrite), 4000);
  rec.drain_after_s = 600;
  rec.drain_after_timed_out = true;  // the disk did not end up clean
  EXPECT_FALSE(CellSustainedIops(rec, j, IoDir::kWrite).has_value());
  rec.mode = &raw;  // no drain: the burst
  rec.drain_after_s = -1;
  EXPECT_EQ(*CellSustainedIops(rec, j, IoDir::kWrite), 4000);
  rec.error = "pwrite failed";
  EXPECT_FALSE(CellSustainedIops(rec, j, IoDir::kWrite).has_value());
}

TEST(SustainedTest, ComparisonMedianAndChangeVsBaselines) {
  std::vector<MeasuredRow> rows;
  auto add = [&rows](const std::string& mode, const std::string& base,
                     double iops, std::optional<double> sustained) {
    MeasuredRow r;
    r.mode = mode;
    r.baseline = base;
    r.workload = "w";
    r.job = "j";
    r.direction = "write";
    r.unit = "io";
    r.iops = iops;
    r.iops_sustained = sustained;
    r.lat_p99_us = 100;
    rows.push_back(r);
  };
  add("hdd", "hdd", 200, 200);
  add("ssd", "ssd", 10000, 10000);
  add("writeback", "", 5000, 900);
  add("writeback", "", 5200, 1100);
  add("writeback", "", 5100, std::nullopt);  // its drain timed out
  add("writeback", "", 4900, 1000);
  const std::vector<ComparisonRow> out = Compare(rows);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_DOUBLE_EQ(*out[0].iops_sustained_median, 200);
  EXPECT_DOUBLE_EQ(*out[0].vs_hdd.iops_sustained_pct, 0);
  const ComparisonRow& wb = out[2];
  EXPECT_DOUBLE_EQ(wb.iops.median, 5050);
  EXPECT_DOUBLE_EQ(*wb.iops_sustained_median, 1000);
  EXPECT_DOUBLE_EQ(*wb.vs_hdd.iops_sustained_pct, 400);
  EXPECT_DOUBLE_EQ(*wb.vs_ssd.iops_sustained_pct, -90);
}

TEST(SustainedTest, HarnessOverheadExcludesIoAndDraining) {
  CellRecord rec;
  EXPECT_EQ(rec.HarnessOverheadPct(), -1);  // not run
  rec.cell_wall_s = 100;
  rec.io_s = 30;
  rec.warm_io_s = 20;
  rec.drain_before_s = 5;
  rec.drain_after_s = 25;
  EXPECT_DOUBLE_EQ(rec.HarnessOverheadPct(), 20);
  rec.drain_before_s = rec.drain_after_s = -1;  // raw cell: no drains
  rec.warm_io_s = 0;
  EXPECT_DOUBLE_EQ(rec.HarnessOverheadPct(), 70);
}

}  // namespace
}  // namespace tierbench
