// CompareSetup: what `tierbench compare` loaded and checked before its
// first cell (orchestrate/prepare_compare.h makes it): the modes, the
// workloads as every cell runs them, the stacks and what the setup found.
// The protocol runs on it; the reporters read it (names, devices, findings)
// and never change it.
#ifndef TIERBENCH_RECORD_COMPARE_SETUP_H_
#define TIERBENCH_RECORD_COMPARE_SETUP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache/cache_layer.h"
#include "cache/mode_spec.h"
#include "db/db_workload.h"
#include "trace/read_hit_curve.h"
#include "util/finding.h"
#include "util/sysfs.h"
#include "workload/job_spec.h"
#include "workload/prepared_jobs.h"

namespace tierbench {

struct PreparedWorkload {
  std::string path;
  std::string name;  // DB: its "name"; fio: the file's stem
  bool is_db = false;
  Workload io;  // fio: jobs with absolute sizes; filename set per cell
  // fio: `io` prepared once, for every cell (PrepareCompare makes it after
  // the sizes are final); the cells place it on their targets.
  std::shared_ptr<const PreparedJobs> prepared;
  DbWorkload db;  // DB workloads
  // --working-set: its label ("25%", "1G") and the bytes each job's region
  // was sized to; "" and 0 without --working-set (orchestrate/working_set.h).
  std::string working_set;
  uint64_t working_set_bytes = 0;
  // --capture-replay: the index of the DB workload whose raw-HDD cell is
  // captured and replayed as this workload (its `io` and `prepared` stay
  // empty: the cells replay the capture, orchestrate/capture_replay.h);
  // -1 for every other workload.
  int capture_of = -1;
  bool Writes() const;
};

// The bytes of a workload's region: the largest offset + size of its jobs
// (0 for DB workloads).
uint64_t WorkloadRegionBytes(const PreparedWorkload& w);

// One cache stack of the compare and the layer object that controls it.
struct CompareStack {
  std::string device;  // where its cells do IO (--stack as given)
  std::shared_ptr<CacheLayer> layer;
  StackInfo info;  // as read during validation
  // What the setup found for every cell of this stack
  // (orchestrate/setup_findings.h).
  std::vector<Finding> findings;
};

// Cache capacities of the stacks differ by more than this (percent of the
// largest): a cross-layer comparison is not at equal capacity.
inline constexpr double kCacheCapacityTolerancePct = 5.0;

struct CompareSetup {
  std::vector<ModeSpec> modes;
  std::vector<PreparedWorkload> workloads;
  std::vector<CompareStack> stacks;  // one per layer that has modes
  // Findings that concern every cache cell (e.g. unequal cache capacity);
  // also in each stack's `findings`.
  std::vector<Finding> stack_findings;
  // What the setup found for every cell on the raw HDD, the raw SSD, and
  // every cell of the run (orchestrate/setup_findings.h).
  std::vector<Finding> hdd_findings, ssd_findings, run_findings;
  std::string host_root;      // --sysfs-root
  Sysfs os;                   // the Host's sys/ and proc/ (--sysfs-root)
  uint64_t region_bytes = 0;  // smallest target size; 0 when unknown
  // The capacity --working-set percentages refer to: the smallest cache
  // among the stacks; -1 when no stack reports one.
  int64_t reference_cache_bytes = -1;
  // runs[mode][workload]: the cell runs (--workload-modes); all true
  // without the option.
  std::vector<std::vector<bool>> runs;
  std::string run_id;
  std::string run_dir;  // <results>/<run-id>
  // The LRU and OPT read hit curves of every workload whose stream is known
  // (orchestrate/stream_curves.h), one per distinct cache block size of the
  // stacks; mrc.csv.
  std::vector<ReadHitCurve> read_hit_curves;

  // The stack of `mode`'s layer; null for raw modes.
  const CompareStack* StackFor(const ModeSpec& mode) const;
};

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_COMPARE_SETUP_H_
