// ReadHitCurve: the read hit ratio an LRU cache and Belady's optimal cache
// (OPT, trace/belady.h) reach on the reads of a replayed trace, at every
// cache size of a grid and at the cache sizes of the compared stacks: what
// `tierbench compare` puts beside each cache cell's measured
// read_hit_ratio_pct (mrc.csv, `tierbench report`'s chart and verdict).
//
// Definitions:
//  - the stream is the trace's READ requests (tracefile/iolog.h) as block
//    accesses of `block_bytes` (trace/block_stream.h), the trace's files
//    merged into one (a compare replays them all onto the cell's target at
//    their offsets); writes are not
//    simulated (a cache that inserts written blocks may hit more reads);
//    a ratio is hits / read block accesses of one pass, in percent, cold
//    misses included;
//  - cold: one pass of the stream from an empty cache;
//  - warm: the second pass of the stream replayed twice, so the cache
//    enters it in the state one full pass left (a warm-until-steady cell
//    was warmed by at least one pass). For LRU that state is the same after
//    any number of passes. For OPT the cache enters the pass holding the
//    C blocks first used earliest in it (the best state any policy could
//    have left: MIN from the best start), and MIN runs the pass;
//  - exact when passes x read accesses <= `exact_limit`, else SHARDS_adj
//    (trace/stack_distance.h) at R = exact_limit / (passes x accesses) for
//    LRU and MIN on the sample with the cache scaled by R for OPT (a
//    sampled OPT figure is raised to the LRU estimate where it falls below);
//  - the sizes: trace/trace_profile.h TraceMrcGrid at half-octave steps
//    (every second point), the footprint, and every `stack_cache_bytes`
//    (as given; its whole blocks count), which carry at_stack.
//
// ReadHitCurvesTable / ParseReadHitCurves: mrc.csv (results/README.md),
// schema_version 1: workload, state (cold, warm), block_bytes, cache_bytes,
// lru_read_hit_pct, opt_read_hit_pct, at_stack (1 or 0), modes (the cache
// modes whose stack has this cache_bytes and block size, ';'-joined),
// sample_rate (1 when exact).
//
// Errors: ConfigError from trace/block_stream.h; ParseReadHitCurves throws
// ConfigError naming the file and row. Pure; thread-safe.
#ifndef TIERBENCH_TRACE_READ_HIT_CURVE_H_
#define TIERBENCH_TRACE_READ_HIT_CURVE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_profile.h"
#include "tracefile/iolog.h"
#include "util/csv_reader.h"
#include "util/csv_writer.h"

namespace tierbench {

struct ReadHitPoint {
  uint64_t cache_bytes = 0;
  double lru_read_hit_pct = 0;
  double opt_read_hit_pct = 0;
  bool at_stack = false;
  std::vector<std::string> modes;  // the cache modes measured at this size
};

struct ReadHitCurve {
  std::string workload;
  bool warm = false;
  uint32_t block_bytes = 4096;
  uint64_t read_accesses = 0;  // read block accesses of one pass
  uint64_t distinct_blocks = 0;
  double rate = 1;                   // SHARDS rate; 1 when exact
  std::vector<ReadHitPoint> points;  // by cache_bytes, ascending

  // The point at exactly `cache_bytes`; null when there is none.
  const ReadHitPoint* At(uint64_t cache_bytes) const;
};

// The curve of `log`'s reads (see above). `block_bytes` > 0.
ReadHitCurve ComputeReadHitCurve(const IoLog& log, uint32_t block_bytes,
                                 bool warm,
                                 const std::vector<uint64_t>& stack_cache_bytes,
                                 uint64_t exact_limit = kDefaultExactLimit);

inline constexpr int kMrcCsvSchemaVersion = 1;
const std::vector<std::string>& MrcCsvColumns();
CsvTable ReadHitCurvesTable(const std::vector<ReadHitCurve>& curves);
// The curves of an mrc.csv, in file order (a curve is a run of rows of one
// workload, state and block size). Throws ConfigError naming `doc.label()`
// for a missing column, another schema_version or a bad value.
std::vector<ReadHitCurve> ParseReadHitCurves(const CsvDocument& doc);

}  // namespace tierbench

#endif  // TIERBENCH_TRACE_READ_HIT_CURVE_H_
