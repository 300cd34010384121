#include "orchestrate/cell_runner.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "io/device_guard.h"
#include "orchestrate/host_sampler.h"
#include "orchestrate/steady_state.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/units.h"
#include "validity/cache_rules.h"
#include "validity/db_rules.h"
#include "validity/measurement_rules.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

constexpr double kDrainPollSeconds = 1.0;
// How often the wait for a lagging layer's fold reads its counters.
constexpr double kFoldPollSeconds = 0.2;

CellObservation Observe(const CellRecord& rec) {
  CellObservation o;
  o.layer = rec.mode->layer;
  if (rec.mode->is_raw()) return o;
  o.cache_mode = rec.readback.cache_mode;
  o.cache_state = rec.cache_state;
  o.state_before = rec.state_before;
  o.settings = rec.readback.settings;
  o.cache_bytes = rec.stack.cache_bytes;
  o.cache_block_bytes = rec.stack.cache_block_bytes;
  o.has_counters = rec.has_counters;
  o.delta = rec.delta;
  if (rec.has_counters) {
    // The stack device's own block counters include the ramp; prefer them.
    o.read_bytes = rec.delta.stack.read_bytes();
    o.write_bytes = rec.delta.stack.write_bytes();
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
  o.region_bytes = WorkloadRegionBytes(*rec.workload);
  o.settled = rec.settled;
  return o;
}

DbEvidence DbEvidenceOf(const CellRecord& rec) {
  DbEvidence d;
  if (!rec.workload->is_db || !rec.error.empty()) return d;
  const DbCellInfo& info = rec.db_info;
  d.is_db = true;
  d.scale = rec.workload->db.scale;
  d.clients = rec.workload->db.clients;
  d.db_size_bytes = info.db_size_bytes;
  d.shared_buffers_bytes = info.shared_buffers_bytes;
  d.mem_total_bytes = info.mem_total_bytes;
  d.restarted_after_load = info.restarted_after_load ? 1 : 0;
  d.server_cpu_s = info.server_cpu_s;
  d.device_read_bytes = rec.host.target_read_bytes;
  return d;
}

// The kernel's name of the block device at `path` ("" when it is none).
std::string BlockNameOf(const std::string& path, const Sysfs& os) {
  BlockDeviceId id;
  return ResolveBlockDevice(path, os, &id).ok() ? id.name : std::string();
}

}  // namespace

// Watches a lagging layer (bcache folds what it counted every 13.6 s) for
// its first fold after the reading `since`: its own counters or its fold
// mark moved (LayerOwnCountersMoved). The one watch of the counters before
// a cell (CountersAtFold) and after it (step 7).
class FoldWatch {
 public:
  FoldWatch(CacheLayer& layer, LayerCounters since, double lag_s)
      : layer_(layer),
        since_(std::move(since)),
        lag_s_(lag_s),
        gauges_(layer.GaugeKeys()) {}

  // Reads the counters once, `elapsed_s` after the watch began, unless it
  // has its reading. The reading is taken at the fold (read once more: a
  // reading right after it may have caught it half-way, one sysfs file
  // before it and one after), or, from `lag_s` on, whatever is read then.
  // True once it has the reading.
  bool Poll(double elapsed_s) {
    if (reading_) return true;
    LayerCounters now = layer_.TakeCounters();
    if (LayerOwnCountersMoved(since_, now, gauges_)) {
      reading_ = layer_.TakeCounters();
    } else if (elapsed_s >= lag_s_) {
      reading_ = std::move(now);
    } else {
      return false;
    }
    at_s_ = elapsed_s;
    return true;
  }
  double lag_s() const { return lag_s_; }
  // After Poll returned true: the reading and when it was taken.
  const LayerCounters& reading() const { return *reading_; }
  double at_s() const { return at_s_; }

 private:
  CacheLayer& layer_;
  const LayerCounters since_;
  const double lag_s_;
  const std::set<std::string> gauges_;
  std::optional<LayerCounters> reading_;
  double at_s_ = 0;
};

