#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cache/dm/dm_control.h"
#include "cache/dm/dm_status.h"
#include "support/fake_dm.h"

namespace tierbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// ---- dm-cache table ----

TEST(DmCacheTableTest, ParsesAndRoundTrips) {
  const struct {
    const char* text;
    bool ok;
    const char* mode;
  } cases[] = {
      // The lab recipe's table and mode switches.
      {"252:0 252:1 252:2 64 1 writeback smq 0", true, "writeback"},
      {"252:0 252:1 252:2 64 1 writethrough smq 0", true, "writethrough"},
      {"252:0 252:1 252:2 64 1 passthrough cleaner 0", true, "passthrough"},
      // lvmcache's live table (lab.md): metadata2 first, "mq" policy.
      {"252:3 252:2 252:4 128 2 metadata2 writeback mq 0", true, "writeback"},
      // No feature: the kernel's default is writeback.
      {"252:0 252:1 252:2 64 0 smq 2 migration_threshold 4096", true,
       "writeback"},
      {"8:16 8:32 8:48 512 3 metadata2 writethrough no_discard_passdown smq 0",
       true, "writethrough"},
      // Malformed.
      {"", false, ""},
      {"252:0 252:1 252:2", false, ""},
      {"252:0 252:1 252:2 x 1 writeback smq 0", false, ""},
      {"252:0 252:1 252:2 64 2 writeback smq 0", false, ""},  // count
      {"252:0 252:1 252:2 64 1 writeback smq 1 migration_threshold", false,
       ""},  // odd policy args
      {"252:0 252:1 252:2 64 1 writeback smq 0 extra", false, ""},
      {"252:0 252:1 252:2 64 1 frobnicate smq 0", false, ""},
      {"252:0 252:1 252:2 64 2 writeback passthrough smq 0", false, ""},
      {"252:0 252:1 252:2 64 1 writeback", false, ""},  // no policy
      {"252:0 252:1 252:2 -64 1 writeback smq 0", false, ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    DmCacheTable t;
    Status s = ParseDmCacheTable(c.text, &t);
    ASSERT_EQ(s.ok(), c.ok) << s.ToString();
    if (!c.ok) {
      EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
      EXPECT_THAT(s.message(), HasSubstr(std::string("\"") + c.text + "\""));
      continue;
    }
    EXPECT_EQ(t.IoMode(), c.mode);
    EXPECT_EQ(t.FormatParams(), c.text);
  }
}

TEST(DmCacheTableTest, FieldsAndSetIoModeKeepsOtherFeatures) {
  DmCacheTable t;
  ASSERT_TRUE(ParseDmCacheTable("252:3 252:2 252:4 128 3 metadata2 writeback "
                                "no_discard_passdown smq 2 "
                                "migration_threshold 2048",
                                &t)
                  .ok());
  EXPECT_EQ(t.metadata_dev, "252:3");
  EXPECT_EQ(t.cache_dev, "252:2");
  EXPECT_EQ(t.origin_dev, "252:4");
  EXPECT_EQ(t.block_sectors, 128u);
  EXPECT_EQ(t.policy, "smq");
  EXPECT_THAT(t.policy_args, ElementsAre(Pair("migration_threshold", "2048")));
  t.SetIoMode("passthrough");
  EXPECT_THAT(t.features,
              ElementsAre("metadata2", "passthrough", "no_discard_passdown"));
  EXPECT_EQ(t.FormatParams(),
            "252:3 252:2 252:4 128 3 metadata2 passthrough "
            "no_discard_passdown smq 2 migration_threshold 2048");

  DmCacheTable bare;
  ASSERT_TRUE(
      ParseDmCacheTable("1:1 1:2 1:3 64 1 metadata2 smq 0", &bare).ok());
  bare.SetIoMode("writethrough");
  EXPECT_EQ(bare.FormatParams(),
            "1:1 1:2 1:3 64 2 metadata2 writethrough smq 0");
}

// ---- dm-cache status ----

TEST(DmCacheStatusTest, ParsesKernelLines) {
  const struct {
    const char* text;
    bool ok;
    const char* mode;
    uint64_t dirty;
    uint64_t read_hits;
  } cases[] = {
      // As cache_status() prints them (note the trailing space).
      {"8 88/4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
       "2 migration_threshold 2048 smq 0 rw - ",
       true, "writeback", 8, 314},
      {"8 1067/4096 128 12/4096 0 0 0 0 0 0 0 2 metadata2 passthrough "
       "2 migration_threshold 2048 smq 0 rw -",
       true, "passthrough", 0, 0},
      {"8 200/4096 64 40/8192 1 2 3 4 5 6 0 3 metadata2 writethrough "
       "no_discard_passdown 2 migration_threshold 4096 cleaner 0 ro "
       "needs_check",
       true, "writethrough", 0, 1},
      // Malformed.
      {"", false, "", 0, 0},
      {"8 88-4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
       "2 migration_threshold 2048 smq 0 rw -",
       false, "", 0, 0},
      {"8 88/4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
       "2 migration_threshold 2048 smq 0 rx -",
       false, "", 0, 0},
      {"8 88/4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
       "2 migration_threshold 2048 smq 0 rw",
       false, "", 0, 0},
      {"8 88/4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
       "1 migration_threshold smq 0 rw -",
       false, "", 0, 0},
      {"8 88/4096 64 167/8192 314 471 1043 2718 0 165 8 1 writeback "
       "2 migration_threshold 2048 smq 0 rw - extra",
       false, "", 0, 0},
      {"8 88/4096 64 167/8192 314 471 1043 2718 0 165", false, "", 0, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    DmCacheStatus st;
    Status s = ParseDmCacheStatus(c.text, &st);
    ASSERT_EQ(s.ok(), c.ok) << s.ToString();
    if (!c.ok) {
      EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
      continue;
    }
    EXPECT_EQ(st.IoMode(), c.mode);
    EXPECT_EQ(st.dirty, c.dirty);
    EXPECT_EQ(st.read_hits, c.read_hits);
    DmCacheStatus again;
    ASSERT_TRUE(ParseDmCacheStatus(st.FormatParams(), &again).ok());
    EXPECT_EQ(again.FormatParams(), st.FormatParams());
  }
}

TEST(DmCacheStatusTest, EveryFieldInKernelOrder) {
  DmCacheStatus st;
  ASSERT_TRUE(
      ParseDmCacheStatus(
          "8 1067/4096 128 12/4096 1 2 3 4 5 6 7 2 metadata2 "
          "writethrough 2 migration_threshold 2048 smq 0 ro needs_check",
          &st)
          .ok());
  EXPECT_EQ(st.metadata_block_sectors, 8u);
  EXPECT_EQ(st.metadata_used, 1067u);
  EXPECT_EQ(st.metadata_total, 4096u);
  EXPECT_EQ(st.cache_block_sectors, 128u);
  EXPECT_EQ(st.cache_used, 12u);
  EXPECT_EQ(st.cache_total, 4096u);
  EXPECT_EQ(st.read_hits, 1u);
  EXPECT_EQ(st.read_misses, 2u);
  EXPECT_EQ(st.write_hits, 3u);
  EXPECT_EQ(st.write_misses, 4u);
  EXPECT_EQ(st.demotions, 5u);
  EXPECT_EQ(st.promotions, 6u);
  EXPECT_EQ(st.dirty, 7u);
  EXPECT_THAT(st.features, ElementsAre("metadata2", "writethrough"));
  EXPECT_THAT(st.core_args, ElementsAre(Pair("migration_threshold", "2048")));
  EXPECT_EQ(st.policy, "smq");
  EXPECT_TRUE(st.policy_args.empty());
  EXPECT_TRUE(st.read_only);
  EXPECT_TRUE(st.needs_check);
  EXPECT_EQ(st.FormatParams(),
            "8 1067/4096 128 12/4096 1 2 3 4 5 6 7 2 metadata2 writethrough 2 "
            "migration_threshold 2048 smq 0 ro needs_check");
}

TEST(DmCacheStatusTest, FailAndErrorNameTheFailure) {
  for (const char* text : {"Fail", "Fail ", "Error"}) {
    DmCacheStatus st;
    Status s = ParseDmCacheStatus(text, &st);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), Status::Code::kIoError);
    EXPECT_THAT(s.message(),
                HasSubstr(std::string("\"") +
                          std::string(SplitDmWords(text)[0]) + "\""));
  }
}

