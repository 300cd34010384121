// CellRunner's cache-state steps (cell_runner.h, steps 1 and 2a): the
// prefill passes of --cache-state warm, the cold/warm preparation, and the
// warm-up in chunks until steady of warm-until-steady. The rest of the cell's
// protocol is in cell_runner.cc.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>

#include "orchestrate/cell_runner.h"
#include "orchestrate/steady_state.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

constexpr uint64_t kPrefillBlock = 64 * 1024;

// A prefill pass of `io` on `device`: its region read once, unthrottled.
Workload PrefillWorkload(const Workload& io, const std::string& device) {
  Workload pre = io;
  for (JobSpec& j : pre.jobs) {
    j.filename = device;
    j.rw = RwPattern::kRead;
    j.time_based = false;
    j.runtime_ns = 0;
    j.ramp_time_ns = 0;
    j.numjobs = 1;
    j.thinktime_ns = 0;
    j.rate_iops[0] = j.rate_iops[1] = 0;
    // Prefill runs unthrottled, cannot fail a minimum and never stops early.
    for (int d = 0; d < kNumDirs; ++d) j.rate[d] = j.rate_min[d] = 0;
    for (int d = 0; d < kNumDirs; ++d) j.rate_iops_min[d] = 0;
    j.steadystate = SteadyStateSpec{};
    j.read_iolog.clear();  // prefill reads the region, not the trace
    j.write_iolog.clear();
    if (j.size.bytes % kPrefillBlock == 0 &&
        (!j.offset.set || j.offset.bytes % kPrefillBlock == 0)) {
      j.bs[0] = BlockSizeSpec{kPrefillBlock, kPrefillBlock, {}};
    }
  }
  return pre;
}

}  // namespace

void CellRunner::Prefill(const PreparedWorkload& w, const std::string& device) {
  RunOptions ro;
  ro.sysfs = host_.sysfs;
  ro.progress = !options_.quiet;
  ro.progress_label = "prefill " + w.name;
  if (hooks_.run_workload) {
    hooks_.run_workload(PrefillWorkload(w.io, device), ro);
    return;
  }
  std::optional<PreparedRun>& prefill = PreparedOn(w, device).prefill;
  if (!prefill) {
    prefill.emplace(PreparedJobs(PrefillWorkload(w.io, device)), "",
                    host_.sysfs);
  }
  RunPrepared(*prefill, ro);
}

void CellRunner::PrepareCacheState(CacheLayer& layer, const std::string& device,
                                   const PreparedWorkload& w, CellRecord* rec) {
  switch (options_.cache_state) {
    case CacheState::kCold:
      layer.MakeCold(options_.drain_timeout_s);
      return;
    case CacheState::kWarm: {
      if (w.is_db) {
        rec->findings.push_back(
            {"warm-db", Severity::kCaution,
             "--cache-state warm cannot prefill a DB workload (its database "
             "is created in the cell): the cache was used as-is"});
        return;
      }
      std::string why_not;
      if (!layer.BeginWarm(&why_not)) {
        rec->findings.push_back({"warm-unavailable", Severity::kCaution,
                                 why_not + ": the cache was used as-is"});
        return;
      }
      const uint64_t region = WorkloadRegionBytes(w);
      const std::set<std::string> gauges = layer.GaugeKeys();
      double last_hit = -1;
      for (int pass = 1; pass <= kMaxWarmPasses; ++pass) {
        const LayerCounters before = layer.TakeCounters();
        const uint64_t pass_start_ns = Now();
        Prefill(w, device);
        rec->warm_io_s += static_cast<double>(Now() - pass_start_ns) / 1e9;
        ThrowIfInterrupted("while warming the cache");
        rec->warm_passes = pass;
        const LayerDelta d =
            DiffLayerCounters(before, layer.TakeCounters(), gauges);
        const double hit = d.read_hit_ratio_pct();
        last_hit = hit;
        if (hit >= 0 || d.common.promotions >= 0) {
          char line[160];
          std::snprintf(line, sizeof line,
                        "warm-up pass %d of %s: %.0f%% of reads hit, %lld "
                        "promotions",
                        pass, w.name.c_str(), hit < 0 ? 0.0 : hit,
                        static_cast<long long>(
                            std::max<int64_t>(0, d.common.promotions)));
          LogNotice(line);
        }
        if (!layer.WarmNeedsAnotherPass(d, region)) {
          rec->settled = true;
          return;
        }
      }
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.0f%%", last_hit < 0 ? 0.0 : last_hit);
      rec->findings.push_back(
          {"warm-promoting", Severity::kCaution,
           "the cache was still promoting after " +
               std::to_string(kMaxWarmPasses) + " prefill passes (" + pct +
               " of the last pass's reads hit): the cell started only partly "
               "warm"});
      return;
    }
    case CacheState::kAsIs:
      return;
    case CacheState::kWarmUntilSteady:
      layer.MakeCold(options_.drain_timeout_s);
      return;
  }
}

