// Expectation: one relation a CI run asserts within a run folder
// (`tierbench compare --expect EXPR`, `tierbench check RUN --expect EXPR`),
// such as "writeback's 4k random writes are at least 5 times the HDD's".
//
// Grammar (tokens separated by blanks; '*' may touch its neighbours):
//   EXPR   := CELL METRIC OP REF
//   CELL   := MODE "/" WORKLOAD [ "/" SERIES ]
//             (SERIES: the report's label of one job/direction of a
//             workload with several, e.g. "read" or "job2/write")
//   METRIC := "iops"   the median IOPS (tps for a DB workload) over the
//                      repetitions
//           | "p99"    the median p99 completion latency, microseconds
//   OP     := ">=" | ">" | "<=" | "<"
//   REF    := NUMBER | [ NUMBER "*" ] MODE
//             (MODE: the same workload and series under another mode, e.g.
//             "hdd"; NUMBER > 0)
// Examples: "writeback/randwrite-4k iops >= 5 * hdd",
//           "writeback/randread-4k p99 <= 2*ssd", "ssd/randread-4k iops >
//           1000".
//
// Evaluate() fails an expectation whose cell (or reference cell) the run
// lacks, or is marked invalid (comparison.csv valid=no): a gate must not
// pass on a number that misleads. Thread-safety: pure.
#ifndef TIERBENCH_PRESENT_EXPECTATION_H_
#define TIERBENCH_PRESENT_EXPECTATION_H_

#include <string>
#include <vector>

#include "present/run_folder.h"
#include "util/status.h"

namespace tierbench {

struct Expectation {
  std::string text;  // as given
  std::string mode, workload, series;
  std::string metric;    // "iops", "p99"
  std::string op;        // ">=", ">", "<=", "<"
  double factor = 1;     // REF's NUMBER "*" (1 without one)
  std::string ref_mode;  // "" when REF is a plain number
  double ref_value = 0;  // the plain number
};

// Parses `text`; InvalidArgument naming the token that is wrong and the
// grammar's shape otherwise.
Status ParseExpectation(const std::string& text, Expectation* out);

struct ExpectationResult {
  Expectation expectation;
  bool passed = false;
  std::string why;  // "1234.5 IOPS >= 5 x 150.2 = 751.0" or what was missing
};

ExpectationResult EvaluateExpectation(const Expectation& e,
                                      const RunFolder& run);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_EXPECTATION_H_
