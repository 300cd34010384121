// trace/belady.h against a brute-force Belady MIN: on a miss in a full
// cache, scan the cached blocks for the one whose next use is farthest
// (never counts as farthest), O(N * C * N) on a small stream.
#include "trace/belady.h"

#include <gtest/gtest.h>

#include <vector>

#include "util/rng.h"

namespace tierbench {
namespace {

uint64_t BruteForceBeladyHits(const std::vector<uint32_t>& ids,
                              size_t capacity) {
  std::vector<uint32_t> cache;
  uint64_t hits = 0;
  for (size_t t = 0; t < ids.size(); ++t) {
    bool hit = false;
    for (uint32_t c : cache) hit = hit || c == ids[t];
    if (hit) {
      ++hits;
      continue;
    }
    if (cache.size() == capacity) {
      size_t victim = 0, farthest = 0;
      for (size_t i = 0; i < cache.size(); ++i) {
        size_t next = t + 1;
        while (next < ids.size() && ids[next] != cache[i]) ++next;
        if (next > farthest || i == 0) {
          farthest = next;
          victim = i;
        }
      }
      cache.erase(cache.begin() + static_cast<long>(victim));
    }
    cache.push_back(ids[t]);
  }
  return hits;
}

TEST(BeladyTest, HitsEqualBruteForceBeladyAtSeveralSizes) {
  Rng rng(11);
  std::vector<uint32_t> ids;
  // 3000 accesses over 200 blocks, a hot quarter taking most of them.
  for (int i = 0; i < 3000; ++i) {
    ids.push_back(static_cast<uint32_t>(
        rng.Uniform(10) < 7 ? rng.Uniform(50) : rng.Uniform(200)));
  }
  BeladyOpt opt(ids, 200);
  for (size_t capacity : {1u, 2u, 7u, 30u, 64u, 150u, 200u, 500u}) {
    SCOPED_TRACE(capacity);
    EXPECT_EQ(opt.Hits(capacity), BruteForceBeladyHits(ids, capacity));
  }
  EXPECT_EQ(opt.Hits(0), 0u);
}

TEST(BeladyTest, HandWrittenStream) {
  // a b c a d b a with 2 blocks: miss a, b; c evicts b (next use 5, later
  // than a's 3); a hits; d evicts c (never again); b evicts d; a hits.
  const std::vector<uint32_t> ids = {0, 1, 2, 0, 3, 1, 0};
  BeladyOpt opt(ids, 4);
  EXPECT_EQ(opt.Hits(2), 2u);
  EXPECT_EQ(opt.Hits(4), 3u);  // all but the 4 cold misses
  EXPECT_EQ(opt.Hits(1), 0u);
}

}  // namespace
}  // namespace tierbench
