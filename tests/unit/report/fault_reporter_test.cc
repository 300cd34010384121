// Unit tests of the fault scenario's output (report/fault_reporter.h): the
// verdict, fault.csv read back by column name, and the console lines.
#include "report/fault_reporter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/csv_reader.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

FaultLayer Errors() {
  FaultLayer l;
  l.layer = "dm-cache";
  l.fault = "cache-fail";
  l.device = "/dev/mapper/tb-f-dc";
  l.blocks = 256;
  l.block_bytes = 32768;
  l.dirty_bytes_at_fault = 256 * 32768;
  l.dirty_at_fault = "256 x 32 KiB";
  l.writer_blocks = 768;
  l.writer_errors = 599;
  l.writer_first_error = "block 169 (offset 13926400): Input/output error";
  l.state_after = "0 1046528 cache Error";
  l.stack.lost = 256;
  l.recovery = "uncache (the origin alone)";
  l.recovery_ms = 569;
  l.recovered_state = "0 1046528 linear";
  l.recovered.stale = 256;
  l.usable_again_ms = 2840;
  l.origin.stale = 256;
  l.kernel_log = "device-mapper: cache: 252:5: metadata operation failed";
  return l;
}

TEST(FaultVerdict, JudgesTheReadThroughTheStackAsTheKernelLeftIt) {
  EXPECT_EQ(FaultVerdict(Errors()), "errors");
  FaultLayer l = Errors();
  l.stack = FaultBlocks();
  l.stack.intact = 256;
  EXPECT_EQ(FaultVerdict(l), "intact");
  l.stack.intact = 255;
  l.stack.stale = 1;  // an older version, served without an error
  EXPECT_EQ(FaultVerdict(l), "silent");
  l = Errors();
  l.stack.lost = 255;
  l.stack.corrupt = 1;
  EXPECT_EQ(FaultVerdict(l), "silent");
  // A recovery path that gives the dirty blocks up serves stale data by
  // the user's choice: not the stack's silent corruption.
  EXPECT_EQ(Errors().recovered.silent(), 256u);
  EXPECT_EQ(FaultVerdict(Errors()), "errors");
  l = Errors();
  l.dirty_bytes_at_fault = 0;
  EXPECT_EQ(FaultVerdict(l), "unproven");
}

TEST(FaultReporter, WritesFaultCsvAndTheConsoleLines) {
  const fs::path dir = fs::temp_directory_path() /
                       ("tb-fault-report-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  FaultRun run;
  run.run_dir = dir.string();
  run.fault = "cache-fail";
  FaultLayer gone = Errors();
  gone.layer = "bcache";
  gone.stack = FaultBlocks();
  gone.stack.gone = true;
  gone.stack.lost = 256;
  gone.usable_again_ms.reset();
  run.layers = {gone, Errors()};
  std::ostringstream console;
  FaultReporter reporter(dir.string(), console);
  reporter.OnFault(run);
  std::ifstream in(dir / "fault.csv");
  std::stringstream text_in;
  text_in << in.rdbuf();
  const CsvDocument csv = CsvDocument::Parse(text_in.str(), "fault.csv");
  ASSERT_EQ(csv.row_count(), 2u);
  EXPECT_EQ(csv.Get(0, "schema_version"), "1");
  EXPECT_EQ(csv.Get(0, "layer"), "bcache");
  EXPECT_EQ(csv.Get(0, "device_after"), "gone");
  EXPECT_EQ(csv.Get(0, "stack_lost"), "256");
  EXPECT_EQ(csv.Get(0, "usable_again_ms"), "");  // never, within the run
  EXPECT_EQ(csv.Get(1, "device_after"), "present");
  EXPECT_EQ(csv.Get(1, "writer_errors"), "599");
  EXPECT_EQ(csv.Get(1, "silent_corruption"), "0");
  EXPECT_EQ(csv.Get(1, "recovered_stale"), "256");
  EXPECT_EQ(csv.Get(1, "origin_stale"), "256");
  EXPECT_EQ(csv.Get(1, "usable_again_ms"), "2840");
  EXPECT_EQ(csv.Get(1, "result"), "errors");
  const std::string text = console.str();
  EXPECT_NE(text.find("fault: cache-fail on bcache (/dev/mapper/tb-f-dc), "
                      "256 x 32 KiB dirty: errors"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the device was gone"), std::string::npos) << text;
  EXPECT_NE(text.find("0 intact, 256 stale, 0 read errors, 0 corrupt (served "
                      "without an error)"),
            std::string::npos)
      << text;
  fs::remove_all(dir);
}

TEST(FaultReporter, ColumnsStartWithTheLayerAndEndWithTheResult) {
  const std::vector<std::string> c = FaultCsvColumns();
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front(), "layer");
  EXPECT_EQ(c.back(), "result");
  EXPECT_EQ(c.size(), 32u);
}

}  // namespace
}  // namespace tierbench