CellRunner::CellRunner(const CompareOptions& options, const CompareSetup& setup,
                       const Host& host, const CompareHooks& hooks)
    : captures_(options, setup),
      options_(options),
      setup_(setup),
      host_(host),
      hooks_(hooks) {}

void CellRunner::CloseDb() {
  captures_.StopTracing();  // a capture cut short by an error or a signal
  db_.Close();
}

uint64_t CellRunner::Now() const { return host_.Now(); }

LayerCounters CellRunner::CountersAtFold(CacheLayer& layer,
                                         const LayerCounters& since,
                                         const std::string& label) {
  LayerCounters now = layer.TakeCounters();
  if (layer.CounterLagSeconds() <= 0) return now;
  const auto same_io = [](const BlockStat& a, const BlockStat& b) {
    return a.read_ios == b.read_ios && a.write_ios == b.write_ios &&
           a.flush_ios == b.flush_ios;
  };
  auto known = at_fold_.find(&layer);
  if (known == at_fold_.end() || !same_io(known->second.stack, now.stack)) {
    FoldWatch watch(layer, since, options_.stats_lag_s);
    WaitForFold(
        watch, Now(),
        "while waiting for " + layer.layer() + "'s counters before " + label);
    now = watch.reading();
  }
  at_fold_[&layer] = now;
  return now;
}

void CellRunner::WaitForFold(FoldWatch& watch, uint64_t origin_ns,
                             const std::string& what) {
  const auto since_origin_s = [this, origin_ns] {
    return static_cast<double>(Now() - origin_ns) / 1e9;
  };
  const double from_s = since_origin_s();
  double slept_s = 0;
  const auto elapsed_s = [&] {
    return std::max(since_origin_s(), from_s + slept_s);
  };
  while (!watch.Poll(elapsed_s())) {
    const double step_s =
        std::min(kFoldPollSeconds, std::max(0.0, watch.lag_s() - elapsed_s()));
    Sleep(step_s);
    slept_s += step_s;
    ThrowIfInterrupted(what);
  }
}

void CellRunner::Sleep(double seconds) { host_.Sleep(seconds); }

double CellRunner::Drain(CacheLayer& layer, const std::string& what, bool flush,
                         bool* timed_out, LayerSampler* sampler,
                         const std::function<void()>& on_poll) {
  double drained = 0;
  auto progress = [this, &what, sampler,
                   &on_poll](const LayerDrainProgress& p) {
    if (sampler != nullptr) sampler->AddDrain(NowNs(), p.dirty_bytes);
    if (on_poll) on_poll();
    if (!options_.quiet) {
      char line[160];
      std::snprintf(
          line, sizeof line, "%s: draining %s dirty (%s) %.0fs", what.c_str(),
          FormatBytes(
              static_cast<uint64_t>(std::max<int64_t>(0, p.dirty_bytes)))
              .c_str(),
          p.state.c_str(), p.elapsed_s);
      DrawProgressLine(line);
    }
  };
  Status s =
      flush ? layer.Flush(options_.drain_timeout_s, progress, &drained)
            : layer.WaitClean(options_.drain_timeout_s, progress, &drained);
  ClearProgressLine();
  *timed_out = false;
  if (s.code() == Status::Code::kBusy && Interrupted()) {
    ThrowIfInterrupted("while draining dirty data");
  }
  if (s.code() == Status::Code::kTimedOut) {
    *timed_out = true;
    LogWarning(what + ": " + s.message());
  } else if (!s.ok()) {
    throw SysError::From("waiting for " + layer.device() + " to be clean", s);
  }
  return drained;
}

