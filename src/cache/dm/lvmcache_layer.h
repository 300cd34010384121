// LvmcacheLayer: an LVM cached logical volume (lvmcache(7): `lvconvert
// --type cache --cachevol|--cachepool`) behind the CacheLayer seam. The
// kernel side is the same device-mapper `cache` target as dm-cache, so the
// status parsing, counters, drain, warm-up rules and diagnosis are
// DmCacheLayer's; what differs is WHO changes the table: LVM owns it (its
// metadata on the PVs says which mode, policy and settings the LV has, and
// every activation reloads the table from there). tierbench therefore never
// reloads an LVM table itself; every change goes through the lvm tools:
//
//   modes     writeback | writethrough | passthrough:
//             `lvchange --yes --cachemode MODE VG/LV` (lvchange writes dirty
//             blocks back itself, with the cleaner policy, before it leaves
//             writeback; --yes answers its question whether to use
//             writeback on a cachevol, which LVM cannot repair yet). LVM's
//             default mode is writethrough; the kernel target's default is
//             writeback.
//   knobs     "policy" -> `--cachepolicy P` and "migration_threshold" ->
//             `--cachesettings migration_threshold=N`, in the same lvchange.
//             Read back from the live dm table and status (as DmCacheLayer
//             does) AND cross-checked with `lvs --noheadings --nameprefixes
//             -o cache_mode,cache_policy,cache_settings VG/LV`: a table that
//             disagrees with LVM's metadata is a SysError.
//   cold      lvchange to passthrough (flushing), then the target message
//             `invalidate_cblocks 0-<total>` (a message does not change
//             LVM's table or metadata), then the cell's ApplyMode.
//   warm      lvchange to writethrough when passthrough, then DmCacheLayer's
//             read passes.
//   restore   the mode, policy and settings CaptureOriginal() read from lvs
//             are put back with lvchange (settings the original did not have
//             are reset with KEY=default).
//
// The stack is given as /dev/VG/LV or /dev/mapper/VG-LV; VG/LV comes from
// the dm name (LVM doubles '-' inside names: "my--vg-lv" is my-vg/lv) and
// must be accepted by lvs.
//
// The lvm tools run through an injectable LvmRunner (tests fake it); the
// default runs `lvm <tool> ARGS...` through RunProcess (no shell). A tool
// that fails is a SysError of one line naming the command and its output.
// Errors and thread-safety as in cache_layer.h.
#ifndef TIERBENCH_CACHE_DM_LVMCACHE_LAYER_H_
#define TIERBENCH_CACHE_DM_LVMCACHE_LAYER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/dm/dm_cache_layer.h"
#include "util/host.h"

namespace tierbench {

inline constexpr char kLvmcacheLayerName[] = "lvmcache";

// LvmToolResult and LvmRunner: util/host.h.

// `lvm <argv...>` with the lvm binary found in /usr/sbin, /sbin or
// /usr/bin, through RunProcess.
LvmRunner DefaultLvmRunner();

// What lvs reports for a cached LV.
struct LvmCacheConfig {
  std::string mode;    // cache_mode: "writethrough"
  std::string policy;  // cache_policy: "smq", "mq", "cleaner"
  std::map<std::string, std::string> settings;  // cache_settings
  // "mode=writethrough policy=smq settings=migration_threshold=2048".
  std::string ToString() const;
};

// Parses the output of `lvs --noheadings --nameprefixes -o
// cache_mode,cache_policy,cache_settings` (LVM2_CACHE_MODE='...' ...; other
// lines, e.g. warnings, are ignored). InvalidArgument quoting the output
// when no such line is found or a setting is not KEY=VALUE.
Status ParseLvsCacheConfig(const std::string& output, LvmCacheConfig* out);

// "tbvg-main" -> "tbvg/main", "my--vg-my--lv" -> "my-vg/my-lv"; "" when the
// name has no single '-' separator.
std::string VgLvFromDmName(const std::string& dm_name);

class LvmcacheLayer : public DmCacheLayer {
 public:
  // Throws SysError when `device` is not a dm `cache` target or its name
  // gives no VG/LV. `runner` null: DefaultLvmRunner().
  LvmcacheLayer(Sysfs sysfs, std::shared_ptr<DmControl> dm, std::string device,
                LvmRunner runner = nullptr);

  // "VG/LV".
  const std::string& vg_lv() const { return vg_lv_; }
  // lvs's view now. Throws SysError (lvs failed or unparsable).
  LvmCacheConfig LvsConfig() const;

  nlohmann::json DescribeJson() const override;
  std::string CheckUsable(const std::vector<const ModeSpec*>& modes,
                          bool cold_or_warm) const override;
  void CaptureOriginal() override;
  nlohmann::json OriginalJson() const override;
  void LoadOriginal(const nlohmann::json& original) override;
  RestoreReport RestoreOriginal() noexcept override;
  // The dm table's view (DmCacheLayer::ReadBack), checked against lvs:
  // mode, policy and every lvs setting must agree, else SysError. A table
  // policy "mq" where lvs says "smq" agrees (LVM loads the kernel's alias
  // when it cannot probe the smq module); it is reported as "smq" with
  // "table_policy" = "mq".
  LayerReadback ReadBack() const override;
  void MakeCold(double timeout_s) override;
  bool BeginWarm(std::string* why_not) override;

 protected:
  // One lvchange with --cachemode, --cachepolicy and --cachesettings.
  void SwitchTo(
      const std::string& mode, const std::string& policy,
      const std::vector<std::pair<std::string, std::string>>& policy_args,
      std::vector<std::string>* notes) override;

 private:
  // Runs `argv`; SysError "lvm command failed (exit N): <cmd>: <output>".
  std::string RunLvm(const std::vector<std::string>& argv) const;
  void LvchangeMode(const std::string& mode, const std::string& why);

  LvmRunner runner_;
  std::string vg_lv_;
  std::optional<LvmCacheConfig> lvm_original_;
};

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_DM_LVMCACHE_LAYER_H_
