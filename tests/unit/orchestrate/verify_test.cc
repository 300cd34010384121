// compare --verify (orchestrate/verify_runner.h) against the fake bcache
// sysfs: the check's steps and mode switches, a block changed behind the
// cache between two switches, stale data of an earlier run, the interrupt,
// the compare's wiring (manifest, runs.csv, restore, a failing check) and
// the option checks of PrepareCompare. The stack device is a regular file.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cache/registry/layer_kinds.h"
#include "cache/registry/layer_registry.h"
#include "orchestrate/compare_runner.h"
#include "orchestrate/prepare_compare.h"
#include "orchestrate/verify_runner.h"
#include "report/reporters.h"
#include "support/compare_scratch.h"
#include "support/fake_sysfs.h"
#include "util/csv_reader.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

std::string VerifyReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Overwrites 4 KiB block `block` of `path` with `byte`.
void Scribble(const std::string& path, uint64_t block, char byte) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(block * kVerifyBlockBytes));
  const std::string junk(kVerifyBlockBytes, byte);
  f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
}

// A fake bcache sysfs tree and a 1 MiB file standing for /dev/bcache0.
class FakeBcacheDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ResetInterruptForTest();
    fs::create_directories(fake_.root() + "/dev");
    device_ = fake_.root() + "/dev/bcache0";
    std::ofstream(device_).close();
    fs::resize_file(device_, 1 << 20);
  }
  void TearDown() override { ResetInterruptForTest(); }

  FakeBcacheSysfs fake_;
  std::string device_;
};

class VerifyTest : public FakeBcacheDeviceTest {
 protected:
  void SetUp() override {
    FakeBcacheDeviceTest::SetUp();
    layer_ = OpenCacheStack(HostOn(fake_.sysfs()), device_);
    layer_->set_sleep([](double) {});
  }

  VerifyRunOptions Options(uint64_t nonce) {
    VerifyRunOptions o;
    o.bytes = 64 * 1024;
    o.drain_timeout_s = 5;
    o.nonce = nonce;
    o.on_step = [this](const VerifyStep& s) { seen_.push_back(s.step); };
    return o;
  }

  std::unique_ptr<CacheLayer> layer_;
  std::vector<std::string> seen_;
};

TEST_F(VerifyTest, EveryLayerKindHasAnOrderOfItsOwnModesStartingInWriteback) {
  for (const LayerKind& k : AllLayerKinds()) {
    ASSERT_FALSE(k.verify_order.empty()) << k.name;
    EXPECT_EQ(k.verify_order.front(), "writeback") << k.name;
    for (const std::string& m : k.verify_order) {
      EXPECT_NE(std::find(k.modes.begin(), k.modes.end(), m), k.modes.end())
          << k.name << " " << m;
    }
  }
  EXPECT_EQ(VerifySteps({"writeback"}),
            (std::vector<std::string>{"write", "writeback", "cold", "warm"}));
}

TEST_F(VerifyTest, GoodDataPassesEveryStepInEveryMode) {
  const VerifyOutcome o = VerifyRunner(Options(7)).Run(*layer_, device_);
  EXPECT_TRUE(o.complete);
  EXPECT_TRUE(o.verified());
  EXPECT_EQ(o.errors, 0u);
  EXPECT_EQ(o.blocks, 16u);
  EXPECT_EQ(o.nonce, 7u);
  // Read from dirty_data (not -1, unknown); the fake's detach wrote the
  // data back and its writes make none dirty.
  EXPECT_EQ(o.dirty_bytes_after_write, 0);
  EXPECT_EQ(o.steps[0].dirty_bytes, 0);
  EXPECT_EQ(seen_,
            (std::vector<std::string>{"write", "writeback", "writethrough",
                                      "writearound", "none", "cold", "warm"}));
  ASSERT_EQ(o.steps.size(), 7u);
  for (size_t i = 1; i <= 4; ++i) {
    EXPECT_EQ(o.steps[i].mode, o.steps[i].step) << i;  // read back
    EXPECT_EQ(o.steps[i].blocks, 16u);
  }
  EXPECT_EQ(o.steps[5].mode, "writeback");  // cold, then the write mode
  // Emptied before the writes and for the cold step.
  EXPECT_EQ(fake_.WriteCount("sys/block/bcache0/bcache/detach"), 2);
  // The data is fio's verify=crc32c layout: magic 0xacca, type 5.
  const std::string data = VerifyReadAll(device_);
  EXPECT_EQ(static_cast<uint8_t>(data[0]), 0xca);
  EXPECT_EQ(static_cast<uint8_t>(data[1]), 0xac);
  EXPECT_EQ(static_cast<uint8_t>(data[2]), 5);
}