CellRunner::PreparedOnTarget& CellRunner::PreparedOn(
    const PreparedWorkload& w, const std::string& target) {
  const auto key = std::make_pair(&w, target);
  auto it = prepared_.find(key);
  if (it == prepared_.end()) {
    // PrepareCompare prepared the workload; a setup made otherwise is
    // prepared here.
    const std::shared_ptr<const PreparedJobs> jobs =
        w.prepared ? w.prepared : std::make_shared<const PreparedJobs>(w.io);
    it = prepared_
             .emplace(
                 key,
                 PreparedOnTarget{PreparedRun(*jobs, target, host_.sysfs), {}})
             .first;
  }
  return it->second;
}

void CellRunner::DropCaches() {
  Status s = DropPageCache(host_.sysfs);
  if (!s.ok()) {
    throw SysError::From(
        "cannot drop the page cache (" +
            host_.sysfs.Path("proc/sys/vm/drop_caches") +
            "); cached reads would measure RAM. Fix: run as root on a "
            "writable /proc",
        s);
  }
}

void CellRunner::RunWorkloadOn(const PreparedWorkload& w,
                               const std::string& target,
                               const std::string& label, CellRecord* rec,
                               LayerSampler* sampler, const DbOnStack* db_stack,
                               const std::function<void()>& before_clients,
                               const std::function<void()>& after_clients) {
  uint64_t ramp_ns = 0;
  if (!w.is_db) {
    for (const JobSpec& j : w.io.jobs)
      ramp_ns = std::max(ramp_ns, j.ramp_time_ns);
  }
  // The workload placed on its target (at its first cell there: the file
  // plan and the target's inspection), before the measured window.
  const PreparedRun* prepared =
      w.is_db || hooks_.run_workload ? nullptr : &PreparedOn(w, target).run;
  // The baseline reading right before the IO; a DB cell first creates and
  // loads its database, so its first reading is the one after 1 s.
  if (sampler != nullptr && !w.is_db) sampler->Take(SeriesPhase::kMeasure);
  uint64_t set_start_ns = 0;
  // The machine over the measured window (a DB cell's window starts at its
  // benchmark's first second: its call also restarts the server, and for
  // the first cell of a database on a raw device creates and loads it).
  HostSampler host(
      host_.sysfs, BlockNameOf(target, host_.sysfs),
      rec->mode->is_raw() ? std::vector<std::string>{} : rec->stack.members,
      w.is_db);
  host.Begin();
  rec->series.measure_start_ns = NowNs() + ramp_ns;
  const uint64_t io_start_ns = Now();
  const auto on_second = [sampler, &set_start_ns, &host](uint64_t start_ns) {
    if (set_start_ns == 0) set_start_ns = start_ns;
    host.Tick();
    if (sampler != nullptr) sampler->Take(SeriesPhase::kMeasure);
  };
  try {
    if (w.is_db) {
      DbCellOptions db;
      db.destructive = options_.destructive;
      db.os = host_.sysfs;
      // --capture-replay: the filesystem the size of the smallest target,
      // so the raw HDD's capture fits every target it is replayed on.
      if (options_.capture_replay) db.fs_bytes = setup_.region_bytes;
      db.on_second = on_second;
      db.before_clients = before_clients;
      db.after_clients = after_clients;
      if (db_stack != nullptr) {
        db.before_run = db_stack->before_run;
        db.before_clients = db_stack->before_clients;
        // The load's dirty data drained before the measured run.
        CacheLayer* layer = db_stack->layer;
        db.after_load = [this, layer, label, rec] {
          bool timed_out = false;
          rec->drain_load_s = Drain(*layer, label + " (after the load)",
                                    /*flush=*/true, &timed_out);
          if (timed_out) {
            rec->findings.push_back(
                {"dirty-before", Severity::kInvalid,
                 "the database load's dirty data did not drain before the "
                 "run (--drain-timeout): its writeback competed with the "
                 "measured run"});
          }
        };
      }
      JobResult job =
          hooks_.run_db
              ? hooks_.run_db(w.db, target, db, &rec->db_info)
              : db_.Run(rec->cell.workload, w.db, target, db, &rec->db_info);
      rec->result.jobs.push_back(std::move(job));
    } else {
      RunOptions ro;
      ro.sysfs = host_.sysfs;
      ro.destructive = options_.destructive;
      ro.progress = !options_.quiet;
      ro.progress_label = label;
      ro.on_second = on_second;
      if (hooks_.run_workload) {
        Workload copy = w.io;
        for (JobSpec& j : copy.jobs) j.filename = target;
        rec->result = hooks_.run_workload(copy, ro);
      } else {
        rec->result = RunPrepared(*prepared, ro);
      }
    }
  } catch (const RunError& e) {
    rec->error = e.what();
  } catch (const DbError& e) {
    rec->error = e.what();
  }
  host.End();
  rec->host = host.Evidence();
  rec->io_s = static_cast<double>(Now() - io_start_ns) / 1e9;
  // The first set's IO start (after any file layout; for a DB cell the
  // benchmark's start after the load) is the better origin.
  if (set_start_ns != 0) rec->series.measure_start_ns = set_start_ns + ramp_ns;
  if (!rec->error.empty()) LogWarning(label + " failed: " + rec->error);
}

