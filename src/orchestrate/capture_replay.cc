// compare --capture-replay (orchestrate/capture_replay.h).
#include "orchestrate/capture_replay.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "io/target.h"
#include "orchestrate/prepare_compare.h"
#include "orchestrate/stream_curves.h"
#include "util/errors.h"
#include "util/log.h"
#include "workload/replay_source.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// The index of the raw HDD mode, or -1.
int RawHddMode(const CompareSetup& setup) {
  for (size_t m = 0; m < setup.modes.size(); ++m) {
    if (setup.modes[m].is_raw() && setup.modes[m].target == RawTarget::kHdd) {
      return static_cast<int>(m);
    }
  }
  return -1;
}

// Where W's capture goes: <run_dir>/capture/<W>.
std::string CaptureDirOf(const CompareSetup& setup, const std::string& name) {
  return (fs::path(setup.run_dir) / "capture" / name).string();
}

CaptureRequest CaptureRequestOf(const CompareOptions& o,
                                const CompareSetup& setup,
                                const std::string& name) {
  CaptureRequest r;
  r.device = o.hdd;
  r.out_dir = CaptureDirOf(setup, name);
  r.caller_runs_io = true;
  return r;
}

CaptureHostChecks CaptureHostOf(const CompareSetup& setup) {
  CaptureHostChecks host;
  host.debugfs = setup.os.Path("sys/kernel/debug");
  host.sys_dev_block = setup.os.Path("sys/dev/block");
  host.root = !setup.os.IsRealRoot() || ::geteuid() == 0;
  return host;
}

// The targets the replay workload `index` runs on, each once, with their
// logical block sizes.
std::vector<ReplayTarget> ReplayTargetsOf(const CompareOptions& o,
                                          const CompareSetup& setup,
                                          size_t index) {
  std::vector<ReplayTarget> out;
  for (size_t m = 0; m < setup.modes.size(); ++m) {
    if (!setup.runs.at(m).at(index)) continue;
    const ModeSpec& mode = setup.modes[m];
    const CompareStack* st = mode.is_raw() ? nullptr : setup.StackFor(mode);
    const std::string path =
        mode.is_raw() ? (mode.target == RawTarget::kHdd ? o.hdd : o.ssd)
                      : (st != nullptr ? st->device : std::string());
    if (path.empty() ||
        std::any_of(out.begin(), out.end(),
                    [&path](const ReplayTarget& t) { return t.path == path; }))
      continue;
    out.push_back({path, Target::Inspect(path, setup.os).logical_block_size});
  }
  return out;
}

}  // namespace

std::string ReplayMisfit(const IoLog& capture,
                         const std::vector<ReplayTarget>& targets) {
  const ReplayTarget* largest = nullptr;
  for (const ReplayTarget& t : targets) {
    if (largest == nullptr ||
        t.logical_block_size > largest->logical_block_size)
      largest = &t;
  }
  if (largest == nullptr || largest->logical_block_size <= 1) return "";
  const uint64_t block = largest->logical_block_size;
  const IoLogEntry* e = FirstMisaligned(capture, block);
  if (e == nullptr) return "";
  return capture.Where(e->line) + ": offset " + std::to_string(e->offset) +
         " / length " + std::to_string(e->length) +
         " is not a multiple of the logical block size of " + largest->path +
         " (" + std::to_string(block) +
         "), which the replay's O_DIRECT requests must be; no mode "
         "replays the capture, so that the modes are compared on the "
         "same IO or not at all (fix: replay it with `tierbench run` and "
         "replay_align=" +
         std::to_string(block) + " on each target)";
}

void AddCaptureReplays(const CompareOptions& o, CompareSetup* setup) {
  const int hdd = RawHddMode(*setup);
  std::vector<size_t> db;
  for (size_t w = 0; w < setup->workloads.size(); ++w) {
    if (setup->workloads[w].is_db) db.push_back(w);
  }
  if (db.empty()) {
    throw ConfigError(
        "--capture-replay captures a DB workload's IO on the raw HDD, but "
        "no --workloads file is one. Fix: add a pgbench workload (e.g. "
        "workloads/pgbench-tpcb.json), or drop --capture-replay");
  }
  if (setup->region_bytes == 0) {
    throw ConfigError(
        "--capture-replay makes every DB cell's filesystem the size of the "
        "smallest target so the capture fits each, but no target's size is "
        "known. Fix: give block devices to --stack, --hdd and --ssd");
  }
  if (hdd < 0 || o.hdd.empty()) {
    throw ConfigError(
        "--capture-replay captures on the raw HDD, but mode hdd is not "
        "compared. Fix: add --hdd DEV and modes/hdd.json to --modes");
  }
  for (size_t w : db) {
    if (!setup->runs.at(static_cast<size_t>(hdd)).at(w)) {
      throw ConfigError("--capture-replay: workload " +
                        setup->workloads[w].name +
                        " does not run in mode hdd (--workload-modes), where "
                        "its IO is captured. Fix: add hdd to its modes");
    }
  }
  // Checked now (blktrace, root, debugfs, --hdd a block device): the run
  // folder does not exist yet, so the capture folder is new.
  const CapturePlan plan =
      CheckCapture(CaptureRequestOf(o, *setup, setup->workloads[db[0]].name),
                   CaptureHostOf(*setup));
  for (size_t w : db) {
    PreparedWorkload r;
    r.name = setup->workloads[w].name + kCaptureReplaySuffix;
    for (const PreparedWorkload& other : setup->workloads) {
      if (other.name == r.name) {
        throw ConfigError("--capture-replay names its replay of " +
                          setup->workloads[w].name + " '" + r.name +
                          "', a name another workload has. Fix: rename "
                          "that workload");
      }
    }
    r.path = CaptureDirOf(*setup, setup->workloads[w].name) + "/" + plan.name +
             ".iolog";
    r.capture_of = static_cast<int>(w);
    setup->workloads.push_back(std::move(r));
    // The replay runs in every mode, also in those --workload-modes keeps
    // the live workload out of: `NAME=hdd` captures once and compares the
    // modes on the replay alone, without a database load per stack.
    for (std::vector<bool>& row : setup->runs) row.push_back(true);
  }
}

