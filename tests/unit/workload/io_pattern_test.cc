// Tests of the pure IO-pattern generators: Rng, BlockSizePicker,
// BlockPermutation / RandomBlockPicker and IoPattern (fio's offset, size and
// direction semantics). Statistical checks use fixed seeds and tolerances
// far wider than the expected deviation, so they are deterministic.
#include "workload/io_pattern.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "util/errors.h"
#include "util/rng.h"
#include "workload/block_size_picker.h"
#include "workload/distribution_spec.h"
#include "workload/offset_generator.h"

namespace tierbench {
namespace {

constexpr uint64_t kIopKiB = 1024;
constexpr uint64_t kIopMiB = 1024 * kIopKiB;

struct Io {
  IoDir dir;
  uint64_t offset;
  uint32_t length;
  bool operator==(const Io&) const = default;
};

std::vector<Io> Drain(IoPattern& p, size_t max_ios) {
  std::vector<Io> ios;
  Io io{};
  while (ios.size() < max_ios && p.Next(&io.dir, &io.offset, &io.length))
    ios.push_back(io);
  return ios;
}

JobSpec Spec(RwPattern rw, uint64_t bs = 4 * kIopKiB) {
  JobSpec s;
  s.name = "t";
  s.origin = "t.fio:1";
  s.filename = "/dev/null";
  s.rw = rw;
  for (BlockSizeSpec& b : s.bs) b.min = b.max = bs;
  return s;
}

TEST(RngTest, SameSeedSameSequenceAndUniformInRange) {
  Rng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs = differs || x != c.Next();
  }
  EXPECT_TRUE(differs);
  std::vector<int> counts(10);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t u = a.Uniform(10);
    ASSERT_LT(u, 10u);
    ++counts[u];
    const double d = a.NextDouble();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
  }
  for (int n : counts) EXPECT_NEAR(n, 10000, 500);
}

TEST(BlockSizePickerTest, SplitDrawsMatchWeights) {
  BlockSizeSpec spec;
  spec.split = {{4 * kIopKiB, 28},
                {16 * kIopKiB, 10},
                {32 * kIopKiB, 10},
                {64 * kIopKiB, 52}};
  const BlockSizePicker picker(spec);
  EXPECT_EQ(picker.min(), 4 * kIopKiB);
  EXPECT_EQ(picker.max(), 64 * kIopKiB);
  Rng rng(1);
  std::map<uint32_t, int> counts;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) ++counts[picker.Pick(rng)];
  ASSERT_EQ(counts.size(), 4u);
  for (const auto& [size, weight] : spec.split) {
    EXPECT_NEAR(100.0 * counts[static_cast<uint32_t>(size)] / kDraws, weight,
                1.0)
        << size;
  }
}

TEST(BlockSizePickerTest, RangeIsUniformOverMultiplesOfMin) {
  BlockSizeSpec spec;
  spec.min = 32 * kIopKiB;
  spec.max = 256 * kIopKiB;
  const BlockSizePicker picker(spec);
  Rng rng(2);
  std::map<uint32_t, int> counts;
  for (int i = 0; i < 80000; ++i) ++counts[picker.Pick(rng)];
  ASSERT_EQ(counts.size(), 8u);  // 32k, 64k, ..., 256k
  for (const auto& [size, n] : counts) {
    EXPECT_EQ(size % (32 * kIopKiB), 0u);
    EXPECT_NEAR(n, 10000, 600) << size;
  }
}

