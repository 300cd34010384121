// Unit tests of the power cut's output (report/power_cut_reporter.h): the
// verdict, power-cut.csv read back by column name, and the console lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "report/power_cut_reporter.h"
#include "util/csv_reader.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

PowerCutLayer Intact() {
  PowerCutLayer l;
  l.layer = "dm-cache";
  l.device = "/dev/mapper/tb-dmcache";
  l.blocks_written = 512;
  l.block_bytes = 32768;
  l.dirty_bytes_at_cut = 512 * 32768;
  l.dirty_at_cut = "512 x 32 KiB";
  l.blocks_origin_lacked = 512;
  l.recovery_ms = 640;
  l.blocks_checked = 512;
  return l;
}

TEST(PowerCutVerdict, IntactLostOrUnproven) {
  EXPECT_EQ(PowerCutVerdict(Intact()), "intact");
  PowerCutLayer l = Intact();
  l.mismatches = 1;
  EXPECT_EQ(PowerCutVerdict(l), "lost");
  l = Intact();
  l.blocks_checked = 511;
  EXPECT_EQ(PowerCutVerdict(l), "lost");
  l = Intact();
  l.verify_error = "io error";
  EXPECT_EQ(PowerCutVerdict(l), "lost");
  l = Intact();
  l.write_error = "io error";
  EXPECT_EQ(PowerCutVerdict(l), "lost");
  l = Intact();
  l.blocks_written = 0;
  l.blocks_checked = 0;
  EXPECT_EQ(PowerCutVerdict(l), "lost");
  l = Intact();
  l.dirty_bytes_at_cut = 0;
  EXPECT_EQ(PowerCutVerdict(l), "unproven");
  l = Intact();
  l.blocks_origin_lacked = 0;
  EXPECT_EQ(PowerCutVerdict(l), "unproven");
}

TEST(PowerCutReporter, WritesTheCsvAndOneConsoleLinePerLayer) {
  const fs::path dir = fs::temp_directory_path() /
                       ("tb-pc-report-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  PowerCutRun run;
  run.run_dir = dir.string();
  run.cut_after_s = 19.04;
  PowerCutLayer lost = Intact();
  lost.layer = "dm-writecache";
  lost.mismatches = 2;
  run.layers = {Intact(), lost};
  std::ostringstream console;
  PowerCutReporter(dir.string(), console).OnPowerCut(run);

  std::ifstream in(dir / "power-cut.csv");
  std::stringstream text;
  text << in.rdbuf();
  fs::remove_all(dir);
  const CsvDocument csv = CsvDocument::Parse(text.str(), "power-cut.csv");
  std::vector<std::string> header = {"schema_version"};
  for (const std::string& c : PowerCutCsvColumns()) header.push_back(c);
  EXPECT_EQ(csv.header(), header);
  ASSERT_EQ(csv.row_count(), 2u);
  EXPECT_EQ(csv.Get(0, "schema_version"),
            std::to_string(kPowerCutCsvSchemaVersion));
  EXPECT_EQ(csv.Get(0, "layer"), "dm-cache");
  EXPECT_EQ(csv.Get(0, "dirty_bytes_at_cut"), "16777216");
  EXPECT_EQ(csv.Get(0, "dirty_at_cut"), "512 x 32 KiB");
  EXPECT_EQ(csv.Get(0, "blocks_origin_lacked"), "512");
  EXPECT_EQ(csv.Get(0, "recovery_ms"), "640");
  EXPECT_EQ(csv.Get(0, "blocks_checked"), "512");
  EXPECT_EQ(csv.Get(0, "mismatches"), "0");
  EXPECT_EQ(csv.Get(0, "result"), "intact");
  EXPECT_EQ(csv.Get(0, "cut_after_s"), "19.0");
  EXPECT_EQ(csv.Get(1, "mismatches"), "2");
  EXPECT_EQ(csv.Get(1, "result"), "lost");

  EXPECT_EQ(console.str(), PowerCutConsoleLine(run.layers[0]) + "\n" +
                               PowerCutConsoleLine(run.layers[1]) + "\n");
  EXPECT_EQ(PowerCutConsoleLine(run.layers[0]),
            "power cut: dm-cache (/dev/mapper/tb-dmcache): 512 x 32 KiB dirty "
            "at the cut, 512 of 512 blocks only in the cache; recovered in "
            "640 ms; 512 blocks checked, 0 mismatches: intact");
}

TEST(PowerCutReporter, NamesTheFileItCannotWrite) {
  PowerCutRun run;
  run.layers = {Intact()};
  std::ostringstream console;
  PowerCutReporter reporter("/nonexistent/dir", console);
  try {
    reporter.OnPowerCut(run);
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/power-cut.csv"),
              std::string::npos)
        << e.what();
  }
}

