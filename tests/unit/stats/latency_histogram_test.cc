// LatencyHistogram: bucket layout, percentiles against exact sorted values
// for several distributions, merge, fio distribution buckets, edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "stats/latency_histogram.h"

namespace tierbench {
namespace {

constexpr uint64_t kTracked = uint64_t{1} << LatencyHistogram::kMaxPower;

TEST(LatencyHistogramTest, BucketMidpoints) {
  // value -> reported value (the midpoint of its bucket), from fio's
  // plat_val_to_idx / plat_idx_to_val.
  struct {
    uint64_t value;
    uint64_t want;
  } cases[] = {
      {0, 0},       {1, 1},
      {64, 64},     {127, 127},
      {128, 129},   {129, 129},
      {130, 131},   {255, 255},
      {256, 258},   {259, 258},
      {260, 262},   {1000, 1004},
      {1007, 1004}, {1u << 20, (1u << 20) + (1u << 13)},
  };
  for (const auto& c : cases) {
    LatencyHistogram h;
    h.Add(c.value);
    h.Add(kTracked);  // A larger maximum, so the midpoint is not clamped.
    EXPECT_EQ(h.Percentile(50), c.want) << c.value;
    EXPECT_EQ(h.max(), kTracked);
  }
}

TEST(LatencyHistogramTest, PercentileNeverExceedsTheMaximum) {
  // A lone sample below its bucket's midpoint: the percentile is clamped to
  // the exact maximum (pgbench's "p99 = 8.159 ms ... max = 8.146 ms").
  const uint64_t values[] = {128, 256, 1000, 1u << 20, 8146000};
  for (uint64_t v : values) {
    LatencyHistogram h;
    h.Add(v);
    EXPECT_EQ(h.Percentile(99), v) << v;
    EXPECT_EQ(h.Percentile(100), v) << v;
  }
}

TEST(LatencyHistogramTest, PercentileRank) {
  struct {
    double p;
    uint64_t count;
    uint64_t want;
  } cases[] = {
      {0, 10, 1},           {50, 10, 5},
      {50, 11, 6},          {100, 10, 10},
      {99, 1, 1},           {1, 1000, 10},
      {99.99, 10000, 9999}, {99.9, 1000, 999},
      {99.95, 10000, 9995}, {0, 0, 0},
      {150, 10, 10},        {-5, 10, 1},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(LatencyHistogram::PercentileRank(c.p, c.count), c.want)
        << "p=" << c.p << " count=" << c.count;
  }
}

// Draws `n` samples in [0, 2^34) from `draw` with a fixed seed.
std::vector<uint64_t> Samples(
    size_t n, const std::function<double(std::mt19937_64&)>& draw) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> out;
  out.reserve(n);
  while (out.size() < n) {
    const double v = draw(rng);
    if (v >= 0 && v < static_cast<double>(kTracked)) {
      out.push_back(static_cast<uint64_t>(v));
    }
  }
  return out;
}

TEST(LatencyHistogramTest, PercentilesWithinStatedError) {
  using Rng = std::mt19937_64;
  struct Case {
    const char* name;
    std::function<double(Rng&)> draw;
  } cases[] = {
      {"uniform_ns",
       [](Rng& r) { return std::uniform_real_distribution<>(0, 1000)(r); }},
      {"uniform_us_to_ms",
       [](Rng& r) { return std::uniform_real_distribution<>(1e3, 1e7)(r); }},
      {"exponential_100us",
       [](Rng& r) { return std::exponential_distribution<>(1 / 1e5)(r); }},
      {"exponential_50ms",
       [](Rng& r) { return std::exponential_distribution<>(1 / 5e7)(r); }},
      {"bimodal_ssd_hdd",
       [](Rng& r) {
         // 90 % SSD-like hits near 80 us, 10 % HDD-like misses near 8 ms.
         const bool hit = std::bernoulli_distribution(0.9)(r);
         return hit ? std::normal_distribution<>(8e4, 1e4)(r)
                    : std::normal_distribution<>(8e6, 2e6)(r);
       }},
      {"log_uniform_ns_to_s",
       [](Rng& r) {
         return std::pow(10.0, std::uniform_real_distribution<>(1, 10.2)(r));
       }},
  };
  std::vector<double> ps = LatencyHistogram::DefaultPercentiles();
  ps.insert(ps.end(), {0, 25, 75, 100});
  for (const auto& c : cases) {
    const std::vector<uint64_t> samples = Samples(20011, c.draw);
    LatencyHistogram h;
    for (uint64_t v : samples) h.Add(v);
    std::vector<uint64_t> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(h.count(), sorted.size()) << c.name;
    EXPECT_EQ(h.max(), sorted.back()) << c.name;
    for (double p : ps) {
      const uint64_t rank = LatencyHistogram::PercentileRank(p, sorted.size());
      const double exact = static_cast<double>(sorted[rank - 1]);
      const double got = static_cast<double>(h.Percentile(p));
      EXPECT_LE(std::fabs(got - exact),
                exact * LatencyHistogram::kRelativeErrorBound)
          << c.name << " p" << p << ": histogram " << got << " exact " << exact;
    }
  }
}

TEST(LatencyHistogramTest, MergeEqualsAddingAllSamples) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<> exp_dist(1 / 2e5);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 5000; ++i) {
    const auto v = static_cast<uint64_t>(exp_dist(rng));
    (i % 3 == 0 ? a : b).Add(v);
    all.Add(v);
  }
  all.Add(kTracked * 4);  // beyond the tracked range
  b.Add(kTracked * 4);
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.NonEmptyBuckets(), all.NonEmptyBuckets());
  for (double p : LatencyHistogram::DefaultPercentiles()) {
    EXPECT_EQ(a.Percentile(p), all.Percentile(p)) << p;
  }
  EXPECT_EQ(a.Distribution(), all.Distribution());
}