bool CellRunner::WarmUntilSteady(CacheLayer& layer, const std::string& device,
                                 const PreparedWorkload& w,
                                 const std::string& label, CellRecord* rec) {
  if (w.is_db) {
    // A DB cell creates its database in the cell: its own clients warm it
    // (the workload's "warmup", unmeasured) before the measured run.
    if (w.db.warmup_ns > 0) {
      rec->settled = true;
    } else {
      rec->findings.push_back(
          {"warm-db", Severity::kCaution,
           "a DB workload without \"warmup\" cannot be warmed until steady "
           "(its database is created in the cell): the cell started cold "
           "(fix: \"warmup\": \"20s\" in the workload)"});
    }
    return true;
  }
  const double chunk_s = options_.warm_chunk_s;
  const int max_chunks =
      std::max(1, static_cast<int>(options_.warm_max_s / chunk_s));
  RunWindow window;
  window.time_based = true;
  window.runtime_ns = static_cast<uint64_t>(chunk_s * 1e9);
  window.ramp_time_ns = 0;
  Workload chunk = w.io;  // for CompareHooks::run_workload
  for (JobSpec& j : chunk.jobs) {
    j.filename = device;
    j.time_based = window.time_based;
    j.runtime_ns = window.runtime_ns;
    j.ramp_time_ns = window.ramp_time_ns;
  }
  // The measured run prepared on `device`, in chunks.
  std::optional<PreparedRun> prepared;
  if (!hooks_.run_workload) prepared.emplace(PreparedOn(w, device).run);
  RunOptions ro;
  ro.sysfs = host_.sysfs;
  ro.destructive = options_.destructive;
  ro.progress = !options_.quiet;
  const std::set<std::string> gauges = layer.GaugeKeys();
  SteadyStateTracker tracker;
  LayerSampler sampler(&layer, &rec->series);
  sampler.Take(SeriesPhase::kWarm);
  uint64_t chunk_start_ns = 0;
  ro.on_second = [&sampler, &chunk_start_ns](uint64_t start_ns) {
    if (chunk_start_ns == 0) chunk_start_ns = start_ns;
    sampler.Take(SeriesPhase::kWarm);
  };
  const uint64_t start = NowNs();
  double elapsed = 0;
  bool steady = false;
  for (int n = 1;; ++n) {
    ro.progress_label = "warm " + label + " chunk " + std::to_string(n);
    // Each chunk draws anew over the same hot set: replaying one sequence
    // would read back what the last chunk cached, and the chunks' IOPS
    // would climb with every replay instead of settling (measured in the
    // lab, zipf:1.2 at 50 HDD IOPS: 96 -> 5234 IOPS over 14 chunks).
    window.draw_stream = static_cast<uint64_t>(n);
    for (JobSpec& j : chunk.jobs) j.draw_stream = window.draw_stream;
    const LayerCounters before = layer.TakeCounters();
    RunResult r;
    chunk_start_ns = 0;
    const uint64_t chunk_called_ns = NowNs();
    const uint64_t chunk_timer_ns = Now();
    try {
      if (prepared) {
        prepared->SetRunWindow(window);
        r = RunPrepared(*prepared, ro);
      } else {
        r = hooks_.run_workload(chunk, ro);
      }
      rec->warm_io_s += static_cast<double>(Now() - chunk_timer_ns) / 1e9;
    } catch (const RunError& e) {
      rec->error = std::string("warm-up chunk ") + std::to_string(n) +
                   " failed: " + e.what();
      LogWarning(label + ": " + rec->error);
      return false;
    }
    ThrowIfInterrupted("while warming " + label + " until steady");
    AppendWarmSeconds(r, chunk_start_ns != 0 ? chunk_start_ns : chunk_called_ns,
                      &rec->series.warm_io);
    const LayerDelta d =
        DiffLayerCounters(before, layer.TakeCounters(), gauges);
    double iops = 0;
    for (const JobResult& j : r.jobs) {
      iops += j.Iops(IoDir::kRead) + j.Iops(IoDir::kWrite);
    }
    // Reads served without the origin, from the block counters of the stack
    // and its origin: immediate on every layer (bcache's own hit counters
    // are folded only every ~13.6 s).
    const uint64_t stack_reads = d.stack.read_bytes();
    const uint64_t origin_reads = d.origin.read_bytes();
    double hit = -1;
    if (stack_reads > 0) {
      hit = 100.0 * (1.0 - std::min(1.0, static_cast<double>(origin_reads) /
                                             static_cast<double>(stack_reads)));
    }
    tracker.Add({iops, hit});
    elapsed = static_cast<double>(NowNs() - start) / 1e9;
    rec->warm_passes = n;
    char hits[64] = "no reads";
    if (hit >= 0) {
      std::snprintf(hits, sizeof hits,
                    "%.0f%% of reads served without the "
                    "origin",
                    hit);
    }
    char line[240];
    std::snprintf(line, sizeof line,
                  "warm-until-steady %s chunk %d (%.0f s): %.0f IOPS, %s",
                  label.c_str(), n, elapsed, iops, hits);
    LogNotice(line);
    if (tracker.Steady()) {
      steady = true;
      break;
    }
    if (n >= max_chunks || elapsed + chunk_s > options_.warm_max_s) break;
  }
  rec->warm_s = elapsed;
  rec->warm_hit_pct = tracker.LastHitPct();
  rec->warm_steady = steady ? 1 : 0;
  rec->settled = steady;
  if (!steady) {
    char secs[64];
    std::snprintf(secs, sizeof secs, "%d warm-up chunks (%.0f s)",
                  rec->warm_passes, elapsed);
    rec->findings.push_back(
        {"not-steady", Severity::kCaution,
         std::string("not steady after ") + secs + " (" + tracker.Describe() +
             "): the cell measured a cache still warming (fix: a larger "
             "--warm-max)"});
  }
  return true;
}

}  // namespace tierbench
