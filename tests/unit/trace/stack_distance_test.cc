// The exact LRU curve of trace/stack_distance.h against a brute-force LRU
// cache (a list, most recent first) on synthetic streams: the hit counts
// must be equal at every size, through the tree's compactions.
#include "trace/stack_distance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <vector>

#include "trace/block_stream.h"
#include "util/rng.h"

namespace tierbench {
namespace {

uint64_t BruteForceLruHits(const std::vector<uint32_t>& ids, size_t capacity) {
  std::list<uint32_t> cache;  // most recently used first
  uint64_t hits = 0;
  for (uint32_t id : ids) {
    auto it = std::find(cache.begin(), cache.end(), id);
    if (it != cache.end()) {
      ++hits;
      cache.erase(it);
    } else if (cache.size() == capacity) {
      cache.pop_back();
    }
    cache.push_front(id);
  }
  return hits;
}

// A stream over `blocks` blocks: skewed random accesses (a hot tenth gets
// most of them) mixed with short sequential runs; ids dense in first-access
// order as BuildBlockStream gives them.
std::vector<uint32_t> SyntheticStream(size_t n, uint32_t blocks, uint64_t seed,
                                      uint64_t* distinct) {
  Rng rng(seed);
  std::vector<uint32_t> raw;
  while (raw.size() < n) {
    const uint64_t kind = rng.Uniform(10);
    if (kind < 6) {
      raw.push_back(static_cast<uint32_t>(rng.Uniform(blocks / 10 + 1)));
    } else if (kind < 9) {
      raw.push_back(static_cast<uint32_t>(rng.Uniform(blocks)));
    } else {
      const uint32_t start = static_cast<uint32_t>(rng.Uniform(blocks));
      for (uint32_t i = 0; i < 16 && raw.size() < n; ++i) {
        raw.push_back((start + i) % blocks);
      }
    }
  }
  std::vector<uint32_t> dense(blocks, UINT32_MAX);
  std::vector<uint32_t> ids;
  *distinct = 0;
  for (uint32_t b : raw) {
    if (dense[b] == UINT32_MAX) dense[b] = static_cast<uint32_t>((*distinct)++);
    ids.push_back(dense[b]);
  }
  return ids;
}

TEST(StackDistanceTest, ExactCurveEqualsBruteForceLruAtFiveSizes) {
  uint64_t distinct = 0;
  // 3000 blocks: the tree holds 6000 times, so 40000 accesses compact it
  // several times.
  const std::vector<uint32_t> ids = SyntheticStream(40000, 3000, 7, &distinct);
  const MissRatioCurve mrc(ExactStackDistances(ids, distinct));
  EXPECT_EQ(mrc.histogram().accesses, ids.size());
  EXPECT_EQ(mrc.histogram().cold, distinct);
  for (size_t capacity : {1u, 17u, 100u, 640u, 2999u}) {
    SCOPED_TRACE(capacity);
    EXPECT_EQ(mrc.Hits(capacity),
              static_cast<double>(BruteForceLruHits(ids, capacity)));
  }
  // At the footprint only the cold misses are left.
  EXPECT_EQ(mrc.Hits(distinct), static_cast<double>(ids.size() - distinct));
  EXPECT_EQ(mrc.HitRatio(0), 0);
}

TEST(StackDistanceTest, SmallStreamsThroughTheMinimumTree) {
  // Few blocks: the tree's minimum of 1024 times compacts every ~1000
  // accesses.
  uint64_t distinct = 0;
  const std::vector<uint32_t> ids = SyntheticStream(20000, 40, 3, &distinct);
  const MissRatioCurve mrc(ExactStackDistances(ids, distinct));
  for (size_t capacity : {1u, 2u, 5u, 20u, 39u}) {
    SCOPED_TRACE(capacity);
    EXPECT_EQ(mrc.Hits(capacity),
              static_cast<double>(BruteForceLruHits(ids, capacity)));
  }
}

TEST(StackDistanceTest, DistancesOfAHandWrittenStream) {
  // a b c a b b d a: distances -, -, -, 2, 2, 0, -, 2.
  const std::vector<uint32_t> ids = {0, 1, 2, 0, 1, 1, 3, 0};
  const StackDistanceHistogram h = ExactStackDistances(ids, 4);
  EXPECT_EQ(h.cold, 4u);
  ASSERT_EQ(h.counts.size(), 3u);
  EXPECT_EQ(h.counts[0], 1u);
  EXPECT_EQ(h.counts[1], 0u);
  EXPECT_EQ(h.counts[2], 3u);
  EXPECT_TRUE(h.exact());
}

TEST(StackDistanceTest, ShardsAdjustmentAddsTheMissingSamplesAtDistanceZero) {
  // 10 accesses sampled of 1000 at R = 0.02: 10 expected samples more
  // count as hits at every size (0.02 * 1000 - 10 = 10), scaled by 1 / R.
  const std::vector<uint32_t> ids = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
  const MissRatioCurve mrc(ShardsStackDistances(ids, 2, 0.02, 1000));
  EXPECT_FALSE(mrc.histogram().exact());
  EXPECT_DOUBLE_EQ(mrc.histogram().adjustment, 10);
  // Distance 0 only: 8 sampled hits + 10 adjustment = 18 / 0.02 = 900.
  EXPECT_DOUBLE_EQ(mrc.Hits(1), 900);
  EXPECT_DOUBLE_EQ(mrc.HitRatio(1000), 0.9);
  EXPECT_EQ(mrc.Hits(0), 0);
}

TEST(StackDistanceTest, ShardsSamplesWholeBlocksAtTheRate) {
  BlockStream s;
  for (uint32_t i = 0; i < 100000; ++i) {
    s.keys.push_back(i * 7919ULL);
    s.ids.push_back(i);
    s.ids.push_back(i);
  }
  const uint64_t t = ShardsThreshold(0.01);
  EXPECT_EQ(t, 167772u);  // round(0.01 * 2^24)
  const BlockStream sample = SampleBlocks(s, t);
  // Both accesses of a sampled block are in the sample, renumbered 0, 1, ...
  EXPECT_EQ(sample.accesses(), 2 * sample.distinct());
  EXPECT_NEAR(static_cast<double>(sample.distinct()), 1000, 150);
  for (size_t i = 0; i < sample.ids.size(); ++i) {
    EXPECT_EQ(sample.ids[i], i / 2);
    EXPECT_TRUE(ShardsSampled(sample.keys[i / 2], t));
  }
  EXPECT_EQ(ShardsThreshold(1), kShardsModulus);
  EXPECT_EQ(ShardsThreshold(1e-12), 1u);
}

}  // namespace
}  // namespace tierbench
