// RunningStat: Welford results against a two-pass computation, and Chan's
// merge against adding every sample to one instance.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "stats/running_stat.h"

namespace tierbench {
namespace {

struct TwoPass {
  double mean = 0;
  double stddev = 0;
};

TwoPass Exact(const std::vector<double>& v) {
  TwoPass r;
  r.mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  double ss = 0;
  for (double x : v) ss += (x - r.mean) * (x - r.mean);
  r.stddev = v.size() > 1 ? std::sqrt(ss / (v.size() - 1)) : 0.0;
  return r;
}

const std::vector<std::vector<double>>& Cases() {
  static const std::vector<std::vector<double>> kCases = {
      {5},
      {1, 2},
      {2, 4, 4, 4, 5, 5, 7, 9},
      {-3.5, 0, 3.5, 100, -100},
      // Large offset, small spread: naive sum-of-squares loses all digits.
      {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16},
      {0.001, 1e6, 42, 42, 42, 7e5, 3},
  };
  return kCases;
}

TEST(RunningStatTest, MatchesTwoPass) {
  for (const auto& v : Cases()) {
    RunningStat s;
    for (double x : v) s.Add(x);
    const TwoPass want = Exact(v);
    EXPECT_EQ(s.count(), v.size());
    EXPECT_DOUBLE_EQ(s.min(), *std::min_element(v.begin(), v.end()));
    EXPECT_DOUBLE_EQ(s.max(), *std::max_element(v.begin(), v.end()));
    EXPECT_NEAR(s.mean(), want.mean, 1e-9 * std::fabs(want.mean) + 1e-12);
    EXPECT_NEAR(s.stddev(), want.stddev, 1e-9 * want.stddev + 1e-12)
        << "first sample " << v[0];
  }
}

TEST(RunningStatTest, MergeEqualsAddingAll) {
  for (const auto& v : Cases()) {
    for (size_t split = 0; split <= v.size(); ++split) {
      RunningStat a, b, all;
      for (size_t i = 0; i < v.size(); ++i) {
        (i < split ? a : b).Add(v[i]);
        all.Add(v[i]);
      }
      a.Merge(b);
      EXPECT_EQ(a.count(), all.count());
      EXPECT_DOUBLE_EQ(a.min(), all.min());
      EXPECT_DOUBLE_EQ(a.max(), all.max());
      EXPECT_NEAR(a.mean(), all.mean(), 1e-9 * std::fabs(all.mean()) + 1e-12);
      EXPECT_NEAR(a.stddev(), all.stddev(), 1e-9 * all.stddev() + 1e-12)
          << "split " << split << " of " << v.size();
    }
  }
}

TEST(RunningStatTest, EmptyAndSingle) {
  RunningStat s;
  EXPECT_EQ(s.count(), 0u);
  EXPECT_EQ(s.min(), 0.0);
  EXPECT_EQ(s.max(), 0.0);
  EXPECT_EQ(s.mean(), 0.0);
  EXPECT_EQ(s.stddev(), 0.0);
  s.Add(-7);
  EXPECT_EQ(s.min(), -7.0);
  EXPECT_EQ(s.max(), -7.0);
  EXPECT_EQ(s.mean(), -7.0);
  EXPECT_EQ(s.stddev(), 0.0);
  RunningStat empty;
  empty.Merge(s);
  EXPECT_EQ(empty.count(), 1u);
  EXPECT_EQ(empty.mean(), -7.0);
}

}  // namespace
}  // namespace tierbench
