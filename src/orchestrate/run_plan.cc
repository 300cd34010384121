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

std::vector<Cell> BuildRunPlan(size_t modes, size_t workloads, int repeat,
                               const std::vector<std::vector<bool>>& runs,
                               const std::vector<bool>& db) {
  const auto is_db = [&db](size_t w) { return w < db.size() && db[w]; };
  std::vector<Cell> all = BuildRunPlan(modes, workloads, repeat, runs);
  std::vector<Cell> out;
  out.reserve(all.size());
  for (int r = 1; r <= repeat; ++r) {
    for (const Cell& c : all) {
      if (c.repetition == r && !is_db(c.workload)) out.push_back(c);
    }
    for (size_t w = 0; w < workloads; ++w) {
      if (!is_db(w)) continue;
      for (const Cell& c : all) {
        if (c.repetition == r && c.workload == w) out.push_back(c);
      }
    }
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
