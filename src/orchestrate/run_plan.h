// The run plan of `tierbench compare`: which cell runs when.
//
// A cell is one (mode, workload, repetition), record/cell.h. Repetitions
// are the outer loop, so an interrupted compare has whole rounds over every
// mode and workload rather than all repetitions of the first modes, and slow
// drift of the devices (SSD garbage collection, thermal) spreads over all modes
// instead of biasing one. Within a round, modes run in the order given, and
// within a mode the workloads in the order given (one mode switch per mode and
// round).
//
// Thread-safety: pure functions.
#ifndef TIERBENCH_ORCHESTRATE_RUN_PLAN_H_
#define TIERBENCH_ORCHESTRATE_RUN_PLAN_H_

#include <cstddef>
#include <vector>

#include "record/cell.h"

namespace tierbench {

// All cells in run order; empty when any count is 0.
std::vector<Cell> BuildRunPlan(size_t modes, size_t workloads, int repeat);

// The same without the cells `runs(mode, workload)` says no to (compare
// --workload-modes: a workload limited to some modes).
std::vector<Cell> BuildRunPlan(size_t modes, size_t workloads, int repeat,
                               const std::vector<std::vector<bool>>& runs);

// The same, with the workloads `db[w]` marks (DB workloads) moved to the
// end of each repetition and run mode after mode, one workload at a time,
// the modes of one target together (`mode_group[m]`: the same value for
// the modes of one stack or raw device; in mode order within a group,
// groups in the order their first mode comes): the cells of a stack's
// modes for one DB workload then follow each other, so they share one
// database load (orchestrate/db_keeper.h). The other workloads keep the
// order above (each mode's workloads in turn). A missing mode_group entry
// is a group of its own.
std::vector<Cell> BuildRunPlan(size_t modes, size_t workloads, int repeat,
                               const std::vector<std::vector<bool>>& runs,
                               const std::vector<bool>& db,
                               const std::vector<int>& mode_group = {});

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_RUN_PLAN_H_
