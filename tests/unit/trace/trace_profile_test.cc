// trace/trace_profile.h on a small hand-made iolog whose figures are
// worked out in the comments: mix, sequential share, sizes, footprint,
// stack distances, the LRU curve, OPT at the requested sizes, the text and
// the CSV.
#include "trace/trace_profile.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "trace/block_stream.h"
#include "tracefile/iolog.h"

namespace tierbench {
namespace {

// Block accesses (4 KiB): 0 | 1 2 | 0 | 1 | 16 | 0 -> 7 accesses of 4
// blocks; distances -, -, -, 2, 2, -, 2.
constexpr const char* kTraceProfileLog =
    "fio version 3 iolog\n"
    "0 /dev/sdb add\n"
    "0 /dev/sdb open\n"
    "10 /dev/sdb read 0 4096\n"
    "20 /dev/sdb read 4096 8192\n"  // sequential read
    "30 /dev/sdb write 0 4096\n"
    "40 /dev/sdb write 4096 4096\n"  // sequential write
    "50 /dev/sdb read 65536 4096\n"
    "60 /dev/sdb read 0 4096\n"
    "70 /dev/sdb sync 0 0\n"
    "80 /dev/sdb close\n";

TraceProfile TraceProfileOfTestLog() {
  const IoLog log = ParseIoLog(kTraceProfileLog, "t.iolog");
  TraceStatsOptions o;
  o.cache_sizes = {8192, 12288};
  return ProfileTrace(log, o);
}

TEST(TraceProfileTest, RequestFigures) {
  const TraceProfile p = TraceProfileOfTestLog();
  EXPECT_EQ(p.requests[0], 4u);
  EXPECT_EQ(p.requests[1], 2u);
  EXPECT_EQ(p.bytes[0], 20480u);
  EXPECT_EQ(p.bytes[1], 8192u);
  EXPECT_EQ(p.sequential[0], 1u);
  EXPECT_EQ(p.sequential[1], 1u);
  EXPECT_EQ(p.other_entries, 1u);
  ASSERT_TRUE(p.duration_s.has_value());
  EXPECT_DOUBLE_EQ(*p.duration_s, 50e-6);
  ASSERT_EQ(p.sizes.size(), 2u);
  EXPECT_EQ(p.sizes[0].max_bytes, 4096u);
  EXPECT_EQ(p.sizes[0].requests, 5u);
  EXPECT_EQ(p.sizes[1].max_bytes, 8192u);
  EXPECT_EQ(p.sizes[1].requests, 1u);
}

TEST(TraceProfileTest, BlocksDistancesAndCurve) {
  const TraceProfile p = TraceProfileOfTestLog();
  EXPECT_TRUE(p.exact());
  EXPECT_EQ(p.accesses, 7u);
  EXPECT_EQ(p.distinct_blocks, 4u);
  EXPECT_EQ(p.footprint_bytes(), 16384u);
  EXPECT_EQ(p.cold_accesses, 4);
  // Buckets 0, 1, 2-3: three accesses at distance 2.
  ASSERT_EQ(p.reuse.size(), 3u);
  EXPECT_EQ(p.reuse[2].first, 2u);
  EXPECT_EQ(p.reuse[2].last, 3u);
  EXPECT_EQ(p.reuse[2].accesses, 3);
  // Grid 1, 2, 3 blocks and the footprint (4); 8 KiB and 12 KiB requested.
  ASSERT_EQ(p.curve.size(), 4u);
  EXPECT_EQ(p.curve[0].cache_bytes, 4096u);
  EXPECT_FALSE(p.curve[0].requested);
  EXPECT_FALSE(p.curve[0].opt_hit_ratio.has_value());
  EXPECT_EQ(p.curve[1].cache_bytes, 8192u);
  EXPECT_EQ(p.curve[1].lru_hit_ratio, 0);
  // MIN with 2 blocks hits the 2nd and 3rd access of block 0.
  EXPECT_DOUBLE_EQ(*p.curve[1].opt_hit_ratio, 2.0 / 7);
  EXPECT_DOUBLE_EQ(p.curve[2].lru_hit_ratio, 3.0 / 7);
  EXPECT_DOUBLE_EQ(*p.curve[2].opt_hit_ratio, 3.0 / 7);
  EXPECT_EQ(p.curve[3].cache_bytes, 16384u);
  EXPECT_DOUBLE_EQ(p.curve[3].lru_hit_ratio, 3.0 / 7);
}

TEST(TraceProfileTest, TextAndCsv) {
  const TraceProfile p = TraceProfileOfTestLog();
  const std::string text = FormatTraceProfile(p);
  for (const char* want :
       {"fio iolog v3, 6 requests (1 sync/datasync/trim", "over 50us",
        "footprint    16KiB (4 distinct blocks of 4KiB; 7 block accesses)",
        "reads 4 (66.7%, 20KiB)  writes 2 (33.3%, 8KiB)",
        "sequential   reads 25.0%  writes 50.0%  all 33.3%",
        " 4KiB 83.3% 8KiB 16.7%", "stack distances (blocks; exact)",
        "cold (first access)", "LRU (exact) and OPT"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\n" << text;
  }
  // The 12 KiB row: LRU miss 4/7, hit 3/7, OPT 3/7.
  EXPECT_NE(text.find("12KiB           0.5714    0.4286    0.4286"),
            std::string::npos)
      << text;
  std::ostringstream csv;
  TraceMrcTable(p).Write(csv);
  EXPECT_EQ(csv.str(),
            "schema_version,cache_bytes,lru_miss_ratio,lru_hit_ratio,"
            "opt_hit_ratio\n"
            "1,4096,1.000000,0.000000,\n"
            "1,8192,1.000000,0.000000,0.285714\n"
            "1,12288,0.571429,0.428571,0.428571\n"
            "1,16384,0.571429,0.428571,\n");
}

TEST(TraceProfileTest, BlocksOfSeveralFilesAreDistinct) {
  const IoLog log = ParseIoLog(
      "fio version 2 iolog\n"
      "a add\nb add\n"
      "a read 0 8192\n"
      "b read 0 4096\n"
      "a read 4096 4096\n",
      "two.iolog");
  const BlockStream s = BuildBlockStream(log, 4096);
  ASSERT_EQ(s.ids.size(), 4u);
  EXPECT_EQ(s.distinct(), 3u);
  EXPECT_EQ(s.ids[0], 0u);
  EXPECT_EQ(s.ids[1], 1u);
  EXPECT_EQ(s.ids[2], 2u);  // b's block 0 is not a's
  EXPECT_EQ(s.ids[3], 1u);
  // 512-byte blocks: 16 + 8 + 8 accesses.
  EXPECT_EQ(BuildBlockStream(log, 512).accesses(), 32u);
}

TEST(TraceProfileTest, SampleRateOneIsExact) {
  const IoLog log = ParseIoLog(kTraceProfileLog, "t.iolog");
  TraceStatsOptions o;
  o.sample_rate = 1;
  EXPECT_TRUE(ProfileTrace(log, o).exact());
  o.sample_rate = 0;
  o.exact_limit = 6;  // 7 accesses: sampled at 6/7
  const TraceProfile p = ProfileTrace(log, o);
  EXPECT_FALSE(p.exact());
  EXPECT_NEAR(p.rate, 6.0 / 7, 1e-6);
  EXPECT_EQ(p.distinct_blocks, 4u);  // the footprint stays exact
}

}  // namespace
}  // namespace tierbench