// ---- dm-writecache table ----

TEST(DmWritecacheTableTest, ParsesAndRoundTrips) {
  const struct {
    const char* text;
    bool ok;
    size_t nargs;
  } cases[] = {
      {"s 252:3 252:4 4096 0", true, 0},  // The lab recipe.
      {"p 259:0 259:1 4096 2 high_watermark 50", true, 1},
      {"s 8:16 8:32 4096 5 high_watermark 60 low_watermark 40 cleaner", true,
       3},
      // All of them, in the kernel's print order.
      {"s 8:16 8:32 4096 19 start_sector 2048 high_watermark 50 "
       "low_watermark 45 writeback_jobs 128 autocommit_blocks 65536 "
       "autocommit_time 1000 max_age 60000 cleaner nofua metadata_only "
       "pause_writeback 3000",
       true, 11},
      {"", false, 0},
      {"x 8:16 8:32 4096 0", false, 0},
      {"s 8:16 8:32 4096", false, 0},
      {"s 8:16 8:32 4096 1 high_watermark", false, 0},  // value missing
      {"s 8:16 8:32 4096 2 high_watermark x", false, 0},
      {"s 8:16 8:32 4096 1 turbo", false, 0},
      {"s 8:16 8:32 4096 2 fua nofua", false, 0},
      {"s 8:16 8:32 4096 2 cleaner cleaner", false, 0},
      {"s 8:16 8:32 4096 3 high_watermark 50", false, 0},  // count too big
      {"s 8:16 8:32 4096 0 cleaner", false, 0},            // trailing
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    DmWritecacheTable t;
    Status s = ParseDmWritecacheTable(c.text, &t);
    ASSERT_EQ(s.ok(), c.ok) << s.ToString();
    if (!c.ok) {
      EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
      continue;
    }
    EXPECT_EQ(t.args.size(), c.nargs);
    EXPECT_EQ(t.FormatParams(), c.text);
  }
}

