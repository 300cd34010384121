// Cross-repetition aggregates: known values, empty and single inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "stats/aggregate.h"

namespace tierbench {
namespace {

TEST(AggregateTest, KnownValues) {
  struct {
    std::vector<double> v;
    double mean, median, stddev, min, max, p90, iqr, spread_pct;
  } cases[] = {
      {{}, 0, 0, 0, 0, 0, 0, 0, 0},
      {{42}, 42, 42, 0, 42, 42, 42, 0, 0},
      {{3, 1, 2}, 2, 2, 1, 1, 3, 2.8, 1, 100},
      {{4, 1, 3, 2}, 2.5, 2.5, 1.2909944487358056, 1, 4, 3.7, 1.5, 120},
      {{90, 110, 100}, 100, 100, 10, 90, 110, 108, 10, 20},
      {{-1, 0, 1}, 0, 0, 1, -1, 1, 0.8, 1, 0},  // median 0: spread 0
  };
  for (const auto& c : cases) {
    const std::string label = "size " + std::to_string(c.v.size());
    EXPECT_DOUBLE_EQ(Mean(c.v), c.mean) << label;
    EXPECT_DOUBLE_EQ(Median(c.v), c.median) << label;
    EXPECT_NEAR(Stddev(c.v), c.stddev, 1e-12) << label;
    EXPECT_DOUBLE_EQ(Min(c.v), c.min) << label;
    EXPECT_DOUBLE_EQ(Max(c.v), c.max) << label;
    EXPECT_NEAR(Percentile(c.v, 90), c.p90, 1e-12) << label;
    EXPECT_NEAR(Iqr(c.v), c.iqr, 1e-12) << label;
    EXPECT_NEAR(RelativeSpreadPct(c.v), c.spread_pct, 1e-12) << label;
  }
}

TEST(AggregateTest, PercentileInterpolatesAndClamps) {
  const std::vector<double> v = {10, 20, 30, 40, 50};
  struct {
    double p, want;
  } cases[] = {{0, 10},  {100, 50}, {50, 30},  {25, 20},
               {10, 14}, {-5, 10},  {150, 50}, {62.5, 35}};
  for (const auto& c : cases) {
    EXPECT_NEAR(Percentile(v, c.p), c.want, 1e-12) << c.p;
  }
}

TEST(AggregateTest, StudentT95) {
  struct {
    size_t df;
    double want;
  } cases[] = {{0, 0},      {1, 12.706}, {2, 4.303},   {4, 2.776},
               {9, 2.262},  {30, 2.042}, {35, 2.042},  {40, 2.021},
               {59, 2.021}, {60, 2.000}, {500, 1.980}, {100000, 1.962}};
  for (const auto& c : cases)
    EXPECT_DOUBLE_EQ(StudentT95(c.df), c.want) << c.df;
  for (size_t df = 2; df < 2000; ++df) {
    EXPECT_LE(StudentT95(df), StudentT95(df - 1)) << df;
  }
}

TEST(AggregateTest, ConfidenceHalfWidth95) {
  EXPECT_EQ(ConfidenceHalfWidth95({}), 0.0);
  EXPECT_EQ(ConfidenceHalfWidth95({5}), 0.0);
  EXPECT_EQ(ConfidenceHalfWidth95({5, 5, 5}), 0.0);
  // n = 5, s = sqrt(2.5), t(4) = 2.776.
  EXPECT_NEAR(ConfidenceHalfWidth95({1, 2, 3, 4, 5}),
              2.776 * std::sqrt(2.5) / std::sqrt(5.0), 1e-12);
  // n = 2, s = sqrt(2), t(1) = 12.706.
  EXPECT_NEAR(ConfidenceHalfWidth95({1, 3}), 12.706, 1e-12);
}

}  // namespace
}  // namespace tierbench
