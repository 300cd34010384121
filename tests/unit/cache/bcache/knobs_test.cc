#include <gtest/gtest.h>

#include <set>

#include "cache/bcache/bcache_knobs.h"

namespace tierbench {
namespace {

TEST(BcacheKnobsTest, TableIsConsistent) {
  std::set<std::pair<int, std::string_view>> seen;
  for (const KnobInfo& knob : AllKnobs()) {
    EXPECT_TRUE(seen.insert({static_cast<int>(knob.scope), knob.name}).second)
        << knob.name;
    EXPECT_FALSE(knob.help.empty()) << knob.name;
    EXPECT_EQ(&knob, FindKnob(knob.scope, knob.name));
  }
  // writeback_rate is controller-owned and deliberately not a knob.
  EXPECT_EQ(nullptr, FindKnob(KnobScope::kBacking, "writeback_rate"));
  EXPECT_EQ(nullptr, FindKnob(KnobScope::kBacking, "cache_mode"));
  EXPECT_EQ(nullptr,
            FindKnob(KnobScope::kBacking, "congested_read_threshold_us"));
  EXPECT_NE(nullptr,
            FindKnob(KnobScope::kCacheSet, "congested_read_threshold_us"));
}

TEST(BcacheKnobsTest, ValueToWrite) {
  const struct {
    KnobScope scope;
    const char* knob;
    const char* value;
    bool ok;
    const char* written;
  } cases[] = {
      {KnobScope::kBacking, "sequential_cutoff", "4M", true, "4194304"},
      {KnobScope::kBacking, "sequential_cutoff", "4.0M", true, "4194304"},
      {KnobScope::kBacking, "sequential_cutoff", "0", true, "0"},
      {KnobScope::kBacking, "sequential_cutoff", "0.0k", true, "0"},
      {KnobScope::kBacking, "sequential_cutoff", "4 MB", false, ""},
      {KnobScope::kBacking, "readahead", "128k", true, "131072"},
      {KnobScope::kBacking, "writeback_percent", "10", true, "10"},
      {KnobScope::kBacking, "writeback_percent", "-1", false, ""},
      {KnobScope::kBacking, "writeback_percent", "ten", false, ""},
      {KnobScope::kBacking, "writeback_running", "true", true, "1"},
      {KnobScope::kBacking, "writeback_running", "0", true, "0"},
      {KnobScope::kBacking, "writeback_running", "2", false, ""},
      {KnobScope::kBacking, "readahead_cache_policy", "meta-only", true,
       "meta-only"},
      {KnobScope::kBacking, "readahead_cache_policy", "[all] meta-only", true,
       "all"},
      {KnobScope::kBacking, "readahead_cache_policy", "a b", false, ""},
      {KnobScope::kCacheSet, "congested_write_threshold_us", "0", true, "0"},
      {KnobScope::kCacheSet, "idle_max_writeback_rate", "false", true, "0"},
  };
  for (const auto& c : cases) {
    const KnobInfo* knob = FindKnob(c.scope, c.knob);
    ASSERT_NE(nullptr, knob) << c.knob;
    std::string out;
    Status s = KnobValueToWrite(*knob, c.value, &out);
    EXPECT_EQ(c.ok, s.ok()) << c.knob << "=" << c.value;
    if (c.ok) {
      EXPECT_EQ(c.written, out) << c.knob << "=" << c.value;
    } else {
      EXPECT_NE(std::string::npos, s.message().find(c.knob));
    }
  }
}

TEST(BcacheKnobsTest, ReadbackMatches) {
  const struct {
    const char* knob;
    const char* written;
    const char* readback;
    bool match;
  } cases[] = {
      {"sequential_cutoff", "4194304", "4.0M", true},
      {"sequential_cutoff", "0", "0.0k", true},
      {"sequential_cutoff", "0", "0", true},
      {"sequential_cutoff", "4194304", "2.0M", false},
      {"writeback_percent", "50", "40", false},
      {"writeback_percent", "10", "10", true},
      {"readahead_cache_policy", "all", "[all] meta-only", true},
      {"readahead_cache_policy", "meta-only", "[all] meta-only", false},
  };
  for (const auto& c : cases) {
    const KnobInfo* knob = FindKnob(KnobScope::kBacking, c.knob);
    ASSERT_NE(nullptr, knob);
    EXPECT_EQ(c.match, KnobReadbackMatches(*knob, c.written, c.readback))
        << c.knob << " " << c.written << " vs " << c.readback;
  }
  const KnobInfo* policy =
      FindKnob(KnobScope::kBacking, "readahead_cache_policy");
  std::string normalized;
  ASSERT_TRUE(
      NormalizeKnobReadback(*policy, "all [meta-only]", &normalized).ok());
  EXPECT_EQ("meta-only", normalized);
}

}  // namespace
}  // namespace tierbench