TEST(DmWritecacheTableTest, SetAndRemoveArgs) {
  DmWritecacheTable t;
  ASSERT_TRUE(ParseDmWritecacheTable("s 252:3 252:4 4096 0", &t).ok());
  EXPECT_EQ(t.mode, 's');
  EXPECT_EQ(t.origin_dev, "252:3");
  EXPECT_EQ(t.cache_dev, "252:4");
  EXPECT_EQ(t.block_size, 4096u);
  ASSERT_TRUE(t.SetArg("high_watermark", "60").ok());
  ASSERT_TRUE(t.SetArg("cleaner", "").ok());
  ASSERT_TRUE(t.SetArg("high_watermark", "70").ok());  // replaced in place
  ASSERT_TRUE(t.SetArg("fua", "").ok());
  ASSERT_TRUE(t.SetArg("nofua", "").ok());  // replaces fua
  EXPECT_EQ(t.FormatParams(),
            "s 252:3 252:4 4096 4 high_watermark 70 cleaner nofua");
  std::string v;
  EXPECT_TRUE(t.GetArg("high_watermark", &v));
  EXPECT_EQ(v, "70");
  EXPECT_TRUE(t.RemoveArg("cleaner"));
  EXPECT_FALSE(t.RemoveArg("cleaner"));
  EXPECT_EQ(t.FormatParams(), "s 252:3 252:4 4096 3 high_watermark 70 nofua");
  EXPECT_FALSE(t.SetArg("turbo", "").ok());
  EXPECT_FALSE(t.SetArg("cleaner", "1").ok());
  EXPECT_FALSE(t.SetArg("max_age", "").ok());
  EXPECT_FALSE(t.SetArg("max_age", "-1").ok());
}

// ---- dm-writecache status ----

