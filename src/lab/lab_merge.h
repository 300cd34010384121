// MergeLabParts: the run folders of one lab run's parts (lab/lab_parts.h:
// the same compare split over guests) made into one run folder, as if one
// compare had run every cell.
//
// Into `run_dir` (made; it must not hold a runs.csv yet):
//   runs.csv, series.csv   every part's rows under one header (the parts'
//                          headers must be equal: the same tierbench made
//                          them), run_id set to `run_id`, ordered by
//                          repetition, then mode, then workload, in the
//                          run's order (`order`; stable: a cell's rows
//                          keep their order);
//   evidence.jsonl         every part's lines, in the same order (they
//                          carry no run id);
//   comparison.csv         computed again over the merged runs.csv
//                          (record/comparison.h Compare, from the columns
//                          the comparison needs: figures, the unit's
//                          latency, the findings of finding_rules and
//                          warnings; failed rows are left out as a compare
//                          leaves them);
//   manifest.json          the first part's, with the modes, workloads,
//                          devices, original settings, restore outcome and
//                          cell counts of all parts, the earliest start and
//                          latest end, status "complete" only when every
//                          part's is, and "lab_parts": per part its name,
//                          command line, labels, modes, workloads and cells.
// The parts' own folders stay where they are (<run>/parts/<part>/, each
// with its lab/ logs). The caller writes report.html and summary.md from
// the merged folder (present/pages/report_writer.h).
//
// Errors: ConfigError naming the file and the fix when a part's file is
// missing or unreadable, or the parts' headers differ; SysError when a file
// cannot be written.
#ifndef TIERBENCH_LAB_LAB_MERGE_H_
#define TIERBENCH_LAB_LAB_MERGE_H_

#include <string>
#include <vector>

#include "record/comparison_row.h"

namespace tierbench {

struct LabPartRun {
  std::string name;     // the part's name
  std::string run_dir;  // its run folder
};

// The whole run's order: its mode names and workload names as given
// (names neither list has go last).
struct LabRunOrder {
  std::vector<std::string> modes;
  std::vector<std::string> workloads;
};

struct MergedLabRun {
  std::string run_dir;
  std::vector<ComparisonRow> comparison;  // as written to comparison.csv
};

MergedLabRun MergeLabParts(const std::vector<LabPartRun>& parts,
                           const std::string& run_dir,
                           const std::string& run_id, const LabRunOrder& order);

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_MERGE_H_
