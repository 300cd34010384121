// CellRunner: the measurement protocol of one compare cell (mode x workload x
// repetition), reference-notes §7(b), for any cache layer behind
// cache/cache_layer.h.
//
// Raw cell (layer "raw"): sync + drop the page cache, run the workload on
// --hdd or --ssd. No layer counters.
// DB cell: its database is kept between the cells of one DB workload on
// one target (orchestrate/db_keeper.h); on a stack it is made and loaded
// before step 1, so the load never runs under the cell's mode.
// Cache cell (on the stack of the mode's layer):
//   1. cache state: cold -> CacheLayer::MakeCold (nothing of earlier cells
//      is served); warm -> BeginWarm, then prefill passes that read the
//      workload's region until the layer says it is warm (at most
//      kMaxWarmPasses; DB workloads cannot be prefilled and run as-is with
//      a warning); as-is -> nothing; warm-until-steady -> MakeCold here,
//      and step 2a;
//   2. apply the mode and its knobs, each read back (a mismatch is a
//      SysError); the read-back is recorded in every row;
//   2a. warm-until-steady only: the cell's own workload runs in chunks of
//      --warm-chunk seconds under the mode, each chunk on its own draw
//      stream (JobSpec::draw_stream: new offsets over the same hot set, none
//      of which the measured run replays), until SteadyStateTracker says
//      IOPS and the share of reads served without the origin (from the
//      stack's and the origin's block counters, which do not lag) are
//      steady, or --warm-max seconds (or that many chunks' worth) passed (a
//      warning then). The time taken, the chunks and the last chunk's
//      share are recorded ("time to warm");
//   3. wait clean, flushed (CacheLayer::Flush: drain dirty data as fast
//      as the origin takes it; the time is drain_before_s), except
//      after warm-until-steady, whose settled state includes the dirty
//      data writeback keeps writing back (drain_before_s 0);
//   4. sync + drop the page cache (not for a DB workload that reads its
//      database into the page cache anyway); counters "before" (a DB cell
//      takes them again when its measured run starts, after the restart and
//      its warm-up). A layer whose counters lag (bcache folds them every
//      13.6 s) counts the IO of the warm-up or prefill into its counters
//      only at its next fold: its "before" is then the reading at that
//      fold (CountersAtFold, at most --stats-lag later), taken before the
//      run starts, so the warm-up's IO stays out of the cell's counters.
//      A DB cell on such a layer takes its "before" at the fold after the
//      restart and the page cache warm-up, before its clients start: its
//      counters then hold the clients' warm-up ("warmup") and the run,
//      never the restart's or the page cache warm-up's reads;
//   5. run the workload on the stack device; the moment it returns is the
//      cell's IO stop;
//   6. wait clean at once: drain_after_s is the "time to clean"
//      (writeback's deferred cost at the layer's own pace, or flushed with
//      --drain-after flush), timed from the IO stop, 0 when the
//      first poll already found the layer clean; dirty data left is
//      recorded;
//   7. counters "after", overlapping step 6: at once when the layer's
//      counters do not lag; else at the first fold after the IO stop (the
//      layer's own counters or its fold mark moved since a reading taken
//      at the stop, seen at a drain poll or, once the drain is over, at a
//      poll every 0.2 s),
//      or --stats-lag after the stop when no fold was seen by then
//      (counters_after_s says which). A cell thus takes max(fold or lag,
//      drain) after its IO, not lag + drain; its counters hold all it did,
//      since bcache counts an IO before completing it.
// Timings of every cell: io_s (the measured workload's wall time),
// warm_io_s (prefill passes and warm-up chunks), cell_wall_s (the whole
// Run); the harness overhead is cell_wall_s - io_s - warm_io_s -
// drain_before_s - drain_after_s.
// Per-second picture (record/cell_series.h): during 2a and 5 the layer
// is sampled about once a second on this thread (CacheLayer::Sample through
// RunOptions::on_second), and every poll of step 6 records the dirty bytes.
// The machine is sampled over the measured window too (HostSampler: CPUs,
// the target's and the disks' block counters). Then the validity rules
// (validity/*_rules.h: the measurement's, the cache's with the layer's own,
// the DB's) and the setup's findings for the cell's target turn the
// evidence into Findings: the cell's warnings and its validity.
//
// Errors: a RunError/DbError of the workload itself is recorded in the
// record (the compare continues with the next cell); setup errors
// (ConfigError, SysError, SafetyError) and InterruptedError propagate.
// Not thread-safe.
#ifndef TIERBENCH_ORCHESTRATE_CELL_RUNNER_H_
#define TIERBENCH_ORCHESTRATE_CELL_RUNNER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cache/cache_layer.h"
#include "orchestrate/capture_replay.h"
#include "orchestrate/compare_hooks.h"
#include "orchestrate/db_keeper.h"
#include "orchestrate/run_plan.h"
#include "record/cell_record.h"
#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "util/finding.h"
#include "util/host.h"
#include "util/interrupt.h"
#include "validity/cell_evidence.h"
#include "workload/job_result.h"
#include "workload/prepared_run.h"

