// LatencyHistogram: a log-linear histogram of latencies in nanoseconds, the
// scheme of fio's stat.h (FIO_IO_U_PLAT_BITS = 6).
//
// Values below 2^(kBits+1) = 128 ns are stored exactly. Above that, each
// power-of-two range [2^k, 2^(k+1)) is split into 2^kBits = 64 equal buckets,
// so a bucket is 1/64 of its range's lower bound wide. Percentile() returns
// the bucket's midpoint, so the relative error of any reported value is at
// most kRelativeErrorBound = 1/128 (< 0.8 %). Values up to 2^kMaxPower ns
// (~ 17 s at kMaxPower 34, as fio) are tracked; larger values fall into the
// last bucket and are reported as its midpoint (max() stays exact).
//
// Mergeable: per-thread histograms are merged at the end. Not thread-safe.
#ifndef TIERBENCH_STATS_LATENCY_HISTOGRAM_H_
#define TIERBENCH_STATS_LATENCY_HISTOGRAM_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tierbench {

class LatencyHistogram {
 public:
  static constexpr int kBits = 6;
  static constexpr int kMaxPower = 34;
  static constexpr double kRelativeErrorBound = 1.0 / 128.0;

  LatencyHistogram();

  void Add(uint64_t ns);
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  uint64_t max() const { return max_; }

  // The value at percentile `p` in [0, 100]: the midpoint of the bucket that
  // holds the ceil(p/100 * count)-th smallest sample (p = 0: the first). 0
  // when empty.
  uint64_t Percentile(double p) const;

  // fio's default clat percentile list: 1 5 10 20 30 40 50 60 70 80 90 95 99
  // 99.5 99.9 99.95 99.99.
  static const std::vector<double>& DefaultPercentiles();

  // The 1-based rank of the sample at percentile `p` among `count` samples:
  // ceil(p/100 * count) clamped to [1, count], immune to the rounding of
  // p/100 (99.99% of 10000 is rank 9999). 0 when count is 0.
  static uint64_t PercentileRank(double p, uint64_t count);

  // Fraction of samples (0..1) in each fio "lat (nsec/usec/msec)" bucket.
  // Bucket upper edges in ns: 2,4,10,20,50,100,250,500,750,1000 ns; then the
  // same edges in us (2us..1000us); then ms 2,4,10,20,50,100,250,500,750,
  // 1000,2000 and ">=2000ms". Returns (upper_edge_ns, fraction) pairs for the
  // non-empty buckets; upper_edge_ns = UINT64_MAX for the last.
  std::vector<std::pair<uint64_t, double>> Distribution() const;

  // Raw bucket access for JSON dumps: (bucket midpoint ns, count) of the
  // non-empty buckets, ascending.
  std::vector<std::pair<uint64_t, uint64_t>> NonEmptyBuckets() const;

 private:
  static size_t BucketIndex(uint64_t ns);
  static uint64_t BucketMidpoint(size_t index);

  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t max_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_STATS_LATENCY_HISTOGRAM_H_