CellRecord CellRunner::Run(const Cell& cell) {
  const uint64_t start_ns = Now();
  CellRecord rec = RunSteps(cell);
  rec.cell_wall_s = static_cast<double>(Now() - start_ns) / 1e9;
  if (rec.error.empty()) {
    const std::vector<JobSpec> no_jobs;
    AddFindings(
        MeasurementFindings(
            rec.result, rec.workload->is_db ? no_jobs : rec.workload->io.jobs,
            rec.host,
            !rec.mode->is_raw()                   ? CellRole::kCache
            : rec.mode->target == RawTarget::kHdd ? CellRole::kRawHdd
                                                  : CellRole::kRawSsd),
        &rec.findings);
    AddFindings(DbFindings(DbEvidenceOf(rec)), &rec.findings);
  }
  // What the setup found for this cell's devices (baselines, loop devices,
  // the lab's disks).
  AddFindings(setup_.run_findings, &rec.findings);
  if (rec.mode->is_raw()) {
    AddFindings(rec.mode->target == RawTarget::kHdd ? setup_.hdd_findings
                                                    : setup_.ssd_findings,
                &rec.findings);
  } else if (const CompareStack* st = setup_.StackFor(*rec.mode)) {
    AddFindings(st->findings, &rec.findings);
  }
  return rec;
}

