// Diagnosis of a finished compare cell.
// DiagnoseMeasurement: the rules of the measurement itself, for every cell,
// raw or cached:
//   no-io         a job with no IO in the measured window (a size-bound job
//                 done within ramp_time): its 0 IOPS is no figure.
// DiagnoseCell: the generic rules that hold for every cache layer, around
// the layer's own rules (CacheLayer::Diagnose):
//   dirty-before  dirty data was left before the cell (drain timed out):
//                 writeback of earlier cells competed with this cell;
//   <the layer's rules>
//   dirty-after   dirty data still left when the post-cell drain timed out.
// Raw cells (no layer) get no counter rules.
//
// Thread-safety: pure functions (the layer's Diagnose is const).
#ifndef TIERBENCH_ORCHESTRATE_DIAGNOSIS_H_
#define TIERBENCH_ORCHESTRATE_DIAGNOSIS_H_

#include <functional>
#include <string>
#include <vector>

#include "cache/cache_layer.h"
#include "cache/cell_observation.h"
#include "stats/job_result.h"

namespace tierbench {

// The measurement's warnings for the jobs of `result`, in job order, each
// one line without ";".
std::vector<std::string> DiagnoseMeasurement(const RunResult& result);

// All warnings for the cell, in rule order, each one line without ";".
// `layer` is null for raw cells.
std::vector<std::string> DiagnoseCell(const CellObservation& obs,
                                      const CacheLayer* layer);

// The same with the layer's rules given as a function (tests; null: raw).
using LayerRulesFn =
    std::function<std::vector<std::string>(const CellObservation&)>;
std::vector<std::string> DiagnoseCellWith(const CellObservation& obs,
                                          const LayerRulesFn& layer_rules);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_DIAGNOSIS_H_
