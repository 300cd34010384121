// DmTargetLayer: what the device-mapper layers (dm-cache, dm-writecache,
// lvmcache) share behind the CacheLayer seam: one dm device of a single
// target of a known type, its original table captured once and put back on
// restore (judged by the live table read back afterwards), the manifest
// view (table, status, stack, read-back), and no counter lag (a dm status
// line is current).
//
// Subclasses implement the layer's modes, cold/warm/drain, counters and
// diagnosis; BeforeRestore() lets them prepare the device for the original
// table (dm-cache drains before a passthrough table). They read their table
// and status lines through Parse() and wait for a drain with
// PollUntilClean(), so every dm layer words parse failures and drain
// timeouts alike.
// Errors and thread-safety as in cache_layer.h.
#ifndef TIERBENCH_CACHE_DM_DM_TARGET_LAYER_H_
#define TIERBENCH_CACHE_DM_DM_TARGET_LAYER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cache/cache_layer.h"
#include "cache/dm/dm_device.h"

namespace tierbench {

class DmTargetLayer : public CacheLayer {
 public:
  const std::string& layer() const override { return layer_; }
  const std::string& device() const override { return dev_.device(); }
  nlohmann::json DescribeJson() const override;
  double CounterLagSeconds() const override { return 0; }
  void CaptureOriginal() override;
  nlohmann::json OriginalJson() const override;
  void LoadOriginal(const nlohmann::json& original) override;
  RestoreReport RestoreOriginal() noexcept override;

 protected:
  // Throws SysError when `device` is not a dm device.
  DmTargetLayer(std::string layer, std::string target_type, Sysfs sysfs,
                std::shared_ptr<DmControl> dm, std::string device);

  // Called by RestoreOriginal before the original table is loaded, when
  // the live one differs. May throw (the failure is reported).
  virtual void BeforeRestore(const DmTarget& /*original*/) {}

  // `line`'s params parsed by `parse`; SysError "cannot parse the <what> of
  // <dm name>" with the parser's reason otherwise.
  template <typename T>
  T Parse(const DmTarget& line, Status (*parse)(std::string_view, T*),
          const char* what) const {
    T out;
    const Status s = parse(line.params, &out);
    if (!s.ok()) ThrowParseError(what, s);
    return out;
  }

  // One look at a draining device: clean yet, what is left (for progress),
  // and how the remainder is named in a timeout ("12 dirty blocks").
  struct DrainPoll {
    bool clean = false;
    int64_t dirty_bytes = 0;
    std::string state;
    std::string left;
  };
  // Calls `poll` every half second until it reports clean (Ok), timeout_s
  // seconds after `start_ns` passed (TimedOut: "<left> after N s. Device:
  // ...; Fix: raise --drain-timeout"), or an interrupt arrived (Busy). A
  // throwing poll is an IoError. *drain_s gets the elapsed seconds.
  Status PollUntilClean(uint64_t start_ns, double timeout_s,
                        const std::function<DrainPoll()>& poll,
                        const ProgressFn& progress, double* drain_s) const;

  [[noreturn]] void ThrowParseError(const char* what, const Status& s) const;

  std::string layer_;
  std::string target_type_;
  DmDevice dev_;
  std::optional<DmTarget> original_;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_DM_TARGET_LAYER_H_
