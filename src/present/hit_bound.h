// HitBound: each cache cell's measured read hit ratio beside what LRU and
// Belady's OPT reach at its cache size on the same stream (mrc.csv, trace/
// read_hit_curve.h), for the verdict and the report's read-hits chart.
//
// A cell is put against a curve when mrc.csv names its mode at a point
// (the point at its stack's cache_bytes, in its stack's cache block size)
// and its state matches the curve's (cold with cold; warm or
// warm-until-steady with warm). Cells that failed, were judged invalid
// (comparison.csv valid = no) or drifted are left out, as the verdict
// leaves them unranked, except a cell against a cold curve that is invalid
// only because its cache was cold ("cold-reads", "<layer>.cold": its
// throughput is the origin's): its read hits are a cold cache's, what the
// curve models. Against a cold curve a drifted cell keeps its point too: a
// cold cell's rate rises as its cache fills, the one pass from an empty
// cache the curve models (drift says "not steady", which a cold cell never
// claims). The measured figure is the median read_hit_ratio_pct
// over the repetitions (RunFolder::ReadHitPct); a layer that counts no read
// hits gives none. A cell with a bypass finding (bcache.cutoff,
// bcache.bypass, bcache.congestion) is marked: its reads that went past the
// cache were never the policy's to hit.
//
// The verdict line of a cell (one per cell, after the workload's line):
//   "<workload>: bcache writeback (1 GiB cache) reached 61% read hits; LRU
//   at this size 72%, OPT 84% (warm, 32KiB blocks)."
// with "; validity unknown" before the ")" for a cell of unknown validity.
// Pure over the run folder; thread-safe.
#ifndef TIERBENCH_PRESENT_HIT_BOUND_H_
#define TIERBENCH_PRESENT_HIT_BOUND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "present/run_folder.h"
#include "present/verdict.h"
#include "trace/read_hit_curve.h"

namespace tierbench {

struct HitBoundCell {
  std::string mode, layer;
  uint64_t cache_bytes = 0;
  std::optional<double> measured_pct;  // empty: the layer reported none
  double lru_pct = 0, opt_pct = 0;
  bool warm = false;
  uint32_t block_bytes = 4096;
  double rate = 1;  // the curve's SHARDS rate; 1 when exact
  // comparison.csv valid = unknown: the verdict ranks it and marks it.
  bool validity_unknown = false;
  // The bypass rules the cell was flagged with ("bcache.cutoff", ...).
  std::vector<std::string> bypass_rules;
};

// The curves of `workload` in mrc.csv (empty without one).
std::vector<const ReadHitCurve*> HitBoundCurves(const RunFolder& run,
                                                const std::string& workload);
// The cells of `workload` put against its curves (see above), in mrc.csv
// order.
std::vector<HitBoundCell> HitBoundCells(const RunFolder& run,
                                        const std::string& workload);
// One verdict line per cell.
std::vector<VerdictLine> HitBoundLines(const RunFolder& run,
                                       const std::string& workload);
// "bcache writeback" for mode "writeback" of layer bcache; the mode alone
// when it starts with its layer's name ("bcache-wb").
std::string HitBoundName(const HitBoundCell& cell);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_HIT_BOUND_H_