TEST_F(VerifyTest, ABlockChangedBehindTheCacheBetweenSwitchesIsFound) {
  VerifyRunOptions opts = Options(7);
  opts.after_step = [this](const std::string& step) {
    if (step == "writethrough") Scribble(device_, 5, 'x');
  };
  const VerifyOutcome o = VerifyRunner(opts).Run(*layer_, device_);
  EXPECT_FALSE(o.complete);
  EXPECT_FALSE(o.verified());
  EXPECT_EQ(o.errors, 1u);
  // The check stops at the bad step.
  EXPECT_EQ(seen_, (std::vector<std::string>{"write", "writeback",
                                             "writethrough", "writearound"}));
  const VerifyStep& bad = o.steps.back();
  EXPECT_EQ(bad.step, "writearound");
  EXPECT_EQ(bad.errors, 1u);
  ASSERT_EQ(bad.mismatches.size(), 1u);
  // LBA of block 5 in 512-byte sectors, what was expected and found.
  EXPECT_NE(bad.mismatches[0].find("LBA 40 (byte 20480)"), std::string::npos)
      << bad.mismatches[0];
  EXPECT_NE(bad.mismatches[0].find("expected a crc32c block for byte 20480"),
            std::string::npos)
      << bad.mismatches[0];
  EXPECT_NE(bad.mismatches[0].find("found magic 0x7878"), std::string::npos)
      << bad.mismatches[0];
}

TEST_F(VerifyTest, ValidDataOfAnEarlierRunDoesNotPass) {
  ASSERT_TRUE(VerifyRunner(Options(1)).Run(*layer_, device_).verified());
  const std::string earlier = VerifyReadAll(device_);
  VerifyRunOptions opts = Options(2);
  opts.after_step = [&](const std::string& step) {
    // The stack "loses" this run's writes and shows the earlier run's.
    if (step == "write") std::ofstream(device_, std::ios::binary) << earlier;
  };
  const VerifyOutcome o = VerifyRunner(opts).Run(*layer_, device_);
  EXPECT_EQ(o.errors, 16u);
  EXPECT_EQ(o.steps.back().step, "writeback");
  EXPECT_EQ(o.steps.back().mismatches.size(), kVerifyMismatchesKept);
}

TEST_F(VerifyTest, AnInterruptStopsTheCheck) {
  VerifyRunOptions opts = Options(7);
  opts.after_step = [](const std::string& step) {
    if (step == "writeback") RaiseInterruptForTest(SIGINT);
  };
  EXPECT_THROW(VerifyRunner(opts).Run(*layer_, device_), InterruptedError);
  EXPECT_EQ(seen_, (std::vector<std::string>{"write", "writeback"}));
}

class VerifyCompareTest : public FakeBcacheDeviceTest {
 protected:
  CompareOptions Options(const std::string& run_id) {
    CompareOptions o = scratch_.Options(
        {device_},
        {scratch_.Mode("wb",
                       "\"layer\": \"bcache\", \"cache_mode\": "
                       "\"writeback\"")},
        run_id);
    o.verify_bytes = 32 * 1024;
    o.stats_lag_s = 0;
    o.drain_timeout_s = 5;
    return o;
  }
  Host TestHost() {
    Host h;
    h.sysfs = fake_.sysfs();
    h.sleep = [](double) {};
    return h;
  }
  CompareHooks Hooks() {
    CompareHooks h;
    h.verify_nonce = 42;
    return h;
  }
  nlohmann::json Manifest(const std::string& run_id) {
    return nlohmann::json::parse(VerifyReadAll(scratch_.dir() + "/results/" +
                                               run_id + "/manifest.json"));
  }

