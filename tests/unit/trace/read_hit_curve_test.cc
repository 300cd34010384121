// trace/read_hit_curve.h: the cold and warm (second of two passes) read hit
// curves against brute force on small streams: LRU by simulating an LRU
// list, OPT by an exhaustive search over every eviction choice (and, warm,
// every starting cache content); mrc.csv written and read back.
#include "trace/read_hit_curve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "util/errors.h"
#include "util/rng.h"

namespace tierbench {
namespace {

constexpr uint32_t kRhtBlock = 4096;

// A trace of `reads` (block numbers, one block each) with a write to block
// `write_block` after every third read: writes must not count.
IoLog RhtLog(const std::vector<uint32_t>& reads, uint32_t write_block) {
  IoLog log;
  log.path = "test.iolog";
  log.files = {"/dev/x"};
  for (size_t i = 0; i < reads.size(); ++i) {
    log.entries.push_back({IoLogAction::kRead, 0, 0,
                           uint64_t{reads[i]} * kRhtBlock, kRhtBlock,
                           static_cast<uint32_t>(i + 1)});
    if (i % 3 == 2) {
      log.entries.push_back({IoLogAction::kWrite, 0, 0,
                             uint64_t{write_block} * kRhtBlock, kRhtBlock,
                             static_cast<uint32_t>(i + 1)});
    }
  }
  return log;
}

// Hits of an LRU cache of `capacity` blocks over `passes` passes of
// `ids`, counted in the last pass only.
uint64_t RhtLruLastPassHits(const std::vector<uint32_t>& ids, size_t capacity,
                            int passes) {
  std::list<uint32_t> lru;  // front: most recent
  uint64_t hits = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (uint32_t id : ids) {
      auto it = std::find(lru.begin(), lru.end(), id);
      const bool hit = it != lru.end();
      if (hit) lru.erase(it);
      if (hit && pass == passes - 1) ++hits;
      lru.push_front(id);
      if (lru.size() > capacity) lru.pop_back();
    }
  }
  return capacity == 0 ? 0 : hits;
}

// The most hits any demand-fetch cache of `capacity` blocks reaches on
// `ids` from cache content `start` (a bitmask of blocks): every eviction
// choice tried.
uint64_t RhtBestHits(const std::vector<uint32_t>& ids, size_t t, uint32_t mask,
                     size_t capacity,
                     std::map<std::pair<size_t, uint32_t>, uint64_t>* memo) {
  if (t == ids.size()) return 0;
  const auto key = std::make_pair(t, mask);
  if (auto it = memo->find(key); it != memo->end()) return it->second;
  const uint32_t bit = 1u << ids[t];
  uint64_t best = 0;
  if (mask & bit) {
    best = 1 + RhtBestHits(ids, t + 1, mask, capacity, memo);
  } else if (static_cast<size_t>(__builtin_popcount(mask)) < capacity) {
    best = RhtBestHits(ids, t + 1, mask | bit, capacity, memo);
  } else {
    for (uint32_t victim = 0; victim < 32; ++victim) {
      if (!(mask & (1u << victim))) continue;
      best =
          std::max(best, RhtBestHits(ids, t + 1, (mask & ~(1u << victim)) | bit,
                                     capacity, memo));
    }
  }
  (*memo)[key] = best;
  return best;
}

// OPT cold: from an empty cache. OPT warm: the best over every starting
// content of min(capacity, blocks) blocks.
uint64_t RhtOptHits(const std::vector<uint32_t>& ids, uint32_t blocks,
                    size_t capacity, bool warm) {
  if (capacity == 0) return 0;
  std::map<std::pair<size_t, uint32_t>, uint64_t> memo;
  if (!warm) return RhtBestHits(ids, 0, 0, capacity, &memo);
  uint64_t best = 0;
  const size_t fill = std::min<size_t>(capacity, blocks);
  for (uint32_t mask = 0; mask < (1u << blocks); ++mask) {
    if (static_cast<size_t>(__builtin_popcount(mask)) != fill) continue;
    best = std::max(best, RhtBestHits(ids, 0, mask, capacity, &memo));
  }
  return best;
}

double RhtPct(uint64_t hits, size_t n) {
  return 100.0 * static_cast<double>(hits) / static_cast<double>(n);
}

TEST(ReadHitCurveTest, ColdAndWarmEqualBruteForceAtEverySize) {
  Rng rng(7);
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(round);
    const uint32_t blocks = 6 + static_cast<uint32_t>(round % 3);
    std::vector<uint32_t> reads;
    for (int i = 0; i < 16; ++i) {
      // Skewed: the low blocks take most reads.
      reads.push_back(static_cast<uint32_t>(
          rng.Uniform(10) < 6 ? rng.Uniform(3) : rng.Uniform(blocks)));
    }
    // Block numbers as dense ids in order of first use (the stream's ids).
    std::vector<uint32_t> ids;
    std::map<uint32_t, uint32_t> dense;
    for (uint32_t b : reads) {
      ids.push_back(
          dense.emplace(b, static_cast<uint32_t>(dense.size())).first->second);
    }
    const uint32_t distinct = static_cast<uint32_t>(dense.size());
    std::vector<uint64_t> sizes;
    for (uint64_t c = 1; c <= distinct + 1; ++c) sizes.push_back(c * kRhtBlock);
    const IoLog log = RhtLog(reads, blocks + 5);
    for (bool warm : {false, true}) {
      SCOPED_TRACE(warm ? "warm" : "cold");
      const ReadHitCurve curve =
          ComputeReadHitCurve(log, kRhtBlock, warm, sizes);
      EXPECT_EQ(curve.read_accesses, reads.size());
      EXPECT_EQ(curve.distinct_blocks, distinct);
      EXPECT_EQ(curve.rate, 1);
      for (uint64_t bytes : sizes) {
        const size_t c = bytes / kRhtBlock;
        SCOPED_TRACE(c);
        const ReadHitPoint* p = curve.At(bytes);
        ASSERT_NE(p, nullptr);
        EXPECT_TRUE(p->at_stack);
        EXPECT_NEAR(
            p->lru_read_hit_pct,
            RhtPct(RhtLruLastPassHits(ids, c, warm ? 2 : 1), ids.size()), 1e-9);
        EXPECT_NEAR(p->opt_read_hit_pct,
                    RhtPct(RhtOptHits(ids, distinct, c, warm), ids.size()),
                    1e-9);
      }
    }
  }
}