TEST(BlockSizePickerTest, FittingShrinksOrReportsNoRoom) {
  struct Case {
    uint64_t min, max;
    uint64_t room;
    uint32_t at_most;  // every result is <= room and a multiple of min
    bool zero;         // nothing fits
  };
  const Case cases[] = {
      {64 * kIopKiB, 4096 * kIopKiB, 100 * kIopKiB, 64 * kIopKiB, false},
      {64 * kIopKiB, 4096 * kIopKiB, 1 * kIopMiB, 1 * kIopMiB, false},
      {4 * kIopKiB, 4 * kIopKiB, 3 * kIopKiB, 0, true},
      {4 * kIopKiB, 4 * kIopKiB, 4 * kIopKiB, 4 * kIopKiB, false},
  };
  for (const Case& c : cases) {
    BlockSizeSpec spec;
    spec.min = c.min;
    spec.max = c.max;
    const BlockSizePicker picker(spec);
    Rng rng(3);
    for (int i = 0; i < 200; ++i) {
      const uint32_t len = picker.PickFitting(rng, c.room);
      if (c.zero) {
        ASSERT_EQ(len, 0u);
        continue;
      }
      ASSERT_GE(len, c.min);
      ASSERT_LE(len, c.at_most);
      ASSERT_EQ(len % c.min, 0u);
    }
  }
}

TEST(BlockPermutationTest, EachBlockExactlyOncePerPass) {
  for (uint64_t n :
       {1ULL, 2ULL, 3ULL, 7ULL, 64ULL, 1000ULL, 4097ULL, 65537ULL}) {
    SCOPED_TRACE(n);
    BlockPermutation perm(n, 99);
    std::vector<bool> seen(n);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t b = perm.Next();
      ASSERT_LT(b, n);
      ASSERT_FALSE(seen[b]) << "block " << b << " twice";
      seen[b] = true;
    }
    EXPECT_TRUE(perm.PassDone());
  }
}

TEST(BlockPermutationTest, KeysGiveDifferentShuffledOrders) {
  constexpr uint64_t kN = 1000;
  BlockPermutation a(kN, 1), b(kN, 2);
  int same = 0, in_place = 0;
  for (uint64_t i = 0; i < kN; ++i) {
    const uint64_t x = a.Next();
    same += x == b.Next();
    in_place += x == i;
  }
  EXPECT_LT(same, 20);      // ~1 expected for independent orders
  EXPECT_LT(in_place, 20);  // not the identity
}

TEST(RandomBlockPickerTest, NorandommapRepeatsBlocks) {
  RandomBlockPicker map(100, true, 5), nomap(100, false, 5);
  std::set<uint64_t> with_map, without_map;
  for (int i = 0; i < 100; ++i) {
    with_map.insert(map.Next());
    without_map.insert(nomap.Next());
  }
  EXPECT_EQ(with_map.size(), 100u);
  EXPECT_LT(without_map.size(), 80u);  // ~63 expected
}

TEST(IoPatternTest, SequentialStreamsWalkAndWrap) {
  JobSpec s = Spec(RwPattern::kRead, 4 * kIopKiB);
  s.offset = SizeSpec{true, false, 8 * kIopKiB, 0};
  s.size = SizeSpec{true, false, 16 * kIopKiB, 0};
  IoPattern p(s, kIopMiB, 0);
  EXPECT_EQ(p.region_start(), 8 * kIopKiB);
  EXPECT_EQ(p.region_length(), 16 * kIopKiB);
  EXPECT_EQ(p.io_budget(), 16 * kIopKiB);
  std::vector<uint64_t> offsets;
  for (const Io& io : Drain(p, 100)) offsets.push_back(io.offset);
  EXPECT_EQ(offsets, (std::vector<uint64_t>{8 * kIopKiB, 12 * kIopKiB,
                                            16 * kIopKiB, 20 * kIopKiB}));
  // Budget exhausted; a time_based caller rewinds and starts over.
  IoDir d;
  uint64_t off;
  uint32_t len;
  EXPECT_FALSE(p.Next(&d, &off, &len));
  p.Rewind();
  ASSERT_TRUE(p.Next(&d, &off, &len));
  EXPECT_EQ(off, 8 * kIopKiB);

  // Mixed sequential: one position per direction; each wraps at the end.
  JobSpec mixed = Spec(RwPattern::kReadWrite, 4 * kIopKiB);
  mixed.size = SizeSpec{true, false, 12 * kIopKiB, 0};
  IoPattern m(mixed, kIopMiB, 0);
  uint64_t next[kNumDirs] = {0, 0};
  for (int i = 0; i < 200; ++i) {
    if (i % 3 == 0) m.Rewind();  // budget is only 3 IOs per pass
    if (i % 3 == 0) next[0] = next[1] = 0;
    ASSERT_TRUE(m.Next(&d, &off, &len));
    const int di = static_cast<int>(d);
    ASSERT_EQ(off, next[di]);
    next[di] = (off + len) % (12 * kIopKiB);
  }
}

