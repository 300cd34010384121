// LRU stack distances of a block access stream (trace/block_stream.h) and
// the miss-ratio curve they give, exact or from a SHARDS sample.
//
// The stack distance of an access is the number of distinct other blocks
// accessed since the previous access of the same block (Mattson et al.,
// 1970); a first access has none (cold). An LRU cache of C blocks hits
// exactly the accesses whose distance is < C, so one pass gives the hit
// ratio at every size. ExactStackDistances() counts them in O(N log M)
// time for N accesses of M distinct blocks: a Fenwick tree over access
// times holds a 1 at the latest access of each block, and the distance is
// the number of ones after the block's previous access (Bennett and Kruskal,
// 1975). Times are renumbered (compacted) whenever they reach 2 M, so the
// tree stays O(M) and in cache.
//
// With SHARDS (Waldspurger et al., FAST'15; trace/block_stream.h
// SampleBlocks) the histogram holds the distances of the sampled stream at
// rate R; a sampled distance d stands for d / R, each sampled access for
// 1 / R accesses. SHARDS_adj, the paper's adjusted variant, corrects for
// the sample holding more or fewer accesses than expected (a hot block that
// happens to be sampled or not): the difference R * N - N_sampled is added
// to the count at distance 0, so the curve's total is N again. Between the
// steps k / R of the sampled curve the hits are interpolated linearly: a
// sampled distance d stands for the real distances ((d - 1) / R, d / R].
// A sample resolves cache sizes of many steps only: below ~100 / R blocks
// (R times the size: the sampled blocks such a cache holds) the curve
// depends on which of the hottest blocks happen to be sampled. On zipf:1.2
// streams of 10 M accesses over 312 K blocks (7 seeds, R = 0.1 and 0.01)
// the largest error against the exact curve at sizes from k / R blocks up
// was 0.35 (k = 1), 0.13 (k = 4), 0.054 (k = 16), 0.019 (k = 64) and
// 0.014 (k = 100). Sampled curves therefore start at ShardsSmallestCache(R)
// = 100 / R blocks.
//
// Pure functions and value types; thread-safe.
#ifndef TIERBENCH_TRACE_STACK_DISTANCE_H_
#define TIERBENCH_TRACE_STACK_DISTANCE_H_

#include <cstdint>
#include <vector>

namespace tierbench {

struct StackDistanceHistogram {
  // counts[d]: accesses (of the sample) at stack distance d.
  std::vector<uint64_t> counts;
  uint64_t cold = 0;      // first accesses of a block (of the sample)
  uint64_t sampled = 0;   // accesses the histogram holds (cold included)
  uint64_t accesses = 0;  // accesses of the whole stream
  double rate = 1;        // SHARDS rate R = T / P; 1 when exact
  // SHARDS_adj: R * accesses - sampled (0 when exact).
  double adjustment = 0;

  bool exact() const { return rate == 1 && sampled == accesses; }
};

// The stack distance of every access of `ids` (dense block ids below
// `distinct`). rate 1, accesses = sampled = ids.size().
StackDistanceHistogram ExactStackDistances(const std::vector<uint32_t>& ids,
                                           uint64_t distinct);

// The histogram of a SHARDS sample (ids/distinct of the sampled stream) at
// `rate` of a stream of `accesses` accesses, with SHARDS_adj's adjustment.
StackDistanceHistogram ShardsStackDistances(const std::vector<uint32_t>& ids,
                                            uint64_t distinct, double rate,
                                            uint64_t accesses);

// The smallest cache (blocks) a curve sampled at `rate` is given for:
// 100 / R, rounded up; 1 when exact (rate 1).
inline constexpr double kShardsMinSteps = 100;
uint64_t ShardsSmallestCache(double rate);

// The LRU hit ratio at every cache size, from a histogram.
class MissRatioCurve {
 public:
  explicit MissRatioCurve(StackDistanceHistogram histogram);

  // Hits of an LRU cache of `cache_blocks` blocks, in accesses of the whole
  // stream: exact, or the sample's (interpolated) hits plus the adjustment,
  // divided by R.
  double Hits(uint64_t cache_blocks) const;
  // Hits / accesses, in [0, 1]; 0 for an empty stream or a 0-block cache.
  double HitRatio(uint64_t cache_blocks) const;
  double MissRatio(uint64_t cache_blocks) const {
    return 1 - HitRatio(cache_blocks);
  }

  const StackDistanceHistogram& histogram() const { return histogram_; }

 private:
  StackDistanceHistogram histogram_;
  std::vector<uint64_t> cumulative_;  // [k]: accesses at distance < k
};

}  // namespace tierbench

#endif  // TIERBENCH_TRACE_STACK_DISTANCE_H_