TEST(ReadHitCurveTest, WarmDiffersFromColdAndTheFootprintHitsEverything) {
  // a b c d a b c d: cold LRU with 4 blocks hits the second half only
  // (50 %); warm, every read hits (100 %).
  const IoLog log = RhtLog({0, 1, 2, 3, 0, 1, 2, 3}, 9);
  const ReadHitCurve cold = ComputeReadHitCurve(log, kRhtBlock, false, {});
  const ReadHitCurve warm =
      ComputeReadHitCurve(log, kRhtBlock, true, {2 * kRhtBlock});
  ASSERT_NE(cold.At(4 * kRhtBlock), nullptr);
  ASSERT_NE(warm.At(4 * kRhtBlock), nullptr);
  EXPECT_DOUBLE_EQ(cold.At(4 * kRhtBlock)->lru_read_hit_pct, 50);
  EXPECT_DOUBLE_EQ(warm.At(4 * kRhtBlock)->lru_read_hit_pct, 100);
  EXPECT_DOUBLE_EQ(warm.At(4 * kRhtBlock)->opt_read_hit_pct, 100);
  EXPECT_FALSE(warm.At(4 * kRhtBlock)->at_stack);
  // With 2 blocks, LRU never hits a loop of 4; OPT (warm) keeps 2 of them
  // for most of the pass.
  ASSERT_NE(warm.At(2 * kRhtBlock), nullptr);
  EXPECT_DOUBLE_EQ(warm.At(2 * kRhtBlock)->lru_read_hit_pct, 0);
  EXPECT_GT(warm.At(2 * kRhtBlock)->opt_read_hit_pct, 0);
}

TEST(ReadHitCurveTest, LargerBlocksMergeNeighbours) {
  // Reads of 4 KiB blocks 0..7 twice: in 32 KiB blocks that is one block,
  // hit by all but the first read (cold).
  std::vector<uint32_t> reads;
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t b = 0; b < 8; ++b) reads.push_back(b);
  }
  const ReadHitCurve c =
      ComputeReadHitCurve(RhtLog(reads, 100), 32768, false, {32768});
  EXPECT_EQ(c.distinct_blocks, 1u);
  ASSERT_NE(c.At(32768), nullptr);
  EXPECT_DOUBLE_EQ(c.At(32768)->lru_read_hit_pct, 100.0 * 15 / 16);
}

TEST(ReadHitCurveTest, SampledCurveStaysNearTheExactOne) {
  Rng rng(3);
  std::vector<uint32_t> reads;
  for (int i = 0; i < 200000; ++i) {
    reads.push_back(static_cast<uint32_t>(
        rng.Uniform(10) < 7 ? rng.Uniform(2000) : rng.Uniform(20000)));
  }
  const IoLog log = RhtLog(reads, 30000);
  const std::vector<uint64_t> sizes = {uint64_t{4000} * kRhtBlock,
                                       uint64_t{12000} * kRhtBlock};
  for (bool warm : {false, true}) {
    SCOPED_TRACE(warm ? "warm" : "cold");
    const ReadHitCurve exact = ComputeReadHitCurve(log, kRhtBlock, warm, sizes);
    const ReadHitCurve sampled =
        ComputeReadHitCurve(log, kRhtBlock, warm, sizes, 100000);
    EXPECT_LT(sampled.rate, 1);
    EXPECT_EQ(exact.rate, 1);
    for (uint64_t bytes : sizes) {
      ASSERT_NE(sampled.At(bytes), nullptr);
      EXPECT_NEAR(sampled.At(bytes)->lru_read_hit_pct,
                  exact.At(bytes)->lru_read_hit_pct, 3);
      EXPECT_NEAR(sampled.At(bytes)->opt_read_hit_pct,
                  exact.At(bytes)->opt_read_hit_pct, 3);
    }
  }
}

