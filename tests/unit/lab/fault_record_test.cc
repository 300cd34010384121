// Unit tests of the fault guest's record (lab/fault_record.h): the lines
// below are dm-cache's and bcache's from a `tierbench lab --fault
// cache-fail` run in the lab (kernel 6.1), shortened where marked.
#include "lab/fault_record.h"

#include <gtest/gtest.h>

#include <string>

#include "lab/lab_fault.h"

namespace tierbench {
namespace {

const char kOk[] =
    R"({"blocks":256,"written":256,"write_errors":0,"synced":true,"acknowledged":256,"first_error":""})";

std::string DmCacheLines() {
  return std::string("dm-cache.device=/dev/mapper/tb-f-dc\n") +
         "dm-cache.fault=cache-fail\n"
         "dm-cache.write1=" +
         kOk + "\n" + "dm-cache.write2=" + kOk + "\n" +
         "dm-cache.table=0 1046528 cache 252:6 252:7 252:5 64 1 writeback "
         "smq 2 migration_threshold 0\n"
         "dm-cache.status=0 1046528 cache 8 27/4096 64 256/8192 0 0 0 256 "
         "0 256 256 1 writeback 2 migration_threshold 0 smq 0 rw -\n"
         "dm-cache.io_pass1=" +
         kOk + "\n" + "dm-cache.io_pass2=" + kOk + "\n" +
         "dm-cache.io_passes_before=2\n"
         "dm-cache.io_pass3={\"blocks\":256,\"written\":169,\"write_errors\":"
         "87,\"synced\":true,\"acknowledged\":169,\"first_error\":\"block 169 "
         "(offset 13926400): Input/output error\"}\n"
         "dm-cache.io_pass4={\"blocks\":256,\"written\":0,\"write_errors\":"
         "256,\"synced\":true,\"acknowledged\":0,\"first_error\":\"block 0 "
         "(offset 8388608): Input/output error\"}\n"
         "dm-cache.writer=done (exit 0)\n"
         "dm-cache.state_after=0 1046528 cache Error\n"
         "dm-cache.stack_read={\"blocks\":256,\"intact\":0,\"stale\":0,"
         "\"lost\":256,\"corrupt\":0,\"silent\":0,\"first_error\":\"block 0 "
         "(offset 0): Input/output error\",\"first_corrupt\":\"\"}\n"
         "dm-cache.kernel=device-mapper: cache: 252:5: metadata operation "
         "'dm_cache_commit' failed: error = -5|\n"
         "dm-cache.recovery=reload with the cleaner policy: refused (Command "
         "failed.); uncache (the origin alone)\n"
         "dm-cache.recovery_ms=569\n"
         "dm-cache.recovered_state=0 1046528 linear\n"
         "dm-cache.recovered_read={\"blocks\":256,\"intact\":0,\"stale\":256,"
         "\"lost\":0,\"corrupt\":0,\"silent\":256,\"first_error\":\"\","
         "\"first_corrupt\":\"\"}\n"
         "dm-cache.usable_after_ms=2840\n"
         "dm-cache.origin_read={\"blocks\":256,\"intact\":0,\"stale\":256,"
         "\"lost\":0,\"corrupt\":0,\"silent\":256,\"first_error\":\"\","
         "\"first_corrupt\":\"\"}\n";
}

TEST(FaultRecord, BuildsTheRowOfALayer) {
  FaultLayer l;
  ASSERT_TRUE(
      FaultLayerFromGuest("dm-cache", ParsePowerCutRecord(DmCacheLines()), &l)
          .ok());
  EXPECT_EQ(l.device, "/dev/mapper/tb-f-dc");
  EXPECT_EQ(l.fault, "cache-fail");
  EXPECT_EQ(l.blocks, 256u);
  EXPECT_EQ(l.block_bytes, 32768u);
  EXPECT_EQ(l.dirty_bytes_at_fault, 256u * 32768);
  EXPECT_EQ(l.dirty_at_fault, "256 x 32 KiB");
  // Passes 1 and 2 ended before the fault: only 3 and 4 count.
  EXPECT_EQ(l.writer_blocks, 512u);
  EXPECT_EQ(l.writer_errors, 87u + 256u);
  EXPECT_EQ(l.writer_first_error,
            "block 169 (offset 13926400): Input/output error");
  EXPECT_FALSE(l.writer_hung);
  EXPECT_EQ(l.stack.lost, 256u);
  EXPECT_FALSE(l.stack.gone);
  EXPECT_EQ(l.recovered.stale, 256u);
  EXPECT_EQ(l.origin.stale, 256u);
  EXPECT_EQ(l.recovery_ms, 569);
  ASSERT_TRUE(l.usable_again_ms.has_value());
  EXPECT_EQ(*l.usable_again_ms, 2840);
  EXPECT_EQ(FaultVerdict(l), "errors");
}

TEST(FaultRecord, GoneAndHungReadsCountEveryBlockLost) {
  std::string lines = DmCacheLines();
  lines += "dm-cache.stack_read=gone\ndm-cache.recovered_read=hung\n";
  FaultLayer l;
  ASSERT_TRUE(
      FaultLayerFromGuest("dm-cache", ParsePowerCutRecord(lines), &l).ok());
  EXPECT_TRUE(l.stack.gone);
  EXPECT_EQ(l.stack.lost, 256u);
  EXPECT_TRUE(l.recovered.hung);
  EXPECT_EQ(l.recovered.lost, 256u);
  // Never usable again within the run.
  EXPECT_FALSE(l.usable_again_ms.has_value());
}

TEST(FaultRecord, MissingOrBadLinesAreNamed) {
  struct Case {
    std::string extra;  // appended: a later line wins
    std::string named;
  } cases[] = {
      {"dm-cache.write2={\"blocks\":256,\"written\":255,\"write_errors\":1,"
       "\"synced\":true,\"acknowledged\":255,\"first_error\":\"x\"}\n",
       "acknowledged 255 of 256"},
      // Generation 1 not whole on the origin: stale and corrupt would mix.
      {"dm-cache.write1={\"blocks\":256,\"written\":256,\"write_errors\":0,"
       "\"synced\":false,\"acknowledged\":0,\"first_error\":\"x\"}\n",
       "dm-cache.write1 acknowledged 0 of 256"},
      {"dm-cache.stack_read={\"blocks\":256,\"intact\":1}\n",
       "dm-cache.stack_read has no count 'stale'"},
      {"dm-cache.origin_read={\"error\":\"exit 2: no device\"}\n",
       "check-blocks failed: exit 2"},
      {"dm-cache.recovered_read={\"blocks\":256,\"intact\":0,\"stale\":0,"
       "\"lost\":0,\"corrupt\":0}\n",
       "counts 0 of 256"},
      {"dm-cache.recovery_ms=soon\n", "dm-cache.recovery_ms 'soon'"},
      {"dm-cache.io_passes_before=0\n", "did not finish a pass"},
      {"dm-cache.status=0 1046528 linear\n", "not a dm-cache status"},
  };
  for (const Case& c : cases) {
    FaultLayer l;
    Status s = FaultLayerFromGuest(
        "dm-cache", ParsePowerCutRecord(DmCacheLines() + c.extra), &l);
    EXPECT_FALSE(s.ok()) << c.named;
    EXPECT_NE(s.message().find(c.named), std::string::npos) << s.message();
  }
  for (const char* key : {"writer", "usable_after_ms", "state_after"}) {
    std::string lines;
    for (size_t at = 0, next; at < DmCacheLines().size(); at = next + 1) {
      next = DmCacheLines().find('\n', at);
      const std::string line = DmCacheLines().substr(at, next - at);
      if (line.rfind(std::string("dm-cache.") + key + "=", 0) != 0)
        lines += line + "\n";
    }
    FaultLayer l;
    Status s = FaultLayerFromGuest("dm-cache", ParsePowerCutRecord(lines), &l);
    EXPECT_NE(s.message().find(std::string("no dm-cache.") + key + " line"),
              std::string::npos)
        << s.message();
  }
}

// cache-unplug is a fault of the three dm-switchable layers; its lab.conf
// names the size of the cache disks the host adds, dm-cache's SSD region.
TEST(LabFaultConf, CacheUnplugNamesItsDisksSize) {
  EXPECT_TRUE(CheckFault("cache-unplug", FaultLayers()).ok());
  EXPECT_FALSE(CheckFault("cache-unplug", {"lvmcache"}).ok());
  EXPECT_FALSE(CheckFault("cache-melt", FaultLayers()).ok());
  LabOptions o;
  const uint64_t bytes = FaultUnplugDiskBytes(o.ssd_bytes);
  // 256 MiB of cache plus dm-cache's 16 MiB of metadata.
  EXPECT_EQ(bytes, (256ull + 16) << 20);
  const std::string conf = FaultConfText(o, "r1", "cache-unplug", 8);
  EXPECT_NE(conf.find("\nFAULT=cache-unplug\nFAULT_MIB=8\nUNPLUG_SECTORS=" +
                      std::to_string(bytes / 512) + "\n"),
            std::string::npos)
      << conf;
  EXPECT_EQ(FaultConfText(o, "r1", "cache-fail", 8).find("UNPLUG_SECTORS"),
            std::string::npos);
  EXPECT_EQ(FaultUnplugDriveId("dm-cache"), "cache-dm-cache");
}

}  // namespace
}  // namespace tierbench
