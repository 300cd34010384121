// DmWritecacheLayer: the device-mapper `writecache` target (kernel
// Documentation/admin-guide/device-mapper/writecache.rst) behind the
// CacheLayer seam, through libdevmapper (cache/dm/dm_control.h).
//
//   modes     writeback only: dm-writecache caches writes and never reads
//             of blocks it did not write. Read back from the live table
//             (DmWritecacheMode): "writeback", or "cleaner" while its
//             `cleaner` argument is set (the kernel then caches no new
//             writes and writes everything back); ApplyMode removes that
//             argument, and a mode that does not read back is a SysError.
//   knobs     high_watermark, low_watermark, writeback_jobs,
//             autocommit_blocks, autocommit_time: optional arguments of the
//             table. ApplyMode reloads the table with exactly the mode's
//             knobs (others back to the kernel's defaults; structural
//             arguments such as start_sector, fua/nofua are kept) and reads
//             them back from the live table.
//   drain     the `flush` message: the kernel writes every block back and
//             frees it (the call returns when done); dirty = blocks in use.
//   cold      the same flush: an empty cache.
//   warm      not possible by reading (BeginWarm says why).
//   counters  the status line: total/free blocks, blocks under writeback
//             and, on 6.x kernels, reads, read hits, writes, write hits,
//             writes around the cache (bypassed), writes to the cache,
//             writes blocked on the freelist, flushes. A table reload
//             creates a new target: its counters restart at 0.
// The original table is captured and reloaded on restore.
// Errors and thread-safety as in cache_layer.h.
#ifndef TIERBENCH_CACHE_DM_DM_WRITECACHE_LAYER_H_
#define TIERBENCH_CACHE_DM_DM_WRITECACHE_LAYER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/dm/dm_status.h"
#include "cache/dm/dm_target_layer.h"

namespace tierbench {

inline constexpr char kDmWritecacheLayerName[] = "dm-writecache";
inline constexpr char kDmWritecacheTargetType[] = "writecache";

// The knobs a mode file may set.
const std::vector<std::string>& DmWritecacheKnobs();

// The caching mode a writecache table puts the target in: "cleaner" with
// the `cleaner` argument (writecache.rst: no new writes are cached, every
// cached block is written back), else "writeback". Pure.
std::string DmWritecacheMode(const DmWritecacheTable& table);

class DmWritecacheLayer : public DmTargetLayer {
 public:
  // Throws SysError when `device` is not a dm `writecache` target.
  DmWritecacheLayer(Sysfs sysfs, std::shared_ptr<DmControl> dm,
                    std::string device);

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

 private:
  DmWritecacheTable ReadTable() const;
  DmWritecacheStatus ReadStatus() const;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_WRITECACHE_LAYER_H_