TEST(ReadHitCurveTest, NoReadsGivesNoPoints) {
  IoLog log;
  log.path = "w.iolog";
  log.files = {"/dev/x"};
  log.entries.push_back({IoLogAction::kWrite, 0, 0, 0, kRhtBlock, 1});
  const ReadHitCurve c = ComputeReadHitCurve(log, kRhtBlock, true, {kRhtBlock});
  EXPECT_EQ(c.read_accesses, 0u);
  EXPECT_TRUE(c.points.empty());
}

TEST(ReadHitCurveTest, MrcCsvReadsBackWhatWasWritten) {
  ReadHitCurve a = ComputeReadHitCurve(RhtLog({0, 1, 2, 0, 1, 3, 0}, 9),
                                       kRhtBlock, true, {2 * kRhtBlock});
  a.workload = "trace-a";
  for (ReadHitPoint& p : a.points) {
    if (p.at_stack) p.modes = {"writeback", "dm-wb"};
  }
  ReadHitCurve b =
      ComputeReadHitCurve(RhtLog({0, 1, 2, 0}, 9), 32768, false, {});
  b.workload = "trace-a";
  std::ostringstream out;
  ReadHitCurvesTable({a, b}).Write(out);
  const std::vector<ReadHitCurve> back =
      ParseReadHitCurves(CsvDocument::Parse(out.str(), "mrc.csv"));
  ASSERT_EQ(back.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const ReadHitCurve& want = i == 0 ? a : b;
    SCOPED_TRACE(i);
    EXPECT_EQ(back[i].workload, "trace-a");
    EXPECT_EQ(back[i].warm, want.warm);
    EXPECT_EQ(back[i].block_bytes, want.block_bytes);
    EXPECT_EQ(back[i].rate, 1);
    ASSERT_EQ(back[i].points.size(), want.points.size());
    for (size_t k = 0; k < want.points.size(); ++k) {
      EXPECT_EQ(back[i].points[k].cache_bytes, want.points[k].cache_bytes);
      EXPECT_NEAR(back[i].points[k].lru_read_hit_pct,
                  want.points[k].lru_read_hit_pct, 5e-4);
      EXPECT_NEAR(back[i].points[k].opt_read_hit_pct,
                  want.points[k].opt_read_hit_pct, 5e-4);
      EXPECT_EQ(back[i].points[k].at_stack, want.points[k].at_stack);
      EXPECT_EQ(back[i].points[k].modes, want.points[k].modes);
    }
  }
  EXPECT_NE(out.str().find("schema_version,workload,state,block_bytes,"
                           "cache_bytes,lru_read_hit_pct,opt_read_hit_pct,"
                           "at_stack,modes,sample_rate\n"),
            std::string::npos);
  EXPECT_NE(out.str().find("\n1,trace-a,warm,4096,8192,"), std::string::npos);
}

TEST(ReadHitCurveTest, BadMrcCsvIsRefusedNamingFileAndRow) {
  const std::string header =
      "schema_version,workload,state,block_bytes,cache_bytes,"
      "lru_read_hit_pct,opt_read_hit_pct,at_stack,modes,sample_rate\n";
  const auto refuse = [&](const std::string& row, const std::string& what) {
    try {
      ParseReadHitCurves(CsvDocument::Parse(header + row, "run/mrc.csv"));
      ADD_FAILURE() << "accepted " << row;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("run/mrc.csv: row 2: " + what),
                std::string::npos)
          << e.what();
    }
  };
  refuse("2,t,warm,4096,8192,50,60,0,,1\n", "schema_version '2'");
  refuse("1,t,hot,4096,8192,50,60,0,,1\n", "state 'hot'");
  refuse("1,t,warm,4096,8192,x,60,0,,1\n", "lru_read_hit_pct 'x'");
  refuse("1,t,warm,4096,8192,50,60,2,,1\n", "at_stack '2'");
  refuse("1,t,warm,0,8192,50,60,0,,1\n", "block_bytes '0'");
  try {
    ParseReadHitCurves(CsvDocument::Parse(
        "schema_version,workload,state\n1,t,warm\n", "run/mrc.csv"));
    ADD_FAILURE() << "accepted a file without its columns";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("run/mrc.csv"), std::string::npos);
  }
}

}  // namespace
}  // namespace tierbench
