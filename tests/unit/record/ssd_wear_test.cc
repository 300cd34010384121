// What a cell cost the SSD (record/ssd_wear.h) on fixed counters: the
// ratios, the bytes kept off the HDD (negative too), the projected life,
// and an empty figure, never 0 or -1, wherever an input is missing; the
// inputs of a cell (its stack, origin and cache counters over the window up
// to the IO stop) and their medians in the comparison.
#include "record/ssd_wear.h"

#include <gtest/gtest.h>

#include "cache/mode_spec.h"
#include "record/cell_record.h"
#include "record/comparison.h"

namespace tierbench {
namespace {

WearInputs Inputs() {
  WearInputs in;
  in.app_read_bytes = 3000000;
  in.app_write_bytes = 1000000;
  in.hdd_read_bytes = 1000000;
  in.hdd_write_bytes = 500000;
  in.ssd_write_bytes = 2000000;
  in.io_seconds = 10;
  return in;
}

TEST(SsdWearTest, RatiosSavedBytesAndLife) {
  const SsdWear w = ComputeSsdWear(Inputs(), 600 * kBytesPerTerabyte);
  ASSERT_TRUE(w.ssd_write_per_app_write && w.ssd_write_per_app_byte &&
              w.hdd_bytes_saved && w.ssd_life_days);
  EXPECT_DOUBLE_EQ(*w.ssd_write_per_app_write, 2.0);  // 2 MB / 1 MB
  EXPECT_DOUBLE_EQ(*w.ssd_write_per_app_byte, 0.5);   // 2 MB / 4 MB
  EXPECT_EQ(*w.hdd_bytes_saved, 2500000);             // 4 MB - 1.5 MB
  // 600 TB at 200 kB/s: 3e9 s.
  EXPECT_DOUBLE_EQ(*w.ssd_life_days, 600e12 / 2e5 / 86400);
}

TEST(SsdWearTest, AReadOnlyCellWritesTheSsdPerByteButHasNoWriteRatio) {
  WearInputs in = Inputs();
  in.app_write_bytes = 0;  // promotions only
  const SsdWear w = ComputeSsdWear(in, std::nullopt);
  EXPECT_FALSE(w.ssd_write_per_app_write.has_value());
  ASSERT_TRUE(w.ssd_write_per_app_byte.has_value());
  EXPECT_DOUBLE_EQ(*w.ssd_write_per_app_byte, 2.0 / 3.0);
  EXPECT_FALSE(w.ssd_life_days.has_value());  // no --ssd-tbw
}

TEST(SsdWearTest, MoreHddBytesThanApplicationBytesIsANegativeSaving) {
  WearInputs in = Inputs();
  in.hdd_write_bytes = 5000000;  // writeback of a warm-up's dirty data
  EXPECT_EQ(*ComputeSsdWear(in, std::nullopt).hdd_bytes_saved, -2000000);
  in = WearInputs{};  // no IO at all: no ratio, nothing saved
  in.io_seconds = 5;
  const SsdWear none = ComputeSsdWear(in, 1e12);
  EXPECT_FALSE(none.ssd_write_per_app_write.has_value());
  EXPECT_FALSE(none.ssd_write_per_app_byte.has_value());
  EXPECT_EQ(*none.hdd_bytes_saved, 0);
  EXPECT_FALSE(none.ssd_life_days.has_value());
}

TEST(SsdWearTest, NoLifeWithoutARatingSsdWritesOrSeconds) {
  EXPECT_FALSE(ComputeSsdWear(Inputs(), std::nullopt).ssd_life_days);
  EXPECT_FALSE(ComputeSsdWear(Inputs(), 0.0).ssd_life_days);
  EXPECT_FALSE(ComputeSsdWear(Inputs(), -1.0).ssd_life_days);
  WearInputs in = Inputs();
  in.ssd_write_bytes = 0;  // unbounded: no number
  const SsdWear w = ComputeSsdWear(in, 1e12);
  EXPECT_FALSE(w.ssd_life_days.has_value());
  EXPECT_DOUBLE_EQ(*w.ssd_write_per_app_byte, 0.0);  // a measured 0
  in = Inputs();
  in.io_seconds = 0;
  EXPECT_FALSE(ComputeSsdWear(in, 1e12).ssd_life_days);
  EXPECT_EQ(TbwBytes(std::nullopt), std::nullopt);
  EXPECT_DOUBLE_EQ(*TbwBytes(1.5), 1.5e12);
}

struct CacheCell {
  ModeSpec mode;
  CellRecord rec;
  CacheCell() {
    mode.name = "dm-cache-writeback";
    mode.layer = "dm-cache";
    rec.mode = &mode;
    rec.has_counters = true;
    rec.delta.seconds = 12.5;
    rec.counters_after_s = 2.5;
    rec.delta.stack.read_sectors = 8000;  // 4,096,000 B
    rec.delta.stack.write_sectors = 0;
    rec.delta.origin.read_sectors = 2000;
    rec.delta.cache.write_sectors = 4000;  // 2,048,000 B promoted
  }
};

TEST(SsdWearTest, ACellsInputsAreItsBlockCountersUpToTheIoStop) {
  CacheCell c;
  const std::optional<WearInputs> in = CellWearInputs(c.rec);
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->app_read_bytes, 4096000u);
  EXPECT_EQ(in->app_write_bytes, 0u);
  EXPECT_EQ(in->hdd_read_bytes, 1024000u);
  EXPECT_EQ(in->ssd_write_bytes, 2048000u);
  EXPECT_DOUBLE_EQ(in->io_seconds, 10.0);  // 12.5 s less the fold's 2.5 s
  const SsdWear w = CellSsdWear(c.rec, 1e12);
  EXPECT_DOUBLE_EQ(*w.ssd_write_per_app_byte, 0.5);
  EXPECT_DOUBLE_EQ(*w.ssd_life_days, 1e12 / 204800.0 / 86400);
}

TEST(SsdWearTest, RawFailedCounterlessAndResetCellsHaveNoFigures) {
  auto empty = [](const CellRecord& rec) {
    const SsdWear w = CellSsdWear(rec, 1e12);
    return !CellWearInputs(rec) && !w.ssd_write_per_app_write &&
           !w.ssd_write_per_app_byte && !w.hdd_bytes_saved && !w.ssd_life_days;
  };
  {
    CacheCell c;
    c.mode.layer = std::string(kRawLayerName);
    EXPECT_TRUE(empty(c.rec));
  }
  {
    CacheCell c;
    c.rec.has_counters = false;
    EXPECT_TRUE(empty(c.rec));
  }
  {
    CacheCell c;
    c.rec.error = "fio: pread failed";
    EXPECT_TRUE(empty(c.rec));
  }
  {
    CacheCell c;
    c.rec.delta.counters_reset = true;
    EXPECT_TRUE(empty(c.rec));
  }
}

TEST(SsdWearTest, TheComparisonTakesTheMedianOfTheRepetitionsThatHaveOne) {
  std::vector<MeasuredRow> rows;
  auto add = [&rows](std::optional<double> per_byte,
                     std::optional<double> life) {
    MeasuredRow r;
    r.mode = "writeback";
    r.workload = "w";
    r.job = "j";
    r.direction = "read";
    r.unit = "io";
    r.iops = 100;
    r.lat_p99_us = 10;
    r.wear.ssd_write_per_app_byte = per_byte;
    if (per_byte) r.wear.hdd_bytes_saved = static_cast<int64_t>(*per_byte * 10);
    r.wear.ssd_life_days = life;
    rows.push_back(r);
  };
  add(0.2, 100);
  add(std::nullopt, std::nullopt);  // a cell whose counters went backwards
  add(0.6, 300);
  add(0.4, std::nullopt);
  const std::vector<ComparisonRow> out = Compare(rows);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_DOUBLE_EQ(*out[0].wear.ssd_write_per_app_byte, 0.4);
  EXPECT_EQ(*out[0].wear.hdd_bytes_saved, 4);
  EXPECT_DOUBLE_EQ(*out[0].wear.ssd_life_days, 200);
  EXPECT_FALSE(out[0].wear.ssd_write_per_app_write.has_value());
}

}  // namespace
}  // namespace tierbench
