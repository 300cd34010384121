// evidence.jsonl of a compare run: one JSON object per finished cell, in
// cell order, with the text the kernel printed that the cell's validity
// was judged from, so a verdict can be checked (and the rules replayed)
// from the run folder alone:
//   {"schema_version": 1, "mode", "layer", "workload", "repetition",
//    "cache_state", "cache_mode" (as read back), "settled" (bool),
//    "target" (the kernel's device name), "window_s",
//    "proc_stat": [start, end]   the "cpu" lines of /proc/stat,
//    "stat": {"<dev>": [start, end]}   /sys/class/block/<dev>/stat lines of
//                                       the target and the disks under it,
//    "counters": [before, after]  the layer's counters as printed (a dm
//                                 status line, bcache's stats_total
//                                 name=value lines); absent for raw cells,
//    "cache_bytes", "region_bytes", "ios" (the cell's measured IOs, or
//    transactions), "finding_rules", "valid"}
// Rewritten whole after every cell (temporary file + rename), like
// runs.csv. Errors: SysError naming the file. Not thread-safe.
#ifndef TIERBENCH_REPORT_EVIDENCE_REPORTER_H_
#define TIERBENCH_REPORT_EVIDENCE_REPORTER_H_

#include <optional>
#include <string>

#include "record/reporter.h"
#include "util/result_dir.h"

namespace tierbench {

inline constexpr int kEvidenceSchemaVersion = 1;

// The evidence line of a finished cell (one JSON object, no newline).
std::string EvidenceLine(const CellRecord& rec);

class EvidenceReporter : public Reporter {
 public:
  void OnCompareStart(const CompareStart& start) override;
  void OnCell(const CellRecord& rec) override;

 private:
  std::optional<ResultDir> dir_;
  std::string text_;
};

}  // namespace tierbench

#endif  // TIERBENCH_REPORT_EVIDENCE_REPORTER_H_
