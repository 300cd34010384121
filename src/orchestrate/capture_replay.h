// compare --capture-replay (issue 30 item 5): a DB workload's block IO,
// captured on the raw HDD while it runs there, replayed under every mode
// beside the workload's live cells, in one comparison: does the
// application's recorded IO rank the modes as the application does, and
// how does each cache do on it against LRU and OPT (mrc.csv)?
//
// Prepare (AddCaptureReplays, the last step of PrepareCompare; nothing is
// written):
//   - the compare has a DB workload and the raw HDD mode (modes/hdd.json)
//     runs it; else ConfigError naming the fix;
//   - CheckCapture (capture/block_capture.h) on --hdd: blktrace and
//     blkparse on PATH, --hdd a block device, root, debugfs mounted; else
//     SysError (3) with the fix;
//   - for each DB workload W, one more workload "W-replay"
//     (PreparedWorkload::capture_of = W's index, path
//     <run_dir>/capture/W/<hdd's name>.iolog), run in every mode, also
//     where --workload-modes keeps W out (W=hdd: one capture, the modes
//     compared on its replay alone).
// Run (CaptureReplay, held by the CellRunner):
//   - MoveCapturesFirst puts each W's first cell on the raw HDD at the
//     front of the plan, so every replay cell comes after its capture
//     (BuildRunPlan puts DB workloads last);
//   - that cell's IO is traced (BlockCapture) from its clients' start
//     (DbCellOptions::before_clients: after the load, the restart and the
//     page cache warm-up) to the clients' end (DbCellOptions::
//     after_clients, before the run's checkpoint and the server's stop):
//     the trace holds the clients' warm-up and run, what the live cells'
//     clients do;
//   - Finish writes the iolog and prepares W-replay from it
//     (PrepareTraceWorkload: a replay job, direct, libaio, iodepth 32, at
//     the recorded times) and, under --cache-state cold, its LRU and OPT
//     read hit curves (orchestrate/stream_curves.h); later repetitions
//     replay the same capture;
//   - Replay(i) is the prepared W-replay, or null with the reason (the
//     capture failed, or its cell did), which becomes the cell's error.
//
// Not thread-safe; one compare.
#ifndef TIERBENCH_ORCHESTRATE_CAPTURE_REPLAY_H_
#define TIERBENCH_ORCHESTRATE_CAPTURE_REPLAY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "capture/block_capture.h"
#include "record/cell.h"
#include "record/compare_options.h"
#include "record/compare_setup.h"
#include "trace/read_hit_curve.h"
#include "tracefile/iolog.h"

namespace tierbench {

// The suffix of a replay workload's name ("pgbench-tpcb-replay").
inline constexpr const char* kCaptureReplaySuffix = "-replay";

// Appends the replay workloads (see above) to setup->workloads and their
// column to setup->runs. Throws as above.
void AddCaptureReplays(const CompareOptions& o, CompareSetup* setup);

// One target of a replay: its path and the logical block size O_DIRECT IO
// there must be aligned to.
struct ReplayTarget {
  std::string path;
  uint32_t logical_block_size = 512;
};

// Why `capture` cannot be replayed with O_DIRECT on every one of
// `targets`: "<iolog>:<line>: offset O / length L is not a multiple of the
// logical block size of T (B) ...", naming the first such request against
// the largest block; "" when every target takes every request as it is.
// Finish fails every mode's replay with it (the modes are compared on the
// same IO or not at all), instead of the run stopping at the first target
// that refuses it.
std::string ReplayMisfit(const IoLog& capture,
                         const std::vector<ReplayTarget>& targets);

// Moves the first repetition's raw-HDD cell of every captured DB workload
// to the front of `plan` (their order kept).
void MoveCapturesFirst(const CompareSetup& setup, std::vector<Cell>* plan);

class CaptureReplay {
 public:
  CaptureReplay(const CompareOptions& o, const CompareSetup& setup);
  ~CaptureReplay();

  // True when `cell` is the one whose IO is captured: a captured DB
  // workload on the raw HDD, not captured yet.
  bool ShouldCapture(const Cell& cell) const;
  // Starts tracing --hdd for `cell`. Throws SysError when blktrace does not
  // start, ConfigError when the capture folder is not empty: the caller
  // lets the cell run on and passes the error to Finish, so the replay's
  // cells fail with it.
  void Start(const Cell& cell);
  // Ends the running trace (the clients ended); never throws.
  void StopTracing() noexcept;
  // Stops the trace of `cell` (if StopTracing did not) and prepares its
  // replay. `cell_error`: the
  // cell's own error ("" when it ran): a failed cell's capture is not
  // replayed. Never throws: a failure becomes the replay's reason.
  void Finish(const Cell& cell, const std::string& cell_error);

  // The replay workload `workload` (an index with capture_of >= 0), or
  // null with *why set.
  const PreparedWorkload* Replay(size_t workload, std::string* why) const;

  // Read hit curves computed since the last call (mrc.csv).
  std::vector<ReadHitCurve> TakeNewCurves();

 private:
  struct Replayed {
    std::unique_ptr<PreparedWorkload> prepared;
    std::string why;  // why there is none
  };

  const CompareOptions& options_;
  const CompareSetup& setup_;
  std::unique_ptr<BlockCapture> running_;
  std::map<size_t, Replayed> replays_;  // by replay workload index
  std::vector<ReadHitCurve> new_curves_;
};

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_CAPTURE_REPLAY_H_
