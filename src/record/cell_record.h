// CellRecord: what the protocol (orchestrate/cell_runner.h) recorded about
// one finished cell of `tierbench compare`, and what every reporter reads
// of it (record/reporter.h): the cell, its mode and workload, the layer's
// read-back and counters, the timings, the result, the per-second series,
// the machine's evidence and the findings the validity rules drew from it.
// A plain value: it holds no state of the run that made it.
#ifndef TIERBENCH_RECORD_CELL_RECORD_H_
#define TIERBENCH_RECORD_CELL_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cache/cache_layer.h"
#include "cache/mode_spec.h"
#include "db/db_cell.h"
#include "record/cell.h"
#include "record/cell_series.h"
#include "record/compare_setup.h"
#include "util/finding.h"
#include "validity/cell_evidence.h"
#include "workload/job_result.h"

namespace tierbench {

// Everything recorded about one finished cell. Numbers that are unknown
// hold -1 where the comment says so.
struct CellRecord {
  Cell cell;
  const ModeSpec* mode = nullptr;
  const PreparedWorkload* workload = nullptr;
  std::string target;       // the path the workload ran on
  std::string cache_state;  // cold|warm|as-is; "" for raw cells
  // Cache cells: what the layer showed after the mode was applied.
  LayerReadback readback;
  StackInfo stack;
  int warm_passes = 0;  // prefill passes (warm) or chunks (steady)
  // warm-until-steady: seconds from cold to steady (or to --warm-max), the
  // share of the last chunk's reads served without the origin (-1: none),
  // steady reached (-1: n/a).
  double warm_s = -1;
  double warm_hit_pct = -1;
  int warm_steady = -1;
  // The cache was settled before the run (warmed until steady, or
  // prefilled until the layer stopped promoting): CellObservation::settled.
  bool settled = false;
  std::string state_before;  // the layer's state right before the run
  bool has_counters = false;
  LayerDelta delta;
  // The counters "before" and "after" as the kernel printed them
  // (LayerCounters::raw), for evidence.jsonl.
  std::string counters_raw_before, counters_raw_after;
  double drain_before_s = -1;
  // DB cells on a stack: the drain of the database load's dirty data
  // (before the measured run); -1 when none ran.
  double drain_load_s = -1;
  double drain_after_s = -1;
  bool drain_before_timed_out = false;
  bool drain_after_timed_out = false;
  uint64_t dirty_left_after_drain = 0;
  // Seconds: the measured workload's wall time (its call to its return;
  // -1 when not run), the IO of prefill passes / warm-up chunks, and the
  // whole cell.
  double io_s = -1;
  double warm_io_s = 0;
  // Seconds after the IO stop at which the counters "after" were read: 0
  // when they do not lag; else the first fold seen after the stop, or
  // --stats-lag.
  double counters_after_s = 0;
  double cell_wall_s = -1;
  RunResult result;
  DbCellInfo db_info;  // DB workloads
  // Everything the rules concluded, in rule order (util/finding.h); the
  // warnings are their texts, the validity follows from their severities.
  std::vector<Finding> findings;
  HostEvidence host;  // the machine over the measured window
  std::string error;  // the workload failed (RunError/DbError)
  CellSeries series;  // the per-second picture (series.csv)

  const std::string& layer() const { return mode->layer; }
  std::vector<std::string> Warnings() const { return FindingTexts(findings); }
  Validity validity() const { return ValidityOf(findings); }
  // Wall time that was neither IO nor draining, in % of cell_wall_s; -1
  // when unknown.
  double HarnessOverheadPct() const;
};

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_CELL_RECORD_H_