namespace tierbench {

class FoldWatch;  // orchestrate/cell_runner.cc

// Prefill passes of --cache-state warm before a cell gives up waiting for
// the layer to stop promoting (smq promotes gradually).
inline constexpr int kMaxWarmPasses = 8;

class CellRunner {
 public:
  // The stacks are those of `setup`; the machine is `host` (its sysfs is
  // the one `setup` was prepared on). Everything must outlive the runner.
  CellRunner(const CompareOptions& options, const CompareSetup& setup,
             const Host& host, const CompareHooks& hooks);

  CellRecord Run(const Cell& cell);

  // Closes the database kept for the next cell (below), if any: stops its
  // server, unmounts it and wipes its signature. The compare calls it
  // before it restores the stacks; the destructor does too. Never throws.
  void CloseDb();

  // --capture-replay: the read hit curves of replays prepared since the
  // last call (orchestrate/capture_replay.h), for mrc.csv.
  std::vector<ReadHitCurve> TakeNewCurves() {
    return captures_.TakeNewCurves();
  }

 private:
  void PrepareCacheState(CacheLayer& layer, const std::string& device,
                         const PreparedWorkload& w, CellRecord* rec);
  // WaitClean (or, when `flush`, CacheLayer::Flush) with progress; records
  // the time, flags a timeout, throws InterruptedError when interrupted.
  // `sampler` (may be null) gets the dirty bytes of every poll, then
  // `on_poll` (may be empty) is called; it may read the layer.
  double Drain(CacheLayer& layer, const std::string& what, bool flush,
               bool* timed_out, LayerSampler* sampler = nullptr,
               const std::function<void()>& on_poll = {});
  void DropCaches();
  // What a DB cell on a stack needs of it while its database runs: the
  // stack's layer (the load's dirty data drains before the measured run),
  // and the readings of the counters "before": when the measured run starts
  // (DbCellOptions::before_run), or, on a layer whose counters lag, at the
  // fold before its clients start (DbCellOptions::before_clients).
  struct DbOnStack {
    CacheLayer* layer = nullptr;
    std::function<void()> before_run;
    std::function<void()> before_clients;
  };
  // Runs the measured workload; `sampler` (may be null for raw cells) is
  // sampled before and about once a second; rec->series.measure_start_ns
  // is set. `db_stack`: a DB cell on a stack (null otherwise).
  // `before_clients`, `after_clients`: a raw DB cell's DbCellOptions hooks
  // (the --capture-replay trace starts and ends there); may be empty.
  void RunWorkloadOn(const PreparedWorkload& w, const std::string& target,
                     const std::string& label, CellRecord* rec,
                     LayerSampler* sampler = nullptr,
                     const DbOnStack* db_stack = nullptr,
                     const std::function<void()>& before_clients = {},
                     const std::function<void()>& after_clients = {});
  void Prefill(const PreparedWorkload& w, const std::string& device);
  // Step 2a (see the header). Returns false when a chunk failed (recorded
  // in rec->error; the cell is not measured).
  bool WarmUntilSteady(CacheLayer& layer, const std::string& device,
                       const PreparedWorkload& w, const std::string& label,
                       CellRecord* rec);
  void Sleep(double seconds);
  uint64_t Now() const;
  // The layer's counters once everything it counted up to `since` is folded
  // into them: at once when they do not lag, or nothing went through the
  // stack device since the last reading known to be at a fold; else the
  // reading at the first fold after `since` (its own counters or fold mark
  // moved), or --stats-lag after the call. Remembers the result as the
  // layer's last reading at a fold.
  LayerCounters CountersAtFold(CacheLayer& layer, const LayerCounters& since,
                               const std::string& label);
  // Polls `watch` with the seconds since `origin_ns` until it has its
  // reading, sleeping kFoldPollSeconds (at most up to the watch's lag)
  // between polls; the time counts by the clock or by the sleeps since the
  // call, whichever says more (a test's sleep hook need not move the
  // clock). Throws InterruptedError, naming `what`, when interrupted.
  void WaitForFold(FoldWatch& watch, uint64_t origin_ns,
                   const std::string& what);
  // The steps of Run (see the header); Run adds cell_wall_s.
  CellRecord RunSteps(const Cell& cell);

  // A fio workload prepared on one target (workload/prepared_run.h): made
  // at its first cell there and reused by its later cells, whatever their
  // mode or repetition (issue 28 rule 5); `prefill` (--cache-state warm)
  // at its first pass. Not used with CompareHooks::run_workload.
  struct PreparedOnTarget {
    PreparedRun run;
    std::optional<PreparedRun> prefill;
  };
  PreparedOnTarget& PreparedOn(const PreparedWorkload& w,
                               const std::string& target);

  std::map<std::pair<const PreparedWorkload*, std::string>, PreparedOnTarget>
      prepared_;
  // The database kept between the DB cells of one workload on one target
  // (orchestrate/db_keeper.h). Not used with CompareHooks::run_db.
  DbKeeper db_;
  // --capture-replay's captures and the replays prepared from them.
  CaptureReplay captures_;
  // Per lagging layer: its last reading taken at a fold (a cell's counters
  // "after", or CountersAtFold).
  std::map<const CacheLayer*, LayerCounters> at_fold_;

  const CompareOptions& options_;
  const CompareSetup& setup_;
  const Host& host_;
  const CompareHooks& hooks_;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_CELL_RUNNER_H_
