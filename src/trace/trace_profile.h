// TraceProfile: what `tierbench trace-stats` reports on a block IO trace
// (a fio iolog, tracefile/iolog.h): its footprint, read/write mix, request
// sizes, sequential share, the histogram of its LRU stack (reuse)
// distances, the LRU miss-ratio curve and Belady's optimal (OPT) hit ratio
// at the cache sizes asked for.
//
// Definitions:
//  - requests are the trace's reads and writes (sync, datasync and trim
//    entries are counted apart); a request is sequential when it starts
//    where the previous request of the same direction on the same file
//    ended;
//  - request sizes go into log2 buckets named by their upper bound:
//    "8KiB" holds the sizes in (4KiB, 8KiB];
//  - blocks are `block_size` bytes; a request of k blocks is k block
//    accesses (trace/block_stream.h); the footprint is the distinct blocks
//    times the block size;
//  - ratios (LRU and OPT) are per block access, cold misses included;
//  - the stack distance of an access is the number of distinct other
//    blocks accessed since its block's previous access
//    (trace/stack_distance.h), in log2 buckets: 0, 1, 2-3, 4-7, ...
//  - exact when the trace has at most `exact_limit` block accesses and no
//    sample rate is given; otherwise SHARDS_adj at the rate given (or at
//    R = exact_limit / accesses, a sample as large as the largest exact
//    run) estimates the LRU curve and the stack distances (scaled by
//    1 / R) and OPT runs on the sample with the cache scaled by R
//    (trace/belady.h).
//
// The curve holds the sizes of TraceMrcGrid(), the footprint and each
// requested size (as given; its whole blocks count); only requested sizes
// carry an OPT ratio.
//
// Errors: ConfigError from trace/block_stream.h. Pure; thread-safe.
#ifndef TIERBENCH_TRACE_TRACE_PROFILE_H_
#define TIERBENCH_TRACE_TRACE_PROFILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tracefile/iolog.h"
#include "util/csv_writer.h"
#include "util/io_dir.h"

namespace tierbench {

inline constexpr uint64_t kDefaultExactLimit = 20'000'000;

struct TraceStatsOptions {
  uint32_t block_size = 4096;  // > 0
  // Above this many block accesses the curve is sampled (SHARDS).
  uint64_t exact_limit = kDefaultExactLimit;
  // In (0, 1]: SHARDS at this rate whatever the size; 0: see exact_limit.
  double sample_rate = 0;
  // Bytes; the OPT hit ratio is computed at each.
  std::vector<uint64_t> cache_sizes;
};

struct TraceSizeBucket {
  uint64_t max_bytes = 0;  // sizes in (max_bytes / 2, max_bytes]
  uint64_t requests = 0;
};

struct TraceReuseBucket {
  uint64_t first = 0, last = 0;  // stack distances (blocks), inclusive
  double accesses = 0;           // scaled by 1 / R when sampled
};

struct TraceMrcPoint {
  uint64_t cache_bytes = 0;
  double lru_hit_ratio = 0;
  std::optional<double> opt_hit_ratio;  // at requested sizes only
  bool requested = false;
};

struct TraceProfile {
  std::string path;
  int version = 3;
  // The trace's format as the first line names it ("MSR Cambridge CSV
  // (detected), volume hm_0"); empty: "fio iolog v<version>".
  std::string format;
  uint64_t requests[kNumDirs] = {0, 0};
  uint64_t bytes[kNumDirs] = {0, 0};
  uint64_t sequential[kNumDirs] = {0, 0};
  uint64_t other_entries = 0;        // sync, datasync, trim
  std::optional<double> duration_s;  // v3: last - first timestamp
  std::vector<TraceSizeBucket> sizes;

  uint32_t block_size = 4096;
  uint64_t accesses = 0;         // block accesses
  uint64_t distinct_blocks = 0;  // exact, also when sampled
  double rate = 1;               // SHARDS rate T / P; 1 when exact
  uint64_t sampled_accesses = 0;
  double cold_accesses = 0;  // first accesses (scaled when sampled)
  std::vector<TraceReuseBucket> reuse;
  std::vector<TraceMrcPoint> curve;  // by cache_bytes

  bool exact() const { return rate == 1; }
  uint64_t footprint_bytes() const {
    return distinct_blocks * static_cast<uint64_t>(block_size);
  }
};

TraceProfile ProfileTrace(const IoLog& log, const TraceStatsOptions& options);

// The curve's grid (blocks): round(2^(k/4)) for k = 0, 1, ... below
// `distinct_blocks`, from ShardsSmallestCache(rate) up
// (trace/stack_distance.h), without repeats.
std::vector<uint64_t> TraceMrcGrid(uint64_t distinct_blocks, double rate);

// The one-screen text report (ends with a newline).
std::string FormatTraceProfile(const TraceProfile& profile);

// The curve as CSV (util/csv_writer.h): schema_version, cache_bytes,
// lru_miss_ratio, lru_hit_ratio, opt_hit_ratio (empty where not requested);
// ratios with 6 decimals.
inline constexpr int kTraceMrcSchemaVersion = 1;
CsvTable TraceMrcTable(const TraceProfile& profile);

}  // namespace tierbench

#endif  // TIERBENCH_TRACE_TRACE_PROFILE_H_
