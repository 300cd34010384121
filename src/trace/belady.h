// BeladyOpt: the hit count of Belady's optimal replacement (MIN, Belady
// 1966) on a block access stream (trace/block_stream.h) at any cache size:
// an upper bound on the hits of every replacement policy that caches each
// block it misses (demand fetch). On a miss in a full cache MIN evicts the
// cached block whose next use is farthest in the future (never used again
// counts as farthest); the missed block always enters. A cache that may
// bypass (not insert) a block can do slightly better.
//
// The next use of every access is computed once, backwards (O(N)); each
// Hits(C) is one pass with an indexed max-heap of the cached blocks keyed by
// their next use: O(N log C). On a SHARDS sample (trace/block_stream.h
// SampleBlocks) at rate R, Hits(round(C * R)) / sampled accesses estimates
// the hit ratio at C ("miniature simulation", Waldspurger et al., USENIX
// ATC'17).
//
// Not thread-safe (Hits() reuses its buffers); the stream must outlive the
// object.
#ifndef TIERBENCH_TRACE_BELADY_H_
#define TIERBENCH_TRACE_BELADY_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tierbench {

class BeladyOpt {
 public:
  // `ids`: dense block ids below `distinct`, at most 2^32 - 2 of them.
  BeladyOpt(const std::vector<uint32_t>& ids, uint64_t distinct);

  // Hits of MIN with `cache_blocks` blocks (0 -> 0).
  uint64_t Hits(uint64_t cache_blocks);

 private:
  void SiftUp(size_t i);
  void SiftDown(size_t i);
  void Place(size_t i, std::pair<uint32_t, uint32_t> entry);

  const std::vector<uint32_t>& ids_;
  std::vector<uint32_t> next_;  // [t]: the next access of ids_[t]'s block
  // The heap of (next use, block) and each block's slot in it.
  std::vector<std::pair<uint32_t, uint32_t>> heap_;
  std::vector<uint32_t> slot_;  // kNotCached when not in the cache
};

}  // namespace tierbench

#endif  // TIERBENCH_TRACE_BELADY_H_
