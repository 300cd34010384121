// `tierbench trace-stats` as a user runs it on a small fio iolog whose
// figures are worked out below: the text profile, the CSV's columns and
// rows, the SVG chart; and bad input (a missing file, a malformed line, a
// bad option value) refused with one line and exit 2. Then the other
// formats (issue 30), detected from content: an MSR Cambridge CSV (layout:
// the README of the MSR Cambridge traces, SNIA IOTTA) of two volumes, a
// blkparse text output (layout: blkparse(1), "DEFAULT OUTPUT") and a
// zstd-compressed libCacheSim oracleGeneral trace.
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/report_fixture.h"
#include "test_env.h"
#include "util/csv_reader.h"

namespace tierbench {
namespace {

using testing::RunShell;
using testing::TempDir;

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
  const CsvDocument doc = CsvDocument::Parse(ReadText(csv), csv);
  EXPECT_EQ(doc.header(), (std::vector<std::string>{
                              "schema_version", "cache_bytes", "lru_miss_ratio",
                              "lru_hit_ratio", "opt_hit_ratio"}));
  ASSERT_EQ(doc.row_count(), 4u);
  EXPECT_EQ(doc.Get(0, "schema_version"), "1");
  EXPECT_EQ(doc.Get(1, "cache_bytes"), "8192");
  EXPECT_EQ(doc.Get(1, "opt_hit_ratio"), "0.285714");
  EXPECT_EQ(doc.Get(2, "lru_miss_ratio"), "0.571429");
  EXPECT_EQ(doc.Get(3, "opt_hit_ratio"), "");
  const std::string chart = ReadText(svg);
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

// MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,
// ResponseTime (filetime ticks, bytes). Volume hm_0: 3 requests over 2 s.
constexpr const char* kTraceStatsMsr =
    "128166372000000000,hm,0,Read,0,4096,1370\n"
    "128166372000000000,hm,1,Write,8192,4096,1370\n"
    "128166372010000000,hm,0,Write,4096,8192,2103\n"
    "128166372020000000,hm,0,Read,0,4096,98\n";

TEST(TraceStatsCliTest, MsrTraceNeedsAVolumeThenProfilesIt) {
  TempDir dir;
  const std::string msr = dir.path() + "/trace.csv";
  std::ofstream(msr) << kTraceStatsMsr;
  std::string out;
  EXPECT_EQ(TraceStats(msr, &out), 2) << out;
  EXPECT_NE(
      out.find(msr + ": the MSR Cambridge CSV trace holds 2 volumes: hm_0 "
                     "hm_1. Fix: profile one with --volume V"),
      std::string::npos)
      << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  EXPECT_EQ(TraceStats("--volume hm_9 " + msr, &out), 2) << out;
  EXPECT_NE(out.find("--volume hm_9 is not in the trace"), std::string::npos)
      << out;
  ASSERT_EQ(TraceStats("--volume hm_0 " + msr, &out), 0) << out;
  for (const char* want : {
           "MSR Cambridge CSV (detected), volume hm_0, 3 requests over 2",
           "footprint    12KiB (3 distinct blocks of 4KiB; 4 block accesses)",
           "mix          reads 2 (66.7%, 8KiB)  writes 1 (33.3%, 8KiB)",
       }) {
    EXPECT_NE(out.find(want), std::string::npos) << want << "\n" << out;
  }
  ASSERT_EQ(TraceStats("--format msr --volume hm_1 " + msr, &out), 0) << out;
  EXPECT_NE(out.find("MSR Cambridge CSV, volume hm_1, 1 requests"),
            std::string::npos)
      << out;
}

TEST(TraceStatsCliTest, BlkparseTraceProfilesIssueEvents) {
  TempDir dir;
  const std::string txt = dir.path() + "/sda.txt";
  std::ofstream(txt)
      << "  8,0    3        1     0.000000000  4162  Q  WS 1234 + 8 [fio]\n"
         "  8,0    3        2     0.000002500  4162  D  WS 1234 + 8 [fio]\n"
         "  8,0    1        1     0.000100000  4163  D   R 0 + 16 [fio]\n"
         "  8,0    3        3     0.000200000     0  C  WS 1234 + 8 [0]\n"
         "  8,0    2        1     0.000400000  4164  D  FN 0 + 0 [kworker]\n"
         "CPU1 (8,0):\n"
         " Reads Queued:           0,        0KiB\n";
  std::string out;
  ASSERT_EQ(TraceStats(txt, &out), 0) << out;
  EXPECT_NE(out.find("blkparse text (detected), volume 8,0, 2 requests (1 "
                     "flush/discard/empty requests not counted)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("mix          reads 1 (50.0%, 8KiB)  writes 1 (50.0%, "
                     "4KiB)"),
            std::string::npos)
      << out;
}

// libCacheSim oracleGeneral (its oracleGeneralBin.h: 24-byte little-endian
// records {u32 time s, u64 obj_id, u32 obj_size, i64 next_access_vtime}),
// obj_id a 4 KiB block: blocks 5, 7, 5 read; zstd-compressed (libzstd) as
// cache_dataset ships them.
TEST(TraceStatsCliTest, OracleGeneralZstdTraceIsAllReads) {
  TempDir dir;
  const std::string bin = dir.path() + "/w01.oracleGeneral";
  std::string records;
  const auto put = [&](uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      records.push_back(static_cast<char>(v >> 8 * i));
  };
  const std::pair<uint64_t, uint64_t> kBlocks[] = {{10, 5}, {10, 7}, {12, 5}};
  for (const auto& [time, id] : kBlocks) {
    put(time, 4);
    put(id, 8);
    put(4096, 4);
    put(UINT64_MAX, 8);  // next_access_vtime -1
  }
  std::string z(ZSTD_compressBound(records.size()), '\0');
  const size_t n =
      ZSTD_compress(z.data(), z.size(), records.data(), records.size(), 3);
  ASSERT_FALSE(ZSTD_isError(n));
  std::ofstream(bin + ".zst", std::ios::binary) << z.substr(0, n);
  std::string out;
  ASSERT_EQ(TraceStats(bin + ".zst", &out), 0) << out;
  EXPECT_NE(out.find("libCacheSim oracleGeneral (detected), volume "
                     "w01.oracleGeneral.zst, every request a read (the format "
                     "has no direction), 3 requests"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("mix          reads 3 (100.0%, 12KiB)"), std::string::npos)
      << out;
}

TEST(TraceStatsCliTest, BadTraceOfEveryFormatIsOneLineWithItsLine) {
  TempDir dir;
  const std::string msr = dir.path() + "/bad.csv";
  std::ofstream(msr) << "1,hm,0,Read,0,4096,1\n2,hm,0,Read,zero,4096,1\n";
  const std::string iolog = dir.path() + "/good.iolog";
  std::ofstream(iolog) << kTraceStatsLog;
  const std::string junk = dir.path() + "/junk.txt";
  std::ofstream(junk) << "hello\n";
  struct Case {
    std::string args, want;
  } cases[] = {
      {msr, msr + ":2: Offset 'zero' is not a whole number. Fix: "},
      {"--format cbs " + iolog,
       iolog + ":1: a line of 1 columns where Tencent CBS CSV has 5"},
      {junk, junk + ": cannot tell the trace's format from its content"},
      {"--format oracle " + junk,
       junk + ": record 1 (byte 0): a truncated record: the file holds 6 "
              "bytes, not a multiple of 24"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    std::string out;
    EXPECT_EQ(TraceStats(c.args, &out), 2) << out;
    EXPECT_NE(out.find(c.want), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  }
}

}  // namespace
}  // namespace tierbench
