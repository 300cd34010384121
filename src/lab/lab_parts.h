// `tierbench lab --guests N`: one lab run split over N guests that run at
// once, then merged into one run folder (lab/lab_merge.h).
//
// Why: a lab cell waits on the emulated disks (the dilated HDD's ~38 IOPS,
// a DB cell's checkpoint, writeback's flush), not on the host's CPU, which
// stays mostly idle (85 % idle while one guest ran the demo). Guests side by
// side therefore take about as long as the longest of them.
//
// SplitLabRun cuts the run into units, one per (layer, kind): the cache
// modes of one layer over its fio workloads, the same over its DB
// workloads, and the raw modes (hdd, ssd) over the fio or DB workloads.
// Each unit knows its cells (the workloads' --workload-modes respected) and
// a cost estimate (kind and layer decide: a raw fio cell ~6 s, a cache fio
// cell with its warm-up ~35 s, a DB cell ~75 s in the lab). A DB unit that
// alone costs more than a guest's fair share (all units' cost / N) is cut
// in two, its modes dealt alternately (none, writethrough | writeback,
// writearound; named db1 and db2, a half of a half db1.2), each half
// loading its own database, until none does or every half has one mode. The
// units go to the guests, costliest first, each to the guest with the least
// cost so far (longest processing time first); a raw unit goes with a guest
// that builds a stack, so every part has one. A part gets its units' layers,
// mode files and workload files, and --workload-modes entries that name exactly
// its cells; the other compare arguments pass unchanged. Beside parts with DB
// cells, the parts without run their QEMU at niceness 5: a DB cell in writeback
// is bound by the emulated CPU, the fio cells wait on their throttled disks.
//
// RunLabParts runs each part as a LabRunner in its own thread, into
// <results>/<run-id>/parts/<part>/, the parts with DB cells first, then
// the costliest. The first part starts first; with --dilation auto or full
// the others start once its guest has timed its CPU, with its factor
// fixed (so every part's disks have the same limits and the raw baselines
// of one part frame the cache cells of another), and at once with off or a
// given factor. Then the parts are merged
// (MergeLabParts). A part that fails fails the run after the others ended:
// the parts that wrote a run folder (a failed compare writes one) are
// merged as far as they got, then its error is thrown (the first part's
// first).
//
// Errors: ConfigError (a mode or workload file that cannot be read, or a
// --workload-modes entry naming an unknown workload), and whatever
// LabRunner::Run throws.
// Thread-safety: SplitLabRun is pure; RunLabParts calls `out` from the
// parts' threads, one call at a time.
#ifndef TIERBENCH_LAB_LAB_PARTS_H_
#define TIERBENCH_LAB_LAB_PARTS_H_

#include <functional>
#include <string>
#include <vector>

#include "lab/lab_merge.h"
#include "lab/lab_runner.h"

namespace tierbench {

struct LabPart {
  std::string name;  // "p1-bcache-db": its index and its units
  LabOptions options;
  double cost = 0;  // estimated seconds of cells
  int cells = 0;
};

// At most `guests` parts of `o` (fewer when the run has fewer units); one
// part, `o` itself, when guests <= 1.
std::vector<LabPart> SplitLabRun(const LabOptions& o, int guests);

struct LabPartsOutcome {
  std::vector<LabOutcome> parts;  // in the order of `parts`
  MergedLabRun merged;
};

// The mode and workload names of `o`, in its order (the merged folder's).
LabRunOrder RunOrderOf(const LabOptions& o);

// Runs `parts` side by side and merges them into <results>/<run_id>, rows
// in `order`. `out` gets every part's guest output (the compare's notices,
// tables and verdict), prefixed "[<part>] "; the lab's own notices name
// the part too ("lab [<part>]: booting ...", LabOptions::log_label).
// ConfigError when <results>/<run_id> exists (nothing started).
LabPartsOutcome RunLabParts(const std::vector<LabPart>& parts,
                            const LabRunOrder& order,
                            const std::string& results_dir,
                            const std::string& run_id,
                            const std::function<void(const std::string&)>& out);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_PARTS_H_
