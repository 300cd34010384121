// DmCacheLayer: the device-mapper `cache` target (dm-cache, kernel
// Documentation/admin-guide/device-mapper/cache.rst) behind the CacheLayer
// seam, through libdevmapper (cache/dm/dm_control.h).
//
//   modes     writeback | writethrough | passthrough: a feature argument of
//             the table. A switch reloads the table (load, suspend, resume)
//             and is read back from the live table. The kernel refuses
//             passthrough while blocks are dirty: ApplyMode then drains
//             first with the `cleaner` policy and says so in its notes.
//   knobs     "policy" (smq | mq | cleaner; default smq) and
//             "migration_threshold" (sectors; a core argument given among
//             the policy arguments of the table, read back from the status
//             line's core arguments). A mode file's table keeps every other
//             feature (metadata2, no_discard_passdown) of the live table.
//   cold      drain, reload in passthrough, message `invalidate_cblocks
//             0-<total>` (the kernel allows it only in passthrough), check
//             that no block is in use; the cell's ApplyMode follows.
//   warm      writethrough, then read passes until 90% of a pass's reads
//             hit the cache: smq promotes gradually, only blocks it has
//             seen hot (the compare stops after kMaxWarmPasses and warns).
//   drain     waits for the status line's dirty count to reach 0 (smq
//             writes back everything once the device is idle for a second).
//   counters  the status line: read/write hits and misses, promotions,
//             demotions, dirty blocks (x block size). Extra: cache and
//             metadata blocks in use (gauges). No counter lag.
// The original table is captured and reloaded on restore (draining first
// when the original mode is passthrough).
// Errors and thread-safety as in cache_layer.h.
#ifndef TIERBENCH_CACHE_DM_DM_CACHE_LAYER_H_
#define TIERBENCH_CACHE_DM_DM_CACHE_LAYER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/dm/dm_status.h"
#include "cache/dm/dm_target_layer.h"

namespace tierbench {

inline constexpr char kDmCacheLayerName[] = "dm-cache";
inline constexpr char kDmCacheTargetType[] = "cache";

class DmCacheLayer : public DmTargetLayer {
 public:
  // Throws SysError when `device` is not a dm `cache` target.
  DmCacheLayer(Sysfs sysfs, std::shared_ptr<DmControl> dm, std::string device,
               std::string layer_name = kDmCacheLayerName);

  StackInfo Describe() const override;
  std::string CheckUsable(const std::vector<const ModeSpec*>& modes,
                          bool cold_or_warm) const override;
  LayerReadback ApplyMode(const ModeSpec& mode,
                          std::vector<std::string>* notes) override;
  LayerReadback ReadBack() const override;
  void MakeCold(double timeout_s) override;
  bool BeginWarm(std::string* why_not) override;
  bool WarmNeedsAnotherPass(const LayerDelta& pass,
                            uint64_t region_bytes) const override;
  Status WaitClean(double timeout_s, const ProgressFn& progress,
                   double* drain_s) override;
  int64_t DirtyBytes() const override;
  std::string State() const override;
  LayerCounters TakeCounters() const override;
  LayerSample Sample() const override;
  std::set<std::string> GaugeKeys() const override;
  bool ModeCachesReads(const std::string& cache_mode) const override;
  std::vector<Finding> Diagnose(const CellObservation& obs) const override;

 protected:
  DmCacheTable ReadTable() const;
  DmCacheStatus ReadStatus() const;
  // Switches the live table to `mode` / `policy` / `args`, draining with
  // the cleaner first when passthrough is asked while dirty.
  virtual void SwitchTo(
      const std::string& mode, const std::string& policy,
      const std::vector<std::pair<std::string, std::string>>& policy_args,
      std::vector<std::string>* notes);
  // Reloads `table`, keeping the target's start and length.
  void ReloadTable(const DmCacheTable& table, const std::string& why);
  // Drains with the cleaner policy (mode and args kept), then puts the
  // live table back. Throws SysError on timeout.
  // Before passthrough: a writeback table becomes writethrough (nothing
  // new gets dirty, though a filesystem on the stack keeps writing), then
  // dirty blocks drain through the cleaner policy. Returns the dirty
  // blocks there were after the switch.
  int64_t StopDirtyingAndClean(double timeout_s);
  void DrainWithCleaner(double timeout_s);
  // A passthrough original table needs a clean cache: drain first.
  void BeforeRestore(const DmTarget& original) override;

  mutable double last_warm_hit_pct_ = -1;  // of the previous warm-up pass
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_CACHE_LAYER_H_
