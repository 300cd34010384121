#include "cache/dm/dm_writecache_diagnosis.h"

#include <cstdio>
#include <cstdlib>

namespace tierbench {
namespace {

int64_t Extra(const CellObservation& o, const std::string& key) {
  auto it = o.delta.extra.find(key);
  return it == o.delta.extra.end() ? -1 : it->second;
}

std::string Pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", v);
  return buf;
}

}  // namespace

std::vector<Finding> DiagnoseDmWritecache(const CellObservation& o) {
  std::vector<Finding> out;
  if (!o.has_counters) return out;
  const CommonCounters& c = o.delta.common;
  const int64_t reads = (c.read_hits < 0 ? 0 : c.read_hits) +
                        (c.read_misses < 0 ? 0 : c.read_misses);
  // Only where reads are part of the workload (a write job's stray reads,
  // e.g. of a partition table, say nothing).
  if (o.read_bytes >= kDmWritecacheMinReadBytes && c.read_misses > 0 &&
      100.0 * static_cast<double>(c.read_misses) / static_cast<double>(reads) >
          kDmWritecacheReadMissPct) {
    out.push_back({"dm-writecache.reads", Severity::kCaution,
                   Pct(100.0 * static_cast<double>(c.read_misses) /
                       static_cast<double>(reads)) +
                       " of reads missed: dm-writecache caches only writes, "
                       "reads of blocks it did not write go to the origin "
                       "(these reads measured the HDD)"});
  }
  int high = kDmWritecacheDefaultHighWatermark;
  auto it = o.settings.find("high_watermark");
  if (it != o.settings.end()) high = std::atoi(it->second.c_str());
  const int64_t total = Extra(o, "total_blocks");
  const int64_t free = Extra(o, "free_blocks");
  const int64_t blocked = Extra(o, "writes_blocked_on_freelist");
  const bool at_watermark =
      total > 0 && free >= 0 &&
      100.0 * static_cast<double>(total - free) / static_cast<double>(total) >=
          high - 1;
  if (blocked > 0 || at_watermark) {
    std::string msg = "dm-writecache reached its high watermark (" +
                      std::to_string(high) +
                      "% of blocks in use): it wrote back to the origin "
                      "while the cell ran";
    if (blocked > 0) {
      msg += ", and " + std::to_string(blocked) +
             " writes waited for free blocks: those measured the HDD";
    } else {
      msg += "; writes stall once the cache runs out of free blocks";
    }
    out.push_back({"dm-writecache.watermark", Severity::kCaution, msg});
  }
  const int64_t writes = (c.write_hits < 0 ? 0 : c.write_hits) +
                         (c.write_misses < 0 ? 0 : c.write_misses);
  if (c.bypassed_ios > 0 && writes > 0 &&
      static_cast<double>(c.bypassed_ios) > 0.03 * writes) {
    out.push_back({"dm-writecache.around", Severity::kCaution,
                   std::to_string(c.bypassed_ios) + " of " +
                       std::to_string(writes) +
                       " writes went around the cache to the origin"});
  }
  return out;
}

}  // namespace tierbench
