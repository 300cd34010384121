// BlockStream: a block IO trace as the stream of block accesses a cache sees.
// Each read or write of the trace (tracefile/iolog.h) touches the blocks of
// `block_size` bytes it overlaps, in order: a request of k blocks is k
// accesses. A block is (file of the trace, offset / block_size); blocks get
// dense ids 0, 1, 2, ... in the order of their first access, so the
// algorithms above (trace/stack_distance.h, trace/belady.h) index arrays
// instead of hashing.
//
// SampleBlocks() is SHARDS' spatial sampling (Waldspurger, Park, Garthwaite
// and Ahmad, "Efficient MRC Construction with SHARDS", FAST'15), fixed
// rate: a block is sampled when hash(block) mod P < T, with P = 2^24 and
// T = round(R * P), so either every access of a block is in the sample or
// none is. The hash is util/rng.h's Mix64 of the block's key.
//
// Errors: ConfigError "<trace>: ... Fix: ..." when the trace has more than
// 2^32 - 2 block accesses or distinct blocks (the arrays are 32-bit) or its
// block numbers times its file count overflow 64 bits. Pure; thread-safe.
#ifndef TIERBENCH_TRACE_BLOCK_STREAM_H_
#define TIERBENCH_TRACE_BLOCK_STREAM_H_

#include <cstdint>
#include <vector>

#include "tracefile/iolog.h"

namespace tierbench {

struct BlockStream {
  uint32_t block_size = 4096;
  // One dense block id per access, in trace order.
  std::vector<uint32_t> ids;
  // keys[id]: the block's key, block_number * file_count + file.
  std::vector<uint64_t> keys;

  uint64_t accesses() const { return ids.size(); }
  uint64_t distinct() const { return keys.size(); }
};

// The block accesses of the reads and writes of `log` (other entries are
// skipped). `block_size` > 0.
BlockStream BuildBlockStream(const IoLog& log, uint32_t block_size);

// SHARDS' modulus P and the threshold T of a rate R in (0, 1]: round(R * P),
// at least 1.
inline constexpr uint64_t kShardsModulus = uint64_t{1} << 24;
uint64_t ShardsThreshold(double rate);
// True when SHARDS samples the block with this key at threshold `t`.
bool ShardsSampled(uint64_t key, uint64_t threshold);

// The accesses of `in` whose block is sampled at `threshold` (ShardsSampled),
// in order, with the sampled blocks renumbered densely (keys kept).
BlockStream SampleBlocks(const BlockStream& in, uint64_t threshold);

}  // namespace tierbench

#endif  // TIERBENCH_TRACE_BLOCK_STREAM_H_