TEST(IoPatternTest, VariableSizesStayInsideTheRegion) {
  JobSpec s = Spec(RwPattern::kReadWrite);
  for (BlockSizeSpec& b : s.bs) {
    b.min = 64 * kIopKiB;
    b.max = 4096 * kIopKiB;
  }
  s.size = SizeSpec{true, false, 5 * kIopMiB, 0};
  IoPattern p(s, 64 * kIopMiB, 0);
  for (int pass = 0; pass < 20; ++pass) {
    for (const Io& io : Drain(p, 10000)) {
      ASSERT_GE(io.length, 64 * kIopKiB);
      ASSERT_EQ(io.length % (64 * kIopKiB), 0u);
      ASSERT_LE(io.offset + io.length, 5 * kIopMiB);
    }
    p.Rewind();
  }
}

struct RandomCase {
  RwPattern rw;
  uint64_t bs;
  uint64_t align;  // 0: default
  uint64_t offset;
  uint64_t size;
  bool norandommap;
};

TEST(IoPatternTest, RandomOffsetsAlignedAndInRange) {
  const RandomCase cases[] = {
      {RwPattern::kRandRead, 4 * kIopKiB, 0, 0, kIopMiB, false},
      {RwPattern::kRandWrite, 16 * kIopKiB, 4 * kIopKiB, 64 * kIopKiB,
       kIopMiB + 512, true},
      {RwPattern::kRandReadWrite, 8 * kIopKiB, 0, 1 * kIopMiB, 3 * kIopMiB,
       false},
      {RwPattern::kRandReadWrite, 4 * kIopKiB, 0, 0, 10 * kIopKiB,
       false},  // not a multiple
  };
  for (const RandomCase& c : cases) {
    SCOPED_TRACE(c.size);
    JobSpec s = Spec(c.rw, c.bs);
    s.blockalign[0] = s.blockalign[1] = c.align;
    s.offset = SizeSpec{true, false, c.offset, 0};
    s.size = SizeSpec{true, false, c.size, 0};
    s.norandommap = c.norandommap;
    IoPattern p(s, 16 * kIopMiB, 0);
    const uint64_t align = c.align != 0 ? c.align : c.bs;
    for (const Io& io : Drain(p, 100000)) {
      ASSERT_EQ((io.offset - c.offset) % align, 0u);
      ASSERT_GE(io.offset, c.offset);
      ASSERT_LE(io.offset + io.length, c.offset + c.size);
      ASSERT_EQ(io.length, c.bs);
    }
  }
}

TEST(IoPatternTest, WithoutNorandommapEveryBlockOncePerPass) {
  for (RwPattern rw : {RwPattern::kRandRead, RwPattern::kRandReadWrite}) {
    JobSpec s = Spec(rw, 4 * kIopKiB);
    s.size = SizeSpec{true, false, 4 * kIopMiB, 0};  // 1024 blocks
    IoPattern p(s, 8 * kIopMiB, 0);
    for (int pass = 0; pass < 3; ++pass) {
      std::map<uint64_t, int> hits;
      const std::vector<Io> ios = Drain(p, 1000000);
      ASSERT_EQ(ios.size(), 1024u);
      for (const Io& io : ios) ++hits[io.offset];
      ASSERT_EQ(hits.size(), 1024u);  // each block exactly once
      p.Rewind();
    }
  }
}

