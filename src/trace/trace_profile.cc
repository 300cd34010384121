// The profile of a block IO trace (trace/trace_profile.h).
#include "trace/trace_profile.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "trace/belady.h"
#include "trace/block_stream.h"
#include "trace/stack_distance.h"
#include "util/units.h"

namespace tierbench {
namespace {

// The log2 bucket of a stack distance: 0 -> 0, [2^(j-1), 2^j) -> j.
size_t TraceReuseBucketOf(uint64_t distance) {
  return distance == 0 ? 0 : static_cast<size_t>(std::bit_width(distance));
}

// "1,234,567".
std::string TraceGrouped(uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A (scaled) count, rounded.
uint64_t TraceCount(double v) {
  return v > 0 ? static_cast<uint64_t>(std::llround(v)) : 0;
}

std::string TracePercent(double part, double whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole > 0 ? 100 * part / whole : 0);
  return buf;
}

std::string TraceRatio(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

void TraceRequestStats(const IoLog& log, TraceProfile* p) {
  uint64_t prev_end[kNumDirs] = {0, 0};
  uint32_t prev_file[kNumDirs] = {0, 0};
  bool have_prev[kNumDirs] = {false, false};
  std::map<uint64_t, uint64_t> sizes;
  uint64_t first_us = std::numeric_limits<uint64_t>::max(), last_us = 0;
  for (const IoLogEntry& e : log.entries) {
    if (e.action == IoLogAction::kSkipped || e.action == IoLogAction::kSync ||
        e.action == IoLogAction::kDatasync) {
      ++p->other_entries;
    }
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    const int d = e.action == IoLogAction::kRead ? 0 : 1;
    ++p->requests[d];
    p->bytes[d] += e.length;
    if (have_prev[d] && prev_file[d] == e.file && prev_end[d] == e.offset) {
      ++p->sequential[d];
    }
    have_prev[d] = true;
    prev_file[d] = e.file;
    prev_end[d] = e.offset + e.length;
    ++sizes[std::bit_ceil(static_cast<uint64_t>(e.length))];
    first_us = std::min(first_us, e.time_us);
    last_us = std::max(last_us, e.time_us);
  }
  for (const auto& [max_bytes, n] : sizes) p->sizes.push_back({max_bytes, n});
  if (log.version == 3 && last_us >= first_us) {
    p->duration_s = static_cast<double>(last_us - first_us) / 1e6;
  }
}

void TraceReuseHistogram(const StackDistanceHistogram& h, TraceProfile* p) {
  const double weight = 1 / h.rate;
  p->cold_accesses = static_cast<double>(h.cold) * weight;
  std::vector<double> buckets;
  auto add = [&](uint64_t scaled, double n) {
    const size_t b = TraceReuseBucketOf(scaled);
    if (b >= buckets.size()) buckets.resize(b + 1, 0);
    buckets[b] += n;
  };
  for (size_t d = 0; d < h.counts.size(); ++d) {
    if (h.counts[d] == 0) continue;
    add(static_cast<uint64_t>(static_cast<double>(d) * weight),
        static_cast<double>(h.counts[d]) * weight);
  }
  if (h.adjustment != 0) add(0, h.adjustment * weight);
  for (size_t b = 0; b < buckets.size(); ++b) {
    const uint64_t first = b == 0 ? 0 : uint64_t{1} << (b - 1);
    const uint64_t last = b == 0 ? 0 : (uint64_t{1} << b) - 1;
    p->reuse.push_back({first, last, std::max(0.0, buckets[b])});
  }
}

// What the text says after a curve row: the footprint, or a size below
// the sample's resolution.
const char* TraceRowNote(const TraceProfile& p, const TraceMrcPoint& point) {
  if (point.cache_bytes == p.footprint_bytes()) return "  (footprint)";
  if (point.cache_bytes / p.block_size < ShardsSmallestCache(p.rate)) {
    return "  (below 100/R blocks: rough)";
  }
  return "";
}

}  // namespace

TraceProfile ProfileTrace(const IoLog& log, const TraceStatsOptions& options) {
  TraceProfile p;
  p.path = log.path;
  p.version = log.version;
  p.block_size = options.block_size;
  TraceRequestStats(log, &p);

  BlockStream stream = BuildBlockStream(log, options.block_size);
  p.accesses = stream.accesses();
  p.distinct_blocks = stream.distinct();
  const bool sample =
      options.sample_rate > 0 || stream.accesses() > options.exact_limit;
  uint64_t threshold = kShardsModulus;
  if (sample) {
    threshold = ShardsThreshold(
        options.sample_rate > 0 ? options.sample_rate
                                : static_cast<double>(options.exact_limit) /
                                      static_cast<double>(stream.accesses()));
  }
  if (threshold < kShardsModulus) {
    stream = SampleBlocks(stream, threshold);
    p.rate =
        static_cast<double>(threshold) / static_cast<double>(kShardsModulus);
  }
  p.sampled_accesses = stream.accesses();
  const MissRatioCurve mrc(
      p.exact() ? ExactStackDistances(stream.ids, stream.distinct())
                : ShardsStackDistances(stream.ids, stream.distinct(), p.rate,
                                       p.accesses));
  TraceReuseHistogram(mrc.histogram(), &p);

  // The grid, the footprint and the requested sizes, merged by size.
  std::map<uint64_t, TraceMrcPoint> points;
  const uint64_t bs = options.block_size;
  for (uint64_t blocks : TraceMrcGrid(p.distinct_blocks, p.rate)) {
    points[blocks * bs].cache_bytes = blocks * bs;
  }
  if (p.distinct_blocks > 0) {
    points[p.footprint_bytes()].cache_bytes = p.footprint_bytes();
  }
  for (uint64_t bytes : options.cache_sizes) {
    points[bytes].cache_bytes = bytes;
    points[bytes].requested = true;
  }
  std::optional<BeladyOpt> opt;
  if (!options.cache_sizes.empty()) opt.emplace(stream.ids, stream.distinct());
  for (auto& [bytes, point] : points) {
    const uint64_t blocks = bytes / bs;
    point.lru_hit_ratio = mrc.HitRatio(blocks);
    if (!point.requested) continue;
    const uint64_t scaled =
        p.exact() ? blocks
                  : static_cast<uint64_t>(
                        std::llround(static_cast<double>(blocks) * p.rate));
    point.opt_hit_ratio = p.sampled_accesses == 0
                              ? 0.0
                              : static_cast<double>(opt->Hits(scaled)) /
                                    static_cast<double>(p.sampled_accesses);
  }
  for (const auto& [bytes, point] : points) p.curve.push_back(point);
  return p;
}

std::vector<uint64_t> TraceMrcGrid(uint64_t distinct_blocks, double rate) {
  std::vector<uint64_t> grid;
  const uint64_t smallest = ShardsSmallestCache(rate);
  for (int k = 0;; ++k) {
    const uint64_t blocks =
        static_cast<uint64_t>(std::llround(std::exp2(k / 4.0)));
    if (blocks >= distinct_blocks) break;
    if (blocks < smallest || (!grid.empty() && grid.back() == blocks)) continue;
    grid.push_back(blocks);
  }
  return grid;
}

std::string FormatTraceProfile(const TraceProfile& p) {
  std::ostringstream out;
  const uint64_t total = p.requests[0] + p.requests[1];
  out << "trace-stats " << p.path << ": ";
  if (p.format.empty()) {
    out << "fio iolog v" << p.version;
  } else {
    out << p.format;
  }
  out << ", " << TraceGrouped(total) << " requests";
  if (p.other_entries > 0) {
    out << " (" << TraceGrouped(p.other_entries)
        << (p.format.empty() ? " sync/datasync/trim entries not counted)"
                             : " flush/discard/empty requests not counted)");
  }
  if (p.duration_s) {
    out << " over "
        << FormatDuration(
               static_cast<uint64_t>(std::llround(*p.duration_s * 1e9)));
  }
  out << "\n";
  out << "  footprint    " << FormatBytes(p.footprint_bytes()) << " ("
      << TraceGrouped(p.distinct_blocks) << " distinct blocks of "
      << FormatBytes(p.block_size) << "; " << TraceGrouped(p.accesses)
      << " block accesses)\n";
  out << "  mix          reads " << TraceGrouped(p.requests[0]) << " ("
      << TracePercent(static_cast<double>(p.requests[0]),
                      static_cast<double>(total))
      << ", " << FormatBytes(p.bytes[0]) << ")  writes "
      << TraceGrouped(p.requests[1]) << " ("
      << TracePercent(static_cast<double>(p.requests[1]),
                      static_cast<double>(total))
      << ", " << FormatBytes(p.bytes[1]) << ")\n";
  out << "  sequential   reads "
      << TracePercent(static_cast<double>(p.sequential[0]),
                      static_cast<double>(p.requests[0]))
      << "  writes "
      << TracePercent(static_cast<double>(p.sequential[1]),
                      static_cast<double>(p.requests[1]))
      << "  all "
      << TracePercent(static_cast<double>(p.sequential[0] + p.sequential[1]),
                      static_cast<double>(total))
      << " (starts where the previous request of its direction ended)\n";
  out << "  sizes       ";
  size_t width = 15;
  for (const TraceSizeBucket& b : p.sizes) {
    const std::string item = " " + FormatBytes(b.max_bytes) + " " +
                             TracePercent(static_cast<double>(b.requests),
                                          static_cast<double>(total));
    if (width + item.size() > 96) {
      out << "\n             ";
      width = 15;
    }
    out << item;
    width += item.size();
  }
  out << "  (log2 buckets: 8KiB = (4KiB, 8KiB])\n";

  char line[160];
  if (p.exact()) {
    out << "stack distances (blocks; exact):\n";
  } else {
    std::snprintf(line, sizeof line,
                  "stack distances (blocks; SHARDS_adj at R = %.6g: %s of %s "
                  "block accesses sampled, scaled by 1/R):\n",
                  p.rate, TraceGrouped(p.sampled_accesses).c_str(),
                  TraceGrouped(p.accesses).c_str());
    out << line;
  }
  const double accesses = static_cast<double>(p.accesses);
  std::snprintf(line, sizeof line, "  %-24s %14s %7s\n", "cold (first access)",
                TraceGrouped(TraceCount(p.cold_accesses)).c_str(),
                TracePercent(p.cold_accesses, accesses).c_str());
  out << line;
  for (const TraceReuseBucket& b : p.reuse) {
    const std::string range =
        b.first == b.last ? TraceGrouped(b.first)
                          : TraceGrouped(b.first) + "-" + TraceGrouped(b.last);
    std::snprintf(line, sizeof line, "  %-24s %14s %7s\n", range.c_str(),
                  TraceGrouped(TraceCount(b.accesses)).c_str(),
                  TracePercent(b.accesses, accesses).c_str());
    out << line;
  }

  // The curve at 1/16 .. 1 of the footprint and at the requested sizes.
  std::vector<const TraceMrcPoint*> rows;
  const uint64_t footprint_blocks = p.distinct_blocks;
  for (const TraceMrcPoint& point : p.curve) {
    bool show = point.requested;
    for (uint64_t div : {16, 8, 4, 2, 1}) {
      // The grid point nearest below footprint / div.
      const uint64_t want = footprint_blocks / div * p.block_size;
      show = show ||
             (point.cache_bytes <= want &&
              (&point == &p.curve.back() || (&point + 1)->cache_bytes > want));
    }
    if (show) rows.push_back(&point);
  }
  out << (p.exact() ? "LRU (exact)" : "LRU (SHARDS_adj)")
      << " and OPT (Belady MIN"
      << (p.exact() ? "" : ", on the sample with the cache scaled by R")
      << "), per block access:\n";
  std::snprintf(line, sizeof line, "  %-12s %9s %9s %9s\n", "cache", "LRU miss",
                "LRU hit", "OPT hit");
  out << line;
  for (const TraceMrcPoint* point : rows) {
    std::snprintf(
        line, sizeof line, "  %-12s %9s %9s %9s%s\n",
        FormatBytes(point->cache_bytes).c_str(),
        TraceRatio(1 - point->lru_hit_ratio).c_str(),
        TraceRatio(point->lru_hit_ratio).c_str(),
        point->opt_hit_ratio ? TraceRatio(*point->opt_hit_ratio).c_str() : "-",
        TraceRowNote(p, *point));
    out << line;
  }
  return out.str();
}

CsvTable TraceMrcTable(const TraceProfile& p) {
  CsvTable table(
      {"cache_bytes", "lru_miss_ratio", "lru_hit_ratio", "opt_hit_ratio"},
      kTraceMrcSchemaVersion);
  for (const TraceMrcPoint& point : p.curve) {
    table.AddRow({CsvNumber(point.cache_bytes),
                  CsvNumber(1 - point.lru_hit_ratio, 6),
                  CsvNumber(point.lru_hit_ratio, 6),
                  point.opt_hit_ratio ? CsvNumber(*point.opt_hit_ratio, 6)
                                      : std::string()});
  }
  return table;
}

}  // namespace tierbench
