#include <gtest/gtest.h>

#include "cache/bcache/bcache_values.h"

namespace tierbench {
namespace {

TEST(BcacheValuesTest, ParseHumanSizeAcceptsWhatBcachePrints) {
  const struct {
    const char* text;
    uint64_t bytes;
  } cases[] = {
      {"0", 0},
      {"512", 512},
      {"0.0k", 0},
      {"0.5k", 512},   // ceil(0.5 * 1024)
      {"1.2k", 1229},  // smallest value bch_hprint shows as 1.2k
      {"4.0M", 4194304},
      {"4M", 4194304},
      {"4m", 4194304},
      {"512k", 524288},
      {"51.4M", 53897216},  // 51 MiB + 410 KiB
      {"2.0G", 2147483648ull},
      {"1.0T", 1099511627776ull},
      {"1.25M", 1310720},
  };
  for (const auto& c : cases) {
    uint64_t bytes = 1;
    Status s = ParseHumanSize(c.text, &bytes);
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.ToString();
    EXPECT_EQ(c.bytes, bytes) << c.text;
  }
}

TEST(BcacheValuesTest, ParseHumanSizeRejectsGarbage) {
  for (const char* text : {"", "k", "-1", "-1.0k", "1.2", "1..2k", "1.k", ".5k",
                           "4 M", " 4M", "4MB", "4Mi", "0x10", "4.0Q", "abc",
                           "99999999999999999999999", "20.0E"}) {
    uint64_t bytes = 0;
    EXPECT_FALSE(ParseHumanSize(text, &bytes).ok()) << "'" << text << "'";
  }
}

TEST(BcacheValuesTest, ParseSignedHumanSize) {
  int64_t v = 0;
  ASSERT_TRUE(ParseSignedHumanSize("-1.2k", &v).ok());
  EXPECT_EQ(-1229, v);
  ASSERT_TRUE(ParseSignedHumanSize("3.0M", &v).ok());
  EXPECT_EQ(3 * 1048576, v);
  EXPECT_FALSE(ParseSignedHumanSize("--1k", &v).ok());
}

TEST(BcacheValuesTest, FormatHumanSizeMatchesKernel) {
  const struct {
    int64_t v;
    const char* text;
  } cases[] = {
      {0, "0.0k"},       {512, "0.5k"},          {1023, "0.9k"},
      {1024, "1.0k"},    {1250, "1.2k"},         {1023 * 1024, "0.9M"},
      {4194304, "4.0M"}, {53896807, "51.3M"},    {2147483648ll, "2.0G"},
      {-1250, "-1.2k"},  {999 * 1024, "999.0k"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.text, FormatHumanSize(c.v)) << c.v;
  }
}

TEST(BcacheValuesTest, ParseOfFormatReadsBackTheSameText) {
  for (int64_t v : {0ll, 1ll, 511ll, 1000ll, 1250ll, 4095ll, 65536ll, 4194304ll,
                    53896807ll, 1ll << 33, (1ll << 40) + 12345}) {
    const std::string shown = FormatHumanSize(v);
    uint64_t parsed = 0;
    ASSERT_TRUE(ParseHumanSize(shown, &parsed).ok()) << shown;
    EXPECT_EQ(shown, FormatHumanSize(static_cast<int64_t>(parsed))) << v;
    EXPECT_TRUE(HumanSizeMatches(static_cast<uint64_t>(v), shown)) << v;
    EXPECT_LE(parsed, static_cast<uint64_t>(v)) << v;
  }
}

TEST(BcacheValuesTest, HumanSizeMatches) {
  const struct {
    uint64_t bytes;
    const char* shown;
    bool match;
  } cases[] = {
      {4194304, "4.0M", true},
      {4194304, "4M", true},
      {4194304, "4.1M", false},
      {0, "0.0k", true},
      {0, "0", true},
      {512, "512", true},  // pre-4.14 kernels
      {512, "0.5k", true},
      {511, "512", false},
      {1250, "1.2k", true},
      {1331, "1.2k", true},
      {1332, "1.2k", false},
      {1228, "1.2k", false},
      {1024000, "1000.0k", true},  // pre-4.14 format of the same value
      {1024000, "0.9M", true},
      {5, "garbage", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.match, HumanSizeMatches(c.bytes, c.shown))
        << c.bytes << " vs " << c.shown;
  }
}

TEST(BcacheValuesTest, ParseInteger) {
  int64_t v = 0;
  ASSERT_TRUE(ParseInteger("20000", &v).ok());
  EXPECT_EQ(20000, v);
  ASSERT_TRUE(ParseInteger("-5", &v).ok());
  EXPECT_EQ(-5, v);
  for (const char* bad : {"", "-", "1k", "1.0", " 1", "99999999999999999999"}) {
    EXPECT_FALSE(ParseInteger(bad, &v).ok()) << bad;
  }
}

TEST(BcacheValuesTest, ParseBracketChoice) {
  const struct {
    const char* text;
    bool ok;
    const char* selected;
  } cases[] = {
      {"writethrough [writeback] writearound none", true, "writeback"},
      {"[writethrough] writeback writearound none", true, "writethrough"},
      {"writethrough writeback writearound [none]", true, "none"},
      {"[all] meta-only", true, "all"},
      {"[mq-deadline] none", true, "mq-deadline"},
      {"writethrough writeback", false, ""},
      {"[a] [b]", false, ""},
      {"[] a", false, ""},
      {"[a b", false, ""},
      {"a]", false, ""},
      {"", false, ""},
  };
  for (const auto& c : cases) {
    std::string selected;
    std::vector<std::string> options;
    Status s = ParseBracketChoice(c.text, &selected, &options);
    EXPECT_EQ(c.ok, s.ok()) << c.text;
    if (c.ok) {
      EXPECT_EQ(c.selected, selected) << c.text;
    }
  }
  std::string selected;
  std::vector<std::string> options;
  ASSERT_TRUE(ParseBracketChoice("writethrough [writeback] writearound none",
                                 &selected, &options)
                  .ok());
  EXPECT_EQ((std::vector<std::string>{"writethrough", "writeback",
                                      "writearound", "none"}),
            options);
}

TEST(BcacheValuesTest, ParseBcacheState) {
  BcacheState state;
  for (std::string_view name : {"no cache", "clean", "dirty", "inconsistent"}) {
    ASSERT_TRUE(ParseBcacheState(name, &state).ok()) << name;
    EXPECT_EQ(name, BcacheStateName(state));
  }
  EXPECT_FALSE(ParseBcacheState("Clean", &state).ok());
  EXPECT_FALSE(ParseBcacheState("nocache", &state).ok());
}

TEST(BcacheValuesTest, ParseWritebackRateDebugOfKernel61) {
  WritebackRateDebug d;
  Status s = ParseWritebackRateDebug(
      "rate:\t\t4.0M/sec\ndirty:\t\t51.4M\ntarget:\t\t10.2M\n"
      "proportional:\t-1.2k\nintegral:\t0.0k\nchange:\t\t-2.0k/sec\n"
      "next io:\t-123ms\n",
      &d);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(4 * 1048576, d.rate_bytes_per_sec);
  EXPECT_EQ(53897216, d.dirty_bytes);
  EXPECT_EQ(-1229, d.proportional_bytes);
  EXPECT_EQ(-2048, d.change_bytes_per_sec);
  EXPECT_EQ(-123, d.next_io_ms);
  // Older kernels print only some lines; rate/dirty/target are required.
  EXPECT_TRUE(
      ParseWritebackRateDebug("rate:\t512/sec\ndirty:\t0\ntarget:\t0", &d)
          .ok());
  EXPECT_FALSE(ParseWritebackRateDebug("rate:\t\t4.0M/sec\n", &d).ok());
  EXPECT_FALSE(
      ParseWritebackRateDebug("rate:\tfast\ndirty:\t0\ntarget:\t0", &d).ok());
}

TEST(BcacheValuesTest, ParsePriorityStats) {
  PriorityStats p;
  ASSERT_TRUE(ParsePriorityStats("Unused:\t\t98%\nClean:\t\t1%\nDirty:\t\t0%\n"
                                 "Metadata:\t1%\nAverage:\t2\n"
                                 "Sectors per Q:\t9\nQuantiles:\t[1 2]",
                                 &p)
                  .ok());
  EXPECT_EQ(98, p.unused_pct);
  EXPECT_EQ(1, p.clean_pct);
  EXPECT_EQ(0, p.dirty_pct);
  EXPECT_EQ(1, p.metadata_pct);
  EXPECT_FALSE(ParsePriorityStats("Unused:\t\t98%\nClean:\t\t1%", &p).ok());
  EXPECT_FALSE(ParsePriorityStats(
                   "Unused:\t98\nClean:\t1%\nDirty:\t0%\nMetadata:\t1%", &p)
                   .ok());
}

}  // namespace
}  // namespace tierbench
