// FakeBcacheSysfs: a temporary directory laid out like a machine's /sys with
// one bcache stack (bcache0 on backing "vda", attached to a cache set whose
// cache device is "vdb"), plus a write hook that emulates the kernel's
// reaction to writes. For unit tests of the cache module and of anything
// built on it (the compare orchestrator): pass sysfs() (or root() to
// `--sysfs-root`).
//
// Tree (relative links, as in real sysfs):
//   sys/devices/virtual/block/{vda,vdb,bcache0}/{stat,queue/*}
//   sys/devices/virtual/block/vda/bcache/{cache_mode,state,dirty_data,knobs,
//       stats_total/*,stats_five_minute/*,writeback_rate_debug,backing_dev_name,...}
//   sys/devices/virtual/block/vdb/bcache/{priority_stats,block_size,...}
//   sys/block/X -> ../devices/virtual/block/X; sys/class/block/X likewise
//   sys/block/bcache0/bcache -> ../../devices/virtual/block/vda/bcache
//   sys/fs/bcache/<uuid>/{congested_*_threshold_us,block_size,...,internal/*}
//   sys/fs/bcache/<uuid>/cache0 -> ../../../devices/virtual/block/vdb/bcache
//   vda/bcache/cache -> ../../../../../fs/bcache/<uuid>   (while attached)
//   proc/sys/vm/drop_caches
//
// Kernel emulation by the write hook (it performs every write through
// sysfs(); Set() below bypasses it):
//   cache_mode, readahead_cache_policy: a valid word becomes the bracket list;
//     an invalid one -> InvalidArgument (EINVAL), file unchanged.
//   sequential_cutoff (digits only, as kstrtoul in 5.x/6.x kernels) and
//     readahead (human units): shown as bch_hprint ("4.0M").
//   writeback_percent: clamped to [0, 40] as the kernel does.
//   detach: state "no cache", dirty_data "0.0k", cache link removed. With
//     set_detach_lag(n) (the 6.1 kernel: the superblock says "no cache"
//     before the detach worker has unlinked the cache) the link stays until
//     Tick() was called n times; until then an attach fails with EINVAL
//     ("already attached").
//   attach <uuid>: known uuid -> state "clean" and link; else NotFound.
//   writeback_running: "1" while detached (no writeback thread) reads
//     back "0", as in 6.1's __cached_dev_store().
//   clear_stats: stats_total counters reset to 0.
// Hooks for faults: set_readback_override() makes a file read back a fixed
// text after any write (a kernel that ignores the write);
// set_write_error() makes writes to a file fail.
//
// Not thread-safe. The directory is removed by the destructor.
#ifndef TIERBENCH_TESTS_SUPPORT_FAKE_SYSFS_H_
#define TIERBENCH_TESTS_SUPPORT_FAKE_SYSFS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "cache/bcache/bcache_counters.h"
#include "cache/block_stat.h"
#include "util/status.h"
#include "util/sysfs.h"

namespace tierbench {

class FakeBcacheSysfs {
 public:
  struct Options {
    std::string bcache = "bcache0";
    std::string backing = "vda";
    std::string cache = "vdb";
    std::string cset_uuid = "5f1c6e3a-0c7e-4a55-9d0b-2b7f3c1d9e01";
    std::string cache_mode = "writethrough";
    bool attached = true;
  };

  FakeBcacheSysfs();
  explicit FakeBcacheSysfs(Options options);
  ~FakeBcacheSysfs();
  FakeBcacheSysfs(const FakeBcacheSysfs&) = delete;
  FakeBcacheSysfs& operator=(const FakeBcacheSysfs&) = delete;

  const std::string& root() const { return root_; }
  const Options& options() const { return options_; }
  // A Sysfs on the tree with the kernel-emulating write hook installed.
  Sysfs sysfs();

  // Relative paths of the main directories.
  std::string BackingBcacheDir() const;  // sys/devices/.../vda/bcache
  std::string CacheSetDir() const;       // sys/fs/bcache/<uuid>

  // Plain file access relative to the root (Set creates parent dirs).
  void Set(std::string_view rel, std::string_view content);
  std::string Get(std::string_view rel) const;
  // Shortcuts on the backing device's bcache dir ("state", "dirty_data"...).
  void SetBacking(std::string_view file, std::string_view content);
  std::string GetBacking(std::string_view file) const;

  void SetState(std::string_view state);  // "clean", "dirty", "no cache"...
  void SetDirtyBytes(uint64_t bytes);     // Writes bch_hprint text.
  void SetStatsTotal(const BcacheStatsTotal& stats);
  // stats_five_minute/* (all 0 at first): the kernel decays them at each
  // fold; clear_stats leaves them.
  void SetStatsFiveMinute(const BcacheStatsTotal& stats);
  void SetBlockStat(std::string_view device, const BlockStat& stat);

  // Emulates the kernel detaching/attaching (same effects as the hook).
  void Detach();
  void Attach();

  // Detaches finish only after `ticks` calls of Tick() (0: at once).
  void set_detach_lag(int ticks) { detach_lag_ = ticks; }
  // One step of kernel time: finishes a lagging detach when due. Call it
  // from the BcacheDevice/CompareHooks sleep function.
  void Tick();
  bool detach_pending() const { return detach_pending_ > 0; }

  // After any write to `rel`, the file reads `text` (overrides emulation).
  void set_readback_override(std::string_view rel, std::string_view text);
  // Writes to `rel` fail with `status` (file unchanged).
  void set_write_error(std::string_view rel, Status status);
  // Number of writes seen by the hook per relative path (as written).
  int WriteCount(std::string_view rel) const;

 private:
  void Build();
  void SetStats(std::string_view subdir, const BcacheStatsTotal& stats);
  void Link(std::string_view rel, std::string_view target);
  Status OnWrite(const std::string& rel, std::string_view value);

  Options options_;
  std::string root_;
  std::map<std::string, std::string, std::less<>> readback_override_;
  std::map<std::string, Status, std::less<>> write_error_;
  std::map<std::string, int, std::less<>> write_count_;
  int detach_lag_ = 0;
  int detach_pending_ = 0;  // Ticks until a lagging detach finishes.
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_FAKE_SYSFS_H_
