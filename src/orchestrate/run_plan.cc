#include "orchestrate/run_plan.h"

namespace tierbench {

const char* CacheStateName(CacheState s) {
  switch (s) {
    case CacheState::kCold:
      return "cold";
    case CacheState::kWarm:
      return "warm";
    case CacheState::kAsIs:
      return "as-is";
    case CacheState::kWarmUntilSteady:
      return "warm-until-steady";
  }
  return "?";
}

bool ParseCacheState(const std::string& text, CacheState* out) {
  for (CacheState s : {CacheState::kCold, CacheState::kWarm, CacheState::kAsIs,
                       CacheState::kWarmUntilSteady}) {
    if (text == CacheStateName(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

std::vector<Cell> BuildRunPlan(size_t modes, size_t workloads, int repeat,
                               const std::vector<std::vector<bool>>& runs) {
  std::vector<Cell> out;
  for (const Cell& c : BuildRunPlan(modes, workloads, repeat)) {
    if (c.mode < runs.size() && c.workload < runs[c.mode].size() &&
        !runs[c.mode][c.workload]) {
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::vector<Cell> BuildRunPlan(size_t modes, size_t workloads, int repeat) {
  std::vector<Cell> cells;
  if (repeat <= 0) return cells;
  cells.reserve(modes * workloads * static_cast<size_t>(repeat));
  for (int r = 1; r <= repeat; ++r) {
    for (size_t m = 0; m < modes; ++m) {
      for (size_t w = 0; w < workloads; ++w) cells.push_back({m, w, r});
    }
  }
  return cells;
}

}  // namespace tierbench
