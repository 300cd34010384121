// The comparison table `tierbench compare` prints at the end: one line per
// mode x workload x job x direction, aligned columns
//   mode  workload  job/dir  IOPS  MiB/s  p99  vs HDD  vs SSD  warnings
// (IOPS is tps and MiB/s "-" for DB workloads; p99 is the clat p99, or the
// transaction latency p99). Warnings are numbered footnotes ("[1]") listed
// under the table, so long texts do not break the alignment. A change whose
// 95 % interval includes 0 (with fewer than 3 repetitions: whose min-max
// ranges overlap) reads "within noise" instead of a signed percentage; one
// line under the table says what that rests on, or, with one repetition,
// that no interval can be given.
// Thread-safety: pure function.
#ifndef TIERBENCH_ORCHESTRATE_CONSOLE_TABLE_H_
#define TIERBENCH_ORCHESTRATE_CONSOLE_TABLE_H_

#include <ostream>
#include <vector>

#include "orchestrate/comparison.h"

namespace tierbench {

void PrintComparisonTable(const std::vector<ComparisonRow>& rows,
                          std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_CONSOLE_TABLE_H_
