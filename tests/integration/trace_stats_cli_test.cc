// `tierbench trace-stats` as a user runs it on a small fio iolog whose
// figures are worked out below: the text profile, the CSV's columns and
// rows, the SVG chart; and bad input (a missing file, a malformed line, a
// bad option value) refused with one line and exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "test_env.h"
#include "util/csv_reader.h"

namespace tierbench {
namespace {

using testing::RunShell;
using testing::TempDir;

std::string TraceStatsSlurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// tierbench trace-stats ARGS; stdout and stderr in *out.
int TraceStats(const std::string& args, std::string* out) {
  return RunShell(
      std::string(TIERBENCH_BINARY) + " trace-stats " + args + " 2>&1", out);
}

// Version 2. Block accesses (4 KiB): 0 | 1 2 | 0 | 1 | 16 | 0: 7 accesses
// of 4 blocks, stack distances -, -, -, 2, 2, -, 2. LRU hits 3 of 7 from 3
// blocks; Belady MIN hits 2 with 2 blocks, 3 with 3.
constexpr const char* kTraceStatsLog =
    "fio version 2 iolog\n"
    "/dev/sdb add\n"
    "/dev/sdb open\n"
    "/dev/sdb read 0 4096\n"
    "/dev/sdb read 4096 8192\n"
    "/dev/sdb write 0 4096\n"
    "/dev/sdb wait 0 100\n"
    "/dev/sdb write 4096 4096\n"
    "/dev/sdb read 65536 4096\n"
    "/dev/sdb trim 0 4096\n"
    "/dev/sdb read 0 4096\n"
    "/dev/sdb close\n";

TEST(TraceStatsCliTest, ProfileCsvAndSvgOfASmallTrace) {
  TempDir dir;
  const std::string log = dir.path() + "/small.iolog";
  std::ofstream(log) << kTraceStatsLog;
  const std::string csv = dir.path() + "/mrc.csv";
  const std::string svg = dir.path() + "/mrc.svg";
  std::string out;
  ASSERT_EQ(TraceStats("--cache-sizes 8k,12k --csv " + csv + " --svg " + svg +
                           " " + log,
                       &out),
            0)
      << out;
  for (const char* want : {
           "fio iolog v2, 6 requests (1 sync/datasync/trim entries not "
           "counted)",
           "footprint    16KiB (4 distinct blocks of 4KiB; 7 block accesses)",
           "mix          reads 4 (66.7%, 20KiB)  writes 2 (33.3%, 8KiB)",
           "sequential   reads 25.0%  writes 50.0%  all 33.3%",
           "sizes        4KiB 83.3% 8KiB 16.7%",
           "stack distances (blocks; exact):",
           "  2-3                                   3   42.9%",
           "  8KiB            1.0000    0.0000    0.2857",
           "  12KiB           0.5714    0.4286    0.4286",
           "  16KiB           0.5714    0.4286         -  (footprint)",
       }) {
    EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
  }
  const CsvDocument doc = CsvDocument::Parse(TraceStatsSlurp(csv), csv);
  EXPECT_EQ(doc.header(), (std::vector<std::string>{
                              "schema_version", "cache_bytes", "lru_miss_ratio",
                              "lru_hit_ratio", "opt_hit_ratio"}));
  ASSERT_EQ(doc.row_count(), 4u);
  EXPECT_EQ(doc.Get(0, "schema_version"), "1");
  EXPECT_EQ(doc.Get(1, "cache_bytes"), "8192");
  EXPECT_EQ(doc.Get(1, "opt_hit_ratio"), "0.285714");
  EXPECT_EQ(doc.Get(2, "lru_miss_ratio"), "0.571429");
  EXPECT_EQ(doc.Get(3, "opt_hit_ratio"), "");
  const std::string chart = TraceStatsSlurp(svg);
  EXPECT_EQ(chart.rfind("<svg", 0), 0u) << chart.substr(0, 100);
  EXPECT_NE(chart.find("data-chart=\"mrc\""), std::string::npos);
  EXPECT_NE(chart.find("class=\"mrc-lru\""), std::string::npos);
  EXPECT_EQ(std::count(chart.begin(), chart.end(), '\n') > 10, true);
  size_t dots = 0;
  for (size_t p = chart.find("class=\"mrc-opt\""); p != std::string::npos;
       p = chart.find("class=\"mrc-opt\"", p + 1)) {
    ++dots;
  }
  EXPECT_EQ(dots, 2u);
}

TEST(TraceStatsCliTest, SampledProfileSaysSo) {
  TempDir dir;
  const std::string log = dir.path() + "/seq.iolog";
  std::ofstream f(log);
  f << "fio version 3 iolog\n0 d add\n";
  for (int round = 0; round < 20; ++round) {
    for (int b = 0; b < 500; ++b) {
      f << round * 500 + b << " d read " << b * 4096 << " 4096\n";
    }
  }
  f.close();
  std::string out;
  ASSERT_EQ(TraceStats("--exact-limit 1000 " + log, &out), 0) << out;
  EXPECT_NE(out.find("SHARDS_adj at R = 0.1"), std::string::npos) << out;
  EXPECT_NE(out.find("LRU (SHARDS_adj)"), std::string::npos) << out;
}

TEST(TraceStatsCliTest, BadInputIsOneLineAndExitTwo) {
  TempDir dir;
  const std::string bad = dir.path() + "/bad.iolog";
  std::ofstream(bad) << "fio version 3 iolog\n0 a add\n10 a read x 4096\n";
  const std::string good = dir.path() + "/good.iolog";
  std::ofstream(good) << kTraceStatsLog;
  struct Case {
    std::string args, want;
  } cases[] = {
      {dir.path() + "/missing.iolog",
       "Cannot read the trace " + dir.path() + "/missing.iolog: No such file"},
      {bad, bad + ":3: offset 'x' is not a whole number. Fix: "},
      {"--block-size 0 " + good, "Bad value for --block-size. Value: 0"},
      {"--cache-sizes 64M,lots " + good, "Bad value for --cache-sizes"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    std::string out;
    EXPECT_EQ(TraceStats(c.args, &out), 2) << out;
    EXPECT_NE(out.find(c.want), std::string::npos) << out;
    EXPECT_NE(out.find("Fix"), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  }
}

}  // namespace
}  // namespace tierbench
