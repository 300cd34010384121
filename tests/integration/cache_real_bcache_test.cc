// BcacheDevice against the REAL kernel bcache: builds a throwaway stack on two
// loop devices (make-bcache -B/-C), then checks the sysfs formats and
// behaviours the unit tests only emulate: mode read-back, size knobs written
// as bytes and shown as "4.0M", the writeback_percent clamp, capture/restore,
// detach/attach for a cold cache, and counters after the ~13.6 s lag.
// Skips visibly where bcache is missing (this development machine): it is
// meant for the lab guest (`tierbench lab`, Debian kernel with bcache.ko).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "cache/bcache/bcache_device.h"
#include "cache/bcache/bcache_layer.h"
#include "cache/layer_counters.h"
#include "real_bcache_stack.h"
#include "test_env.h"
#include "util/errors.h"

namespace tierbench::testing {
namespace {

TEST(CacheRealBcacheTest, ControlsARealStack) {
  TIERBENCH_REQUIRE_ROOT();
  if (!BcacheDevice::ModulePresent(Sysfs())) {
    GTEST_SKIP() << "SKIPPED: no bcache in this kernel (/sys/fs/bcache "
                    "missing); runs in the lab guest";
  }
  if (!HaveTool("make-bcache")) {
    GTEST_SKIP() << "SKIPPED: make-bcache not found (apt-get install "
                    "bcache-tools)";
  }
  RealBcacheStack stack;
  const std::string error = stack.Build();
  ASSERT_EQ("", error);
  BcacheDevice dev(Sysfs(), "/dev/" + stack.bcache());

  const BcacheTopology topo = dev.Topology();
  EXPECT_EQ(DeviceBase(stack.hdd()), topo.backing_name);
  ASSERT_EQ(1u, topo.cache_names.size());
  EXPECT_EQ(DeviceBase(stack.ssd()), topo.cache_names[0]);
  EXPECT_EQ(BcacheState::kClean, dev.State());

  const KnobSnapshot original = dev.Capture();
  EXPECT_EQ("4.0M", original.knobs.at("sequential_cutoff"));
  for (std::string_view mode : kCacheModes) {
    EXPECT_EQ(mode, dev.SetCacheMode(mode));
  }
  EXPECT_EQ("0.0k", dev.SetKnob("sequential_cutoff", "0"));
  EXPECT_EQ("4.0M", dev.SetKnob("sequential_cutoff", "4M"));
  EXPECT_THROW(dev.SetKnob("writeback_percent", "95"), SysError);  // Clamped.
  EXPECT_EQ("0", dev.SetCacheSetKnob("congested_read_threshold_us", "0"));

  // Writeback: direct writes become dirty data on the SSD.
  dev.SetCacheMode("writeback");
  dev.SetKnob("sequential_cutoff", "0");
  dev.SetKnob("writeback_running", "0");
  BcacheLayer layer(Sysfs(), "/dev/" + stack.bcache());
  const LayerCounters before = layer.TakeCounters();
  std::string out;
  ASSERT_EQ(0, RunShell("dd if=/dev/urandom of=/dev/" + stack.bcache() +
                            " bs=4k count=256 oflag=direct 2>&1",
                        &out))
      << out;
  ASSERT_EQ(0, RunShell("dd if=/dev/" + stack.bcache() +
                            " of=/dev/null bs=4k count=256 iflag=direct 2>&1",
                        &out))
      << out;
  EXPECT_EQ(BcacheState::kDirty, dev.State());
  EXPECT_GE(dev.DirtyBytes(), 1u << 20);
  std::this_thread::sleep_for(std::chrono::seconds(kStatsLagSeconds));
  const LayerDelta d =
      DiffLayerCounters(before, layer.TakeCounters(), layer.GaugeKeys());
  EXPECT_GE(d.common.read_hits, 200);  // The reads of the dirty data.
  EXPECT_GE(d.dirty_growth_bytes(), 1 << 20);
  EXPECT_GE(d.cache.write_bytes(), 1u << 20);
  EXPECT_LT(d.origin.write_bytes(), 1u << 20);  // Deferred.

  // Cold cache: detach writes the dirty data back, attach starts empty.
  dev.SetKnob("writeback_running", "1");
  dev.MakeCold(120);
  EXPECT_EQ(0u, dev.DirtyBytes());
  double drain = -1;
  EXPECT_TRUE(dev.WaitClean(60, 0.5, nullptr, &drain).ok());

  const RestoreReport report = dev.Restore(original);
  EXPECT_TRUE(report.ok()) << report.failures.front();
  EXPECT_EQ(original.cache_mode, dev.CacheMode());
}

}  // namespace
}  // namespace tierbench::testing
