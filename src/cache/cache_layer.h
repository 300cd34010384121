// CacheLayer: the one seam between the compare protocol and a kernel block
// cache (bcache, dm-cache, dm-writecache, ...). Everything above src/cache
// talks to a stack through this interface and never names a layer; a new
// layer is a folder of src/cache (an implementation, its diagnosis, its
// LayerKind), its line in cache/registry/ (layer_kinds.cc, OpenCacheStack in
// layer_registry.cc) and mode files.
//
// One object controls ONE stack: the device IO goes to (/dev/bcache0,
// /dev/mapper/NAME) and the devices under it. Lifecycle, as the compare uses
// it:
//   CaptureOriginal()            once, before anything changes
//   per cell: MakeCold() or BeginWarm() + prefill passes
//             (WarmNeedsAnotherPass after each), ApplyMode() (every value
//             read back, a mismatch is a SysError), WaitClean(),
//             TakeCounters() before/after the run (after waiting
//             CounterLagSeconds()), Sample() about once a second while
//             the workload runs (the per-second series, series.csv),
//             WaitClean() again (time to clean) right after the run, with
//             the "after" TakeCounters() called from its progress callback
//             once the lag has passed, Diagnose().
//   RestoreOriginal()            at the end, on errors and on SIGINT/SIGTERM
// The layer NEVER writes to its origin, cache or metadata devices directly:
// only through the kernel's control files (sysfs, device-mapper ioctls).
//
// Errors: setup-facing methods throw SysError (exit 3) naming the control
// file or dm device and the fix, ConfigError (exit 2) for a mode or knob the
// layer rejects, InterruptedError when a wait is interrupted. WaitClean
// returns a Status (a drain that times out is an outcome to record).
// RestoreOriginal never throws.
//
// Thread-safety: none; one object, one thread. Every call re-reads the
// kernel's state, so external changes are seen.
#ifndef TIERBENCH_CACHE_CACHE_LAYER_H_
#define TIERBENCH_CACHE_CACHE_LAYER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cache/cell_observation.h"
#include "cache/layer_counters.h"
#include "util/finding.h"
#include "util/status.h"

namespace tierbench {

struct ModeSpec;

// What a stack is made of (read from the kernel).
struct StackInfo {
  std::string layer;   // "bcache", "dm-cache", ...
  std::string device;  // the path IO goes to, as given ("/dev/bcache0")
  std::string name;    // kernel or dm name ("bcache0", "tb-dmcache")
  std::string origin;  // block device name of the HDD side ("vda1")
  std::vector<std::string> caches;  // block device names of the SSD side
  std::string metadata;             // "" when kept inside the cache device
  // Every block device name that belongs to the stack (the stack device,
  // origin, caches, metadata and any intermediate dm devices): a raw
  // baseline must be none of these.
  std::vector<std::string> members;
  int64_t cache_bytes = -1;        // usable cache capacity
  int64_t cache_block_bytes = -1;  // caching unit (bcache block, dm block)
  nlohmann::json ToJson() const;
};

// The mode and every setting of a stack as read back; values are valid
// input for the layer's knobs ("4.0M", "smq", "2048").
struct LayerReadback {
  std::string cache_mode;
  std::map<std::string, std::string> settings;
  nlohmann::json ToJson() const;
};

struct RestoreReport {
  std::vector<std::string> failures;  // One message per item not restored.
  bool ok() const { return failures.empty(); }
};

struct LayerDrainProgress {
  double elapsed_s = 0;
  int64_t dirty_bytes = 0;
  std::string state;
};

// One cheap reading for the per-second series (series.csv), taken about
// once a second while a cell's workload runs: the layer's own read hit and
// miss counters (-1 when the layer has none) and its dirty bytes (-1 when
// unknown). Counters are cumulative; the caller differences them.
struct LayerSample {
  uint64_t taken_ns = 0;  // CLOCK_MONOTONIC
  int64_t read_hits = -1;
  int64_t read_misses = -1;
  int64_t dirty_bytes = -1;
};

class CacheLayer {
 public:
  using ProgressFn = std::function<void(const LayerDrainProgress&)>;
  using SleepFn = std::function<void(double seconds)>;

  virtual ~CacheLayer() = default;

  // The layer's name as in mode files ("bcache").
  virtual const std::string& layer() const = 0;
  // The path IO goes to, as the user gave it.
  virtual const std::string& device() const = 0;

  // The stack's make-up. Throws SysError when it cannot be read.
  virtual StackInfo Describe() const = 0;
  // Manifest view: topology, state, mode, every setting; never throws
  // (unreadable items are null).
  virtual nlohmann::json DescribeJson() const = 0;
  // Refusals that make the stack unusable for `modes` (e.g. bcache with no
  // cache attached); empty when fine. Called before anything changes.
  virtual std::string CheckUsable(const std::vector<const ModeSpec*>& modes,
                                  bool cold_or_warm) const = 0;

