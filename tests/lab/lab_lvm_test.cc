// Lab test of the lvmcache layer: `tierbench compare` on a REAL LVM cached
// LV (lvconvert --type cache --cachevol, /dev/tbvg/main) inside the QEMU
// guest (tierbench lab --layers lvmcache). Every mode is switched with
// lvchange and read back from the live dm table, cross-checked with lvs;
// afterwards LVM's mode, policy and settings and the dm table are what the
// guest built.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

TEST(LabLvm, LvmcacheModesReadBackAndTheLvIsRestored) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::vector<std::string> modes = {
      "lvmcache-writeback", "lvmcache-writethrough", "lvmcache-passthrough"};
  const std::vector<std::string> args = {
      kUndilated,
      // restore and read-back, not figures: cold
      "--cache-state", "cold", "--layers", "lvmcache", "--modes",
      Mode(modes[0]), Mode(modes[1]), Mode(modes[2]), "--workloads",
      Workload("randwrite-4k"), "--runtime", "2", "--size", "16M", "--results",
      dir.path(), "--run-id", "lab-lvm", kVerifyArg};
  TIERBENCH_RUN_LAB(args, 0);
  ExpectVerified(dir.path() + "/lab-lvm", {"lvmcache"});
  const std::string lab = dir.path() + "/lab-lvm/lab/";
  std::vector<CsvRow> rows = ReadCsv(dir.path() + "/lab-lvm/runs.csv");
  int seen = 0;
  for (const CsvRow& r : rows) {
    if (Get(r, "layer") != "lvmcache") continue;
    ++seen;
    const std::string mode = Get(r, "mode");
    EXPECT_EQ("lvmcache-" + Get(r, "cache_mode_readback"), mode)
        << "stack: " << ReadText(lab + "stack.txt");
    EXPECT_EQ(Get(r, "lvmcache_policy"), "smq") << mode;
    EXPECT_EQ(Get(r, "lvmcache_migration_threshold"), "2048") << mode;
  }
  EXPECT_GE(seen, 3) << output;
  for (const std::string& m : modes) {
    EXPECT_NE(Find(rows, m, "randwrite-4k", "write"), nullptr) << m;
  }
  // LVM's metadata and the dm table are back as the guest built them.
  const std::string before = ReadText(lab + "knobs-before.txt");
  EXPECT_NE(before.find("lvm:tbvg/main=writethrough"), std::string::npos)
      << before;
  EXPECT_NE(before.find("dm:tbvg-main="), std::string::npos) << before;
  EXPECT_EQ(ReadText(lab + "knobs-after.txt"), before)
      << ReadText(lab + "compare.log");
}

// SIGINT in the middle of a warm compare on lvmcache: the warm-up passes
// run, the cell's mode is set through lvchange, and 2 s later the guest
// interrupts compare, which puts the LV's mode, policy and settings back by
// itself before it exits 130.
TEST(LabLvm, InterruptedWarmCompareRestoresTheLv) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::vector<std::string> args = {kUndilated,
                                         "--cache-state",
                                         "warm",
                                         "--interrupt-compare",
                                         "--interrupt-signal",
                                         "INT",
                                         "--layers",
                                         "lvmcache",
                                         "--modes",
                                         Mode("lvmcache-writeback"),
                                         "--workloads",
                                         Workload("randwrite-4k"),
                                         "--runtime",
                                         "30",
                                         "--size",
                                         "64M",
                                         "--results",
                                         dir.path(),
                                         "--run-id",
                                         "lab-lvm-interrupt"};
  TIERBENCH_RUN_LAB(args, 0);
  const std::string lab = dir.path() + "/lab-lvm-interrupt/lab/";
  const std::string log = ReadText(lab + "compare.log");
  EXPECT_EQ(ReadText(lab + "compare-exit-code"), "130\n") << log;
  // The warm-up ran on the real LV before the interrupt (its passes read
  // the region in writethrough; the mode change that follows is what the
  // guest waits for before it sends SIGINT).
  EXPECT_NE(log.find("warm-up pass 1 of randwrite-4k: "), std::string::npos)
      << log;
  const std::string before = ReadText(lab + "knobs-before.txt");
  ASSERT_NE(before.find("lvm:tbvg/main=writethrough"), std::string::npos)
      << before;
  // Mid-run the LV really was changed...
  EXPECT_NE(ReadText(lab + "knobs-during.txt"), before);
  // ...and afterwards LVM's metadata and the dm table are the original.
  EXPECT_EQ(ReadText(lab + "knobs-after.txt"), before)
      << ReadText(lab + "compare.log");
}

}  // namespace
}  // namespace tierbench::labtest
