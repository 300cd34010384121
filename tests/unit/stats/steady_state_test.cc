// The steady-state criterion math (stats/steady_state.h) against values
// computed by hand from fio's formulas in steadystate.c.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/steady_state.h"

namespace tierbench {
namespace {

SteadyStateSpec Spec(SteadyStateMetric metric, bool slope, bool percent,
                     double limit, uint32_t seconds) {
  SteadyStateSpec s;
  s.metric = metric;
  s.slope = slope;
  s.percent = percent;
  s.limit = limit;
  s.dur_ns = seconds * SteadyStateSpec::kIntervalNs;
  return s;
}

TEST(SteadyStateTest, SlopeByHand) {
  // y = 10, 20, 30: sum_x = 3, sum_x2 = 5, sum_y = 60, sum_xy = 80;
  // (80 - 3 * 60 / 3) / (5 - 9 / 3) = 20 / 2 = 10.
  EXPECT_DOUBLE_EQ(SteadyStateWindow::Slope({10, 20, 30}), 10.0);
  // y = 100, 102, 98, 100: sum_x = 6, sum_x2 = 14, sum_y = 400,
  // sum_xy = 102 + 196 + 300 = 598; (598 - 600) / (14 - 9) = -0.4.
  EXPECT_DOUBLE_EQ(SteadyStateWindow::Slope({100, 102, 98, 100}), -0.4);
  EXPECT_DOUBLE_EQ(SteadyStateWindow::Slope({7, 7, 7, 7, 7}), 0.0);
  EXPECT_TRUE(std::isnan(SteadyStateWindow::Slope({5})));
}

TEST(SteadyStateTest, MaxDeviationByHand) {
  // mean 100; |98 - 100| = |102 - 100| = 2.
  EXPECT_DOUBLE_EQ(SteadyStateWindow::MaxDeviation({100, 102, 98, 100}), 2.0);
  // mean 2.5; |1 - 2.5| = 1.5.
  EXPECT_DOUBLE_EQ(SteadyStateWindow::MaxDeviation({1, 2, 3, 4}), 1.5);
  EXPECT_DOUBLE_EQ(SteadyStateWindow::MaxDeviation({}), 0.0);
}

TEST(SteadyStateTest, CriteriaAgainstLimits) {
  const std::vector<uint64_t> y = {100, 102, 98, 100};
  struct Case {
    bool slope;
    bool percent;
    double limit;
    double criterion;  // by hand
    bool attained;
  } cases[] = {
      // slope -0.4; as % of the mean 100: -0.4 %; |criterion| < limit.
      {true, true, 0.5, -0.4, true},
      {true, true, 0.4, -0.4, false},
      {true, false, 0.41, -0.4, true},
      // max deviation 2; 2 % of the mean; criterion < limit (strict).
      {false, false, 2.0, 2.0, false},
      {false, false, 2.5, 2.0, true},
      {false, true, 2.0, 2.0, false},
      {false, true, 2.1, 2.0, true},
  };
  for (const Case& c : cases) {
    SteadyStateWindow w(
        Spec(SteadyStateMetric::kIops, c.slope, c.percent, c.limit, 4));
    bool attained = false;
    for (uint64_t v : y) attained = w.Add(v, v * 4096);
    EXPECT_EQ(attained, c.attained) << c.slope << c.percent << c.limit;
    EXPECT_EQ(w.result().attained, c.attained);
    EXPECT_TRUE(w.result().evaluated);
    EXPECT_NEAR(w.result().criterion, c.criterion, 1e-12);
  }
}

TEST(SteadyStateTest, PercentSlopeDividesByTheIntegerMeanAsFio) {
  // y = 1, 2: slope 1, sum_y / n = 3 / 2 = 1 in fio's integer division,
  // so the criterion is 100 %, not 66.7 %.
  SteadyStateWindow w(Spec(SteadyStateMetric::kIops, true, true, 101, 2));
  w.Add(1, 0);
  EXPECT_TRUE(w.Add(2, 0));
  EXPECT_DOUBLE_EQ(w.result().criterion, 100.0);
}

TEST(SteadyStateTest, BandwidthUsesBytes) {
  // IOPS steady, bytes/s not: the bw criterion must look at the bytes.
  SteadyStateWindow w(Spec(SteadyStateMetric::kBw, false, true, 10, 3));
  w.Add(100, 100 * 4096);
  w.Add(100, 100 * 8192);
  EXPECT_FALSE(w.Add(100, 100 * 4096));
  // mean 5461.33 * 100, max deviation 2730.67 * 100: 50 %.
  EXPECT_NEAR(w.result().criterion, 50.0, 1e-9);
  EXPECT_EQ(w.result().BwMean(), (409600 + 819200 + 409600) / 3u);
  EXPECT_EQ(w.result().IopsMean(), 100u);
}

TEST(SteadyStateTest, RollingWindowKeepsTheLastSamples) {
  SteadyStateWindow w(Spec(SteadyStateMetric::kIops, false, false, 1, 3));
  EXPECT_FALSE(w.Add(1000, 0));
  EXPECT_FALSE(w.Add(10, 0));
  EXPECT_FALSE(w.result().evaluated);
  EXPECT_FALSE(w.Add(100, 0));  // {1000, 10, 100}: far from steady
  EXPECT_TRUE(w.result().evaluated);
  EXPECT_FALSE(w.Add(100, 0));  // {10, 100, 100}
  EXPECT_TRUE(w.Add(100, 0));   // {100, 100, 100}: deviation 0 < 1
  EXPECT_EQ(w.result().iops, (std::vector<uint64_t>{100, 100, 100}));
  EXPECT_DOUBLE_EQ(w.result().criterion, 0.0);
}

TEST(SteadyStateTest, ZeroMeanNeverAttainsAPercentLimit) {
  SteadyStateWindow w(Spec(SteadyStateMetric::kIops, false, true, 50, 2));
  w.Add(0, 0);
  EXPECT_FALSE(w.Add(0, 0));
  EXPECT_FALSE(w.result().attained);
}

TEST(SteadyStateTest, SpecHelpers) {
  SteadyStateSpec s = Spec(SteadyStateMetric::kIops, true, true, 0.01, 0);
  EXPECT_FALSE(s.enabled());
  EXPECT_EQ(s.Describe(), "iops_slope:0.010000%");
  s.dur_ns = 2500 * 1000 * 1000ull;  // 2.5 s: two whole intervals
  EXPECT_TRUE(s.enabled());
  EXPECT_EQ(s.intervals(), 2u);
  s.ramp_ns = 1500 * 1000 * 1000ull;  // first sample: second 2
  EXPECT_EQ(s.first_sample(), 2u);
  EXPECT_EQ(Spec(SteadyStateMetric::kBw, false, false, 1048576, 3).Describe(),
            "bw:1048576.000000");
}

}  // namespace
}  // namespace tierbench