TEST(LatencyHistogramTest, Empty) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.Percentile(0), 0u);
  EXPECT_EQ(h.Percentile(99), 0u);
  EXPECT_TRUE(h.Distribution().empty());
  EXPECT_TRUE(h.NonEmptyBuckets().empty());
  LatencyHistogram other;
  other.Add(500);
  h.Merge(LatencyHistogram());
  EXPECT_EQ(h.count(), 0u);
  h.Merge(other);
  EXPECT_EQ(h.count(), 1u);
  EXPECT_EQ(h.max(), 500u);
}

TEST(LatencyHistogramTest, OneSampleIsEveryPercentile) {
  LatencyHistogram h;
  h.Add(123456);
  const uint64_t want = h.Percentile(50);
  EXPECT_LE(std::fabs(static_cast<double>(want) - 123456.0),
            123456.0 * LatencyHistogram::kRelativeErrorBound);
  for (double p : {0.0, 1.0, 99.99, 100.0}) EXPECT_EQ(h.Percentile(p), want);
  EXPECT_EQ(h.NonEmptyBuckets().size(), 1u);
}

TEST(LatencyHistogramTest, ValuesBeyondTrackedRangeGoToLastBucket) {
  LatencyHistogram h;
  h.Add(kTracked - 1);
  h.Add(kTracked);
  h.Add(uint64_t{1} << 40);
  EXPECT_EQ(h.count(), 3u);
  EXPECT_EQ(h.max(), uint64_t{1} << 40);  // max stays exact
  const auto buckets = h.NonEmptyBuckets();
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].second, 3u);
  // Midpoint of the last bucket [2^34 - 2^27, 2^34).
  EXPECT_EQ(h.Percentile(100), kTracked - (uint64_t{1} << 26));
  const auto dist = h.Distribution();
  ASSERT_EQ(dist.size(), 1u);
  EXPECT_EQ(dist[0].first, std::numeric_limits<uint64_t>::max());
  EXPECT_DOUBLE_EQ(dist[0].second, 1.0);
}

TEST(LatencyHistogramTest, DistributionUsesFioBuckets) {
  // One sample per row, placed well inside the fio bucket whose upper edge
  // (ns) is `edge`.
  struct {
    uint64_t value;
    uint64_t edge;
  } cases[] = {
      {0, 2},
      {1, 2},
      {3, 4},
      {99, 100},
      {999, 1000},
      {1500, 2000},
      {90'000, 100'000},
      {300'000, 500'000},
      {1'500'000, 2'000'000},
      {700'000'000, 750'000'000},
      {1'500'000'000, 2'000'000'000},
      {3'000'000'000, std::numeric_limits<uint64_t>::max()},
  };
  LatencyHistogram h;
  for (const auto& c : cases) h.Add(c.value);
  const auto dist = h.Distribution();
  ASSERT_EQ(dist.size(), std::size(cases) - 1);  // 0 and 1 share a bucket
  double total = 0;
  for (const auto& [edge, fraction] : dist) total += fraction;
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_EQ(dist[0].first, 2u);
  EXPECT_DOUBLE_EQ(dist[0].second, 2.0 / std::size(cases));
  for (size_t i = 1; i < dist.size(); ++i) {
    EXPECT_EQ(dist[i].first, cases[i + 1].edge) << cases[i + 1].value;
    EXPECT_DOUBLE_EQ(dist[i].second, 1.0 / std::size(cases));
  }
}

TEST(LatencyHistogramTest, DefaultPercentilesAreFios) {
  const std::vector<double> want = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                    80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  EXPECT_EQ(LatencyHistogram::DefaultPercentiles(), want);
}

}  // namespace
}  // namespace tierbench