TEST(IoPatternTest, RepeatableWithRandrepeatAndClonesDiffer) {
  JobSpec s = Spec(RwPattern::kRandReadWrite, 4 * kIopKiB);
  s.norandommap = true;
  s.size = SizeSpec{true, false, 64 * kIopMiB, 0};
  IoPattern a(s, 64 * kIopMiB, 0), b(s, 64 * kIopMiB, 0),
      clone(s, 64 * kIopMiB, 1);
  const std::vector<Io> first = Drain(a, 5000);
  EXPECT_EQ(first, Drain(b, 5000));
  EXPECT_NE(first, Drain(clone, 5000));
  // randseed selects another repeatable sequence.
  s.randseed_set = true;
  s.randseed = 1234;
  IoPattern c(s, 64 * kIopMiB, 0), d(s, 64 * kIopMiB, 0);
  const std::vector<Io> seeded = Drain(c, 5000);
  EXPECT_EQ(seeded, Drain(d, 5000));
  EXPECT_NE(seeded, first);
}

// A draw stream (JobSpec::draw_stream, the chunks of a warm-until-steady
// cell) draws new offsets over the same hot set: zipf's scattering offset
// comes from the seed, so the hottest blocks stay where they were, while the
// sequences share almost nothing position by position.
TEST(IoPatternTest, DrawStreamsDrawAnewOverTheSameHotBlocks) {
  JobSpec s = Spec(RwPattern::kRandRead, 4 * kIopKiB);
  s.size = SizeSpec{true, false, 64 * kIopMiB, 0};
  std::string why, fix;
  ASSERT_TRUE(
      ParseDistributionSpec("zipf:1.2", &s.random_distribution, &why, &fix))
      << why;
  s.norandommap = true;
  auto hottest = [](const std::vector<Io>& ios) {
    std::map<uint64_t, int> counts;
    for (const Io& io : ios) ++counts[io.offset];
    uint64_t best = 0;
    int most = 0;
    for (const auto& [offset, n] : counts) {
      if (n > most) most = n, best = offset;
    }
    return best;
  };
  IoPattern base(s, 64 * kIopMiB, 0);
  const std::vector<Io> stream0 = Drain(base, 20000);
  s.draw_stream = 1;
  IoPattern one(s, 64 * kIopMiB, 0), again(s, 64 * kIopMiB, 0);
  const std::vector<Io> stream1 = Drain(one, 20000);
  s.draw_stream = 2;
  IoPattern two(s, 64 * kIopMiB, 0);
  const std::vector<Io> stream2 = Drain(two, 20000);
  EXPECT_EQ(stream1, Drain(again, 20000));  // repeatable
  EXPECT_EQ(hottest(stream0), hottest(stream1));
  EXPECT_EQ(hottest(stream0), hottest(stream2));
  // Outside the hottest blocks the draws differ: position by position the
  // streams agree only where both drew a hot block.
  size_t same01 = 0, same12 = 0;
  for (size_t i = 0; i < stream0.size(); ++i) {
    same01 += stream0[i] == stream1[i];
    same12 += stream1[i] == stream2[i];
  }
  EXPECT_LT(same01, stream0.size() * 9 / 10);
  EXPECT_LT(same12, stream0.size() * 9 / 10);
  // Uniform draws (with the random map) get a new order too.
  JobSpec u = Spec(RwPattern::kRandRead, 4 * kIopKiB);
  u.size = SizeSpec{true, false, 4 * kIopMiB, 0};
  IoPattern u0(u, 4 * kIopMiB, 0);
  u.draw_stream = 3;
  IoPattern u3(u, 4 * kIopMiB, 0);
  const std::vector<Io> a = Drain(u0, 1024), b = Drain(u3, 1024);
  EXPECT_NE(a, b);
  std::set<uint64_t> blocks_a, blocks_b;
  for (const Io& io : a) blocks_a.insert(io.offset);
  for (const Io& io : b) blocks_b.insert(io.offset);
  EXPECT_EQ(blocks_a, blocks_b);  // each block once per pass, in both
}

