#include "orchestrate/diagnosis.h"

#include "util/units.h"

namespace tierbench {

std::vector<std::string> DiagnoseMeasurement(const RunResult& result) {
  std::vector<std::string> out;
  for (const JobResult& j : result.jobs) {
    if (!j.error.empty() || j.dir[0].ios + j.dir[1].ios > 0) continue;
    out.push_back("job " + j.name +
                  " did no IO in the measured window: it finished its size "
                  "within ramp_time, before measuring began, so its 0 is no "
                  "figure (fix: time_based=1 with --runtime, or a larger "
                  "--size)");
  }
  return out;
}

std::vector<std::string> DiagnoseCell(const CellObservation& o,
                                      const CacheLayer* layer) {
  if (layer == nullptr) return {};
  return DiagnoseCellWith(
      o, [layer](const CellObservation& obs) { return layer->Diagnose(obs); });
}

std::vector<std::string> DiagnoseCellWith(const CellObservation& o,
                                          const LayerRulesFn& layer_rules) {
  std::vector<std::string> out;
  if (!layer_rules) return out;
  if (o.drain_before_timed_out) {
    const int64_t dirty = o.delta.dirty_before_bytes;
    out.push_back("dirty data left before the cell (" +
                  FormatBytes(dirty < 0 ? 0 : static_cast<uint64_t>(dirty)) +
                  " when the drain timed out): writeback of earlier cells "
                  "competed with this cell");
  }
  for (std::string& w : layer_rules(o)) out.push_back(std::move(w));
  if (o.drain_after_timed_out) {
    out.push_back(FormatBytes(o.dirty_left_after_drain) +
                  " still dirty when the post-cell drain timed out: the next "
                  "cell competes with its writeback");
  }
  return out;
}

}  // namespace tierbench
