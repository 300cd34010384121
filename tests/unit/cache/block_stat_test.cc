#include <gtest/gtest.h>

#include <filesystem>

#include "cache/block_stat.h"
#include "cache/queue_settings.h"
#include "support/fake_sysfs.h"

namespace tierbench {
namespace {

TEST(BlockStatTest, ParsesEveryKernelGeneration) {
  const struct {
    const char* text;
    bool ok;
    uint64_t write_sectors;
    uint64_t flush_ios;
  } cases[] = {
      // 11 fields (< 4.18), 15 (discard), 17 (flush, 5.5+), padded as the
      // kernel prints them.
      {"   10 0 80 5 20 1 160 9 0 14 14", true, 160, 0},
      {"10 0 80 5 20 1 160 9 0 14 14 3 0 24 1", true, 160, 0},
      {"10 0 80 5 20 1 160 9 0 14 14 3 0 24 1 7 2\n", true, 160, 7},
      {"10 0 80 5 20 1 160 9 0 14", false, 0, 0},
      {"10 0 80 5 20 1 160 9 0 14 14 3", false, 0, 0},
      {"10 0 80 5 20 1 x 9 0 14 14", false, 0, 0},
      {"10 0 80 5 20 1 -1 9 0 14 14", false, 0, 0},
      {"", false, 0, 0},
  };
  for (const auto& c : cases) {
    BlockStat stat;
    EXPECT_EQ(c.ok, ParseBlockStat(c.text, &stat).ok()) << c.text;
    if (!c.ok) continue;
    EXPECT_EQ(10u, stat.read_ios);
    EXPECT_EQ(80u, stat.read_sectors);
    EXPECT_EQ(c.write_sectors, stat.write_sectors);
    EXPECT_EQ(c.write_sectors * 512, stat.write_bytes());
    EXPECT_EQ(c.flush_ios, stat.flush_ios);
  }
}

TEST(BlockStatTest, DiffKeepsGaugeAndFlagsWrap) {
  BlockStat before;
  BlockStat after;
  before.read_sectors = 100;
  after.read_sectors = 350;
  before.in_flight = 4;
  after.in_flight = 1;
  bool wrapped = false;
  BlockStat d = DiffBlockStat(before, after, &wrapped);
  EXPECT_EQ(250u, d.read_sectors);
  EXPECT_EQ(1u, d.in_flight);
  EXPECT_FALSE(wrapped);
  after.write_ios = 0;
  before.write_ios = 9;
  d = DiffBlockStat(before, after, &wrapped);
  EXPECT_EQ(0u, d.write_ios);
  EXPECT_TRUE(wrapped);
}

TEST(BlockStatTest, ReadsThroughSysfs) {
  FakeBcacheSysfs fake;
  BlockStat stat;
  stat.write_sectors = 4096;
  fake.SetBlockStat("vdb", stat);
  BlockStat read;
  ASSERT_TRUE(ReadBlockStat(fake.sysfs(), "vdb", &read).ok());
  EXPECT_EQ(4096u * 512, read.write_bytes());
  EXPECT_EQ(Status::Code::kNotFound,
            ReadBlockStat(fake.sysfs(), "sdz", &read).code());
}

TEST(QueueSettingsTest, ReadsDiskBcacheAndPartition) {
  FakeBcacheSysfs fake;
  QueueSettings hdd = ReadQueueSettings(fake.sysfs(), "/dev/vda");
  EXPECT_EQ("vda", hdd.device);
  EXPECT_EQ("mq-deadline", hdd.scheduler);
  EXPECT_EQ("write back", hdd.write_cache);
  EXPECT_EQ(128, hdd.read_ahead_kb);
  EXPECT_EQ(512, hdd.logical_block_size);
  EXPECT_EQ(1, hdd.rotational);
  EXPECT_EQ(75000, hdd.wbt_lat_usec);

  QueueSettings bcache = ReadQueueSettings(fake.sysfs(), "bcache0");
  EXPECT_EQ("none", bcache.scheduler);
  EXPECT_EQ(-1, bcache.wbt_lat_usec);
  EXPECT_TRUE(bcache.ToJson()["wbt_lat_usec"].is_null());

  // A partition vda2 lives inside its disk's directory and has no queue.
  fake.Set("sys/devices/virtual/block/vda/vda2/partition", "2");
  fake.Set("sys/devices/virtual/block/vda/vda2/stat", "0 0 0 0 0 0 0 0 0 0 0");
  std::filesystem::create_directory_symlink(
      "../../devices/virtual/block/vda/vda2",
      fake.root() + "/sys/class/block/vda2");
  QueueSettings part = ReadQueueSettings(fake.sysfs(), "vda2");
  EXPECT_EQ("vda2", part.device);
  EXPECT_EQ("vda", part.queue_owner);
  EXPECT_EQ(1, part.rotational);

  QueueSettings missing = ReadQueueSettings(fake.sysfs(), "sdz");
  EXPECT_EQ("", missing.scheduler);
  EXPECT_EQ(-1, missing.rotational);
}

}  // namespace
}  // namespace tierbench