  // Seconds the layer's counters lag behind the IO (bcache: ~13.6 s; the
  // dm targets: 0). When this is > 0 the layer's own counters (common and
  // the non-gauge extras) change only when it folds what it counted into
  // them, and the compare waits, after a cell's IO, for the first fold
  // (LayerOwnCountersMoved: the counters or the layer's fold_mark moved) or
  // --stats-lag, whichever comes first.
  virtual double CounterLagSeconds() const = 0;

  // Captures the mode and every setting to restore. Throws SysError.
  virtual void CaptureOriginal() = 0;
  // What CaptureOriginal() saw (null before it ran).
  virtual nlohmann::json OriginalJson() const = 0;
  // Makes `original`, an OriginalJson() written by another process (the
  // state file of a compare that was killed before it restored), the
  // original RestoreOriginal() puts back. Throws ConfigError when it is not
  // this layer's OriginalJson().
  virtual void LoadOriginal(const nlohmann::json& original) = 0;
  // Best effort: puts back what CaptureOriginal() saw, continuing past
  // failures and reporting each. No-op when nothing was captured.
  virtual RestoreReport RestoreOriginal() noexcept = 0;

  // Applies the mode and its knobs of `mode` (mode.layer == layer()), each
  // read back; a mismatch is a SysError, a value the kernel rejects a
  // SysError naming the knob. Steps the layer had to take on the way (e.g.
  // draining before passthrough) go to *notes (may be null).
  virtual LayerReadback ApplyMode(const ModeSpec& mode,
                                  std::vector<std::string>* notes) = 0;
  // The current mode and settings. Throws SysError.
  virtual LayerReadback ReadBack() const = 0;

  // Empties the cache of the stack's data (written back first) without
  // touching its devices directly. Throws SysError / InterruptedError.
  virtual void MakeCold(double timeout_s) = 0;
  // Prepares a prefill by reads of the workload's region (the compare runs
  // the passes). Returns false with *why_not when this layer cannot be
  // warmed by reading (the cell then runs as-is with a warning).
  virtual bool BeginWarm(std::string* why_not) = 0;
  // After one prefill pass with counter delta `pass` over `region_bytes`:
  // true when another pass is needed (e.g. smq is still promoting).
  virtual bool WarmNeedsAnotherPass(const LayerDelta& pass,
                                    uint64_t region_bytes) const = 0;

  // Waits until the cache holds no dirty data, polling and reporting
  // progress (may be empty; it may call this layer's const readers, e.g.
  // TakeCounters()). *drain_s (may be null) gets the seconds
  // waited. OK, TimedOut (message: dirty left), Busy when interrupted, or
  // the read error.
  virtual Status WaitClean(double timeout_s, const ProgressFn& progress,
                           double* drain_s) = 0;
  // As WaitClean, for a drain that prepares a cell rather than times one
  // (before a cell, after a database load) or for --drain-after flush: the
  // layer first writes its dirty data back as fast as the origin takes it,
  // then its own writeback policy is back as the mode set it (read back).
  // bcache: writeback_percent 0 (the kernel then skips the writeback rate
  // limit) and writeback_delay 0 for the drain. The default is WaitClean:
  // dm-writecache's WaitClean already flushes; dm-cache's smq cleans dirty
  // blocks as fast as its migration threshold lets it, and a policy switch
  // to "cleaner" would drop smq's hot-spot state.
  virtual Status Flush(double timeout_s, const ProgressFn& progress,
                       double* drain_s) {
    return WaitClean(timeout_s, progress, drain_s);
  }
  // Dirty bytes now; -1 when unknown. Throws SysError.
  virtual int64_t DirtyBytes() const = 0;
  // The layer's short state ("clean", "dirty", "no cache"). Throws.
  virtual std::string State() const = 0;

  // A counter snapshot. Throws SysError.
  virtual LayerCounters TakeCounters() const = 0;
  // A LayerSample now: a few small reads (a dm status line, two or three
  // sysfs files) and nothing else, cheap enough to take once a second on
  // the orchestrating thread during a run. Throws SysError.
  virtual LayerSample Sample() const = 0;
  // Keys of LayerCounters::extra that are gauges (kept, not differenced).
  virtual std::set<std::string> GaugeKeys() const { return {}; }

  // True when `cache_mode` (as read back) caches the reads it serves, so a
  // settled cache serves repeated reads without the origin (bcache: every
  // mode but none; dm-cache: writeback and writethrough; dm-writecache:
  // none, it caches only writes).
  virtual bool ModeCachesReads(const std::string& cache_mode) const = 0;

  // The layer's own diagnosis rules for a finished cell, as Findings
  // (util/finding.h: rule id "<layer>.<rule>", severity, one line without
  // ';').
  virtual std::vector<Finding> Diagnose(const CellObservation& obs) const = 0;

  // Sleep used by waits; tests make it instant. Layers that wait inside
  // helpers override this to pass it on.
  virtual void set_sleep(SleepFn sleep) { sleep_ = std::move(sleep); }

 protected:
  void Sleep(double seconds) const;
  SleepFn sleep_;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_CACHE_LAYER_H_
