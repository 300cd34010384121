// Unit tests of the writeback cliff (lab/fill_record.h): the cliff found in
// per-second series, and a layer's row built from the guest's files.
#include "lab/fill_record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tierbench {
namespace {

// A layer whose writes run at `before` IOPS for `cliff_s` seconds, then at
// `after`, for `seconds` in all; dirty grows by 4 KiB per write.
FillLayer Series(std::vector<uint64_t> iops, uint64_t limit_bytes) {
  FillLayer l;
  l.layer = "dm-writecache";
  l.limit_bytes = limit_bytes;
  uint64_t dirty = 0;
  for (size_t i = 0; i < iops.size(); ++i) {
    FillSecond s;
    s.t_s = static_cast<double>(i);
    s.write_iops = iops[i];
    s.p99_us = iops[i] > 1000 ? 900.0 : 250000.0;
    dirty += iops[i] * 4096;
    s.dirty_bytes = dirty;
    l.seconds.push_back(s);
  }
  return l;
}

TEST(FillCliff, FindsTheSustainedFallAndInterpolatesIt) {
  // 2000 IOPS for 8 s, half of second 8 at that rate, then 200.
  FillLayer l = Series({2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 1100,
                        200, 200, 200, 200, 200, 200},
                       64ull << 20);
  FindCliff(&l);
  ASSERT_TRUE(l.cliff);
  EXPECT_DOUBLE_EQ(*l.iops_before, 2000);
  EXPECT_DOUBLE_EQ(*l.iops_at_cliff, 200);  // second 9: the first below half
  EXPECT_DOUBLE_EQ(*l.iops_after, 200);
  EXPECT_DOUBLE_EQ(*l.time_to_cliff_s, 8.5);
  EXPECT_DOUBLE_EQ(*l.predicted_time_to_cliff_s, 8.192);
  EXPECT_DOUBLE_EQ(*l.p99_before_us, 900);
  EXPECT_DOUBLE_EQ(*l.p99_at_cliff_us, 250000);  // the worst of 8-11
  EXPECT_EQ(*l.dirty_at_cliff_bytes, (8 * 2000 + 1100) * 4096ull);
}

TEST(FillCliff, AShortDipIsNoCliffNorIsASteadyRate) {
  FillLayer dip =
      Series({2000, 2000, 2000, 2000, 500, 2000, 2000, 2000}, 64ull << 20);
  FindCliff(&dip);
  EXPECT_FALSE(dip.cliff);
  EXPECT_FALSE(dip.time_to_cliff_s.has_value());
  FillLayer steady = Series({150, 150, 150, 150, 150, 150}, 0);
  steady.limit_bytes.reset();
  FindCliff(&steady);
  EXPECT_FALSE(steady.cliff);
  ASSERT_TRUE(steady.peak_dirty_bytes.has_value());
  EXPECT_EQ(*steady.peak_dirty_bytes, 6 * 150 * 4096ull);
}

TEST(FillCliff, RecoveryIsWhenTheDirtyDataIsUnderHalfTheLimit) {
  FillLayer l = Series({2000, 2000, 2000, 200, 200, 200}, 24ull << 20);
  for (uint64_t d : {20ull << 20, 13ull << 20, 11ull << 20}) {
    FillSecond s;
    s.t_s = static_cast<double>(l.seconds.size());
    s.drain = true;
    s.dirty_bytes = d;
    l.seconds.push_back(s);
  }
  FindCliff(&l);
  ASSERT_TRUE(l.cliff);
  // Second 8 ends under 12 MiB: 9 s after the start, 3 s after the writes.
  ASSERT_TRUE(l.time_to_recover_s.has_value());
  EXPECT_DOUBLE_EQ(*l.time_to_recover_s, 3);
}

TEST(FillRecord, BuildsALayerFromTheGuestsFiles) {
  const PowerCutRecord record = ParsePowerCutRecord(
      "bcache.device=/dev/bcache0\nbcache.cache_bytes=67108864\n"
      "bcache.writeback_percent=10\n"
      "bcache.job_rc=0\nbcache.job_end_ms=6300\nbcache.drain_end_ms=7400\n");
  const std::string json =
      R"({"jobs":[{"write":{"runtime":6300,"series":[)"
      R"({"t":0,"ios":2000,"bytes":8192000,"p99_ns":800000},)"
      R"({"t":1,"ios":2000,"bytes":8192000,"p99_ns":800000},)"
      R"({"t":2,"ios":2000,"bytes":8192000,"p99_ns":900000},)"
      R"({"t":3,"ios":150,"bytes":614400,"p99_ns":400000000},)"
      R"({"t":4,"ios":150,"bytes":614400,"p99_ns":400000000},)"
      R"({"t":5,"ios":150,"bytes":614400,"p99_ns":400000000},)"
      R"({"t":6,"ios":10,"bytes":40960}]}}]})";
  const std::string dirty =
      "400 3.1M\n900 7.8M\n1900 15.6M\n2900 23.4M\n3900 24.0M\n"
      "4900 24.0M\n5900 20.0M\n6900 16.0M\n";
  FillLayer l;
  Status s = FillLayerFromGuest("bcache", record, json, dirty, 2000, &l);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(l.cache_bytes, 64ull << 20);
  // No cutoff_writeback_sync line (no sysfs file on 6.1): the default.
  EXPECT_EQ(*l.limit_bytes, (64ull << 20) * 70 / 100);
  EXPECT_NE(l.limit.find("the kernel's default: not readable"),
            std::string::npos)
      << l.limit;
  // Six complete seconds of the job's 6.3 s (the partial seventh, with
  // its last 10 completions, left out), one watched.
  ASSERT_EQ(l.seconds.size(), 7u);
  EXPECT_FALSE(l.seconds[5].drain);
  EXPECT_TRUE(l.seconds[6].drain);
  EXPECT_FALSE(l.seconds[6].write_iops.has_value());
  EXPECT_DOUBLE_EQ(*l.seconds[3].p99_us, 400000);
  // bcache's "7.8M" (its own rounding) at the end of second 0.
  EXPECT_NEAR(static_cast<double>(*l.seconds[0].dirty_bytes), 7.8 * 1048576,
              1024);
  ASSERT_TRUE(l.cliff);
  EXPECT_DOUBLE_EQ(*l.time_to_cliff_s, 3);
  EXPECT_DOUBLE_EQ(*l.iops_before, 2000);
  EXPECT_DOUBLE_EQ(*l.p99_at_cliff_us, 400000);
}

TEST(FillRecord, NamesWhatIsMissing) {
  const std::string good_json =
      R"({"jobs":[{"write":{"runtime":1000,"series":[{"t":0,"ios":5}]}}]})";
  struct Case {
    std::string record, json, dirty, named;
  } cases[] = {
      {"", good_json, "1 1.0M\n", "no bcache.device line"},
      {"bcache.device=d\nbcache.job_rc=1\nbcache.job_end_ms=2000\n"
       "bcache.drain_end_ms=3000\n",
       good_json, "1 1.0M\n", "fill job failed (exit 1)"},
      {"bcache.device=d\nbcache.job_rc=0\nbcache.job_end_ms=2000\n"
       "bcache.drain_end_ms=3000\nbcache.cache_bytes=1\n"
       "bcache.cutoff_writeback_sync=70\n",
       "{}", "1 1.0M\n", "not a one-job report"},
      {"bcache.device=d\nbcache.job_rc=0\nbcache.job_end_ms=2000\n"
       "bcache.drain_end_ms=3000\nbcache.cache_bytes=1\n"
       "bcache.cutoff_writeback_sync=70\n",
       good_json, "", "no dirty reading"},
      {"bcache.device=d\nbcache.job_rc=0\nbcache.job_end_ms=2000\n"
       "bcache.drain_end_ms=3000\nbcache.cache_bytes=1\n"
       "bcache.cutoff_writeback_sync=70\n",
       R"({"jobs":[{"write":{"runtime":1000,"series":[{"t":0}]}}]})",
       "1 1.0M\n", "second 0 has no IO count"},
  };
  for (const Case& c : cases) {
    FillLayer l;
    Status s = FillLayerFromGuest("bcache", ParsePowerCutRecord(c.record),
                                  c.json, c.dirty, 2000, &l);
    EXPECT_FALSE(s.ok()) << c.named;
    EXPECT_NE(s.message().find(c.named), std::string::npos) << s.message();
  }
}

TEST(FillRecord, TheJobWritesRandom4kAtTheRate) {
  const std::string job = FillJobText(256ull << 20, 15, 2000);
  for (const char* line : {"rw=randwrite\n", "bs=4k\n", "direct=1\n",
                           "iodepth=32\n", "size=268435456\n", "time_based=1\n",
                           "runtime=15\n", "rate_iops=2000\n"}) {
    EXPECT_NE(job.find(line), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace tierbench
