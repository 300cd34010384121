// TimeSeries: per-second bucketing, merge, and IOPS/bandwidth statistics
// over complete seconds only.
#include "stats/time_series.h"

#include <gtest/gtest.h>

#include "util/units.h"

namespace tierbench {
namespace {

TEST(TimeSeriesTest, BucketsBySecond) {
  TimeSeries ts;
  ts.Add(0, 4096);
  ts.Add(kNsPerSec - 1, 4096);
  ts.Add(kNsPerSec, 8192);
  ts.Add(3 * kNsPerSec + 5, 512);
  ASSERT_EQ(ts.points().size(), 4u);
  EXPECT_EQ(ts.points()[0].ios, 2u);
  EXPECT_EQ(ts.points()[0].bytes, 8192u);
  EXPECT_EQ(ts.points()[1].ios, 1u);
  EXPECT_EQ(ts.points()[2].ios, 0u);
  EXPECT_EQ(ts.points()[3].bytes, 512u);
}

TEST(TimeSeriesTest, StatsUseCompleteSecondsOnly) {
  TimeSeries ts;
  for (int i = 0; i < 10; ++i) ts.Add(kNsPerSec / 2, 1000);  // second 0
  for (int i = 0; i < 30; ++i) ts.Add(kNsPerSec + 1, 1000);  // second 1
  for (int i = 0; i < 99; ++i) ts.Add(3 * kNsPerSec, 1000);  // second 3
  struct {
    uint64_t runtime_ns;
    uint64_t samples;
    double min, max, mean;
  } cases[] = {
      {kNsPerSec / 2, 0, 0, 0, 0},           // no complete second
      {kNsPerSec, 1, 10, 10, 10},            //
      {2 * kNsPerSec + 900, 2, 10, 30, 20},  // partial third second dropped
      {4 * kNsPerSec, 4, 0, 99, 34.75},      // idle second 2 counts as 0
      {6 * kNsPerSec, 6, 0, 99, 139 / 6.0},  // beyond the last point: zeros
  };
  for (const auto& c : cases) {
    const RunningStat iops = ts.IopsStat(c.runtime_ns);
    const RunningStat bw = ts.BandwidthStat(c.runtime_ns);
    EXPECT_EQ(iops.count(), c.samples) << c.runtime_ns;
    EXPECT_DOUBLE_EQ(iops.min(), c.min) << c.runtime_ns;
    EXPECT_DOUBLE_EQ(iops.max(), c.max) << c.runtime_ns;
    EXPECT_DOUBLE_EQ(iops.mean(), c.mean) << c.runtime_ns;
    EXPECT_EQ(bw.count(), c.samples);
    EXPECT_DOUBLE_EQ(bw.mean(), c.mean * 1000) << c.runtime_ns;
  }
}

TEST(TimeSeriesTest, MergeSumsElementWise) {
  TimeSeries a, b;
  a.Add(0, 10);
  b.Add(0, 5);
  b.Add(2 * kNsPerSec, 7);
  a.Merge(b);
  ASSERT_EQ(a.points().size(), 3u);
  EXPECT_EQ(a.points()[0].ios, 2u);
  EXPECT_EQ(a.points()[0].bytes, 15u);
  EXPECT_EQ(a.points()[1].ios, 0u);
  EXPECT_EQ(a.points()[2].bytes, 7u);
  TimeSeries empty;
  b.Merge(empty);
  EXPECT_EQ(b.points().size(), 3u);
}

}  // namespace
}  // namespace tierbench

namespace tierbench {
namespace {

TEST(TimeSeriesLatency, EachSecondKeepsItsOwnP99WithinABucket) {
  TimeSeries s;
  // Second 0: 99 IOs at 100 us and one at 50 ms; second 1: all at 20 ms.
  for (int i = 0; i < 99; ++i) s.Add(1000, 4096, 100000);
  s.Add(2000, 4096, 50000000);
  for (int i = 0; i < 100; ++i) s.Add(1000000000 + i, 4096, 20000000);
  // An IO without a latency counts as an IO only.
  s.Add(1500000000, 4096);
  ASSERT_EQ(s.points().size(), 2u);
  EXPECT_EQ(s.points()[1].ios, 101u);
  const uint64_t p99_0 = s.points()[0].LatencyPercentileNs(99);
  EXPECT_GE(p99_0, 100000u);
  EXPECT_LE(p99_0, 119000u);  // the bucket's upper edge: < 19 % above
  EXPECT_GE(s.points()[0].LatencyPercentileNs(100), 50000000u);
  const uint64_t p99_1 = s.points()[1].LatencyPercentileNs(99);
  EXPECT_GE(p99_1, 20000000u);
  EXPECT_LE(p99_1, 23800000u);
  // Merged series add their histograms.
  TimeSeries other;
  for (int i = 0; i < 300; ++i) other.Add(5000, 4096, 60000000);
  s.Merge(other);
  EXPECT_GE(s.points()[0].LatencyPercentileNs(50), 60000000u);
  TimeSeries none;
  none.Add(0, 4096);
  EXPECT_EQ(none.points()[0].LatencyPercentileNs(99), 0u);
}

}  // namespace
}  // namespace tierbench