LogReplayMark Marked(const std::string& mark, uint64_t next_lacked) {
  LogReplayMark m;
  m.layer = "bcache";
  m.mark = mark;
  m.entries_replayed = 1234;
  m.state_after_replay = "dirty 3.6M";
  m.blocks_expected = 128;
  m.blocks_checked = 128;
  m.next_round_blocks = 64;
  m.next_round_lacked = next_lacked;
  return m;
}

TEST(LogReplayVerdict, IntactLostOrUnproven) {
  EXPECT_EQ(LogReplayVerdict(Marked("r1", 64)), "intact");
  LogReplayMark m = Marked("r1", 64);
  m.next_round_blocks = 0;  // the last mark
  m.next_round_lacked = 0;
  EXPECT_EQ(LogReplayVerdict(m), "intact");
  m = Marked("r1", 64);
  m.mismatches = 1;
  EXPECT_EQ(LogReplayVerdict(m), "lost");
  m = Marked("r1", 64);
  m.blocks_checked = 127;
  EXPECT_EQ(LogReplayVerdict(m), "lost");
  m = Marked("r1", 64);
  m.error = "io error";
  EXPECT_EQ(LogReplayVerdict(m), "lost");
  EXPECT_EQ(LogReplayVerdict(Marked("r1", 63)), "unproven");
}

// log-replay.csv only when the run has marks, one row and console line
// per mark after the layers'.
TEST(PowerCutReporter, WritesTheLogReplayCsvWhenThereAreMarks) {
  const fs::path dir = fs::temp_directory_path() /
                       ("tb-lr-report-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  PowerCutRun run;
  run.layers = {Intact()};
  std::ostringstream console;
  PowerCutReporter(dir.string(), console).OnPowerCut(run);
  EXPECT_FALSE(fs::exists(dir / "log-replay.csv"));

  run.log_replay = {Marked("r0", 64), Marked("r1", 10)};
  console.str("");
  PowerCutReporter(dir.string(), console).OnPowerCut(run);
  std::ifstream in(dir / "log-replay.csv");
  std::stringstream text;
  text << in.rdbuf();
  fs::remove_all(dir);
  const CsvDocument csv = CsvDocument::Parse(text.str(), "log-replay.csv");
  std::vector<std::string> header = {"schema_version"};
  for (const std::string& c : LogReplayCsvColumns()) header.push_back(c);
  EXPECT_EQ(csv.header(), header);
  ASSERT_EQ(csv.row_count(), 2u);
  EXPECT_EQ(csv.Get(0, "layer"), "bcache");
  EXPECT_EQ(csv.Get(0, "mark"), "r0");
  EXPECT_EQ(csv.Get(0, "entries_replayed"), "1234");
  EXPECT_EQ(csv.Get(0, "state_after_replay"), "dirty 3.6M");
  EXPECT_EQ(csv.Get(0, "blocks_checked"), "128");
  EXPECT_EQ(csv.Get(0, "next_round_lacked"), "64");
  EXPECT_EQ(csv.Get(0, "result"), "intact");
  EXPECT_EQ(csv.Get(1, "result"), "unproven");
  EXPECT_EQ(console.str(), PowerCutConsoleLine(run.layers[0]) + "\n" +
                               LogReplayConsoleLine(run.log_replay[0]) + "\n" +
                               LogReplayConsoleLine(run.log_replay[1]) + "\n");
  EXPECT_EQ(LogReplayConsoleLine(run.log_replay[0]),
            "log replay: bcache at mark r0: 1234 log entries (after replay: "
            "dirty 3.6M); 128 of 128 "
            "blocks checked, 0 mismatches; the next round's 64 of 64 blocks "
            "missing: intact");
}

}  // namespace
}  // namespace tierbench
