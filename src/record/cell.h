// A cell of `tierbench compare` (one mode x workload x repetition) and the
// cache state its cache cells were prepared in: the coordinates every record
// of a cell carries (record/cell_record.h). The order cells run in is the
// protocol's (orchestrate/run_plan.h).
//
// Thread-safety: plain values and pure functions.
#ifndef TIERBENCH_RECORD_CELL_H_
#define TIERBENCH_RECORD_CELL_H_

#include <cstddef>
#include <string>

namespace tierbench {

// How the cache is prepared before each cache cell (--cache-state):
// cold (emptied), warm (prefilled by read passes over the region), as-is,
// or warm-until-steady (emptied, then the cell's own workload runs in chunks
// until IOPS and the read hit ratio are steady, orchestrate/steady_state.h).
enum class CacheState { kCold, kWarm, kAsIs, kWarmUntilSteady };
// "cold" | "warm" | "as-is" | "warm-until-steady".
const char* CacheStateName(CacheState s);
// Parses the names above; false for anything else.
bool ParseCacheState(const std::string& text, CacheState* out);

struct Cell {
  size_t mode = 0;      // index into the mode list
  size_t workload = 0;  // index into the workload list
  int repetition = 1;   // 1-based
};

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_CELL_H_
