// What one compare cell on a cache stack observed, as plain values, for the
// diagnosis rules: the orchestrator's generic rules (orchestrate/diagnosis.h)
// and each layer's own (CacheLayer::Diagnose). Sizes in bytes; -1 = unknown.
#ifndef TIERBENCH_CACHE_CELL_OBSERVATION_H_
#define TIERBENCH_CACHE_CELL_OBSERVATION_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cache/layer_counters.h"
#include "workload/job_spec.h"

namespace tierbench {

struct CellObservation {
  std::string layer;         // "raw" or a layer name
  std::string cache_mode;    // the mode as read back
  std::string cache_state;   // cold|warm|as-is (what the cell asked for)
  std::string state_before;  // the layer's state right before the run
  // Every knob/setting of the stack as read back after the mode was applied.
  std::map<std::string, std::string> settings;
  int64_t cache_bytes = -1;        // cache capacity of the stack
  int64_t cache_block_bytes = -1;  // the layer's caching unit
  bool has_counters = false;
  LayerDelta delta;  // over the measured window
  bool drain_before_timed_out = false;
  bool drain_after_timed_out = false;
  uint64_t dirty_left_after_drain = 0;
  // What the workload did (all jobs; measured window plus ramp).
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
  std::vector<JobSpec> jobs;  // empty for DB workloads
  // Bytes of the workload's region (largest job size + offset); 0 unknown.
  uint64_t region_bytes = 0;
  // The mode caches reads (CacheLayer::ModeCachesReads): reads that keep
  // missing in such a mode measured the origin.
  bool mode_caches_reads = false;
  // The cache was brought to a settled state before the run: warmed until
  // steady (steady reached), or prefilled until the layer stopped
  // promoting. false for cold and as-is cells and for warm-ups that ran
  // out of time.
  bool settled = false;
  // Seconds after the IO stop at which the counters were read, and the
  // longest the compare would wait for a lagging layer's fold (-1 when the
  // layer's counters do not lag): a reading at the limit saw no fold.
  double counters_after_s = 0;
  double counter_lag_limit_s = -1;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_CELL_OBSERVATION_H_
