#include "cache/dm/dm_cache_diagnosis.h"

#include <algorithm>
#include <cstdio>

#include "util/units.h"

namespace tierbench {
namespace {

int64_t NonNeg(int64_t v) { return v < 0 ? 0 : v; }

std::string Pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", v);
  return buf;
}

uint64_t SmallestIo(const std::vector<JobSpec>& jobs) {
  uint64_t smallest = 0;
  for (const JobSpec& j : jobs) {
    for (int d = 0; d < kNumDirs; ++d) {
      uint64_t s = j.bs[d].min;
      for (const auto& [size, pct] : j.bs[d].split) {
        if (pct > 0) s = std::min(s == 0 ? size : s, size);
      }
      if (s > 0) smallest = smallest == 0 ? s : std::min(smallest, s);
    }
  }
  return smallest;
}

uint64_t LargestIo(const std::vector<JobSpec>& jobs) {
  uint64_t largest = 0;
  for (const JobSpec& j : jobs) {
    for (int d = 0; d < kNumDirs; ++d) {
      const IoDir dir = static_cast<IoDir>(d);
      if ((dir == IoDir::kRead && !PatternReads(j.rw)) ||
          (dir == IoDir::kWrite && !PatternWrites(j.rw))) {
        continue;
      }
      largest = std::max(largest, j.bs[d].max);
      for (const auto& [size, pct] : j.bs[d].split) {
        if (pct > 0) largest = std::max(largest, size);
      }
    }
  }
  return largest;
}

}  // namespace

std::vector<Finding> DiagnoseDmCache(const CellObservation& o) {
  std::vector<Finding> out;
  if (!o.has_counters) return out;
  const CommonCounters& c = o.delta.common;
  const int64_t hits = NonNeg(c.read_hits) + NonNeg(c.write_hits);
  const int64_t misses = NonNeg(c.read_misses) + NonNeg(c.write_misses);
  const int64_t promotions = NonNeg(c.promotions);
  const bool caching =
      o.cache_mode == "writeback" || o.cache_mode == "writethrough";
  if (caching && hits + misses > 0 &&
      100.0 * static_cast<double>(hits) / static_cast<double>(hits + misses) <
          kDmCacheColdHitPct) {
    std::string block;
    if (o.cache_block_bytes > 0) {
      block =
          " (" +
          FormatBytes(static_cast<uint64_t>(promotions * o.cache_block_bytes)) +
          " of copies)";
    }
    out.push_back(
        {"dm-cache.cold", Severity::kInvalid,
        Pct(100.0 * static_cast<double>(misses) /
            static_cast<double>(hits + misses)) +
        " of IO missed the cache (" + std::to_string(NonNeg(c.write_misses)) +
        " write and " + std::to_string(NonNeg(c.read_misses)) +
        " read misses, " + std::to_string(promotions) + " promotions" + block +
        "): smq promotes gradually, IO to unpromoted blocks goes to the "
        "origin with the promotion traffic on top, so this " +
        o.cache_state + " cell measured the origin, not the cache" +
        (o.cache_state == "warm"
             ? " (the warm-up did not promote these blocks: a smaller region "
               "or a larger cache)"
             : " (fix: --cache-state warm)")});
  }
  if (caching && misses >= kDmCacheMinMisses &&
      static_cast<double>(promotions) < 0.01 * static_cast<double>(misses)) {
    auto it = o.settings.find("migration_threshold");
    out.push_back(
        {"dm-cache.throttled", Severity::kCaution,
        "only " + std::to_string(promotions) + " promotions for " +
        std::to_string(misses) +
        " misses: promotion was held back by migration_threshold "
        "(" +
        (it == o.settings.end() ? std::string("default 2048") : it->second) +
        " sectors of migration in flight) and smq's gradual "
        "promotion"});
  }
  const uint64_t smallest = SmallestIo(o.jobs);
  if (caching && promotions > 0 && o.cache_block_bytes > 0 && smallest > 0 &&
      smallest < static_cast<uint64_t>(o.cache_block_bytes)) {
    out.push_back(
        {"dm-cache.block", Severity::kNote,
        FormatBytes(smallest) + " IO on " +
        FormatBytes(static_cast<uint64_t>(o.cache_block_bytes)) +
        " cache blocks: every promotion copies a whole block (" +
        std::to_string(o.cache_block_bytes / static_cast<int64_t>(smallest)) +
        "x the IO), so misses cost more than the IO itself"});
  }
  // The target's max_io_len is its block size (dm-cache-target.c): larger
  // bios are split per block, in every mode, passthrough included.
  const uint64_t largest = LargestIo(o.jobs);
  if (o.cache_block_bytes > 0 &&
      largest > static_cast<uint64_t>(o.cache_block_bytes)) {
    out.push_back(
        {"dm-cache.split", Severity::kNote,
        "IO of up to " + FormatBytes(largest) + " is split at the " +
        FormatBytes(static_cast<uint64_t>(o.cache_block_bytes)) +
        " cache block size (dm-cache maps per block, in every mode): an "
        "origin that pays per IO sees up to " +
        std::to_string((largest + o.cache_block_bytes - 1) /
                       static_cast<uint64_t>(o.cache_block_bytes)) +
        "x the IOs unless its queue merges them again"});
  }
  return out;
}

}  // namespace tierbench
