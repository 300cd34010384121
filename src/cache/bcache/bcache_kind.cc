#include "cache/bcache/bcache_kind.h"

#include "cache/bcache/bcache_knobs.h"
#include "cache/bcache/bcache_layer.h"
#include "cache/bcache/bcache_values.h"

namespace tierbench {
namespace {

Status CheckBcacheKnob(std::string_view group, std::string_view name,
                       std::string_view value) {
  const KnobScope scope =
      group == "cache_set_knobs" ? KnobScope::kCacheSet : KnobScope::kBacking;
  const KnobInfo* knob = FindKnob(scope, name);
  if (knob == nullptr) {
    return Status::InvalidArgument("unknown knob \"" + std::string(name) +
                                   "\" in \"" + std::string(group) +
                                   "\". Fix: use one of " + KnobNames(scope));
  }
  std::string ignored;
  Status s = KnobValueToWrite(*knob, value, &ignored);
  if (!s.ok()) {
    return Status::InvalidArgument(s.message() +
                                   ". Fix: " + std::string(knob->help));
  }
  return Status::Ok();
}

}  // namespace

LayerKind BcacheKind() {
  LayerKind k;
  k.name = kBcacheLayerName;
  k.summary = "bcache through sysfs (/dev/bcacheN)";
  for (std::string_view m : kCacheModes) k.modes.emplace_back(m);
  k.knob_groups = {"knobs", "cache_set_knobs"};
  k.check_knob = CheckBcacheKnob;
  k.extra_columns = {
      {"bcache_bypass_hits", "bypass_hits",
       "reads that bypassed the cache but found the data cached"},
      {"bcache_bypass_misses", "bypass_misses",
       "reads that bypassed the cache and missed"},
      {"bcache_sequential_cutoff", "sequential_cutoff",
       "sequential_cutoff as read back"},
      {"bcache_congested_read_threshold_us", "congested_read_threshold_us",
       "congested_read_threshold_us as read back"},
      {"bcache_congested_write_threshold_us", "congested_write_threshold_us",
       "congested_write_threshold_us as read back"},
      {"bcache_cache_available_percent", "cache_available_percent",
       "cache_available_percent of the cache set after the cell"}};
  k.verify_order = {"writeback", "writethrough", "writearound", "none"};
  return k;
}

}  // namespace tierbench
