// Student t quantiles, the Welch-Satterthwaite degrees of freedom and the
// 95 % interval of a change on log values (stats/confidence.h). Every
// expected value was computed independently with SciPy 1.10.1 (Debian
// python3-scipy): scipy.stats.t.ppf / t.cdf, and for the intervals
//   lx, lb = np.log(x), np.log(b); qa, qb = lx.var(ddof=1)/nx,
//   lb.var(ddof=1)/nb; df = (qa+qb)**2/(qa**2/(nx-1)+qb**2/(nb-1));
//   t = stats.t.ppf(0.975, df); d = lx.mean()-lb.mean();
//   low, high = np.expm1(d -+ t*np.sqrt(qa+qb))*100
// (and scipy.stats.ttest_ind(lx, lb, equal_var=False) agrees on the side
// of 0: p < 0.05 exactly where the interval excludes 0).
#include <gtest/gtest.h>

#include <cmath>

#include "stats/confidence.h"

namespace tierbench {
namespace {

TEST(ConfidenceTest, StudentTQuantileMatchesScipy) {
  const struct {
    double p, df, want;
  } cases[] = {
      {0.975, 1, 12.7062047364},     {0.975, 2, 4.3026527299},
      {0.975, 4, 2.7764451052},      {0.975, 10, 2.2281388520},
      {0.975, 30, 2.0422724563},     {0.975, 2.5, 3.5746548420},
      {0.975, 3.7183, 2.8614012097}, {0.95, 5, 2.0150483727},
      {0.025, 3, -3.1824463053},     {0.995, 1.5, 17.8203105145},
      {0.975, 1000, 1.9623390808},   {0.975, 0.5, 164.5576735210},
  };
  for (const auto& c : cases) {
    EXPECT_NEAR(StudentTQuantile(c.p, c.df), c.want, 1e-8 * std::fabs(c.want))
        << "p " << c.p << " df " << c.df;
  }
  EXPECT_EQ(StudentTQuantile(0.5, 7), 0);
  EXPECT_TRUE(std::isnan(StudentTQuantile(1.0, 3)));
  EXPECT_TRUE(std::isnan(StudentTQuantile(0.975, 0)));
}

TEST(ConfidenceTest, StudentTCdfMatchesScipy) {
  const struct {
    double t, df, want;
  } cases[] = {{1.0, 3, 0.804498890522},
               {-2.0, 2.5, 0.078695747879},
               {4.303, 2, 0.975003737507},
               {0.5, 100, 0.690913217085}};
  for (const auto& c : cases) {
    EXPECT_NEAR(StudentTCdf(c.t, c.df), c.want, 1e-11) << c.t << " " << c.df;
  }
}

TEST(ConfidenceTest, WelchSatterthwaiteDf) {
  // Variances 4 (n 3) and 9 (n 5): (4/3 + 9/5)^2 / ((4/3)^2/2 + (9/5)^2/4).
  EXPECT_NEAR(WelchDf(4, 3, 9, 5), 5.778940483976455, 1e-12);
  // Equal variances and sizes: df = 2n - 2.
  EXPECT_NEAR(WelchDf(2.5, 3, 2.5, 3), 4, 1e-12);
  // One side without variance: the other side's n - 1.
  EXPECT_NEAR(WelchDf(0, 3, 7, 4), 3, 1e-12);
  EXPECT_EQ(WelchDf(0, 3, 0, 3), 4);
}

TEST(ConfidenceTest, LogChangeIntervalMatchesScipy) {
  const struct {
    std::vector<double> x, base;
    double df, t, est, low, high;
    bool significant;
  } cases[] = {
      // writeback vs the HDD on randwrite-4k in the report fixture.
      {{4388.4, 4255.1, 4431.7},
       {149.1, 147.3, 150.6},
       3.0175525312,
       3.1719994404,
       2824.7830436405,
       2699.2978685967,
       2955.8933896718,
       true},
      // writethrough vs the HDD on randread-4k: within noise.
      {{149.9, 152.3, 147.5},
       {150.2, 148.7, 151.9},
       3.4802007129,
       2.9478913977,
       -0.2487621265,
       -3.4608851875,
       3.0702371429,
       false},
      // Unequal sizes (4 and 3 repetitions); Welch p = 0.038.
      {{100, 110, 120, 130},
       {90, 95, 100},
       4.4337563297,
       2.6725350119,
       20.5888858525,
       1.5930623965,
       43.1365395247,
       true},
  };
  for (const auto& c : cases) {
    const auto ci = LogChangeInterval95(c.x, c.base);
    ASSERT_TRUE(ci.has_value());
    EXPECT_NEAR(ci->df, c.df, 1e-9);
    EXPECT_NEAR(ci->t, c.t, 1e-8);
    EXPECT_NEAR(ci->estimate_pct, c.est, 1e-7);
    EXPECT_NEAR(ci->low_pct, c.low, 1e-7);
    EXPECT_NEAR(ci->high_pct, c.high, 1e-7);
    EXPECT_EQ(ci->significant(), c.significant);
  }
}

TEST(ConfidenceTest, NoIntervalBelowThreeRepetitionsOrForNonPositiveValues) {
  EXPECT_FALSE(LogChangeInterval95({1, 2}, {1, 2, 3}).has_value());
  EXPECT_FALSE(LogChangeInterval95({1, 2, 3}, {5}).has_value());
  EXPECT_FALSE(LogChangeInterval95({0, 2, 3}, {1, 2, 3}).has_value());
  // No variance on either side: the interval is the point itself.
  const auto ci = LogChangeInterval95({200, 200, 200}, {100, 100, 100});
  ASSERT_TRUE(ci.has_value());
  EXPECT_NEAR(ci->low_pct, 100, 1e-9);
  EXPECT_NEAR(ci->high_pct, 100, 1e-9);
  EXPECT_TRUE(ci->significant());
}

TEST(ConfidenceTest, IntervalDecidesNoiseElseTheRanges) {
  EXPECT_EQ(DifferenceWithinNoise(true, true), false);
  EXPECT_EQ(DifferenceWithinNoise(false, false), true);
  EXPECT_EQ(DifferenceWithinNoise(std::nullopt, true), true);
  EXPECT_EQ(DifferenceWithinNoise(std::nullopt, std::nullopt), std::nullopt);
}

}  // namespace
}  // namespace tierbench