TEST(DmWritecacheStatusTest, ParsesSixOneAndOlderKernels) {
  const struct {
    const char* text;
    bool ok;
    bool has_counters;
    uint64_t free_blocks;
  } cases[] = {
      {"0 65280 61184 0 34729 34696 4096 0 0 0 4096 0 12 0", true, true, 61184},
      {"0 65280 65280 0", true, false, 65280},  // before Linux 5.15
      {"-5 65280 100 7", true, false, 100},     // error: -EIO
      {"", false, false, 0},
      {"0 65280 61184", false, false, 0},
      {"0 65280 61184 0 1", false, false, 0},
      {"0 65280 61184 0 1 2 3 4 5 6 7 8 9 10 11", false, false, 0},
      {"0 65280 61184 0 34729 x 4096 0 0 0 4096 0 12 0", false, false, 0},
      {"0 100 200 0", false, false, 0},  // free > total
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    DmWritecacheStatus st;
    Status s = ParseDmWritecacheStatus(c.text, &st);
    ASSERT_EQ(s.ok(), c.ok) << s.ToString();
    if (!c.ok) {
      EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
      continue;
    }
    EXPECT_EQ(st.has_counters, c.has_counters);
    EXPECT_EQ(st.free_blocks, c.free_blocks);
    EXPECT_EQ(st.FormatParams(), c.text);
  }
}

TEST(DmWritecacheStatusTest, CountersInKernelOrder) {
  DmWritecacheStatus st;
  ASSERT_TRUE(
      ParseDmWritecacheStatus("0 100 60 5 1 2 3 4 5 6 7 8 9 10", &st).ok());
  EXPECT_EQ(st.error, 0);
  EXPECT_EQ(st.total_blocks, 100u);
  EXPECT_EQ(st.free_blocks, 60u);
  EXPECT_EQ(st.under_writeback, 5u);
  EXPECT_EQ(st.used_blocks(), 40u);
  EXPECT_EQ(st.reads, 1u);
  EXPECT_EQ(st.read_hits, 2u);
  EXPECT_EQ(st.writes, 3u);
  EXPECT_EQ(st.write_hits_uncommitted, 4u);
  EXPECT_EQ(st.write_hits_committed, 5u);
  EXPECT_EQ(st.writes_around, 6u);
  EXPECT_EQ(st.writes_to_cache, 7u);
  EXPECT_EQ(st.writes_blocked_on_freelist, 8u);
  EXPECT_EQ(st.flushes, 9u);
  EXPECT_EQ(st.discards, 10u);
}

// ---- table lines ----

TEST(DmTargetTest, FormatsAndParsesLines) {
  DmTarget t;
  ASSERT_TRUE(ParseDmTarget("0 1048576 cache 252:0 252:1 252:2 64 1 "
                            "writeback smq 0",
                            &t)
                  .ok());
  EXPECT_EQ(t.start, 0u);
  EXPECT_EQ(t.length, 1048576u);
  EXPECT_EQ(t.type, "cache");
  EXPECT_EQ(t.params, "252:0 252:1 252:2 64 1 writeback smq 0");
  EXPECT_EQ(FormatDmTarget(t),
            "0 1048576 cache 252:0 252:1 252:2 64 1 writeback smq 0");
  EXPECT_FALSE(ParseDmTarget("0 1048576", &t).ok());
  EXPECT_FALSE(ParseDmTarget("0 -5 linear 8:0 0", &t).ok());
  EXPECT_FALSE(ParseDmTarget("x 5 linear 8:0 0", &t).ok());
}

// ---- the fake's kernel emulation ----

DmTarget CacheTarget(const std::string& params) {
  return DmTarget{0, 1048576, "cache", params};
}

DmCacheStatus CacheStatusOf(const FakeDmControl& dm, const std::string& name) {
  std::vector<DmTarget> status;
  EXPECT_TRUE(dm.GetStatus(name, &status).ok());
  DmCacheStatus st;
  EXPECT_EQ(status.size(), 1u);
  EXPECT_TRUE(ParseDmCacheStatus(status.at(0).params, &st).ok());
  return st;
}

TEST(FakeDmTest, ShippedLinesParse) {
  DmCacheTable ct;
  DmCacheStatus cs;
  DmWritecacheTable wt;
  DmWritecacheStatus ws;
  EXPECT_TRUE(ParseDmCacheTable(kFakeCacheTableParams, &ct).ok());
  EXPECT_TRUE(ParseDmCacheStatus(kFakeCacheStatusParams, &cs).ok());
  EXPECT_TRUE(ParseDmWritecacheTable(kFakeWritecacheTableParams, &wt).ok());
  EXPECT_TRUE(ParseDmWritecacheStatus(kFakeWritecacheStatusParams, &ws).ok());
}

