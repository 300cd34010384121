#include "orchestrate/cell_runner.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>

#include "cache/bcache_values.h"
#include "orchestrate/diagnosis.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"

namespace tierbench {
namespace {

constexpr double kDrainPollSeconds = 1.0;
constexpr uint64_t kPrefillBlock = 64 * 1024;

int64_t ParseKnobOr(const std::map<std::string, std::string>& knobs,
                    const std::string& name, int64_t fallback) {
  auto it = knobs.find(name);
  if (it == knobs.end()) return fallback;
  uint64_t bytes = 0;
  if (ParseHumanSize(it->second, &bytes).ok())
    return static_cast<int64_t>(bytes);
  return fallback;
}

CellObservation Observe(const CellRecord& rec) {
  CellObservation o;
  o.layer = std::string(rec.mode->layer_name());
  if (rec.mode->is_raw()) return o;
  o.cache_mode = rec.cache_mode_readback;
  o.state_before = rec.state_before;
  o.cache_state = rec.cache_state;
  o.sequential_cutoff =
      ParseKnobOr(rec.knobs_readback.knobs, "sequential_cutoff", -1);
  o.congested_read_threshold_us = rec.cache_set.congested_read_threshold_us;
  o.congested_write_threshold_us = rec.cache_set.congested_write_threshold_us;
  o.cache_available_percent =
      static_cast<int>(rec.cache_set.cache_available_percent);
  o.cache_block_size = rec.cache_set.block_size_bytes;
  if (rec.has_counters) {
    o.cache_hits = rec.delta.stats.cache_hits;
    o.cache_misses = rec.delta.stats.cache_misses;
    o.bypass_hits = rec.delta.stats.cache_bypass_hits;
    o.bypass_misses = rec.delta.stats.cache_bypass_misses;
    o.bypassed_bytes = rec.delta.stats.bypassed_bytes;
    o.dirty_before = rec.delta.dirty_before_bytes;
    o.dirty_after = rec.delta.dirty_after_bytes;
    // The device's own block counters include the ramp; prefer them.
    o.read_bytes = rec.delta.bcache.read_bytes();
    o.write_bytes = rec.delta.bcache.write_bytes();
  }
  if (o.read_bytes + o.write_bytes == 0) {
    for (const JobResult& j : rec.result.jobs) {
      o.read_bytes += j.dir[0].bytes;
      o.write_bytes += j.dir[1].bytes;
    }
  }
  o.drain_before_timed_out = rec.drain_before_timed_out;
  o.drain_after_timed_out = rec.drain_after_timed_out;
  o.dirty_left_after_drain = rec.dirty_left_after_drain;
  if (!rec.workload->is_db) o.jobs = rec.workload->io.jobs;
  return o;
}

}  // namespace

void ThrowIfInterrupted(const std::string& where) {
  if (!Interrupted()) return;
  const int sig = InterruptSignal();
  throw InterruptedError(std::string("interrupted by ") +
                             (sig == SIGTERM ? "SIGTERM" : "SIGINT") + " " +
                             where + ". Key: finished cells are in runs.csv",
                         sig == 0 ? SIGINT : sig);
}

CellRunner::CellRunner(const CompareOptions& options, const CompareSetup& setup,
                       const CompareHooks& hooks, const Sysfs& sysfs,
                       BcacheDevice* device, const KnobSnapshot* original)
    : options_(options),
      setup_(setup),
      hooks_(hooks),
      sysfs_(sysfs),
      device_(device),
      original_(original) {}

void CellRunner::Sleep(double seconds) {
  if (seconds <= 0) return;
  if (hooks_.sleep) {
    hooks_.sleep(seconds);
    return;
  }
  const int steps = static_cast<int>(seconds * 10 + 0.5);
  for (int i = 0; i < steps && !Interrupted(); ++i) ::usleep(100 * 1000);
}

double CellRunner::Drain(const std::string& what, bool* timed_out) {
  double drained = 0;
  auto progress = [this, &what](const DrainProgress& p) {
    if (!options_.quiet) {
      char line[160];
      std::snprintf(line, sizeof line, "%s: draining %s dirty (%s) %.0fs",
                    what.c_str(), FormatHumanSize(p.dirty_bytes).c_str(),
                    p.state.c_str(), p.elapsed_s);
      DrawProgressLine(line);
    }
  };
  Status s = device_->WaitClean(options_.drain_timeout_s, kDrainPollSeconds,
                                progress, &drained);
  ClearProgressLine();
  *timed_out = false;
  if (s.code() == Status::Code::kBusy && Interrupted()) {
    ThrowIfInterrupted("while draining dirty data");
  }
  if (s.code() == Status::Code::kTimedOut) {
    *timed_out = true;
    LogWarning(what + ": " + s.message());
  } else if (!s.ok()) {
    throw SysError::From("waiting for " + device_->name() + " to be clean", s);
  }
  return drained;
}

void CellRunner::DropCaches() {
  ::sync();
  Status s = sysfs_.Write("proc/sys/vm/drop_caches", "3");
  if (!s.ok()) {
    throw SysError::From(
        "cannot drop the page cache (" +
            sysfs_.Path("proc/sys/vm/drop_caches") +
            "); cached reads would measure RAM. Fix: run as root on a "
            "writable /proc",
        s);
  }
}

void CellRunner::RunWorkloadOn(const PreparedWorkload& w,
                               const std::string& target,
                               const std::string& label, CellRecord* rec) {
  try {
    if (w.is_db) {
      DbCellOptions db;
      db.destructive = options_.destructive;
      db.proc_root = setup_.host.proc_root;
      JobResult job = hooks_.run_db
                          ? hooks_.run_db(w.db, target, db, &rec->db_info)
                          : RunDbCell(w.db, target, db, &rec->db_info);
      rec->result.jobs.push_back(std::move(job));
      return;
    }
    Workload copy = w.io;
    for (JobSpec& j : copy.jobs) j.filename = target;
    RunOptions ro;
    ro.destructive = options_.destructive;
    ro.progress = !options_.quiet;
    ro.progress_label = label;
    rec->result = hooks_.run_workload ? hooks_.run_workload(copy, ro)
                                      : RunWorkload(copy, ro);
  } catch (const RunError& e) {
    rec->error = e.what();
  } catch (const DbError& e) {
    rec->error = e.what();
  }
  if (!rec->error.empty()) LogWarning(label + " failed: " + rec->error);
}

void CellRunner::Prefill(const PreparedWorkload& w) {
  Workload pre = w.io;
  for (JobSpec& j : pre.jobs) {
    j.filename = setup_.bcache_target;
    j.rw = RwPattern::kRead;
    j.time_based = false;
    j.runtime_ns = 0;
    j.ramp_time_ns = 0;
    j.numjobs = 1;
    j.thinktime_ns = 0;
    j.rate_iops[0] = j.rate_iops[1] = 0;
    if (j.size.bytes % kPrefillBlock == 0 &&
        (!j.offset.set || j.offset.bytes % kPrefillBlock == 0)) {
      j.bs[0] = BlockSizeSpec{kPrefillBlock, kPrefillBlock, {}};
    }
  }
  RunOptions ro;
  ro.progress = !options_.quiet;
  ro.progress_label = "prefill " + w.name;
  if (hooks_.run_workload) {
    hooks_.run_workload(pre, ro);
  } else {
    RunWorkload(pre, ro);
  }
}

void CellRunner::PrepareCacheState(const PreparedWorkload& w, CellRecord* rec) {
  switch (options_.cache_state) {
    case CacheState::kCold:
      device_->MakeCold(options_.drain_timeout_s);
      return;
    case CacheState::kWarm:
      if (w.is_db) {
        rec->warnings.push_back(
            "--cache-state warm cannot prefill a DB workload (its database "
            "is created in the cell): the cache was used as-is");
        return;
      }
      // Reads insert in writethrough; the cutoff would bypass the
      // sequential prefill. ApplyMode() then sets the cell's own values.
      device_->SetCacheMode("writethrough");
      device_->SetKnob("sequential_cutoff", "0");
      Prefill(w);
      return;
    case CacheState::kAsIs:
      return;
  }
}

void CellRunner::ApplyMode(const ModeSpec& mode, CellRecord* rec) {
  rec->cache_mode_readback = device_->SetCacheMode(mode.cache_mode);
  bool cutoff_set = false;
  for (const auto& [name, value] : mode.knobs) {
    device_->SetKnob(name, value);
    cutoff_set = cutoff_set || name == "sequential_cutoff";
  }
  for (const auto& [name, value] : mode.cache_set_knobs) {
    device_->SetCacheSetKnob(name, value);
  }
  if (!cutoff_set && options_.cache_state == CacheState::kWarm &&
      !rec->workload->is_db) {
    // The prefill set 0: back to the value the compare started with.
    auto it = original_->knobs.find("sequential_cutoff");
    if (it != original_->knobs.end()) device_->SetKnob(it->first, it->second);
  }
  rec->knobs_readback = device_->Capture();
  rec->cache_set = device_->ReadCacheSetInfo();
}

CellRecord CellRunner::Run(const Cell& cell) {
  CellRecord rec;
  rec.cell = cell;
  rec.mode = &setup_.modes[cell.mode];
  rec.workload = &setup_.workloads[cell.workload];
  const ModeSpec& mode = *rec.mode;
  const PreparedWorkload& w = *rec.workload;
  const std::string label =
      mode.name + "/" + w.name + " #" + std::to_string(cell.repetition);
  ThrowIfInterrupted("before " + label);
  if (mode.is_raw()) {
    rec.target = mode.target == RawTarget::kHdd ? options_.hdd : options_.ssd;
    DropCaches();
    RunWorkloadOn(w, rec.target, label, &rec);
    return rec;
  }

  rec.target = setup_.bcache_target;
  rec.cache_state = CacheStateName(options_.cache_state);
  PrepareCacheState(w, &rec);
  ThrowIfInterrupted("while preparing " + label);
  ApplyMode(mode, &rec);
  rec.drain_before_s = Drain(label, &rec.drain_before_timed_out);
  DropCaches();
  rec.state_before = std::string(BcacheStateName(device_->State()));
  const CounterSnapshot before = device_->TakeCounters();
  RunWorkloadOn(w, rec.target, label, &rec);
  ThrowIfInterrupted("after " + label);
  Sleep(options_.stats_lag_s);
  ThrowIfInterrupted("while waiting for bcache's counters after " + label);
  const CounterSnapshot after = device_->TakeCounters();
  rec.delta = DiffCounters(before, after);
  rec.has_counters = true;
  rec.drain_after_s = Drain(label, &rec.drain_after_timed_out);
  if (rec.drain_after_timed_out)
    rec.dirty_left_after_drain = device_->DirtyBytes();
  for (std::string& warning : Diagnose(Observe(rec))) {
    rec.warnings.push_back(std::move(warning));
  }
  if (rec.delta.counters_reset) {
    rec.warnings.push_back(
        "bcache counters went backwards during the cell (clear_stats or "
        "re-registration): its counter columns are not trustworthy");
  }
  return rec;
}

}  // namespace tierbench
