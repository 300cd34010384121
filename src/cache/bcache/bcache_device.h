// BcacheDevice: one registered bcache backing device (/dev/bcacheN) and the
// cache set it is attached to, controlled through sysfs (an injectable root).
//
// Sysfs layout it relies on (reference-notes §3):
//   sys/block/bcacheN/bcache        -> link to the backing dev's bcache dir
//                                      (.../block/<hdd>/bcache)
//   .../bcache/backing_dev_name     "vda" (4.19+; else taken from the link)
//   .../bcache/cache                -> link to sys/fs/bcache/<cset-uuid>
//                                      (absent while no cache is attached)
//   sys/fs/bcache/<uuid>/cache0     -> link to .../block/<ssd>/bcache
//   .../bcache/{state,cache_mode,dirty_data,stats_total/*,knobs...}
//
// Errors: setup-facing methods throw SysError (exit 3) with a one-line
// message naming the sysfs path, ConfigError (exit 2) for an unknown knob or
// bad value, InterruptedError when a wait is interrupted by SIGINT/SIGTERM.
// WaitClean returns a Status because a drain that times out is an outcome the
// caller records, not necessarily an error.
//
// Thread-safety: none; use one object from one thread. Every call re-reads
// sysfs (nothing is cached), so external changes are always seen.
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_DEVICE_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_DEVICE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cache/bcache/bcache_counters.h"
#include "cache/bcache/bcache_knobs.h"
#include "cache/bcache/bcache_values.h"
#include "cache/cache_layer.h"
#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

struct BcacheTopology {
  std::string bcache_name;               // "bcache0"
  std::string backing_name;              // "vda", "sda2"
  std::string backing_uuid;              // backing_dev_uuid, "" if absent
  std::string cset_uuid;                 // "" when no cache is attached
  std::vector<std::string> cache_names;  // ["vdb"]; empty when detached
  nlohmann::json ToJson() const;
};

// Read-only facts of the cache set (for the manifest and the diagnosis).
// Fields that cannot be read stay at -1 / empty.
struct CacheSetInfo {
  std::string uuid;               // "" when detached.
  int64_t block_size_bytes = -1;  // IO must be aligned to this.
  int64_t bucket_size_bytes = -1;
  int64_t cache_available_percent = -1;  // 100 - in_use (updated by GC).
  int64_t congested_read_threshold_us = -1;
  int64_t congested_write_threshold_us = -1;
  int64_t cutoff_writeback = -1;       // internal/: writeback stops above
  int64_t cutoff_writeback_sync = -1;  // these in_use percentages.
  bool has_priority_stats = false;     // Of the first cache device.
  PriorityStats priority_stats;
  nlohmann::json ToJson() const;
};

// The mode and every writable knob (bcache_knobs.h) as read back. Values are
// normalised read-backs ("4.0M", "10", "all"), valid input to SetKnob.
struct KnobSnapshot {
  std::string cache_mode;
  std::string cset_uuid;  // The attached cache set; "" when detached.
  std::map<std::string, std::string> knobs;            // Backing scope.
  std::map<std::string, std::string> cache_set_knobs;  // Empty if detached.
  // {"cache_mode": .., "cset_uuid": .., "knobs": {..}, "cache_set_knobs":
  // {..}}
  nlohmann::json ToJson() const;
  // The inverse of ToJson(); throws ConfigError naming the bad key.
  static KnobSnapshot FromJson(const nlohmann::json& j);
};

struct DrainProgress {
  double elapsed_s = 0;
  uint64_t dirty_bytes = 0;
  std::string state;
  bool has_debug = false;  // writeback_rate_debug was readable.
  WritebackRateDebug debug;
};

class BcacheDevice {
 public:
  // Seconds Restore() waits for a re-attach.
  static constexpr double kRestoreAttachTimeoutS = 60;
  // Waits between polls; injectable so tests can run instantly and simulate
  // the kernel (e.g. flip `state` to "no cache" after a detach).
  using SleepFn = std::function<void(double seconds)>;
  using DrainProgressFn = std::function<void(const DrainProgress&)>;

  // Names ("bcache0", ...) of the entries of sys/block that are bcache
  // backing devices (have a bcache/ directory), sorted. Empty when none or
  // when bcache is not loaded.
  static std::vector<std::string> List(const Sysfs& sysfs);

  // True when the bcache module is present: sys/fs/bcache exists.
  static bool ModulePresent(const Sysfs& sysfs);

  // `device` is "/dev/bcache0" or "bcache0". Throws SysError when
  // sys/block/<name>/bcache does not exist (not a registered bcache device).
  BcacheDevice(Sysfs sysfs, std::string_view device);

  const std::string& name() const { return name_; }
  std::string dev_path() const { return "/dev/" + name_; }
  const Sysfs& sysfs() const { return sysfs_; }
  // "sys/block/bcacheN/bcache": the backing device's control directory.
  const std::string& dir() const { return dir_; }
  void set_sleep_for_testing(SleepFn sleep) { sleep_ = std::move(sleep); }

  // --- Reading (each throws SysError when a required file is unreadable).
  BcacheTopology Topology() const;
  BcacheState State() const;
  std::string CacheMode() const;  // The bracketed selection.
  uint64_t DirtyBytes() const;
  // NotFound when writeback_rate_debug is absent.
  Status ReadWritebackDebug(WritebackRateDebug* out) const;
  // Facts of the attached cache set; uuid "" and -1s when detached.
  CacheSetInfo ReadCacheSetInfo() const;
  // Manifest view: topology, state, cache_mode, dirty_data, every knob as
  // read back, the cache set info. Never throws: unreadable items are null.
  nlohmann::json Describe() const;

