#include "orchestrate/run_plan.h"

#include <algorithm>
#include <utility>

namespace tierbench {

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
                               const std::vector<bool>& db,
                               const std::vector<int>& mode_group) {
  const auto is_db = [&db](size_t w) { return w < db.size() && db[w]; };
  // Each mode's rank: its group's first mode, then its own index.
  std::vector<std::pair<size_t, size_t>> rank(modes);
  for (size_t m = 0; m < modes; ++m) {
    size_t first = m;
    if (m < mode_group.size()) {
      for (size_t k = 0; k < m; ++k) {
        if (k < mode_group.size() && mode_group[k] == mode_group[m]) {
          first = k;
          break;
        }
      }
    }
    rank[m] = {first, m};
  }
  const std::vector<Cell> all = BuildRunPlan(modes, workloads, repeat, runs);
  std::vector<Cell> out;
  out.reserve(all.size());
  for (int r = 1; r <= repeat; ++r) {
    for (const Cell& c : all) {
      if (c.repetition == r && !is_db(c.workload)) out.push_back(c);
    }
    for (size_t w = 0; w < workloads; ++w) {
      if (!is_db(w)) continue;
      std::vector<Cell> group;
      for (const Cell& c : all) {
        if (c.repetition == r && c.workload == w) group.push_back(c);
      }
      std::stable_sort(group.begin(), group.end(),
                       [&rank](const Cell& a, const Cell& b) {
                         return rank[a.mode] < rank[b.mode];
                       });
      out.insert(out.end(), group.begin(), group.end());
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