  CompareScratch scratch_{fake_.root()};
};

TEST_F(VerifyCompareTest, VerifiedRunRecordsTheCheckAndRestoresTheMode) {
  std::ostringstream out;
  const CompareSummary s = CompareRunner(Options("v"), TestHost(), Hooks())
                               .Run(MakeCompareReporters(out));
  EXPECT_EQ(s.failed_cells, 0u);
  EXPECT_EQ(fake_.GetBacking("cache_mode"),
            "[writethrough] writeback writearound none");
  const nlohmann::json m = Manifest("v");
  EXPECT_EQ(m["options"]["verify_bytes"], 32 * 1024);
  ASSERT_EQ(m["verify"]["stacks"].size(), 1u);
  const nlohmann::json& v = m["verify"]["stacks"][0];
  EXPECT_EQ(v["verified"], true);
  EXPECT_EQ(v["errors"], 0);
  EXPECT_EQ(v["blocks"], 8);
  EXPECT_EQ(v["nonce"], 42);
  EXPECT_EQ(v["steps"].size(), 7u);
  EXPECT_NE(out.str().find("Verified: " + device_), std::string::npos)
      << out.str();

  const CsvDocument runs = CsvDocument::Parse(
      VerifyReadAll(scratch_.dir() + "/results/v/runs.csv"), "runs.csv");
  ASSERT_GT(runs.row_count(), 0u);
  for (size_t r = 0; r < runs.row_count(); ++r) {
    const bool raw = runs.Get(r, "layer") == "raw";
    EXPECT_EQ(runs.Get(r, "verify_blocks"), raw ? "" : "8") << r;
    EXPECT_EQ(runs.Get(r, "verify_errors"), raw ? "" : "0") << r;
  }
}

TEST_F(VerifyCompareTest, ADifferenceFailsTheRunBeforeTheCellsAndRestores) {
  CompareHooks h = Hooks();
  h.after_verify_step = [this](const std::string& device,
                               const std::string& step) {
    EXPECT_EQ(device, device_);
    if (step == "none") Scribble(device_, 3, 0);
  };
  std::ostringstream out;
  try {
    CompareRunner(Options("bad"), TestHost(), h).Run(MakeCompareReporters(out));
    FAIL() << "no error";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1 of 8 blocks differ on " + device_),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("after step cold"), std::string::npos) << what;
    EXPECT_NE(what.find("LBA 24"), std::string::npos) << what;
  }
  EXPECT_EQ(fake_.GetBacking("cache_mode"),
            "[writethrough] writeback writearound none");
  const nlohmann::json m = Manifest("bad");
  EXPECT_EQ(m["verify"]["stacks"][0]["verified"], false);
  EXPECT_EQ(m["verify"]["stacks"][0]["errors"], 1);
  EXPECT_EQ(m["cells"]["finished"], 0);
  EXPECT_EQ(m["status"].get<std::string>().rfind("failed: --verify", 0), 0u);
}

TEST_F(VerifyCompareTest, BadSizesAndMissingDestructiveAreRefused) {
  const Host env = HostOn(fake_.sysfs());
  CompareOptions o = Options("x");
  o.verify_bytes = 4096 + 512;
  EXPECT_THROW(PrepareCompare(o, env), ConfigError);
  o.verify_bytes = 2 << 20;  // the stack is 1 MiB
  try {
    PrepareCompare(o, env);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("bigger than the stack"),
              std::string::npos)
        << e.what();
  }
  // A read-only workload needs no --destructive; --verify writes.
  o.verify_bytes = 4096;
  o.destructive = false;
  const std::string read_job = scratch_.dir() + "/r.fio";
  std::ofstream(read_job)
      << "[r]\nrw=randread\nbs=4k\nsize=256k\nioengine=psync\n";
  o.workload_paths = {read_job};
  try {
    PrepareCompare(o, env);
    FAIL() << "no error";
  } catch (const SafetyError& e) {
    EXPECT_NE(std::string(e.what()).find("--verify writes"), std::string::npos)
        << e.what();
  }
  o.verify_bytes = 0;
  EXPECT_NO_THROW(PrepareCompare(o, env));
}

}  // namespace
}  // namespace tierbench