TEST(FakeDmTest, InfoTableNameOfAndCalls) {
  FakeDmControl dm;
  dm.AddCacheDevice("tb-dmcache", 5);
  DmDeviceInfo info;
  ASSERT_TRUE(dm.Info("tb-dmcache", &info).ok());
  EXPECT_EQ(info.major, 252u);
  EXPECT_EQ(info.minor, 5u);
  EXPECT_EQ(info.target_count, 1);
  EXPECT_FALSE(info.suspended);
  EXPECT_EQ(dm.Info("nope", &info).code(), Status::Code::kNotFound);
  std::vector<DmTarget> table;
  EXPECT_EQ(dm.GetTable("nope", &table).code(), Status::Code::kNotFound);
  std::string name;
  ASSERT_TRUE(dm.NameOf(252, 5, &name).ok());
  EXPECT_EQ(name, "tb-dmcache");
  EXPECT_EQ(dm.NameOf(8, 0, &name).code(), Status::Code::kNotFound);
  EXPECT_THAT(dm.calls(),
              ElementsAre("info tb-dmcache", "info nope", "table nope",
                          "nameof 252:5", "nameof 8:0"));
}

TEST(FakeDmTest, ReloadSwitchesModeAndStatusFollows) {
  FakeDmControl dm;
  dm.AddCacheDevice("tb-dmcache", 5);
  dm.SetStatusParams("tb-dmcache",
                     "8 88/4096 64 167/8192 314 471 1043 2718 0 165 0 1 "
                     "writeback 2 migration_threshold 2048 smq 0 rw -");
  const std::string params =
      "252:0 252:1 252:2 64 2 metadata2 writethrough mq 2 "
      "migration_threshold 4096";
  ASSERT_TRUE(dm.Reload("tb-dmcache", {CacheTarget(params)}).ok());
  EXPECT_THAT(dm.calls(),
              ElementsAre("reload tb-dmcache: 0 1048576 cache " + params,
                          "suspend tb-dmcache", "resume tb-dmcache"));
  std::vector<DmTarget> table;
  ASSERT_TRUE(dm.GetTable("tb-dmcache", &table).ok());
  EXPECT_EQ(table.at(0).params, params);
  DmCacheStatus st = CacheStatusOf(dm, "tb-dmcache");
  EXPECT_THAT(st.features, ElementsAre("metadata2", "writethrough"));
  EXPECT_EQ(st.policy, "smq");  // mq is an alias of smq.
  EXPECT_THAT(st.core_args, ElementsAre(Pair("migration_threshold", "4096")));
  EXPECT_EQ(st.read_hits, 314u);  // Kept in the metadata.
  EXPECT_EQ(st.promotions, 0u);   // A new target instance.
  EXPECT_EQ(st.cache_used, 167u);
}

TEST(FakeDmTest, PassthroughWithDirtyBlocksIsRefusedAtLoad) {
  FakeDmControl dm;
  dm.AddCacheDevice("tb-dmcache", 5);  // Status: 8 dirty blocks.
  DmCacheTable t;
  ASSERT_TRUE(ParseDmCacheTable(kFakeCacheTableParams, &t).ok());
  t.SetIoMode("passthrough");
  Status s = dm.Reload("tb-dmcache", {CacheTarget(t.FormatParams())});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "reload tb-dmcache: device-mapper: reload ioctl on tb-dmcache  "
            "failed: Invalid argument");
  EXPECT_THAT(dm.kernel_log().at(0),
              HasSubstr("Cannot enter passthrough mode unless all blocks are "
                        "clean"));
  EXPECT_EQ(dm.calls().size(), 1u);  // No suspend: the load failed.
  std::vector<DmTarget> table;
  ASSERT_TRUE(dm.GetTable("tb-dmcache", &table).ok());
  EXPECT_EQ(table.at(0).params, kFakeCacheTableParams);
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").IoMode(), "writeback");

  // Once clean (the cleaner policy drained it), passthrough loads.
  DmCacheStatus st = CacheStatusOf(dm, "tb-dmcache");
  st.dirty = 0;
  dm.SetStatusParams("tb-dmcache", st.FormatParams());
  ASSERT_TRUE(dm.Reload("tb-dmcache", {CacheTarget(t.FormatParams())}).ok());
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").IoMode(), "passthrough");
}