  // --- Changing.
  // Writes `mode` to cache_mode and reads it back; throws ConfigError for a
  // mode that is not one of kCacheModes, SysError when the write fails or
  // the bracket does not show `mode` afterwards. Returns the read-back.
  std::string SetCacheMode(std::string_view mode);
  // Sets a backing-scope (SetKnob) or cache-set-scope (SetCacheSetKnob) knob
  // of the table and checks the read-back (sizes compared after parsing:
  // "4M" matches "4.0M"). ConfigError: unknown knob or bad value. SysError:
  // knob missing on this kernel, write refused, read-back differs, or (cache
  // set scope) no cache attached. Returns the normalised read-back.
  std::string SetKnob(std::string_view name, std::string_view value);
  std::string SetCacheSetKnob(std::string_view name, std::string_view value);

  // Reads the mode and every writable knob present. Throws SysError when the
  // mode cannot be read.
  KnobSnapshot Capture() const;
  // Best effort: first re-attaches the snapshot's cache set when the device
  // was left detached (waiting up to kRestoreAttachTimeoutS, NOT cut short by
  // SIGINT: this is the cleanup path), because the kernel drops or refuses
  // knobs of a detached device (writeback_running reads back 0, cache-set
  // knobs are gone). Then tries the mode and EVERY knob of `snapshot`,
  // continues past failures and reports each one. Never throws.
  RestoreReport Restore(const KnobSnapshot& snapshot) noexcept;

  // Polls every `poll_s` until dirty_data is 0 (state may lag behind: the
  // kernel marks it "clean" at its next index scan). Calls `progress` (may be
  // empty) after each poll. Stores the seconds waited in *drain_s (may be
  // null). Returns OK, TimedOut when `timeout_s` passed (message: dirty bytes
  // left, state, path), Busy when interrupted (Interrupted()), or the read
  // error.
  Status WaitClean(double timeout_s, double poll_s,
                   const DrainProgressFn& progress, double* drain_s) const;
  // WaitClean at the backing device's pace: when dirty data is left, first
  // writeback_percent 0 (the kernel's writeback_delay() then returns 0: no
  // rate limit), writeback_delay 0 (no 30 s pause between index scans) and
  // writeback_running 1, each read back; after the wait, clean or not, the
  // three as they were (read back). A writeback thread already in its
  // post-scan pause finishes that pause (the kernel does not cut it short).
  // The compare's restore covers a kill in between (the three are in the
  // knob table). Returns as WaitClean; a knob that cannot be set or put
  // back is an IoError naming it.
  Status Flush(double timeout_s, double poll_s, const DrainProgressFn& progress,
               double* drain_s);

  // True when state is "no cache" AND the `cache` link is gone (the kernel
  // shows "no cache" before its detach has finished).
  bool Detached() const;
  // Writes 1 to detach (the kernel writes dirty data back first) and waits up
  // to `timeout_s` until Detached(). No-op when already detached.
  void Detach(double timeout_s);
  // Waits for a pending detach to finish, writes `cset_uuid` to attach and
  // waits up to `timeout_s` for a state other than "no cache" and the
  // `cache` link. No-op when attached to `cset_uuid`. SysError when refused
  // (e.g. ENOENT: no such cache set; block size mismatch) or on timeout.
  void Attach(const std::string& cset_uuid, double timeout_s);
  // A cold cache for this device: Detach then Attach to the same cache set
  // (detach drops the device's cached data). The cache set and the backing
  // device stay registered, so knobs are normally kept, but the writeback
  // thread is restarted: callers should re-apply (and read back) the mode's
  // knobs afterwards. SysError when no cache is attached.
  void MakeCold(double timeout_s);
  // Writes 1 to clear_stats (resets stats_total of this device only).
  void ClearStats();

  // Snapshot of stats_total, dirty_data, state and the block stats of the
  // bcache device, the backing device and the first cache device. See
  // bcache_counters.h for the counter lag. Throws SysError on read errors.
  CounterSnapshot TakeCounters() const;

 private:
  std::string ReadOrThrow(std::string_view rel) const;
  std::string CacheSetDir() const;  // "sys/fs/bcache/<uuid>" or "".
  std::string SetKnobIn(KnobScope scope, std::string_view name,
                        std::string_view value);
  // Sets each of `knobs` (name, value) back with SetKnob (written and read
  // back), going on past a failure; returns the failures' messages joined
  // by "; ", "" when every knob was put back.
  std::string PutBackKnobs(
      const std::vector<std::pair<std::string, std::string>>& knobs);
  // Polls `done` until true; SysError on timeout, InterruptedError on
  // SIGINT/SIGTERM unless `interruptible` is false.
  template <typename Pred>
  void WaitFor(Pred done, double timeout_s, const std::string& what,
               bool interruptible = true);
  void AttachImpl(const std::string& cset_uuid, double timeout_s,
                  bool interruptible);

  Sysfs sysfs_;
  std::string name_;  // "bcache0"
  std::string dir_;   // "sys/block/bcache0/bcache"
  SleepFn sleep_;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_DEVICE_H_
