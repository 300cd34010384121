// Tests of random_distribution= (fio's zipf, pareto, normal, zoned and
// zoned_abs): the parser's forms, defaults and refusals, exact first values
// for a fixed seed, rank-frequency shapes against the generators' own
// formulas, zone percentages, and IoPattern's use of them. Statistical
// checks use fixed seeds and tolerances of several standard deviations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "util/errors.h"
#include "workload/distribution_spec.h"
#include "workload/gauss_generator.h"
#include "workload/io_pattern.h"
#include "workload/job_file.h"
#include "workload/random_distribution.h"
#include "workload/zipf_generator.h"

namespace tierbench {
namespace {

constexpr uint64_t kDistKiB = 1024;
constexpr uint64_t kDistMiB = 1024 * kDistKiB;
constexpr uint64_t kGiB = 1024 * kDistMiB;

DistributionSpec Dist(const std::string& text) {
  DistributionSpec d;
  std::string why, fix;
  EXPECT_TRUE(ParseDistributionSpec(text, &d, &why, &fix))
      << text << ": " << why;
  return d;
}

// Binomial standard deviation of a share p estimated from n draws.
double Sigma(double p, double n) { return std::sqrt(p * (1 - p) / n); }

// Share of `total` taken by the `top` largest counts.
double TopShare(std::vector<uint64_t> counts, size_t top, uint64_t total) {
  std::sort(counts.begin(), counts.end(), std::greater<>());
  uint64_t sum = 0;
  for (size_t i = 0; i < top && i < counts.size(); ++i) sum += counts[i];
  return static_cast<double>(sum) / static_cast<double>(total);
}

TEST(DistributionSpecTest, FioFormsAndDefaults) {
  struct Case {
    const char* text;
    DistributionKind kind;
    double value;
    double center;
  } cases[] = {
      {"random", DistributionKind::kRandom, 0, -1},
      {"zipf", DistributionKind::kZipf, 1.1, -1},  // FIO_DEF_ZIPF
      {"zipf:1.2", DistributionKind::kZipf, 1.2, -1},
      {"zipf:0.8:0.25", DistributionKind::kZipf, 0.8, 0.25},
      {"pareto", DistributionKind::kPareto, 0.2, -1},  // FIO_DEF_PARETO
      {"pareto:0.9", DistributionKind::kPareto, 0.9, -1},
      {"normal", DistributionKind::kNormal, 0, -1},
      {"normal:5:0.3", DistributionKind::kNormal, 5, 0.3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const DistributionSpec d = Dist(c.text);
    EXPECT_EQ(d.kind, c.kind);
    EXPECT_EQ(d.value, c.value);
    EXPECT_EQ(d.center, c.center);
    EXPECT_EQ(d.text, c.text);
    EXPECT_TRUE(d.zones[0].empty());
  }
}

TEST(DistributionSpecTest, ZoneListsAsFioFillsThem) {
  using Z = std::vector<DistributionZone>;
  const DistributionSpec a = Dist("zoned:60/10:30/20:8/30:2/40");
  EXPECT_EQ(a.kind, DistributionKind::kZoned);
  const Z howto = {{60, 10}, {30, 20}, {8, 30}, {2, 40}};
  EXPECT_EQ(a.zones[0], howto);
  EXPECT_EQ(a.zones[1], howto);  // one list: both directions
  // A missing or 0 size shares what is left; above 100 is clamped.
  EXPECT_EQ(Dist("zoned:50/10:50").zones[0], (Z{{50, 10}, {50, 90}}));
  EXPECT_EQ(Dist("zoned:50/10:25/0:25").zones[0],
            (Z{{50, 10}, {25, 45}, {25, 45}}));
  EXPECT_EQ(Dist("zoned:100/150").zones[0], (Z{{100, 100}}));
  // Sizes below 100 in total leave the rest of the region untouched.
  EXPECT_EQ(Dist("zoned:70/5:30/5").zones[0], (Z{{70, 5}, {30, 5}}));
  const DistributionSpec abs = Dist("zoned_abs:60/20G:40/100G");
  EXPECT_EQ(abs.kind, DistributionKind::kZonedAbs);
  EXPECT_EQ(abs.zones[1], (Z{{60, 20 * kGiB}, {40, 100 * kGiB}}));
  // Per direction: reads,writes; a trim list is checked and ignored.
  const DistributionSpec rw = Dist("zoned:60/10:40/90,100/50,100/100");
  EXPECT_EQ(rw.zones[0], (Z{{60, 10}, {40, 90}}));
  EXPECT_EQ(rw.zones[1], (Z{{100, 50}}));
  EXPECT_TRUE(Dist("zoned:,100/30").zones[0].empty());  // reads uniform
}

TEST(DistributionSpecTest, BadValuesAreOneLineErrorsNamingTheOption) {
  struct Case {
    const char* value;
    const char* detail;
  } cases[] = {
      {"zipf:1", "different from 1.0"},
      {"zipf:1.0", "different from 1.0"},
      {"zipf:abc", "not a number"},
      {"zipf:", "not a number"},
      {"zipf:1.2:1.5", "center must lie between 0 and 1"},
      {"zipf:1.2:-0.1", "center must lie between 0 and 1"},
      {"pareto:0", "strictly between 0 and 1"},
      {"pareto:1", "strictly between 0 and 1"},
      {"pareto:1.5", "strictly between 0 and 1"},
      {"normal:100", "[0, 100)"},
      {"normal:-1", "[0, 100)"},
      {"gauss", "calls this distribution 'normal'"},
      {"uniform", "not a random distribution"},
      {"sequence:2,0,1", "not supported by tierbench"},
      {"random:3", "takes no parameter"},
      {"zoned", "needs its zones"},
      {"zoned:50/10:40/20", "add up to 90, not 100"},
      {"zoned:60/10:50/20", "access percentages add up to more than 100"},
      {"zoned:50/60:50/60", "size percentages add up to more than 100"},
      {"zoned:150/10", "above 100"},
      {"zoned:100", "no room"},
      {"zoned:50/100:50", "no room"},
      {"zoned:x/10", "not a whole number"},
      {"zoned_abs:60/20G:40", "no room"},
      {"zoned_abs:60/20Q:40/1G", "unknown size unit"},
      {"zoned:100/10,100/10,100/10,100/10", "more than 3"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    std::string msg;
    try {
      ParseJobText(
          std::string("[j]\nfilename=f\nrandom_distribution=") + c.value + "\n",
          "t.fio", JobOverrides{});
    } catch (const ConfigError& e) {
      msg = e.what();
    }
    ASSERT_FALSE(msg.empty()) << "accepted";
    EXPECT_EQ(msg.rfind("t.fio:3: option 'random_distribution': ", 0), 0u)
        << msg;
    EXPECT_NE(msg.find(c.detail), std::string::npos) << msg;
    EXPECT_NE(msg.find("Fix: "), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(DistributionSpecTest, RandomGeneratorIsAcceptedWithANotice) {
  const Workload w = ParseJobText("[j]\nfilename=f\nrandom_generator=lfsr\n",
                                  "t.fio", JobOverrides{});
  ASSERT_EQ(w.notices.size(), 1u);
  EXPECT_NE(w.notices[0].find("t.fio:3: option 'random_generator'"),
            std::string::npos);
  std::string msg;
  try {
    ParseJobText("[j]\nfilename=f\nrandom_generator=mt\n", "t.fio", {});
  } catch (const ConfigError& e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find("'mt' is not a random generator"), std::string::npos)
      << msg;
}

// Exact first blocks for seed 42 over 2^18 blocks (a 1 GiB region of 4 KiB
// blocks): a change of any formula, hash or stream shows here.
TEST(RandomDistributionTest, FirstBlocksForAFixedSeed) {
  const uint64_t n = 1 << 18;
  struct Case {
    const char* text;
    std::vector<uint64_t> first;
  } cases[] = {
      {"zipf:1.2", {57761, 121953, 73300, 68852, 199174, 134320}},
      {"pareto:0.9", {38861, 206354, 95975, 52756, 101882, 50137}},
      {"normal:5", {78026, 102068, 68052, 258868, 86180, 251686}},
      {"zoned:60/10:30/20:8/30:2/40",
       {2198, 197024, 61867, 74693, 78212, 20177}},
      // The center puts rank 0 (hash 0) at n / 4.
      {"zipf:1.2:0.25", {65536, 101313, 165505, 116852, 112404, 242726}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    RandomDistribution d(Dist(c.text), IoDir::kRead, n, 4096, true, 42);
    std::vector<uint64_t> got;
    for (size_t i = 0; i < 6; ++i) got.push_back(d.Next());
    EXPECT_EQ(got, c.first);
  }
}

TEST(ZipfGeneratorTest, RankFrequencyFollowsTheFormula) {
  const uint64_t n = 1 << 18;
  ZipfGenerator z = ZipfGenerator::Zipf(n, 1.2, -1, 7);
  // zetan is the generalized harmonic number, summed as fio sums it.
  double zetan = 0;
  for (uint64_t i = 1; i <= n; ++i) zetan += std::pow(1.0 / i, 1.2);
  EXPECT_DOUBLE_EQ(z.zetan(), zetan);
  constexpr int kDraws = 2000000;
  std::vector<uint64_t> counts(n);
  for (int i = 0; i < kDraws; ++i) ++counts[z.NextRank()];
  // Ranks come out hottest first; the share of ranks below k is RankCdf(k).
  for (const double fraction : {0.0, 0.01, 0.1, 0.5}) {
    const uint64_t k = std::max<uint64_t>(1, n * fraction);
    uint64_t below = 0;
    for (uint64_t r = 0; r < k; ++r) below += counts[r];
    const double expected = z.RankCdf(k);
    SCOPED_TRACE(k);
    EXPECT_NEAR(static_cast<double>(below) / kDraws, expected,
                5 * Sigma(expected, kDraws));
  }
  // The formula itself: rank 0 takes 1/zetan; the top 1% takes within a
  // point of a true Zipf's H(k)/H(n) (Gray's approximation).
  EXPECT_DOUBLE_EQ(z.RankCdf(1), 1 / zetan);
  const uint64_t k = n / 100;
  double hk = 0;
  for (uint64_t i = 1; i <= k; ++i) hk += std::pow(1.0 / i, 1.2);
  EXPECT_NEAR(z.RankCdf(k), hk / zetan, 0.01);
  EXPECT_GT(z.RankCdf(k), 0.85);  // zipf:1.2 is heavily skewed
}

TEST(ZipfGeneratorTest, ScatterIsABijectionForPowerOfTwoSizes) {
  const uint64_t n = 1 << 16;
  const ZipfGenerator z = ZipfGenerator::Zipf(n, 1.2, -1, 3);
  std::vector<bool> seen(n);
  for (uint64_t r = 0; r < n; ++r) {
    const uint64_t b = z.Scatter(r);
    ASSERT_LT(b, n);
    ASSERT_FALSE(seen[b]) << r;
    seen[b] = true;
  }
  // Hot ranks are spread over the region, not bunched at its start.
  EXPECT_GT(z.Scatter(1) > z.Scatter(0) ? z.Scatter(1) - z.Scatter(0)
                                        : z.Scatter(0) - z.Scatter(1),
            n / 1000);
  // A center fixes the offset: rank 0 lands at hash(0) + n * center = n/4.
  EXPECT_EQ(ZipfGenerator::Zipf(n, 1.2, 0.25, 3).Scatter(0), n / 4);
}

TEST(ZipfGeneratorTest, ParetoTopRanksFollowTheFormula) {
  const uint64_t n = 1 << 18;
  constexpr int kDraws = 1000000;
  for (const double h : {0.9, 0.2}) {
    SCOPED_TRACE(h);
    ZipfGenerator p = ZipfGenerator::Pareto(n, h, -1, 11);
    // rank = floor(m u^q), m = n - 1, q = ln h / ln(1-h): for q < 1 the
    // ranks m-k..m-1 are the hottest k, P(rank >= m-k) = 1 - ((m-k)/m)^(1/q);
    // for q > 1 the ranks 0..k-1, P(rank < k) = (k/m)^(1/q).
    const double q = std::log(h) / std::log(1 - h);
    const uint64_t m = n - 1;
    const uint64_t k = n / 100;
    const double md = static_cast<double>(m);
    const double expected =
        q < 1 ? 1 - std::pow((md - static_cast<double>(k)) / md, 1 / q)
              : std::pow(static_cast<double>(k) / md, 1 / q);
    int hot = 0;
    for (int i = 0; i < kDraws; ++i) {
      const uint64_t r = p.NextRank();
      ASSERT_LT(r, n);
      hot += q < 1 ? r >= m - k : r < k;
    }
    EXPECT_NEAR(static_cast<double>(hot) / kDraws, expected,
                5 * Sigma(expected, kDraws));
    EXPECT_GT(expected, 0.19);  // a fifth or more of the IO on 1% of ranks
  }
}

TEST(GaussGeneratorTest, PointsAreNormalAroundTheMiddle) {
  const uint64_t n = 1 << 20;
  constexpr int kDraws = 200000;
  for (const double dev : {0.0, 20.0}) {
    SCOPED_TRACE(dev);
    GaussGenerator g(n, dev, -1, 5);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < kDraws; ++i) {
      const auto x = static_cast<double>(g.NextPoint());
      sum += x;
      sum2 += x * x;
    }
    const double mean = sum / kDraws;
    const double sd = std::sqrt(sum2 / kDraws - mean * mean);
    // Mean of 12 uniforms on [0, n]: sd n/12; plus a uniform spread s
    // (s = n * dev / 100): sd^2 + s^2 / 12.
    const double s = static_cast<double>(g.spread());
    const double expected_sd = std::sqrt(std::pow(n / 12.0, 2) + s * s / 12.0);
    EXPECT_NEAR(mean, n / 2.0, 0.005 * n);
    EXPECT_NEAR(sd, expected_sd, 0.02 * expected_sd);
    EXPECT_EQ(g.spread(), static_cast<uint64_t>(std::ceil(n * dev / 100)));
  }
}

TEST(RandomDistributionTest, ZonedPercentagesAreHonoured) {
  struct Case {
    const char* text;
    uint64_t align;
    std::vector<std::pair<uint64_t, uint64_t>> zones;  // block ranges
    std::vector<double> share;
  } cases[] = {
      {"zoned:60/10:30/20:8/30:2/40",
       4096,
       {{0, 100}, {100, 300}, {300, 600}, {600, 1000}},
       {0.60, 0.30, 0.08, 0.02}},
      // 2000 blocks of 4 KiB; zones of 800 KiB (200 blocks) and 2 MiB.
      {"zoned_abs:70/800k:30/2m", 4096, {{0, 200}, {200, 712}}, {0.70, 0.30}},
  };
  constexpr int kDraws = 1000000;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const uint64_t n = c.zones.size() == 4 ? 1000 : 2000;
    RandomDistribution d(Dist(c.text), IoDir::kWrite, n, c.align, true, 9);
    std::vector<uint64_t> hits(c.zones.size());
    for (int i = 0; i < kDraws; ++i) {
      const uint64_t b = d.Next();
      bool in_zone = false;
      for (size_t z = 0; z < c.zones.size(); ++z) {
        if (b >= c.zones[z].first && b < c.zones[z].second) {
          ++hits[z];
          in_zone = true;
        }
      }
      ASSERT_TRUE(in_zone) << b;
    }
    for (size_t z = 0; z < c.zones.size(); ++z) {
      EXPECT_NEAR(static_cast<double>(hits[z]) / kDraws, c.share[z],
                  5 * Sigma(c.share[z], kDraws))
          << "zone " << z;
    }
  }
}

TEST(RandomDistributionTest, ZonedAbsPastTheRegionIsRefused) {
  const DistributionSpec d = Dist("zoned_abs:50/1m:50/2m");
  EXPECT_EQ(RandomDistribution::CheckFits(d, IoDir::kRead, 768, 4096), "");
  const std::string why =
      RandomDistribution::CheckFits(d, IoDir::kRead, 700, 4096);
  EXPECT_NE(why.find("zoned_abs zone 2 ends at 3MiB"), std::string::npos)
      << why;
}

JobSpec ZipfJob(const std::string& dist, uint64_t size) {
  JobSpec s;
  s.name = "z";
  s.origin = "z.fio:1";
  s.filename = "/dev/null";
  s.rw = RwPattern::kRandRead;
  s.size = SizeSpec{true, false, size, 0};
  s.random_distribution = Dist(dist);
  return s;
}

std::vector<uint64_t> Offsets(IoPattern& p, size_t count) {
  std::vector<uint64_t> out;
  IoDir dir;
  uint64_t offset;
  uint32_t length;
  while (out.size() < count) {
    if (!p.Next(&dir, &offset, &length)) {
      p.Rewind();
      continue;
    }
    EXPECT_EQ(length, 4096u);
    out.push_back(offset);
  }
  return out;
}

TEST(IoPatternDistributionTest, SameHotBlocksOnEveryTargetOfTheSameSize) {
  const JobSpec spec = ZipfJob("zipf:1.2", 256 * kDistMiB);
  IoPattern small_target(spec, kGiB, 0);
  IoPattern large_target(spec, 4 * kGiB, 0);
  const std::vector<uint64_t> a = Offsets(small_target, 5000);
  EXPECT_EQ(a, Offsets(large_target, 5000));
  JobSpec other = spec;
  other.randseed_set = true;
  other.randseed = 99;
  IoPattern reseeded(other, kGiB, 0);
  EXPECT_NE(a, Offsets(reseeded, 5000));
}

TEST(IoPatternDistributionTest, ZipfShareOfTheHottestBlocks) {
  // 2^16 blocks: the scatter is a bijection, so the hottest 1% of blocks
  // are the top 1% of ranks and take RankCdf(n / 100) of the IO. Blocks
  // repeat (no random map) and stay inside the region.
  const uint64_t n = 1 << 16;
  IoPattern p(ZipfJob("zipf:1.2", n * 4096), kGiB, 0);
  constexpr size_t kDraws = 2000000;
  std::vector<uint64_t> counts(n);
  for (uint64_t off : Offsets(p, kDraws)) {
    ASSERT_LT(off, n * 4096);
    ++counts[off / 4096];
  }
  const ZipfGenerator z = ZipfGenerator::Zipf(n, 1.2, -1, 0);
  for (const uint64_t top : {n / 100, n / 10}) {
    const double expected = z.RankCdf(top);
    EXPECT_NEAR(TopShare(counts, top, kDraws), expected,
                5 * Sigma(expected, kDraws) + 0.001)
        << top;
  }
  EXPECT_GT(std::count(counts.begin(), counts.end(), 0), 0);
}

TEST(IoPatternDistributionTest, UniformKeepsTheRandomMapOthersRepeat) {
  const uint64_t n = 4096;
  for (const char* dist :
       {"random", "zipf:0.5", "pareto:0.5", "normal", "zoned:50/50:50/50"}) {
    SCOPED_TRACE(dist);
    IoPattern p(ZipfJob(dist, n * 4096), kGiB, 0);
    std::map<uint64_t, int> seen;
    for (uint64_t off : Offsets(p, n)) ++seen[off];
    if (std::string(dist) == "random") {
      EXPECT_EQ(seen.size(), n);  // each block once per pass
    } else {
      EXPECT_LT(seen.size(), n);
    }
  }
}

TEST(IoPatternDistributionTest, ZonedAbsPastTheRegionNamesTheJob) {
  std::string msg;
  try {
    IoPattern p(ZipfJob("zoned_abs:50/8m:50/8m", 8 * kDistMiB), kGiB, 0);
  } catch (const ConfigError& e) {
    msg = e.what();
  }
  EXPECT_EQ(msg.rfind("Job 'z' (z.fio:1): random_distribution=zoned_abs:", 0),
            0u)
      << msg;
  EXPECT_NE(msg.find("Fix: "), std::string::npos) << msg;
}

}  // namespace
}  // namespace tierbench
