// The read hit curves of a replayed trace (trace/read_hit_curve.h).
#include "trace/read_hit_curve.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "trace/belady.h"
#include "trace/block_stream.h"
#include "trace/stack_distance.h"
#include "util/errors.h"
#include "util/strings.h"

namespace tierbench {
namespace {

// The log's reads, all on one file: a compare replays every file of a
// trace onto the cell's one target at the trace's offsets.
IoLog RhcReadsOf(const IoLog& log) {
  IoLog reads;
  reads.path = log.path;
  reads.version = log.version;
  reads.files = {log.files.empty() ? std::string() : log.files.front()};
  for (const IoLogEntry& e : log.entries) {
    if (e.action != IoLogAction::kRead) continue;
    reads.entries.push_back(e);
    reads.entries.back().file = 0;
  }
  return reads;
}

// `ids` twice in a row.
std::vector<uint32_t> RhcTwice(const std::vector<uint32_t>& ids) {
  std::vector<uint32_t> out;
  out.reserve(ids.size() * 2);
  out.insert(out.end(), ids.begin(), ids.end());
  out.insert(out.end(), ids.begin(), ids.end());
  return out;
}

// The blocks of `ids` in the order of their first access.
std::vector<uint32_t> RhcFirstUseOrder(const std::vector<uint32_t>& ids,
                                       uint64_t distinct) {
  std::vector<bool> seen(distinct, false);
  std::vector<uint32_t> order;
  order.reserve(distinct);
  for (uint32_t id : ids) {
    if (seen[id]) continue;
    seen[id] = true;
    order.push_back(id);
  }
  return order;
}

// OPT hits of one pass of `ids` with `blocks` blocks when the cache enters
// it holding the `blocks` blocks first used earliest in it (`first_use`):
// a prefix of those blocks fills the cache, all misses and no eviction,
// then MIN runs the pass.
uint64_t RhcWarmOptHits(const std::vector<uint32_t>& ids, uint64_t distinct,
                        const std::vector<uint32_t>& first_use,
                        uint64_t blocks) {
  if (blocks == 0 || ids.empty()) return 0;
  if (blocks >= first_use.size()) return ids.size();
  std::vector<uint32_t> primed(first_use.begin(),
                               first_use.begin() + static_cast<long>(blocks));
  primed.insert(primed.end(), ids.begin(), ids.end());
  return BeladyOpt(primed, distinct).Hits(blocks);
}

double RhcPct(double hits, double accesses) {
  return accesses > 0 ? std::clamp(100 * hits / accesses, 0.0, 100.0) : 0.0;
}

[[noreturn]] void RhcBad(const CsvDocument& doc, size_t row,
                         const std::string& what) {
  throw ConfigError(doc.label() + ": row " + std::to_string(row + 2) + ": " +
                    what +
                    ". Fix: use the mrc.csv `tierbench compare` wrote, "
                    "unchanged");
}

double RhcNumber(const CsvDocument& doc, size_t row, const std::string& col) {
  const std::optional<double> v = doc.Number(row, col);
  if (!v || !std::isfinite(*v) || *v < 0) {
    RhcBad(doc, row, col + " '" + doc.Get(row, col) + "' is not a number >= 0");
  }
  return *v;
}

}  // namespace

const ReadHitPoint* ReadHitCurve::At(uint64_t cache_bytes) const {
  for (const ReadHitPoint& p : points) {
    if (p.cache_bytes == cache_bytes) return &p;
  }
  return nullptr;
}

ReadHitCurve ComputeReadHitCurve(const IoLog& log, uint32_t block_bytes,
                                 bool warm,
                                 const std::vector<uint64_t>& stack_cache_bytes,
                                 uint64_t exact_limit) {
  ReadHitCurve c;
  c.warm = warm;
  c.block_bytes = block_bytes;
  BlockStream stream = BuildBlockStream(RhcReadsOf(log), block_bytes);
  c.read_accesses = stream.accesses();
  c.distinct_blocks = stream.distinct();
  if (c.read_accesses == 0) return c;
  const uint64_t passes = warm ? 2 : 1;
  if (passes * c.read_accesses > exact_limit) {
    const uint64_t threshold =
        ShardsThreshold(static_cast<double>(exact_limit) /
                        static_cast<double>(passes * c.read_accesses));
    if (threshold < kShardsModulus) {
      BlockStream sample = SampleBlocks(stream, threshold);
      // A sample that kept no access (a huge stream on very few blocks)
      // estimates nothing: the curve stays exact.
      if (sample.accesses() > 0) {
        stream = std::move(sample);
        c.rate = static_cast<double>(threshold) /
                 static_cast<double>(kShardsModulus);
      }
    }
  }
  const bool exact = c.rate == 1;
  const auto histogram = [&](const std::vector<uint32_t>& ids,
                             uint64_t accesses) {
    return exact
               ? ExactStackDistances(ids, stream.distinct())
               : ShardsStackDistances(ids, stream.distinct(), c.rate, accesses);
  };
  const MissRatioCurve one(histogram(stream.ids, c.read_accesses));
  std::optional<MissRatioCurve> two;
  if (warm) two.emplace(histogram(RhcTwice(stream.ids), 2 * c.read_accesses));
  const std::vector<uint32_t> first_use =
      warm ? RhcFirstUseOrder(stream.ids, stream.distinct())
           : std::vector<uint32_t>();
  std::optional<BeladyOpt> cold_opt;
  if (!warm) cold_opt.emplace(stream.ids, stream.distinct());

  std::map<uint64_t, ReadHitPoint> points;
  const std::vector<uint64_t> grid = TraceMrcGrid(c.distinct_blocks, c.rate);
  for (size_t i = 0; i < grid.size(); i += 2) {
    points[grid[i] * block_bytes].cache_bytes = grid[i] * block_bytes;
  }
  const uint64_t footprint = c.distinct_blocks * block_bytes;
  points[footprint].cache_bytes = footprint;
  for (uint64_t bytes : stack_cache_bytes) {
    points[bytes].cache_bytes = bytes;
    points[bytes].at_stack = true;
  }
  const double n = static_cast<double>(c.read_accesses);
  for (auto& [bytes, p] : points) {
    const uint64_t blocks = bytes / block_bytes;
    const double lru_hits =
        warm ? two->Hits(blocks) - one.Hits(blocks) : one.Hits(blocks);
    p.lru_read_hit_pct = RhcPct(lru_hits, n);
    const uint64_t scaled = exact ? blocks
                                  : static_cast<uint64_t>(std::llround(
                                        static_cast<double>(blocks) * c.rate));
    const uint64_t opt_hits =
        warm ? RhcWarmOptHits(stream.ids, stream.distinct(), first_use, scaled)
             : cold_opt->Hits(scaled);
    p.opt_read_hit_pct = RhcPct(static_cast<double>(opt_hits),
                                static_cast<double>(stream.accesses()));
    // OPT bounds every policy; a sampled LRU estimate (interpolated,
    // adjusted) may still come out above the sample's OPT at a step.
    if (!exact) {
      p.opt_read_hit_pct = std::max(p.opt_read_hit_pct, p.lru_read_hit_pct);
    }
    c.points.push_back(p);
  }
  return c;
}

const std::vector<std::string>& MrcCsvColumns() {
  static const std::vector<std::string> kColumns = {
      "workload",         "state",
      "block_bytes",      "cache_bytes",
      "lru_read_hit_pct", "opt_read_hit_pct",
      "at_stack",         "modes",
      "sample_rate"};
  return kColumns;
}

CsvTable ReadHitCurvesTable(const std::vector<ReadHitCurve>& curves) {
  CsvTable table(MrcCsvColumns(), kMrcCsvSchemaVersion);
  for (const ReadHitCurve& c : curves) {
    for (const ReadHitPoint& p : c.points) {
      std::string modes;
      for (const std::string& m : p.modes)
        modes += (modes.empty() ? "" : ";") + m;
      table.AddRow({c.workload, c.warm ? "warm" : "cold",
                    CsvNumber(uint64_t{c.block_bytes}),
                    CsvNumber(p.cache_bytes), CsvNumber(p.lru_read_hit_pct, 3),
                    CsvNumber(p.opt_read_hit_pct, 3), p.at_stack ? "1" : "0",
                    modes, CsvNumber(c.rate, 6)});
    }
  }
  return table;
}

std::vector<ReadHitCurve> ParseReadHitCurves(const CsvDocument& doc) {
  doc.Require({"schema_version"},
              "use the mrc.csv `tierbench compare` wrote, unchanged");
  doc.Require(MrcCsvColumns(),
              "use the mrc.csv `tierbench compare` wrote, unchanged");
  std::vector<ReadHitCurve> curves;
  for (size_t r = 0; r < doc.row_count(); ++r) {
    if (doc.Get(r, "schema_version") != std::to_string(kMrcCsvSchemaVersion)) {
      RhcBad(doc, r,
             "schema_version '" + doc.Get(r, "schema_version") + "' is not " +
                 std::to_string(kMrcCsvSchemaVersion));
    }
    const std::string& state = doc.Get(r, "state");
    if (state != "cold" && state != "warm") {
      RhcBad(doc, r, "state '" + state + "' is neither cold nor warm");
    }
    const std::string& at = doc.Get(r, "at_stack");
    if (at != "0" && at != "1") {
      RhcBad(doc, r, "at_stack '" + at + "' is neither 0 nor 1");
    }
    const double block = RhcNumber(doc, r, "block_bytes");
    if (block < 1 || block > 4294967295.0) {
      RhcBad(doc, r,
             "block_bytes '" + doc.Get(r, "block_bytes") +
                 "' is not a block size");
    }
    const std::string& workload = doc.Get(r, "workload");
    const bool warm = state == "warm";
    const auto block_bytes = static_cast<uint32_t>(block);
    if (curves.empty() || curves.back().workload != workload ||
        curves.back().warm != warm ||
        curves.back().block_bytes != block_bytes) {
      curves.emplace_back();
      curves.back().workload = workload;
      curves.back().warm = warm;
      curves.back().block_bytes = block_bytes;
      curves.back().rate = RhcNumber(doc, r, "sample_rate");
    }
    ReadHitPoint p;
    p.cache_bytes = static_cast<uint64_t>(RhcNumber(doc, r, "cache_bytes"));
    p.lru_read_hit_pct = RhcNumber(doc, r, "lru_read_hit_pct");
    p.opt_read_hit_pct = RhcNumber(doc, r, "opt_read_hit_pct");
    p.at_stack = at == "1";
    if (!doc.Get(r, "modes").empty()) {
      p.modes = SplitTrimmed(doc.Get(r, "modes"), ';');
    }
    curves.back().points.push_back(std::move(p));
  }
  return curves;
}

}  // namespace tierbench
