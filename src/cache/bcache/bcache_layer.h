// BcacheLayer: bcache behind the CacheLayer seam (cache/cache_layer.h),
// built on BcacheDevice (sysfs control of /dev/bcacheN and its cache set).
//
// Mapping onto the common model:
//   modes        writethrough | writeback | writearound | none (cache_mode)
//   settings     every writable knob of bcache_knobs.h, backing and cache-set
//                scope in one map (the names are distinct)
//   cold         detach + re-attach to the same cache set (drops the
//                device's cached data; dirty data is written back first)
//   warm         writethrough + sequential_cutoff 0, one read pass inserts
//                every block; ApplyMode afterwards puts back the original
//                sequential_cutoff when the mode does not set it
//   counters     stats_total (READS only: read_hits/read_misses; bypassed
//                bytes), dirty_data; no write hit, promotion or demotion
//                counters (left -1). Extra: bypass_hits, bypass_misses,
//                miss_collisions (counters), cache_available_percent (gauge).
//   counter lag  kStatsLagSeconds: stats_total folds every ~13.6 s; the
//                fold_mark is stats_five_minute, which every fold decays
//                (bcache_counters.h FOLD WITNESS).
// Errors and thread-safety as in cache_layer.h.
#ifndef TIERBENCH_CACHE_BCACHE_BCACHE_LAYER_H_
#define TIERBENCH_CACHE_BCACHE_BCACHE_LAYER_H_

#include <optional>
#include <string>
#include <vector>

#include "cache/bcache/bcache_device.h"
#include "cache/cache_layer.h"

namespace tierbench {

inline constexpr char kBcacheLayerName[] = "bcache";

class BcacheLayer : public CacheLayer {
 public:
  // `device` is "/dev/bcache0" (or a test path whose basename is the
  // device). Throws SysError when it is not a registered bcache device.
  BcacheLayer(Sysfs sysfs, std::string device);

  // True when sys/block/<name>/bcache exists: `name` is a bcache device.
  static bool Detect(const Sysfs& sysfs, const std::string& name);

  const std::string& layer() const override { return layer_; }
  const std::string& device() const override { return device_; }
  StackInfo Describe() const override;
  nlohmann::json DescribeJson() const override;
  std::string CheckUsable(const std::vector<const ModeSpec*>& modes,
                          bool cold_or_warm) const override;
  double CounterLagSeconds() const override;
  void CaptureOriginal() override;
  nlohmann::json OriginalJson() const override;
  void LoadOriginal(const nlohmann::json& original) override;
  RestoreReport RestoreOriginal() noexcept override;
  LayerReadback ApplyMode(const ModeSpec& mode,
                          std::vector<std::string>* notes) override;
  LayerReadback ReadBack() const override;
  void MakeCold(double timeout_s) override;
  bool BeginWarm(std::string* why_not) override;
  bool WarmNeedsAnotherPass(const LayerDelta& pass,
                            uint64_t region_bytes) const override;
  Status WaitClean(double timeout_s, const ProgressFn& progress,
                   double* drain_s) override;
  Status Flush(double timeout_s, const ProgressFn& progress,
               double* drain_s) override;
  int64_t DirtyBytes() const override;
  std::string State() const override;
  LayerCounters TakeCounters() const override;
  LayerSample Sample() const override;
  std::set<std::string> GaugeKeys() const override;
  bool ModeCachesReads(const std::string& cache_mode) const override;
  std::vector<Finding> Diagnose(const CellObservation& obs) const override;

  void set_sleep(SleepFn sleep) override;

  BcacheDevice& bcache() { return dev_; }

 private:
  static LayerReadback Flatten(const KnobSnapshot& snap);

  std::string layer_ = kBcacheLayerName;
  std::string device_;
  BcacheDevice dev_;
  std::optional<KnobSnapshot> original_;
  bool prefilled_ = false;  // BeginWarm changed sequential_cutoff
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_BCACHE_BCACHE_LAYER_H_
