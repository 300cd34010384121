// The SSD wear columns as compare writes them (record/ssd_wear.h): in
// runs.csv every row of a cache cell holds its cell's figures, a raw cell's
// are empty and ssd_life_days is empty without --ssd-tbw; comparison.csv
// holds their medians, empty where no repetition has one.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "cache/mode_spec.h"
#include "record/cell_record.h"
#include "record/compare_setup.h"
#include "record/comparison.h"
#include "report/comparison_csv_reporter.h"
#include "report/runs_csv_reporter.h"
#include "util/csv_reader.h"

namespace tierbench {
namespace {

// The value of `column` in `row` (a runs.csv row without schema_version).
std::string RunsValue(const std::vector<std::string>& row,
                      const std::string& column) {
  const std::vector<std::string>& names = RunsCsvColumns();
  const auto it = std::find(names.begin(), names.end(), column);
  EXPECT_NE(it, names.end()) << column;
  return it == names.end() ? "?" : row[static_cast<size_t>(it - names.begin())];
}

struct WearCell {
  ModeSpec mode;
  PreparedWorkload workload;
  CellRecord rec;
  explicit WearCell(const std::string& layer) {
    mode.name = layer == "raw" ? "ssd" : "writeback";
    mode.layer = layer;
    workload.name = "mix";
    rec.mode = &mode;
    rec.workload = &workload;
    JobResult job;
    job.name = "mix";
    job.runtime_ns = 10000000000ULL;
    job.dir[static_cast<int>(IoDir::kRead)].ios = 100;
    job.dir[static_cast<int>(IoDir::kWrite)].ios = 100;
    rec.result.jobs = {job};
    if (layer == "raw") return;
    rec.has_counters = true;
    rec.delta.seconds = 10;
    rec.delta.stack.read_sectors = 3000;   // 1,536,000 B
    rec.delta.stack.write_sectors = 1000;  // 512,000 B
    rec.delta.origin.read_sectors = 1000;
    rec.delta.origin.write_sectors = 5000;  // earlier dirty data written back
    rec.delta.cache.write_sectors = 2000;   // 1,024,000 B
  }
};

TEST(WearColumnsTest, EveryRowOfACacheCellHoldsItsCellsFigures) {
  WearCell c("bcache");
  const auto rows = RunsCsvRows("r", c.rec, nullptr, 0.5e12);
  ASSERT_EQ(rows.size(), 2u);  // read and write
  for (const auto& row : rows) {
    EXPECT_EQ(RunsValue(row, "ssd_write_per_app_write"), "2.000000");
    EXPECT_EQ(RunsValue(row, "ssd_write_per_app_byte"), "0.500000");
    // 2,048,000 B moved, 3,072,000 B on the HDD.
    EXPECT_EQ(RunsValue(row, "hdd_bytes_saved"), "-1024000");
    // 0.5 TB at 102,400 B/s.
    EXPECT_EQ(RunsValue(row, "ssd_life_days"), "56.5");
  }
  // Without --ssd-tbw the life stays empty, the rest does not.
  const auto no_tbw = RunsCsvRows("r", c.rec);
  EXPECT_EQ(RunsValue(no_tbw[0], "ssd_life_days"), "");
  EXPECT_EQ(RunsValue(no_tbw[0], "ssd_write_per_app_byte"), "0.500000");
}

TEST(WearColumnsTest, ARawCellAndAnIdleCacheCellLeaveThemEmpty) {
  WearCell raw("raw");
  for (const char* col : {"ssd_write_per_app_write", "ssd_write_per_app_byte",
                          "hdd_bytes_saved", "ssd_life_days"}) {
    EXPECT_EQ(RunsValue(RunsCsvRows("r", raw.rec, nullptr, 1e12)[0], col), "")
        << col;
  }
  WearCell idle("dm-cache");
  idle.rec.delta.stack = BlockStat{};
  idle.rec.delta.cache = BlockStat{};
  const auto row = RunsCsvRows("r", idle.rec, nullptr, 1e12)[0];
  EXPECT_EQ(RunsValue(row, "ssd_write_per_app_write"), "");
  EXPECT_EQ(RunsValue(row, "ssd_write_per_app_byte"), "");
  EXPECT_EQ(RunsValue(row, "ssd_life_days"), "");  // no SSD writes
  EXPECT_EQ(RunsValue(row, "hdd_bytes_saved"), "-3072000");
}

TEST(WearColumnsTest, ComparisonCsvHoldsTheMediansOrNothing) {
  WearCell cache("bcache");
  WearCell raw("raw");
  std::vector<MeasuredRow> measured = MeasuredRowsOf(cache.rec, 0.5e12);
  for (MeasuredRow& m : MeasuredRowsOf(raw.rec, 0.5e12)) {
    m.baseline = "ssd";
    measured.push_back(m);
  }
  std::ostringstream out;
  WriteComparisonCsv(Compare(measured), out);
  const CsvDocument doc = CsvDocument::Parse(out.str(), "comparison.csv");
  ASSERT_EQ(doc.row_count(), 4u);
  for (size_t r = 0; r < doc.row_count(); ++r) {
    const bool raw_row = doc.Get(r, "layer") == "raw";
    EXPECT_EQ(doc.Get(r, "ssd_write_per_app_write_median"),
              raw_row ? "" : "2.000000");
    EXPECT_EQ(doc.Get(r, "ssd_write_per_app_byte_median"),
              raw_row ? "" : "0.500000");
    EXPECT_EQ(doc.Get(r, "hdd_bytes_saved_median"), raw_row ? "" : "-1024000");
    EXPECT_EQ(doc.Get(r, "ssd_life_days_median"), raw_row ? "" : "56.5");
  }
}

}  // namespace
}  // namespace tierbench
