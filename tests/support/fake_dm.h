// FakeDmControl: an in-memory device-mapper for unit tests of everything
// built on DmControl (dm-cache / dm-writecache backends, the compare
// orchestrator). Devices live by name with a major:minor, a live table and a
// status line per target; every call is recorded as one string:
//   "info NAME", "table NAME", "status NAME", "nameof MAJ:MIN",
//   "reload NAME: <target>[; <target>]*"   (targets as "start len type params")
//   "suspend NAME", "resume NAME", "clear NAME"   (the steps of a Reload)
//   "message NAME SECTOR TEXT"                   e.g. "message tb-wc 0 flush"
//
// Kernel emulation (6.1: drivers/md/dm-cache-target.c, dm-writecache.c):
//   Reload of a "cache" target:
//     - params that ParseDmCacheTable() refuses -> InvalidArgument, device
//       unchanged (the kernel's table load fails with EINVAL);
//     - io mode passthrough while the live status has dirty > 0 -> refused
//       with EINVAL at load time (cache_create(): "Cannot enter passthrough
//       mode unless all blocks are clean"), device unchanged;
//     - on success the status line follows the new table: features as
//       emit_flags() prints them (metadata2, the io mode, then
//       no_discard_passdown), policy (mq shows as smq), "0" policy args,
//       core args "2 migration_threshold N" (N from the policy args, else the
//       default 2048); hits/misses survive (kept in the metadata), demotions
//       and promotions restart at 0 (a new target instance).
//   Reload of a "writecache" target: params must parse
//     (ParseDmWritecacheTable); the status is kept.
//   The kernel's reason for a refusal is appended to kernel_log() (as dmesg
//     would show it); the returned Status carries what libdevmapper reports.
//   Message to a cache: "invalidate_cblocks <cblock>|<begin>-<end>..." only in
//     passthrough (else EPERM, like process_invalidate_cblocks_message);
//     subtracts the invalidated blocks from cache_used; "migration_threshold
//     N" updates the core arg; anything else EINVAL.
//   Message to a writecache: "flush" (EBUSY while suspended, EIO after an
//     error) sets free_blocks = total_blocks, under_writeback = 0;
//     "clear_stats" zeroes the counters; "flush_on_suspend" and "cleaner" are
//     accepted; anything else EINVAL.
// Faults: FailNext(op, status) makes the next call of `op` ("reload",
// "suspend", "resume", "message", "status"... or "" for any call) return
// `status` without effect. A failed suspend/resume inside Reload is followed
// by "clear NAME" and "resume NAME" and leaves the old table live, as the
// real implementation's recovery does.
//
// Not thread-safe.
#ifndef TIERBENCH_TESTS_SUPPORT_FAKE_DM_H_
#define TIERBENCH_TESTS_SUPPORT_FAKE_DM_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cache/dm/dm_control.h"
#include "util/status.h"

namespace tierbench {

// Realistic 6.1 lines for a 512 MiB origin, 16 MiB metadata, 256 MiB cache
// with 32 KiB blocks (the lab recipe's geometry).
inline constexpr char kFakeCacheTableParams[] =
    "252:0 252:1 252:2 64 1 writeback smq 0";
inline constexpr char kFakeCacheStatusParams[] =
    "8 88/4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
    "2 migration_threshold 2048 smq 0 rw -";
inline constexpr char kFakeWritecacheTableParams[] = "s 252:3 252:4 4096 0";
inline constexpr char kFakeWritecacheStatusParams[] =
    "0 65280 61184 0 34729 34696 4096 0 0 0 4096 0 12 0";

class FakeDmControl : public DmControl {
 public:
  struct Device {
    std::string name;
    std::string uuid;
    unsigned major = 0;
    unsigned minor = 0;
    bool suspended = false;
    int open_count = 0;
    std::vector<DmTarget> table;   // Live table.
    std::vector<DmTarget> status;  // One per target; params = status text.
  };

  // Adds (or replaces) a device with a one-target table and its status.
  void AddDevice(const std::string& name, unsigned major, unsigned minor,
                 const DmTarget& target, const std::string& status_params);
  // A dm-cache device "0 <sectors> cache kFakeCacheTableParams".
  void AddCacheDevice(const std::string& name, unsigned minor,
                      uint64_t sectors = 1048576);
  // A dm-writecache device "0 <sectors> writecache kFakeWritecache...".
  void AddWritecacheDevice(const std::string& name, unsigned minor,
                           uint64_t sectors = 1048576);
  void RemoveDevice(const std::string& name) { devices_.erase(name); }

  // Direct access for tests (nullptr when absent); changes are live.
  Device* device(const std::string& name);
  // Replaces the status text of target `index` of `name`.
  void SetStatusParams(const std::string& name, const std::string& params,
                       size_t index = 0);

  const std::vector<std::string>& calls() const { return calls_; }
  void ClearCalls() { calls_.clear(); }
  const std::vector<std::string>& kernel_log() const { return kernel_log_; }

  // The next call of `op` ("" = any) returns `status` and changes nothing.
  void FailNext(const std::string& op, Status status);

  Status Info(const std::string& name, DmDeviceInfo* out) const override;
  Status GetTable(const std::string& name,
                  std::vector<DmTarget>* out) const override;
  Status GetStatus(const std::string& name,
                   std::vector<DmTarget>* out) const override;
  Status Reload(const std::string& name,
                const std::vector<DmTarget>& table) override;
  Status Message(const std::string& name, uint64_t sector,
                 const std::string& message) override;
  Status NameOf(unsigned major, unsigned minor,
                std::string* name) const override;

 private:
  // Records `call`; returns the injected failure for `op`, if any.
  std::optional<Status> Record(const std::string& op,
                               const std::string& call) const;
  Status Lookup(const std::string& op, const std::string& name,
                const Device** out) const;
  Status LoadCheck(const Device& dev, const std::vector<DmTarget>& table);
  void ApplyTable(Device* dev, const std::vector<DmTarget>& table);
  Status CacheMessage(Device* dev, size_t index,
                      const std::vector<std::string>& words);
  Status WritecacheMessage(Device* dev, size_t index,
                           const std::vector<std::string>& words);
  // "device-mapper: <op> ioctl on <name>  failed: <strerror>" as
  // libdevmapper logs it, wrapped as the real DmControl does.
  static Status KernelRefusal(const std::string& op, const std::string& name,
                              int err);

  std::map<std::string, Device> devices_;
  mutable std::vector<std::string> calls_;
  std::vector<std::string> kernel_log_;
  mutable std::map<std::string, Status> failures_;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_FAKE_DM_H_
