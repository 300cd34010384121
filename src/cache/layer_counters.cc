#include "cache/layer_counters.h"

namespace tierbench {
namespace {

// after - before; -1 when either side is unknown; 0 (and *reset) when the
// counter went backwards.
int64_t Sub(int64_t before, int64_t after, bool* reset) {
  if (before < 0 || after < 0) return -1;
  if (after >= before) return after - before;
  *reset = true;
  return 0;
}

nlohmann::json OrNull(int64_t v) {
  return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

}  // namespace

int64_t LayerDelta::dirty_growth_bytes() const {
  if (dirty_before_bytes < 0 || dirty_after_bytes < 0) return 0;
  return dirty_after_bytes - dirty_before_bytes;
}

double LayerDelta::read_hit_ratio_pct() const {
  if (common.read_hits < 0 || common.read_misses < 0) return -1;
  const int64_t total = common.read_hits + common.read_misses;
  if (total == 0) return -1;
  return 100.0 * static_cast<double>(common.read_hits) /
         static_cast<double>(total);
}

nlohmann::json LayerDelta::ToJson() const {
  nlohmann::json extra_json = nlohmann::json::object();
  for (const auto& [k, v] : extra) extra_json[k] = v;
  return {{"seconds", seconds},
          {"read_hits", OrNull(common.read_hits)},
          {"read_misses", OrNull(common.read_misses)},
          {"write_hits", OrNull(common.write_hits)},
          {"write_misses", OrNull(common.write_misses)},
          {"bypassed_ios", OrNull(common.bypassed_ios)},
          {"bypassed_bytes", OrNull(common.bypassed_bytes)},
          {"promotions", OrNull(common.promotions)},
          {"demotions", OrNull(common.demotions)},
          {"dirty_before_bytes", OrNull(dirty_before_bytes)},
          {"dirty_after_bytes", OrNull(dirty_after_bytes)},
          {"stack_read_bytes", stack.read_bytes()},
          {"stack_write_bytes", stack.write_bytes()},
          {"hdd_read_bytes", origin.read_bytes()},
          {"hdd_write_bytes", origin.write_bytes()},
          {"ssd_read_bytes", cache.read_bytes()},
          {"ssd_write_bytes", cache.write_bytes()},
          {"extra", extra_json},
          {"counters_reset", counters_reset}};
}

LayerDelta DiffLayerCounters(const LayerCounters& before,
                             const LayerCounters& after,
                             const std::set<std::string>& gauges) {
  LayerDelta d;
  bool reset = false;
  d.seconds = after.taken_ns >= before.taken_ns
                  ? static_cast<double>(after.taken_ns - before.taken_ns) / 1e9
                  : 0;
  const CommonCounters& b = before.common;
  const CommonCounters& a = after.common;
  d.common.read_hits = Sub(b.read_hits, a.read_hits, &reset);
  d.common.read_misses = Sub(b.read_misses, a.read_misses, &reset);
  d.common.write_hits = Sub(b.write_hits, a.write_hits, &reset);
  d.common.write_misses = Sub(b.write_misses, a.write_misses, &reset);
  d.common.bypassed_ios = Sub(b.bypassed_ios, a.bypassed_ios, &reset);
  d.common.bypassed_bytes = Sub(b.bypassed_bytes, a.bypassed_bytes, &reset);
  d.common.promotions = Sub(b.promotions, a.promotions, &reset);
  d.common.demotions = Sub(b.demotions, a.demotions, &reset);
  d.dirty_before_bytes = before.dirty_bytes;
  d.dirty_after_bytes = after.dirty_bytes;
  d.stack = DiffBlockStat(before.stack, after.stack, &reset);
  d.origin = DiffBlockStat(before.origin, after.origin, &reset);
  if (before.cache_identity == after.cache_identity) {
    d.cache = DiffBlockStat(before.cache, after.cache, &reset);
  } else {
    reset = true;  // Attached or detached in between: no comparable SSD.
  }
  for (const auto& [name, value] : after.extra) {
    if (gauges.count(name) != 0) {
      d.extra[name] = value;
      continue;
    }
    auto it = before.extra.find(name);
    if (it == before.extra.end()) continue;
    d.extra[name] = Sub(it->second, value, &reset);
  }
  d.counters_reset = reset;
  return d;
}

bool LayerOwnCountersMoved(const LayerCounters& a, const LayerCounters& b,
                           const std::set<std::string>& gauges) {
  if (a.common != b.common) return true;
  if (!a.fold_mark.empty() && a.fold_mark != b.fold_mark) return true;
  for (const auto& [name, value] : b.extra) {
    if (gauges.count(name) != 0) continue;
    const auto it = a.extra.find(name);
    if (it == a.extra.end() || it->second != value) return true;
  }
  for (const auto& [name, value] : a.extra) {
    if (gauges.count(name) == 0 && b.extra.count(name) == 0) return true;
  }
  return false;
}

}  // namespace tierbench
