// Unit tests of the lab's layer names and partition map (lab/lab_layers.h).
#include "lab/lab_layers.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tierbench {
namespace {

constexpr uint64_t kMib = 1ull << 20;

TEST(ParseLabLayers, KeepsTheGivenOrder) {
  std::vector<std::string> layers;
  ASSERT_TRUE(ParseLabLayers("dm-writecache,bcache", &layers).ok());
  EXPECT_EQ(layers, (std::vector<std::string>{"dm-writecache", "bcache"}));
  ASSERT_TRUE(
      ParseLabLayers(" bcache , dm-cache,dm-writecache ", &layers).ok());
  EXPECT_EQ(layers, AllLabLayers());
  ASSERT_TRUE(ParseLabLayers("dm-cache", &layers).ok());
  EXPECT_EQ(layers, (std::vector<std::string>{"dm-cache"}));
}

TEST(ParseLabLayers, RefusesUnknownRepeatedAndEmptyNamesNamingTheValidOnes) {
  for (const char* bad : {"", " ", "bcache,lvmcash", "dmcache", "bcache,",
                          ",bcache", "bcache,,dm-cache", "bcache,bcache"}) {
    std::vector<std::string> layers = {"untouched"};
    Status s = ParseLabLayers(bad, &layers);
    EXPECT_FALSE(s.ok()) << "'" << bad << "'";
    EXPECT_NE(s.message().find("bcache, dm-cache, dm-writecache"),
              std::string::npos)
        << s.message();
    EXPECT_EQ(layers, std::vector<std::string>{"untouched"}) << bad;
  }
  Status s;
  std::vector<std::string> layers;
  s = ParseLabLayers("bcache,lvmcash", &layers);
  EXPECT_NE(s.message().find("'lvmcash'"), std::string::npos) << s.message();
  EXPECT_FALSE(CheckLabLayers({}).ok());
  EXPECT_TRUE(CheckLabLayers(AllLabLayers()).ok());
}

TEST(ParseLabLayers, LvmcacheIsOptInAndNeverWithDmCache) {
  std::vector<std::string> layers;
  ASSERT_TRUE(ParseLabLayers("bcache,lvmcache,dm-writecache", &layers).ok());
  EXPECT_EQ(layers.back(), "dm-writecache");
  const std::vector<std::string> defaults = AllLabLayers();
  EXPECT_EQ(std::find(defaults.begin(), defaults.end(), "lvmcache"),
            defaults.end());
  for (const char* both : {"dm-cache,lvmcache", "lvmcache, bcache, dm-cache"}) {
    layers = {"untouched"};
    Status s = ParseLabLayers(both, &layers);
    EXPECT_FALSE(s.ok()) << both;
    EXPECT_NE(s.message().find("cannot run in one guest"), std::string::npos)
        << s.message();
    EXPECT_EQ(layers, std::vector<std::string>{"untouched"});
  }
}

TEST(LabLayout, PartitionNumbersAreTheFourDistinctMbrEntries) {
  std::vector<int> parts = {kLabBcachePartition, kLabDmCachePartition,
                            kLabWritecachePartition, kLabRawPartition};
  std::sort(parts.begin(), parts.end());
  EXPECT_EQ(parts, (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(kLabPartitions, kLabMaxRegions);
}

TEST(LabLayout, DefaultDisksGiveEveryLayerTheSameCacheSize) {
  // The CLI's defaults: 2G HDD, 1041M SSD (a 256 MiB cache per layer).
  EXPECT_EQ(LabSsdBytesForCache(256 * kMib), 1041 * kMib);
  std::vector<LabPartition> hdd, ssd;
  ASSERT_TRUE(LabHddLayout(2048 * kMib, 64 * kMib, &hdd).ok());
  ASSERT_EQ(hdd.size(), 4u);
  for (const LabPartition& p : hdd) EXPECT_EQ(p.sectors, 511 * 2048u);
  ASSERT_TRUE(LabSsdLayout(1041 * kMib, 64 * kMib, &ssd).ok());
  ASSERT_EQ(ssd.size(), 4u);
  const uint64_t cache = ssd[kLabBcachePartition - 1].sectors;
  EXPECT_EQ(cache, 256 * 2048u);
  const uint64_t meta = kLabDmCacheMetaBytes / kLabSectorBytes;
  EXPECT_EQ(ssd[kLabDmCachePartition - 1].sectors - meta, cache);
  EXPECT_EQ(ssd[kLabWritecachePartition - 1].sectors, cache);
  EXPECT_EQ(ssd[kLabRawPartition - 1].sectors, cache);
}

TEST(LabLayout, OddSsdSizesKeepTheCachesEqual) {
  for (uint64_t mib : {300ull, 777ull, 1024ull, 4099ull}) {
    std::vector<LabPartition> ssd;
    ASSERT_TRUE(LabSsdLayout(mib * kMib, 64 * kMib, &ssd).ok()) << mib;
    const uint64_t meta = kLabDmCacheMetaBytes / kLabSectorBytes;
    EXPECT_EQ(ssd[1].sectors - meta, ssd[0].sectors) << mib;
    EXPECT_EQ(ssd[2].sectors, ssd[0].sectors) << mib;
    EXPECT_EQ(ssd[0].sectors % 2048, 0u) << mib;
  }
  std::vector<LabPartition> ssd;
  EXPECT_FALSE(
      LabSsdLayout(LabSsdBytesForCache(64 * kMib) - kMib, 64 * kMib, &ssd)
          .ok());
  EXPECT_TRUE(
      LabSsdLayout(LabSsdBytesForCache(64 * kMib), 64 * kMib, &ssd).ok());
}

}  // namespace
}  // namespace tierbench
