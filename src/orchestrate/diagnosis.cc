#include "orchestrate/diagnosis.h"

#include <algorithm>
#include <cstdio>

namespace tierbench {
namespace {

std::string Pct(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", pct);
  return buf;
}

bool HasSequentialIo(const std::vector<JobSpec>& jobs) {
  // DB workloads have no job list; their WAL and checkpoints are sequential.
  if (jobs.empty()) return true;
  return std::any_of(jobs.begin(), jobs.end(), [](const JobSpec& j) {
    return !PatternIsRandom(j.rw) || j.percentage_random < 100;
  });
}

// Bytes the mode bypasses by design: everything in `none`, the writes in
// `writearound`.
uint64_t ExpectedBypass(const CellObservation& o) {
  if (o.cache_mode == "none") return o.read_bytes + o.write_bytes;
  if (o.cache_mode == "writearound") return o.write_bytes;
  return 0;
}

void BypassRules(const CellObservation& o, std::vector<std::string>* out) {
  const uint64_t total = o.read_bytes + o.write_bytes;
  const uint64_t expected = ExpectedBypass(o);
  if (total == 0 || o.cache_mode == "none" || o.bypassed_bytes <= expected)
    return;
  const double pct = std::min(
      100.0, 100.0 * static_cast<double>(o.bypassed_bytes - expected) / total);
  if (pct < kBypassWarnPct) return;
  const std::string what = Pct(pct) + " of IO bypassed the cache";
  const std::string tail = pct >= 50 ? ": this cell measured the HDD"
                                     : ": that part measured the HDD";
  const bool congestion_on =
      o.congested_read_threshold_us > 0 || o.congested_write_threshold_us > 0;
  const bool sequential = HasSequentialIo(o.jobs);
  if (o.sequential_cutoff > 0 && (sequential || !congestion_on)) {
    out->push_back(what + " (sequential_cutoff = " +
                   FormatBcacheSize(o.sequential_cutoff) + ")" + tail +
                   " (fix: sequential_cutoff=0 in the mode file)");
  } else if (congestion_on) {
    out->push_back(what + " by congestion (congested_read_threshold_us = " +
                   std::to_string(o.congested_read_threshold_us) +
                   ", congested_write_threshold_us = " +
                   std::to_string(o.congested_write_threshold_us) + ")" + tail +
                   " (fix: set both to 0 in the mode file)");
  } else {
    out->push_back(what +
                   " with sequential_cutoff and congestion bypass off: "
                   "unaligned IO or a cache over its in_use cutoffs" +
                   tail);
  }
}

void WarmCacheRule(const CellObservation& o, std::vector<std::string>* out) {
  const uint64_t hits = o.cache_hits + o.bypass_hits;
  if (hits == 0) return;
  const bool none = o.cache_mode == "none";
  const bool writearound_as_is =
      o.cache_mode == "writearound" && o.cache_state == "as-is";
  if (!none && !writearound_as_is) return;
  if (none && o.cache_state == "cold") {
    out->push_back(std::to_string(hits) +
                   " reads hit the cache in mode none right after a cold "
                   "reset: the detach/attach did not empty the cache");
    return;
  }
  out->push_back("reads hit the cache left warm by earlier cells (" +
                 std::to_string(hits) + " hits in mode " + o.cache_mode +
                 ") (fix: --cache-state cold)");
}

void DegradedWritebackRule(const CellObservation& o,
                           std::vector<std::string>* out) {
  constexpr uint64_t kMinWrite = 1 << 20;
  if (o.cache_mode != "writeback" || o.write_bytes < kMinWrite) return;
  const double floor = kDirtyGrowthMinFraction * o.write_bytes;
  const uint64_t growth =
      o.dirty_after > o.dirty_before ? o.dirty_after - o.dirty_before : 0;
  if (growth >= floor || o.dirty_after >= floor) return;
  std::string msg = "writeback wrote " + FormatBcacheSize(o.write_bytes) +
                    " but dirty data grew by " + FormatBcacheSize(growth);
  if (o.cache_available_percent >= 0) {
    msg += " (cache_available_percent = " +
           std::to_string(o.cache_available_percent) + ")";
  }
  out->push_back(msg +
                 ": writes were not cached dirty, this cell behaved like "
                 "writethrough");
}

// First size of `job` that is not a multiple of `block`, or 0.
uint64_t FirstUnaligned(const JobSpec& job, uint64_t block, std::string* what) {
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

void UnalignedRule(const CellObservation& o, std::vector<std::string>* out) {
  if (o.cache_block_size <= 0) return;
  const uint64_t block = static_cast<uint64_t>(o.cache_block_size);
  for (const JobSpec& job : o.jobs) {
    std::string what;
    const uint64_t bad = FirstUnaligned(job, block, &what);
    if (bad == 0) continue;
    out->push_back(
        "job '" + job.name + "': " + what + " " + std::to_string(bad) +
        " is not a multiple of the cache block_size " +
        FormatBcacheSize(block) + ": unaligned IO bypasses the cache");
  }
}

}  // namespace

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

std::vector<std::string> Diagnose(const CellObservation& o) {
  std::vector<std::string> out;
  if (o.layer != "bcache") return out;
  if (o.state_before == "no cache") {
    out.push_back(
        "no cache attached (state 'no cache'): every mode passes straight "
        "to the HDD, this cell measured the HDD");
    return out;
  }
  if (o.drain_before_timed_out) {
    out.push_back("dirty data left before the cell (" +
                  FormatBcacheSize(o.dirty_before) +
                  " when the drain timed out): writeback of earlier cells "
                  "competed with this cell");
  }
  if (o.cache_available_percent >= 0 &&
      o.cache_available_percent <= kCacheFullPct) {
    out.push_back("cache nearly full (cache_available_percent = " +
                  std::to_string(o.cache_available_percent) +
                  "): bcache bypasses IO to the HDD");
  }
  BypassRules(o, &out);
  WarmCacheRule(o, &out);
  DegradedWritebackRule(o, &out);
  UnalignedRule(o, &out);
  if (o.drain_after_timed_out) {
    out.push_back(FormatBcacheSize(o.dirty_left_after_drain) +
                  " still dirty when the post-cell drain timed out: the next "
                  "cell competes with its writeback");
  }
  return out;
}

}  // namespace tierbench
