// DmTargetLayer: what the device-mapper layers (dm-cache, dm-writecache,
// lvmcache) share behind the CacheLayer seam: one dm device of a single
// target of a known type, its original table captured once and put back on
// restore (judged by the live table read back afterwards), the manifest
// view (table, status, stack, read-back), and no counter lag (a dm status
// line is current).
//
// Subclasses implement the layer's modes, cold/warm/drain, counters and
// diagnosis; BeforeRestore() lets them prepare the device for the original
// table (dm-cache drains before a passthrough table).
// Errors and thread-safety as in cache_layer.h.
#ifndef TIERBENCH_CACHE_DM_TARGET_LAYER_H_
#define TIERBENCH_CACHE_DM_TARGET_LAYER_H_

#include <memory>
#include <optional>
#include <string>

#include "cache/cache_layer.h"
#include "cache/dm_device.h"

namespace tierbench {

class DmTargetLayer : public CacheLayer {
 public:
  const std::string& layer() const override { return layer_; }
  const std::string& device() const override { return dev_.device(); }
  nlohmann::json DescribeJson() const override;
  double CounterLagSeconds() const override { return 0; }
  void CaptureOriginal() override;
  nlohmann::json OriginalJson() const override;
  RestoreReport RestoreOriginal() noexcept override;

 protected:
  // Throws SysError when `device` is not a dm device.
  DmTargetLayer(std::string layer, std::string target_type, Sysfs sysfs,
                std::shared_ptr<DmControl> dm, std::string device);

  // Called by RestoreOriginal before the original table is loaded, when
  // the live one differs. May throw (the failure is reported).
  virtual void BeforeRestore(const DmTarget& /*original*/) {}

  std::string layer_;
  std::string target_type_;
  DmDevice dev_;
  std::optional<DmTarget> original_;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_TARGET_LAYER_H_
