#include "validity/cache_rules.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "util/units.h"

namespace tierbench {
namespace {

std::string CachePct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", v);
  return buf;
}

bool HasLayerColdFinding(const std::vector<Finding>& f) {
  return std::any_of(f.begin(), f.end(), [](const Finding& x) {
    return x.severity == Severity::kInvalid && x.rule.size() > 5 &&
           x.rule.ends_with(".cold");
  });
}

void ColdReadsRule(const CellObservation& o, const std::vector<Finding>& so_far,
                   std::vector<Finding>* out) {
  if (!o.mode_caches_reads || o.settled || !o.has_counters) return;
  const uint64_t stack_reads = o.delta.stack.read_bytes();
  const uint64_t origin_reads = o.delta.origin.read_bytes();
  if (stack_reads < kColdMinReadBytes) return;
  const double pct = 100.0 * static_cast<double>(origin_reads) /
                     static_cast<double>(stack_reads);
  if (pct < kColdFillingReadPct || HasLayerColdFinding(so_far)) return;
  std::string counters;
  const CommonCounters& c = o.delta.common;
  if (c.read_hits >= 0 && c.read_misses >= 0) {
    counters = ", " + std::to_string(c.read_hits) + " read hits, " +
               std::to_string(c.read_misses) + " misses";
  }
  out->push_back(
      {"cold-reads", Severity::kInvalid,
       "the " +
           (o.cache_state.empty() ? std::string("unsettled") : o.cache_state) +
           " cache sent " + CachePct(std::min(100.0, pct)) + " of the " +
           FormatBytes(stack_reads) +
           " read to the HDD (hdd_read_bytes against stack_read_bytes" +
           counters + "): this cell measured " +
           (pct >= kColdOriginReadPct
                ? "the origin"
                : "the cache filling up from the origin") +
           ", not what the cache does once settled" +
           (o.cache_state == "warm-until-steady"
                ? " (fix: a larger --warm-max, so the warm-up reaches the "
                  "steady state)"
                : " (fix: --cache-state warm-until-steady, the default)")});
}

void WorkingSetRule(const CellObservation& o, std::vector<Finding>* out) {
  if (o.cache_bytes <= 0 || o.region_bytes == 0) return;
  const bool random =
      std::any_of(o.jobs.begin(), o.jobs.end(),
                  [](const JobSpec& j) { return PatternIsRandom(j.rw); });
  if (!random || o.region_bytes <= static_cast<uint64_t>(o.cache_bytes)) return;
  out->push_back(
      {"working-set", Severity::kCaution,
       "the random region (" + FormatBytes(o.region_bytes) +
           ") is larger than the cache (" +
           FormatBytes(static_cast<uint64_t>(o.cache_bytes)) + "): at most " +
           CachePct(100.0 * static_cast<double>(o.cache_bytes) /
                    static_cast<double>(o.region_bytes)) +
           " of it can be cached, so uniform IO over it mostly misses"});
}

}  // namespace

std::vector<Finding> CacheFindings(const CellObservation& o,
                                   const LayerRulesFn& layer_rules) {
  std::vector<Finding> out;
  if (o.drain_before_timed_out) {
    const int64_t dirty = o.delta.dirty_before_bytes;
    out.push_back(
        {"dirty-before", Severity::kInvalid,
         "dirty data left before the cell (" +
             FormatBytes(dirty < 0 ? 0 : static_cast<uint64_t>(dirty)) +
             " when the drain timed out): writeback of earlier "
             "cells competed with this cell (fix: a longer "
             "--drain-timeout)"});
  }
  if (layer_rules) {
    for (Finding& f : layer_rules(o)) out.push_back(std::move(f));
  }
  ColdReadsRule(o, out, &out);
  WorkingSetRule(o, &out);
  if (o.drain_after_timed_out) {
    out.push_back({"dirty-after", Severity::kCaution,
                   FormatBytes(o.dirty_left_after_drain) +
                       " still dirty when the post-cell drain timed out: the "
                       "next cell competes with its writeback"});
  }
  if (o.delta.counters_reset) {
    out.push_back({"counters-reset", Severity::kUnknown,
                   o.layer + " counters went backwards during the cell (reset, "
                             "re-registration or a table reload): its counter "
                             "columns are not trustworthy"});
  }
  if (o.counter_lag_limit_s >= 0 &&
      o.counters_after_s >= o.counter_lag_limit_s) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", o.counters_after_s);
    out.push_back({"counters-lag", Severity::kUnknown,
                   o.layer + " folded no counters within " + secs +
                       " s of the IO stop: its counters may miss the end of "
                       "the cell (fix: a larger --stats-lag)"});
  }
  return out;
}

}  // namespace tierbench