TEST(FakeDmTest, BadTablesAreRefusedAndLeaveTheDevice) {
  FakeDmControl dm;
  dm.AddCacheDevice("tb-dmcache", 5);
  dm.AddWritecacheDevice("tb-wc", 6);
  EXPECT_EQ(dm.Reload("tb-dmcache",
                      {CacheTarget("252:0 252:1 252:2 64 1 turbo smq 0")})
                .code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(dm.Reload("tb-wc", {DmTarget{0, 1048576, "writecache",
                                         "s 252:3 252:4 4096 1 turbo"}})
                .code(),
            Status::Code::kInvalidArgument);
  EXPECT_EQ(dm.Reload("tb-none", {CacheTarget(kFakeCacheTableParams)}).code(),
            Status::Code::kNotFound);
  std::vector<DmTarget> table;
  ASSERT_TRUE(dm.GetTable("tb-wc", &table).ok());
  EXPECT_EQ(table.at(0).params, kFakeWritecacheTableParams);
  ASSERT_TRUE(dm.Reload("tb-wc", {DmTarget{0, 1048576, "writecache",
                                           "s 252:3 252:4 4096 1 cleaner"}})
                  .ok());
  ASSERT_TRUE(dm.GetTable("tb-wc", &table).ok());
  EXPECT_EQ(table.at(0).params, "s 252:3 252:4 4096 1 cleaner");
}

TEST(FakeDmTest, WritecacheFlushEmptiesTheCache) {
  FakeDmControl dm;
  dm.AddWritecacheDevice("tb-wc", 6);
  ASSERT_TRUE(dm.Message("tb-wc", 0, "flush").ok());
  std::vector<DmTarget> status;
  ASSERT_TRUE(dm.GetStatus("tb-wc", &status).ok());
  DmWritecacheStatus st;
  ASSERT_TRUE(ParseDmWritecacheStatus(status.at(0).params, &st).ok());
  EXPECT_EQ(st.free_blocks, st.total_blocks);
  EXPECT_EQ(st.writes, 4096u);  // Counters unchanged by a flush.
  ASSERT_TRUE(dm.Message("tb-wc", 0, "clear_stats").ok());
  ASSERT_TRUE(dm.GetStatus("tb-wc", &status).ok());
  ASSERT_TRUE(ParseDmWritecacheStatus(status.at(0).params, &st).ok());
  EXPECT_EQ(st.writes, 0u);
  EXPECT_EQ(dm.Message("tb-wc", 0, "frobnicate").code(),
            Status::Code::kInvalidArgument);
  dm.SetStatusParams("tb-wc", "-5 65280 100 0");
  EXPECT_EQ(dm.Message("tb-wc", 0, "flush").code(), Status::Code::kIoError);
  EXPECT_EQ(dm.calls().at(0), "message tb-wc 0 flush");
}

TEST(FakeDmTest, InvalidateCblocksOnlyInPassthrough) {
  FakeDmControl dm;
  dm.AddCacheDevice("tb-dmcache", 5);
  Status s = dm.Message("tb-dmcache", 0, "invalidate_cblocks 0-8192");
  EXPECT_EQ(s.code(), Status::Code::kPermissionDenied);
  EXPECT_THAT(
      dm.kernel_log().back(),
      HasSubstr("cache has to be in passthrough mode for invalidation"));
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").cache_used, 167u);

  dm.SetStatusParams("tb-dmcache",
                     "8 88/4096 64 167/8192 314 471 1043 2718 0 165 0 1 "
                     "passthrough 2 migration_threshold 2048 smq 0 rw -");
  ASSERT_TRUE(dm.Message("tb-dmcache", 0, "invalidate_cblocks 7 10-20").ok());
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").cache_used, 156u);
  ASSERT_TRUE(dm.Message("tb-dmcache", 0, "invalidate_cblocks 0-8192").ok());
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").cache_used, 0u);
  EXPECT_EQ(dm.Message("tb-dmcache", 0, "invalidate_cblocks 0-9000").code(),
            Status::Code::kInvalidArgument);
  ASSERT_TRUE(dm.Message("tb-dmcache", 0, "migration_threshold 8192").ok());
  EXPECT_THAT(CacheStatusOf(dm, "tb-dmcache").core_args,
              ElementsAre(Pair("migration_threshold", "8192")));
}

TEST(FakeDmTest, InjectedFailures) {
  FakeDmControl dm;
  dm.AddCacheDevice("tb-dmcache", 5);
  const std::string wt = "252:0 252:1 252:2 64 1 writethrough smq 0";

  dm.FailNext("suspend", Status::Busy("suspend tb-dmcache: busy"));
  EXPECT_EQ(dm.Reload("tb-dmcache", {CacheTarget(wt)}).code(),
            Status::Code::kBusy);
  EXPECT_THAT(dm.calls(),
              ElementsAre("reload tb-dmcache: 0 1048576 cache " + wt,
                          "suspend tb-dmcache", "clear tb-dmcache",
                          "resume tb-dmcache"));
  DmDeviceInfo info;
  ASSERT_TRUE(dm.Info("tb-dmcache", &info).ok());
  EXPECT_FALSE(info.suspended);
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").IoMode(), "writeback");

  dm.FailNext("resume", Status::IoError("resume tb-dmcache: I/O error"));
  EXPECT_EQ(dm.Reload("tb-dmcache", {CacheTarget(wt)}).code(),
            Status::Code::kIoError);
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").IoMode(), "writeback");

  dm.FailNext("", Status::IoError("anything"));
  std::vector<DmTarget> status;
  EXPECT_FALSE(dm.GetStatus("tb-dmcache", &status).ok());
  EXPECT_TRUE(dm.GetStatus("tb-dmcache", &status).ok());  // Only once.
  ASSERT_TRUE(dm.Reload("tb-dmcache", {CacheTarget(wt)}).ok());
  EXPECT_EQ(CacheStatusOf(dm, "tb-dmcache").IoMode(), "writethrough");
}

// The lines the real 6.1 kernel printed in the lab guest (dmsetup table /
// status of tb-dmcache, tb-writecache and the lvmcache LV tbvg/main, copied
// verbatim, trailing blank included) parse into what they say.
TEST(DmKernelLinesTest, LinesCapturedInTheLabGuestParse) {
  DmCacheTable t;
  ASSERT_TRUE(
      ParseDmCacheTable("252:0 252:1 253:2 64 1 writethrough smq 0", &t).ok());
  EXPECT_EQ(t.IoMode(), "writethrough");
  EXPECT_EQ(t.block_sectors, 64u);
  DmCacheStatus st;
  ASSERT_TRUE(ParseDmCacheStatus("8 23/4096 64 0/8192 0 0 0 0 0 0 0 1 "
                                 "writethrough 2 migration_threshold 2048 smq "
                                 "0 rw - ",
                                 &st)
                  .ok());
  EXPECT_EQ(st.cache_total, 8192u);
  EXPECT_EQ(st.IoMode(), "writethrough");
  EXPECT_FALSE(st.read_only);
  // lvmcache: metadata2, 64 KiB chunks, LVM's smq shown as the kernel's mq
  // alias with its ten legacy policy arguments.
  ASSERT_TRUE(ParseDmCacheTable(
                  "252:3 252:2 252:4 128 2 metadata2 writethrough mq 0", &t)
                  .ok());
  EXPECT_EQ(t.policy, "mq");
  ASSERT_TRUE(
      ParseDmCacheStatus(
          "8 17/2048 128 0/4096 0 0 0 0 0 0 0 2 metadata2 writethrough 2 "
          "migration_threshold 2048 mq 10 random_threshold 0 "
          "sequential_threshold 0 discard_promote_adjustment 0 "
          "read_promote_adjustment 0 write_promote_adjustment 0 rw -",
          &st)
          .ok());
  EXPECT_EQ(st.policy_args.size(), 5u);
  EXPECT_EQ(st.cache_total, 4096u);
  DmWritecacheTable wt;
  ASSERT_TRUE(ParseDmWritecacheTable("s 253:3 253:19 4096 0", &wt).ok());
  EXPECT_EQ(wt.block_size, 4096u);
  DmWritecacheStatus ws;
  ASSERT_TRUE(
      ParseDmWritecacheStatus("0 65280 65280 0 0 0 0 0 0 0 0 0 0 0", &ws).ok());
  EXPECT_TRUE(ws.has_counters);
  EXPECT_EQ(ws.used_blocks(), 0u);
}

}  // namespace
}  // namespace tierbench