CellRecord CellRunner::RunSteps(const Cell& cell) {
  CellRecord rec;
  rec.cell = cell;
  rec.mode = &setup_.modes[cell.mode];
  rec.workload = &setup_.workloads[cell.workload];
  const ModeSpec& mode = *rec.mode;
  const std::string label = mode.name + "/" + rec.workload->name + " #" +
                            std::to_string(cell.repetition);
  ThrowIfInterrupted("before " + label);
  // --capture-replay: a replay cell replays its workload's capture, which
  // an earlier cell made (orchestrate/capture_replay.h); without one, the
  // cell fails with the reason.
  if (rec.workload->capture_of >= 0) {
    std::string why;
    const PreparedWorkload* replay = captures_.Replay(cell.workload, &why);
    if (replay == nullptr) {
      rec.error = "no capture to replay: " + why;
      LogWarning(label + " failed: " + rec.error);
      return rec;
    }
    rec.workload = replay;
  }
  const PreparedWorkload& w = *rec.workload;
  // A kept database serves only the same DB workload on the same target;
  // any other cell must not find the device mounted.
  {
    const CompareStack* st = mode.is_raw() ? nullptr : setup_.StackFor(mode);
    const std::string target =
        mode.is_raw()
            ? (mode.target == RawTarget::kHdd ? options_.hdd : options_.ssd)
            : (st != nullptr ? st->device : std::string());
    db_.KeepOnlyFor(cell.workload, target, w.is_db);
  }
  if (mode.is_raw()) {
    rec.target = mode.target == RawTarget::kHdd ? options_.hdd : options_.ssd;
    // The raw SSD is settled when --precondition wrote it before the cells.
    rec.settled =
        mode.target == RawTarget::kSsd && options_.precondition_passes > 0;
    DropCaches();
    if (captures_.ShouldCapture(cell)) {
      // The trace starts with the clients (after the load, the restart and
      // the page cache warm-up) and ends with them, before the run's
      // checkpoint and the server's stop.
      // The trace ends on every way out of the cell, an exception included
      // (Finish is not reached then).
      struct StopOnUnwind {
        CaptureReplay& captures;
        ~StopOnUnwind() { captures.StopTracing(); }
      } stop_on_unwind{captures_};
      std::string start_error;
      const auto start = [this, &cell, &start_error] {
        try {
          captures_.Start(cell);
        } catch (const std::exception& e) {
          start_error = e.what();
          LogWarning(std::string("--capture-replay: ") + e.what());
        }
      };
      RunWorkloadOn(w, rec.target, label, &rec, nullptr, nullptr, start,
                    [this] { captures_.StopTracing(); });
      captures_.Finish(cell, start_error.empty() ? rec.error : start_error);
    } else {
      RunWorkloadOn(w, rec.target, label, &rec);
    }
    return rec;
  }

  const CompareStack* stack = setup_.StackFor(mode);
  if (stack == nullptr) {
    throw ConfigError("mode '" + mode.name + "' has no " + mode.layer +
                      " stack. Fix: --stack DEV");
  }
  CacheLayer& layer = *stack->layer;
  rec.target = stack->device;
  rec.cache_state = CacheStateName(options_.cache_state);
  // A DB cell's database is made and loaded before the cache state and
  // the mode, so no mode's cell runs on a cache its own load filled.
  if (w.is_db && !hooks_.run_db) {
    DbCellOptions make;
    make.destructive = options_.destructive;
    make.os = host_.sysfs;
    if (options_.capture_replay) make.fs_bytes = setup_.region_bytes;
    db_.Prepare(cell.workload, w.db, stack->device, make);
  }
  PrepareCacheState(layer, stack->device, w, &rec);
  ThrowIfInterrupted("while preparing " + label);
  std::vector<std::string> notes;
  rec.readback = layer.ApplyMode(mode, &notes);
  // Steps the layer had to take (e.g. a drain before passthrough) stay
  // beside the cell's numbers.
  for (const std::string& n : notes) {
    rec.findings.push_back({"mode-step", Severity::kNote, n});
  }
  rec.stack = layer.Describe();
  if (options_.cache_state == CacheState::kWarmUntilSteady &&
      !WarmUntilSteady(layer, stack->device, w, label, &rec)) {
    return rec;
  }
  // The IO of the prefill or the warm-up has stopped: a lagging layer
  // folds it into its counters at its next fold (step 4).
  const bool prep_io =
      !w.is_db && (options_.cache_state == CacheState::kWarm ||
                   options_.cache_state == CacheState::kWarmUntilSteady);
  const LayerCounters at_prep_end =
      prep_io ? layer.TakeCounters() : LayerCounters{};
  // Settled by warming until steady, the cache's dirty data is part of
  // its steady state (writeback keeps writing back while the workload
  // runs): it stays. Otherwise the cell starts clean.
  if (options_.cache_state == CacheState::kWarmUntilSteady && !w.is_db) {
    rec.drain_before_s = 0;
  } else {
    rec.drain_before_s =
        Drain(layer, label, /*flush=*/true, &rec.drain_before_timed_out);
  }
  // A DB workload that reads its database into the page cache keeps it.
  if (!w.is_db || !w.db.page_cache_warm) DropCaches();
  rec.state_before = layer.State();
  LayerCounters before = prep_io ? CountersAtFold(layer, at_prep_end, label)
                                 : layer.TakeCounters();
  LayerSampler sampler(&layer, &rec.series);
  // A DB cell's counters start with its measured run, after the load and
  // the warm-up; on a lagging layer, with its clients (their warm-up
  // included), at the fold after the restart and the page cache warm-up.
  const bool lagging = layer.CounterLagSeconds() > 0;
  DbOnStack db_stack;
  db_stack.layer = &layer;
  db_stack.before_clients = [this, &before, &layer, &label, lagging] {
    if (lagging) before = CountersAtFold(layer, layer.TakeCounters(), label);
  };
  db_stack.before_run = [&before, &layer, &rec, lagging] {
    if (!lagging) before = layer.TakeCounters();
    rec.state_before = layer.State();
  };
  RunWorkloadOn(w, rec.target, label, &rec, &sampler,
                w.is_db ? &db_stack : nullptr);
  const uint64_t io_stop_ns = Now();
  ThrowIfInterrupted("after " + label);
  // Step 6: the drain starts at the IO stop. Step 7, overlapping it: the
  // counters "after", at once when they do not lag; else at the first fold
  // after the IO stop (the layer's own counters moved since the reading
  // taken at the stop: everything the cell counted is in them), or
  // --stats-lag after the stop, whichever comes first. Checked at every
  // drain poll, and every kFoldPollSeconds once the drain is over.
  const double lag_s =
      layer.CounterLagSeconds() > 0 ? options_.stats_lag_s : 0.0;
  const auto since_stop_s = [this, io_stop_ns] {
    return static_cast<double>(Now() - io_stop_ns) / 1e9;
  };
  const std::set<std::string> gauges = layer.GaugeKeys();
  std::optional<LayerCounters> after;
  std::optional<FoldWatch> watch;
  if (lag_s <= 0) {
    after = layer.TakeCounters();
  } else {
    watch.emplace(layer, layer.TakeCounters(), lag_s);
  }
  int polls = 0;
  const auto on_poll = [&] {
    ++polls;
    if (watch) watch->Poll(since_stop_s());
  };
  Drain(layer, label, options_.drain_after_flush, &rec.drain_after_timed_out,
        &sampler, on_poll);
  // Clean at the first poll: nothing was left to drain.
  rec.drain_after_s =
      polls > 1 || rec.drain_after_timed_out ? since_stop_s() : 0.0;
  if (rec.drain_after_timed_out) {
    const int64_t dirty = layer.DirtyBytes();
    rec.dirty_left_after_drain = dirty < 0 ? 0 : static_cast<uint64_t>(dirty);
  }
  // The drain ended before the fold and the lag: wait for either. The
  // time waited counts by the clock or by the sleeps, whichever says more
  // (a test's sleep hook need not move the clock).
  if (watch) {
    WaitForFold(
        *watch, io_stop_ns,
        "while waiting for " + layer.layer() + "'s counters after " + label);
    after = watch->reading();
    rec.counters_after_s = watch->at_s();
    at_fold_[&layer] = *after;
  }
  rec.delta = DiffLayerCounters(before, *after, gauges);
  rec.has_counters = true;
  rec.counters_raw_before = before.raw;
  rec.counters_raw_after = after->raw;
  CellObservation obs = Observe(rec);
  obs.mode_caches_reads = layer.ModeCachesReads(rec.readback.cache_mode);
  obs.counters_after_s = rec.counters_after_s;
  obs.counter_lag_limit_s =
      layer.CounterLagSeconds() > 0 ? options_.stats_lag_s : -1.0;
  AddFindings(CacheFindings(obs,
                            [&layer](const CellObservation& o) {
                              return layer.Diagnose(o);
                            }),
              &rec.findings);
  if (rec.series.failed_samples > 0) {
    rec.findings.push_back(
        {"sample-gaps", Severity::kNote,
         std::to_string(rec.series.failed_samples) +
             " per-second readings of the layer failed: series.csv has "
             "gaps"});
  }
  return rec;
}

}  // namespace tierbench