void MoveCapturesFirst(const CompareSetup& setup, std::vector<Cell>* plan) {
  const int hdd = RawHddMode(setup);
  if (hdd < 0) return;
  std::vector<size_t> captured;
  for (const PreparedWorkload& w : setup.workloads) {
    if (w.capture_of >= 0)
      captured.push_back(static_cast<size_t>(w.capture_of));
  }
  std::stable_partition(plan->begin(), plan->end(), [&](const Cell& c) {
    return c.repetition == 1 && c.mode == static_cast<size_t>(hdd) &&
           std::find(captured.begin(), captured.end(), c.workload) !=
               captured.end();
  });
}

CaptureReplay::CaptureReplay(const CompareOptions& o, const CompareSetup& setup)
    : options_(o), setup_(setup) {
  for (size_t w = 0; w < setup.workloads.size(); ++w) {
    if (setup.workloads[w].capture_of >= 0) {
      replays_[w].why = "its capture (the cell of " +
                        setup.workloads[setup.workloads[w].capture_of].name +
                        " on the raw HDD) has not run";
    }
  }
}

CaptureReplay::~CaptureReplay() = default;

bool CaptureReplay::ShouldCapture(const Cell& cell) const {
  const ModeSpec& m = setup_.modes.at(cell.mode);
  if (!m.is_raw() || m.target != RawTarget::kHdd || cell.repetition != 1) {
    return false;
  }
  for (const auto& [index, r] : replays_) {
    if (setup_.workloads[index].capture_of == static_cast<int>(cell.workload) &&
        !r.prepared) {
      return true;
    }
  }
  return false;
}

void CaptureReplay::Start(const Cell& cell) {
  const std::string& name = setup_.workloads.at(cell.workload).name;
  const CaptureRequest request = CaptureRequestOf(options_, setup_, name);
  const CapturePlan plan = CheckCapture(request, CaptureHostOf(setup_));
  running_ = std::make_unique<BlockCapture>(request, plan);
  LogNotice(name + ": capturing " + options_.hdd + " with blktrace into " +
            request.out_dir + " (--capture-replay)");
}

void CaptureReplay::StopTracing() noexcept {
  if (running_) running_->StopTracing();
}

void CaptureReplay::Finish(const Cell& cell, const std::string& cell_error) {
  auto it = replays_.begin();
  while (it != replays_.end() && setup_.workloads[it->first].capture_of !=
                                     static_cast<int>(cell.workload)) {
    ++it;
  }
  if (it == replays_.end()) {  // not a captured workload
    StopTracing();
    running_.reset();
    return;
  }
  const size_t index = it->first;
  Replayed& replay = it->second;
  const PreparedWorkload& placeholder = setup_.workloads[index];
  const std::string& source = setup_.workloads.at(cell.workload).name;
  if (!running_) {
    replay.why = "the capture of " + source + " on the raw HDD did not start" +
                 (cell_error.empty() ? "" : ": " + cell_error);
    return;
  }
  // A failed cell's IO is no run of the workload: not parsed, not replayed.
  if (!cell_error.empty()) {
    StopTracing();
    running_.reset();
    replay.why =
        "the cell of " + source +
        " on the raw HDD, whose IO was captured, failed: " + cell_error;
    return;
  }
  try {
    const CaptureOutcome out = running_->Finish();
    running_.reset();
    auto prepared = std::make_unique<PreparedWorkload>(
        PrepareTraceWorkload(options_, options_.hdd, setup_.region_bytes,
                             out.iolog, placeholder.name));
    prepared->capture_of = placeholder.capture_of;
    const std::vector<ReplayTarget> targets =
        ReplayTargetsOf(options_, setup_, index);
    for (const PreparedJobs::Job& job : prepared->prepared->jobs()) {
      if (!job.replay || !job.spec.direct) continue;
      const std::string misfit = ReplayMisfit(*job.replay, targets);
      if (!misfit.empty()) {
        replay.why = misfit;
        LogWarning(source + ": " + misfit);
        return;
      }
    }
    const CaptureIoLogCounts& c = out.counts;
    LogNotice(source + ": captured " + std::to_string(c.reads) + " reads, " +
              std::to_string(c.writes) + " writes and " +
              std::to_string(c.syncs) + " flushes in " +
              std::to_string(c.span_us / 1000) + " ms (" + out.iolog +
              "); every mode replays it as " + placeholder.name);
    if (options_.cache_state == CacheState::kCold) {
      for (ReadHitCurve& curve : StreamCurvesOf(setup_, index, *prepared)) {
        new_curves_.push_back(std::move(curve));
      }
    }
    replay.prepared = std::move(prepared);
    replay.why.clear();
  } catch (const std::exception& e) {
    running_.reset();
    replay.why =
        "the capture of " + source + " on the raw HDD failed: " + e.what();
  }
}

const PreparedWorkload* CaptureReplay::Replay(size_t workload,
                                              std::string* why) const {
  const auto it = replays_.find(workload);
  if (it == replays_.end()) {
    *why = "not a --capture-replay workload";
    return nullptr;
  }
  if (!it->second.prepared) *why = it->second.why;
  return it->second.prepared.get();
}

std::vector<ReadHitCurve> CaptureReplay::TakeNewCurves() {
  std::vector<ReadHitCurve> out;
  out.swap(new_curves_);
  return out;
}

}  // namespace tierbench
