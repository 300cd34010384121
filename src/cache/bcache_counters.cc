#include "cache/bcache_counters.h"

namespace tierbench {
namespace {

// after - before, or 0 (and *reset) when the counter went backwards.
uint64_t Sub(uint64_t before, uint64_t after, bool* reset) {
  if (after >= before) return after - before;
  *reset = true;
  return 0;
}

}  // namespace

double CounterDelta::read_hit_ratio_pct() const {
  const uint64_t total = stats.cache_hits + stats.cache_misses;
  if (total == 0) return -1;
  return 100.0 * static_cast<double>(stats.cache_hits) /
         static_cast<double>(total);
}

nlohmann::json CounterDelta::ToJson() const {
  return {{"seconds", seconds},
          {"cache_hits", stats.cache_hits},
          {"cache_misses", stats.cache_misses},
          {"cache_bypass_hits", stats.cache_bypass_hits},
          {"cache_bypass_misses", stats.cache_bypass_misses},
          {"cache_miss_collisions", stats.cache_miss_collisions},
          {"cache_readaheads", stats.cache_readaheads},
          {"bypassed_bytes", stats.bypassed_bytes},
          {"dirty_before_bytes", dirty_before_bytes},
          {"dirty_after_bytes", dirty_after_bytes},
          {"dirty_growth_bytes", dirty_growth_bytes},
          {"bcache_read_bytes", bcache.read_bytes()},
          {"bcache_write_bytes", bcache.write_bytes()},
          {"hdd_read_bytes", backing.read_bytes()},
          {"hdd_write_bytes", backing.write_bytes()},
          {"ssd_read_bytes", cache.read_bytes()},
          {"ssd_write_bytes", cache.write_bytes()},
          {"counters_reset", counters_reset}};
}

CounterDelta DiffCounters(const CounterSnapshot& before,
                          const CounterSnapshot& after) {
  CounterDelta d;
  bool reset = false;
  d.seconds = after.taken_ns >= before.taken_ns
                  ? static_cast<double>(after.taken_ns - before.taken_ns) / 1e9
                  : 0;
  const BcacheStatsTotal& b = before.stats;
  const BcacheStatsTotal& a = after.stats;
  d.stats.cache_hits = Sub(b.cache_hits, a.cache_hits, &reset);
  d.stats.cache_misses = Sub(b.cache_misses, a.cache_misses, &reset);
  d.stats.cache_bypass_hits =
      Sub(b.cache_bypass_hits, a.cache_bypass_hits, &reset);
  d.stats.cache_bypass_misses =
      Sub(b.cache_bypass_misses, a.cache_bypass_misses, &reset);
  d.stats.cache_miss_collisions =
      Sub(b.cache_miss_collisions, a.cache_miss_collisions, &reset);
  d.stats.cache_readaheads =
      Sub(b.cache_readaheads, a.cache_readaheads, &reset);
  d.stats.bypassed_bytes = Sub(b.bypassed_bytes, a.bypassed_bytes, &reset);
  d.dirty_before_bytes = before.dirty_bytes;
  d.dirty_after_bytes = after.dirty_bytes;
  d.dirty_growth_bytes = static_cast<int64_t>(after.dirty_bytes) -
                         static_cast<int64_t>(before.dirty_bytes);
  d.bcache = DiffBlockStat(before.bcache, after.bcache, &reset);
  d.backing = DiffBlockStat(before.backing, after.backing, &reset);
  if (before.cache_name == after.cache_name) {
    d.cache = DiffBlockStat(before.cache, after.cache, &reset);
  } else {
    reset = true;  // Attached or detached in between: no comparable SSD.
  }
  d.counters_reset = reset;
  return d;
}

}  // namespace tierbench
