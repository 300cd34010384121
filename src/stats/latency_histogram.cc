#include "stats/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "util/units.h"

namespace tierbench {
namespace {

// Bucket layout (fio stat.h). Index i < 128 holds the value i exactly. A
// value with most significant bit m >= 7 drops its e = m - kBits low bits
// ("error bits"): its group starts at index (e + 1) * 64 and its offset in
// the group is the next 6 bits below the MSB. Groups 2..28 (e = 1..27)
// cover [2^7, 2^34), 64 buckets each.
constexpr uint64_t kBucketsPerGroup = uint64_t{1} << LatencyHistogram::kBits;
constexpr size_t kNumGroups =
    LatencyHistogram::kMaxPower - LatencyHistogram::kBits + 1;  // 29, as fio
constexpr size_t kNumBuckets = kNumGroups * kBucketsPerGroup;   // 1856
constexpr uint64_t kExactLimit = kBucketsPerGroup * 2;          // 128 ns

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kNumBuckets, 0) {}

size_t LatencyHistogram::BucketIndex(uint64_t ns) {
  if (ns < kExactLimit) return static_cast<size_t>(ns);
  const int msb = 63 - std::countl_zero(ns);
  const int error_bits = msb - kBits;
  const uint64_t base = static_cast<uint64_t>(error_bits + 1) << kBits;
  const uint64_t offset = (ns >> error_bits) & (kBucketsPerGroup - 1);
  return static_cast<size_t>(
      std::min<uint64_t>(base + offset, kNumBuckets - 1));
}

uint64_t LatencyHistogram::BucketMidpoint(size_t index) {
  if (index < kExactLimit) return index;
  const int error_bits = static_cast<int>(index >> kBits) - 1;
  const uint64_t base = uint64_t{1} << (error_bits + kBits);
  const uint64_t k = index % kBucketsPerGroup;
  // base + (k + 0.5) * 2^error_bits; error_bits >= 1, so this is exact.
  return base + (k << error_bits) + (uint64_t{1} << (error_bits - 1));
}

void LatencyHistogram::Add(uint64_t ns) {
  ++buckets_[BucketIndex(ns)];
  ++count_;
  max_ = std::max(max_, ns);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kNumBuckets; ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

uint64_t LatencyHistogram::PercentileRank(double p, uint64_t count) {
  if (count == 0) return 0;
  p = std::clamp(p, 0.0, 100.0);
  // p/100 * count in long double, then ceil with a tolerance far below one
  // rank so that decimal percentiles (99.99) do not round up a whole rank.
  const long double exact =
      static_cast<long double>(p) * static_cast<long double>(count) / 100.0L;
  const long double rank = std::ceil(exact - 1e-9L * std::max(1.0L, exact));
  return std::clamp<uint64_t>(static_cast<uint64_t>(std::max(0.0L, rank)), 1,
                              count);
}

uint64_t LatencyHistogram::Percentile(double p) const {
  const uint64_t rank = PercentileRank(p, count_);
  if (rank == 0) return 0;
  uint64_t seen = 0;
  for (size_t i = 0; i < kNumBuckets; ++i) {
    seen += buckets_[i];
    // The top bucket's midpoint may lie above the exact maximum; a
    // percentile never exceeds the largest sample (still within the bound).
    if (seen >= rank) return std::min(BucketMidpoint(i), max_);
  }
  return BucketMidpoint(kNumBuckets - 1);  // unreachable while count_ is exact
}

const std::vector<double>& LatencyHistogram::DefaultPercentiles() {
  static const std::vector<double> kList = {1,  5,    10,   20,    30,   40,
                                            50, 60,   70,   80,    90,   95,
                                            99, 99.5, 99.9, 99.95, 99.99};
  return kList;
}

std::vector<std::pair<uint64_t, double>> LatencyHistogram::Distribution()
    const {
  // fio's io_u_lat_n/u/m tables: a bucket holds [previous edge, edge), the
  // first of each unit starts at 0 of that unit's range.
  static const std::vector<uint64_t> kEdges = [] {
    const uint64_t steps[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
    std::vector<uint64_t> edges;
    for (uint64_t unit : {uint64_t{1}, kNsPerUs, kNsPerMs}) {
      for (uint64_t s : steps) edges.push_back(s * unit);
    }
    edges.push_back(2000 * kNsPerMs);
    edges.push_back(std::numeric_limits<uint64_t>::max());
    return edges;
  }();
  std::vector<std::pair<uint64_t, double>> out;
  if (count_ == 0) return out;
  std::vector<uint64_t> counts(kEdges.size(), 0);
  // A histogram bucket is attributed by its midpoint, so a bucket that
  // straddles an edge lands on one side: the same 1/128 relative error as
  // the percentiles. Below 128 ns buckets are exact.
  for (size_t i = 0; i < kNumBuckets; ++i) {
    if (buckets_[i] == 0) continue;
    const uint64_t v = BucketMidpoint(i);
    const size_t e = static_cast<size_t>(
        std::upper_bound(kEdges.begin(), kEdges.end() - 1, v) - kEdges.begin());
    counts[e] += buckets_[i];
  }
  for (size_t e = 0; e < kEdges.size(); ++e) {
    if (counts[e] == 0) continue;
    out.emplace_back(kEdges[e], static_cast<double>(counts[e]) /
                                    static_cast<double>(count_));
  }
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> LatencyHistogram::NonEmptyBuckets()
    const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < kNumBuckets; ++i) {
    if (buckets_[i] != 0) out.emplace_back(BucketMidpoint(i), buckets_[i]);
  }
  return out;
}

}  // namespace tierbench
