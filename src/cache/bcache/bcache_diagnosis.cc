#include "cache/bcache/bcache_diagnosis.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "cache/bcache/bcache_values.h"

namespace tierbench {
namespace {

std::string Pct(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", pct);
  return buf;
}

// A setting as an integer (sizes through bcache's parser), or -1.
int64_t Setting(const CellObservation& o, const std::string& name) {
  auto it = o.settings.find(name);
  if (it == o.settings.end()) return -1;
  uint64_t bytes = 0;
  if (ParseHumanSize(it->second, &bytes).ok()) {
    return static_cast<int64_t>(bytes);
  }
  return -1;
}

int64_t Extra(const CellObservation& o, const std::string& name) {
  auto it = o.delta.extra.find(name);
  return it == o.delta.extra.end() ? -1 : it->second;
}

uint64_t NonNeg(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

// Bytes the mode bypasses by design: everything in `none`, the writes in
// `writearound`.
uint64_t ExpectedBypass(const CellObservation& o) {
  if (o.cache_mode == "none") return o.read_bytes + o.write_bytes;
  if (o.cache_mode == "writearound") return o.write_bytes;
  return 0;
}

void BypassRules(const CellObservation& o, std::vector<Finding>* out) {
  const uint64_t total = o.read_bytes + o.write_bytes;
  const uint64_t expected = ExpectedBypass(o);
  const uint64_t bypassed = NonNeg(o.delta.common.bypassed_bytes);
  if (total == 0 || o.cache_mode == "none" || bypassed <= expected) return;
  const double pct =
      std::min(100.0, 100.0 * static_cast<double>(bypassed - expected) / total);
  if (pct < kBypassWarnPct) return;
  const std::string what = Pct(pct) + " of IO bypassed the cache";
  const std::string tail = pct >= 50 ? ": this cell measured the HDD"
                                     : ": that part measured the HDD";
  const int64_t cutoff = Setting(o, "sequential_cutoff");
  const int64_t congested_read = Setting(o, "congested_read_threshold_us");
  const int64_t congested_write = Setting(o, "congested_write_threshold_us");
  const bool congestion_on = congested_read > 0 || congested_write > 0;
  const bool sequential = HasSequentialIo(o.jobs);
  if (cutoff > 0 && (sequential || !congestion_on)) {
    out->push_back({"bcache.cutoff", Severity::kCaution,
                    what + " (sequential_cutoff = " + FormatBcacheSize(cutoff) +
                        ")" + tail +
                        " (fix: sequential_cutoff=0 in the mode file)"});
  } else if (congestion_on) {
    out->push_back(
        {"bcache.congestion", Severity::kCaution,
         what + " by congestion (congested_read_threshold_us = " +
             std::to_string(congested_read) +
             ", congested_write_threshold_us = " +
             std::to_string(congested_write) + ")" + tail +
             " (fix: set both to 0 in the mode file)"});
  } else {
    out->push_back({"bcache.bypass", Severity::kCaution,
                    what +
                        " with sequential_cutoff and congestion bypass off: "
                        "unaligned IO or a cache over its in_use cutoffs" +
                        tail});
  }
}

void WarmCacheRule(const CellObservation& o, std::vector<Finding>* out) {
  const uint64_t hits =
      NonNeg(o.delta.common.read_hits) + NonNeg(Extra(o, "bypass_hits"));
  if (hits == 0) return;
  const bool none = o.cache_mode == "none";
  const bool writearound_as_is =
      o.cache_mode == "writearound" && o.cache_state == "as-is";
  if (!none && !writearound_as_is) return;
  if (none && o.cache_state == "cold") {
    out->push_back({"bcache.warm", Severity::kInvalid,
                    std::to_string(hits) +
                        " reads hit the cache in mode none right after a cold "
                        "reset: the detach/attach did not empty the cache"});
    return;
  }
  out->push_back({"bcache.warm", Severity::kInvalid,
                  "reads hit the cache left warm by earlier cells (" +
                      std::to_string(hits) + " hits in mode " + o.cache_mode +
                      ") (fix: --cache-state cold)"});
}

void DegradedWritebackRule(const CellObservation& o,
                           std::vector<Finding>* out) {
  constexpr uint64_t kMinWrite = 1 << 20;
  if (o.cache_mode != "writeback" || o.write_bytes < kMinWrite) return;
  const double floor = kDirtyGrowthMinFraction * o.write_bytes;
  const int64_t g = o.delta.dirty_growth_bytes();
  const uint64_t growth = g > 0 ? static_cast<uint64_t>(g) : 0;
  if (growth >= floor || NonNeg(o.delta.dirty_after_bytes) >= floor) return;
  std::string msg = "writeback wrote " + FormatBcacheSize(o.write_bytes) +
                    " but dirty data grew by " + FormatBcacheSize(growth);
  const int64_t available = Extra(o, "cache_available_percent");
  if (available >= 0) {
    msg += " (cache_available_percent = " + std::to_string(available) + ")";
  }
  out->push_back({"bcache.degraded", Severity::kCaution,
                  msg +
                      ": writes were not cached dirty, this cell behaved "
                      "like writethrough"});
}

void UnalignedRule(const CellObservation& o, std::vector<Finding>* out) {
  if (o.cache_block_bytes <= 0) return;
  const uint64_t block = static_cast<uint64_t>(o.cache_block_bytes);
  for (const JobSpec& job : o.jobs) {
    std::string what;
    const uint64_t bad = FirstUnalignedSize(job, block, &what);
    if (bad == 0) continue;
    out->push_back({"bcache.unaligned", Severity::kCaution,
                    "job '" + job.name + "': " + what + " " +
                        std::to_string(bad) +
                        " is not a multiple of the cache block_size " +
                        FormatBcacheSize(block) +
                        ": unaligned IO bypasses the cache"});
  }
}

}  // namespace

bool HasSequentialIo(const std::vector<JobSpec>& jobs) {
  if (jobs.empty()) return true;
  return std::any_of(jobs.begin(), jobs.end(), [](const JobSpec& j) {
    return !PatternIsRandom(j.rw) || j.percentage_random < 100;
  });
}

uint64_t FirstUnalignedSize(const JobSpec& job, uint64_t block,
                            std::string* what) {
  for (int d = 0; d < kNumDirs; ++d) {
    const IoDir dir = static_cast<IoDir>(d);
    if ((dir == IoDir::kRead && !PatternReads(job.rw)) ||
        (dir == IoDir::kWrite && !PatternWrites(job.rw))) {
      continue;
    }
    const BlockSizeSpec& bs = job.bs[d];
    std::vector<uint64_t> sizes = {bs.min, bs.max};
    for (const auto& [size, pct] : bs.split) sizes.push_back(size);
    for (uint64_t s : sizes) {
      if (s % block != 0) {
        *what = "block size";
        return s;
      }
    }
    if (job.blockalign[d] % block != 0) {
      *what = "blockalign";
      return job.blockalign[d];
    }
  }
  if (job.offset.set && !job.offset.is_percent && job.offset.bytes % block) {
    *what = "offset";
    return job.offset.bytes;
  }
  return 0;
}

std::string FormatBcacheSize(uint64_t bytes) {
  // bch_hprint: integer below 1024, else one truncated decimal and a unit.
  static const char kUnits[] = "kMGTPEZY";
  if (bytes < 1024) return std::to_string(bytes);
  uint64_t v = bytes;
  uint64_t rem = 0;
  int u = -1;
  while (v >= 1024 && u + 1 < static_cast<int>(sizeof kUnits) - 1) {
    rem = v & 1023;
    v >>= 10;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%llu.%llu%c",
                static_cast<unsigned long long>(v),
                static_cast<unsigned long long>(rem * 10 / 1024), kUnits[u]);
  return buf;
}

std::vector<Finding> DiagnoseBcache(const CellObservation& o) {
  std::vector<Finding> out;
  if (o.state_before == "no cache") {
    out.push_back(
        {"bcache.no-cache", Severity::kInvalid,
         "no cache attached (state 'no cache'): every mode passes straight "
         "to the HDD, this cell measured the HDD"});
    return out;
  }
  const int64_t available = Extra(o, "cache_available_percent");
  if (available >= 0 && available <= kCacheFullPct) {
    out.push_back({"bcache.full", Severity::kCaution,
                   "cache nearly full (cache_available_percent = " +
                       std::to_string(available) +
                       "): bcache bypasses IO to the HDD"});
  }
  BypassRules(o, &out);
  WarmCacheRule(o, &out);
  DegradedWritebackRule(o, &out);
  UnalignedRule(o, &out);
  return out;
}

}  // namespace tierbench
