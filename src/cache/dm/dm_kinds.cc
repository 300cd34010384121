#include "cache/dm/dm_kinds.h"

#include "cache/dm/dm_cache_layer.h"
#include "cache/dm/dm_writecache_layer.h"
#include "cache/dm/lvmcache_layer.h"
#include "cache/sysfs_values.h"

namespace tierbench {

const std::vector<std::string>& DmWritecacheKnobs() {
  static const std::vector<std::string> knobs = {
      "high_watermark", "low_watermark", "writeback_jobs", "autocommit_blocks",
      "autocommit_time"};
  return knobs;
}

namespace {

Status CheckUnsigned(std::string_view name, std::string_view value, int64_t max,
                     const std::string& fix) {
  int64_t v = -1;
  if (!ParseInteger(value, &v).ok() || v < 0 || v > max) {
    return Status::InvalidArgument("knob \"" + std::string(name) +
                                   "\" must be a whole number 0.." +
                                   std::to_string(max) + ", not \"" +
                                   std::string(value) + "\". Fix: " + fix);
  }
  return Status::Ok();
}

Status CheckDmCacheKnob(std::string_view, std::string_view name,
                        std::string_view value) {
  if (name == "policy") {
    if (value == "smq" || value == "mq" || value == "cleaner" ||
        value == "default") {
      return Status::Ok();
    }
    return Status::InvalidArgument("unknown dm-cache policy \"" +
                                   std::string(value) +
                                   "\". Fix: smq, mq, cleaner or default");
  }
  if (name == "migration_threshold") {
    return CheckUnsigned(name, value, int64_t{1} << 40,
                         "sectors of migration in flight, e.g. 2048");
  }
  return Status::InvalidArgument("unknown dm-cache knob \"" +
                                 std::string(name) +
                                 "\". Fix: use policy or migration_threshold");
}

Status CheckDmWritecacheKnob(std::string_view, std::string_view name,
                             std::string_view value) {
  for (const std::string& k : DmWritecacheKnobs()) {
    if (k != name) continue;
    const bool percent = name == "high_watermark" || name == "low_watermark";
    return CheckUnsigned(name, value, percent ? 100 : int64_t{1} << 40,
                         percent ? "a percentage of the cache blocks"
                                 : "a whole number (writecache.rst)");
  }
  std::string names;
  for (const std::string& k : DmWritecacheKnobs()) {
    names += (names.empty() ? "" : ", ") + k;
  }
  return Status::InvalidArgument("unknown dm-writecache knob \"" +
                                 std::string(name) + "\". Fix: use one of " +
                                 names);
}

// dm-cache and lvmcache drive the same kernel target: the same modes, knobs
// and counters; `prefix` names their CSV columns.
LayerKind CacheTargetKind(const std::string& name, const std::string& summary,
                          const std::string& prefix) {
  LayerKind k;
  k.name = name;
  k.summary = summary;
  k.modes = {"writeback", "writethrough", "passthrough"};
  k.knob_groups = {"knobs"};
  k.check_knob = CheckDmCacheKnob;
  k.extra_columns = {
      {prefix + "_policy", "policy", "policy as read back from the table"},
      {prefix + "_migration_threshold", "migration_threshold",
       "migration_threshold (sectors) as the status line reports it"},
      {prefix + "_used_blocks", "cache_used_blocks",
       "cache blocks in use after the cell"},
      {prefix + "_dirty_blocks", "dirty_blocks",
       "dirty cache blocks after the cell"}};
  k.verify_order = {"writeback", "writethrough", "passthrough"};
  return k;
}

}  // namespace

LayerKind DmCacheKind() {
  return CacheTargetKind(
      kDmCacheLayerName,
      "device-mapper cache target, smq policy (/dev/mapper/NAME; the mode is "
      "a table reload)",
      "dm_cache");
}

LayerKind LvmcacheKind() {
  LayerKind k = CacheTargetKind(
      kLvmcacheLayerName,
      "LVM cached LV, dm cache target (/dev/VG/LV; the mode is `lvchange "
      "--cachemode`, LVM's default writethrough)",
      "lvmcache");
  // Each lvchange takes seconds (the lab: 16 s for the whole dm-cache
  // order); writethrough is the kernel target dm-cache's check already
  // visits, passthrough is the switch that must write the dirty data back.
  k.verify_order = {"writeback", "passthrough"};
  return k;
}

LayerKind DmWritecacheKind() {
  LayerKind k;
  k.name = kDmWritecacheLayerName;
  k.summary = "device-mapper writecache target, writes only (/dev/mapper/NAME)";
  k.modes = {"writeback"};
  k.knob_groups = {"knobs"};
  k.check_knob = CheckDmWritecacheKnob;
  k.extra_columns = {
      {"dm_writecache_high_watermark", "high_watermark",
       "high_watermark as read back (empty: kernel default 50)"},
      {"dm_writecache_free_blocks", "free_blocks",
       "free cache blocks after the cell"},
      {"dm_writecache_total_blocks", "total_blocks", "cache blocks in all"},
      {"dm_writecache_writes_blocked", "writes_blocked_on_freelist",
       "writes that waited for a free block during the cell"}};
  k.verify_order = {"writeback"};
  return k;
}

}  // namespace tierbench