TEST(IoPatternTest, RwmixreadAndPercentageRandomRatios) {
  struct Case {
    uint32_t rwmixread;
    uint32_t percentage_random;
  };
  for (const Case c :
       {Case{60, 100}, Case{30, 58}, Case{100, 0}, Case{0, 50}}) {
    SCOPED_TRACE(c.rwmixread);
    JobSpec s = Spec(RwPattern::kRandReadWrite, 4 * kIopKiB);
    s.rwmixread = c.rwmixread;
    s.percentage_random = c.percentage_random;
    s.norandommap = true;
    s.size = SizeSpec{true, false, 1024 * kIopMiB, 0};
    IoPattern p(s, 1024 * kIopMiB, 0);
    const std::vector<Io> ios = Drain(p, 100000);
    ASSERT_EQ(ios.size(), 100000u);
    int reads = 0, sequential = 0;
    uint64_t last_end[kNumDirs] = {0, 0};
    bool seen[kNumDirs] = {false, false};
    int continued = 0, with_previous = 0;
    for (const Io& io : ios) {
      const int d = static_cast<int>(io.dir);
      reads += io.dir == IoDir::kRead;
      if (seen[d]) {
        ++with_previous;
        continued += io.offset == last_end[d];
      }
      seen[d] = true;
      last_end[d] = io.offset + io.length;
    }
    sequential = continued;
    EXPECT_NEAR(100.0 * reads / ios.size(), c.rwmixread, 1.0);
    // A random offset continues the previous IO with probability ~1/262144.
    EXPECT_NEAR(100.0 * sequential / with_previous, 100.0 - c.percentage_random,
                1.0);
  }
}

TEST(IoPatternTest, PercentOffsetAndSizeResolveAgainstTheTarget) {
  JobSpec s = Spec(RwPattern::kRandRead, 4 * kIopKiB);
  s.offset = SizeSpec{true, true, 0, 30};
  s.size = SizeSpec{true, true, 0, 50};
  IoPattern p(s, 10 * kIopMiB + 100, 0);
  EXPECT_EQ(p.region_start() % (4 * kIopKiB),
            0u);  // rounded down to the alignment
  EXPECT_LE(p.region_start(), 3 * kIopMiB + 30);
  EXPECT_GT(p.region_start(), 3 * kIopMiB - 4 * kIopKiB);
  EXPECT_EQ(p.region_length(), (10 * kIopMiB + 100) / 2);
  // No size: from offset to the end of the target.
  JobSpec whole = Spec(RwPattern::kRead);
  whole.offset = SizeSpec{true, false, kIopMiB, 0};
  EXPECT_EQ(IoPattern(whole, 5 * kIopMiB, 0).region_length(), 4 * kIopMiB);
}

TEST(IoPatternTest, BadRegionsAreConfigErrors) {
  struct Case {
    uint64_t offset;
    uint64_t size;  // 0: unset
    uint64_t target;
    const char* fragment;
  };
  const Case cases[] = {
      {kIopMiB, 0, kIopMiB, "at or past the end"},
      {0, 2 * kIopMiB, kIopMiB, "runs past the end"},
      {512 * kIopKiB, 768 * kIopKiB, kIopMiB, "runs past the end"},
      {0, 2 * kIopKiB, kIopMiB, "smaller than the minimum read block size"},
  };
  for (const Case& c : cases) {
    JobSpec s = Spec(RwPattern::kRandRead, 4 * kIopKiB);
    s.offset = SizeSpec{true, false, c.offset, 0};
    if (c.size != 0) s.size = SizeSpec{true, false, c.size, 0};
    try {
      IoPattern p(s, c.target, 0);
      ADD_FAILURE() << "no error for " << c.fragment;
    } catch (const ConfigError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("Job 't' (t.fio:1)"), std::string::npos) << msg;
      EXPECT_NE(msg.find(c.fragment), std::string::npos) << msg;
      EXPECT_NE(msg.find("Fix: "), std::string::npos) << msg;
    }
  }
}

}  // namespace
}  // namespace tierbench
