// CpuLatencyHold and ReadCpuPowerFacts on a fake root: the request is four
// bytes of binary s32 written once and held while the object lives; bad
// values and a missing PM QoS device fail with the option's name and a fix.
// The real /dev/cpu_dma_latency: tests/integration/cpu_latency_test.cc.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "util/cpu_latency.h"
#include "util/errors.h"
#include "util/sysfs.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

class CpuLatencyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() /
             ("tierbench-cpu-latency-" + std::to_string(::getpid())))
                .string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/dev");
  }
  void TearDown() override { fs::remove_all(root_); }

  void Put(const std::string& rel, const std::string& bytes) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel, std::ios::binary) << bytes;
  }
  std::string Get(const std::string& rel) {
    std::ifstream in(root_ + "/" + rel, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static std::string S32(int32_t v) {
    std::string b(4, '\0');
    std::memcpy(b.data(), &v, 4);
    return b;
  }

  std::string root_;
};

TEST_F(CpuLatencyTest, HoldWritesTheLimitAsABinaryS32) {
  Put("dev/cpu_dma_latency", "");
  const Sysfs root(root_);
  {
    const CpuLatencyHold hold(root, 0);
    EXPECT_EQ(hold.limit_us(), 0);
    EXPECT_EQ(Get("dev/cpu_dma_latency"), S32(0));
  }
  {
    const CpuLatencyHold hold(root, 20);
    EXPECT_EQ(Get("dev/cpu_dma_latency"), S32(20));
    EXPECT_EQ(ReadCpuLatencyLimit(root), 20);
  }
}

TEST_F(CpuLatencyTest, BadLimitsAreConfigErrorsNamingTheOption) {
  Put("dev/cpu_dma_latency", "");
  const Sysfs root(root_);
  for (const int64_t bad : {int64_t{-1}, kMaxCpuLatencyUs + 1}) {
    try {
      const CpuLatencyHold hold(root, bad);
      FAIL() << bad << " was taken";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("--cpu-latency"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(Get("dev/cpu_dma_latency"), "");  // nothing written
}

TEST_F(CpuLatencyTest, MissingDeviceIsASysErrorWithAFix) {
  const Sysfs root(root_);
  try {
    const CpuLatencyHold hold(root, 0);
    FAIL() << "held without dev/cpu_dma_latency";
  } catch (const SysError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(root_ + "/dev/cpu_dma_latency"), std::string::npos) << m;
    EXPECT_NE(m.find("Fix:"), std::string::npos) << m;
  }
  EXPECT_EQ(ReadCpuLatencyLimit(root), std::nullopt);
}

TEST_F(CpuLatencyTest, PowerFactsReadTheCpuidleAndCpufreqFiles) {
  const std::string cpu = "sys/devices/system/cpu/";
  Put(cpu + "cpuidle/current_driver", "haltpoll\n");
  Put(cpu + "cpuidle/current_governor", "haltpoll\n");
  Put(cpu + "cpu0/cpufreq/scaling_governor", "performance\n");
  Put(cpu + "cpu0/cpuidle/state0/name", "POLL\n");
  Put(cpu + "cpu0/cpuidle/state0/latency", "0\n");
  Put(cpu + "cpu0/cpuidle/state0/disable", "0\n");
  Put(cpu + "cpu0/cpuidle/state1/name", "haltpoll idle\n");
  Put(cpu + "cpu0/cpuidle/state1/latency", "1\n");
  Put(cpu + "cpu0/cpuidle/state1/disable", "1\n");
  Put("sys/module/haltpoll/parameters/guest_halt_poll_ns", "0\n");
  Put("dev/cpu_dma_latency", S32(2000000000));
  const CpuPowerFacts f = ReadCpuPowerFacts(Sysfs(root_));
  EXPECT_EQ(f.cpuidle_driver, "haltpoll");
  EXPECT_EQ(f.cpuidle_governor, "haltpoll");
  EXPECT_EQ(f.cpufreq_governor, "performance");
  ASSERT_EQ(f.idle_states.size(), 2u);
  EXPECT_EQ(f.idle_states[0].name, "POLL");
  EXPECT_EQ(f.idle_states[0].exit_latency_us, 0);
  EXPECT_FALSE(f.idle_states[0].disabled);
  EXPECT_EQ(f.idle_states[1].name, "haltpoll idle");
  EXPECT_EQ(f.idle_states[1].exit_latency_us, 1);
  EXPECT_TRUE(f.idle_states[1].disabled);
  EXPECT_EQ(f.guest_halt_poll_ns, 0);
  EXPECT_EQ(f.latency_limit_us, 2000000000);
}

TEST_F(CpuLatencyTest, PowerFactsOfAMachineWithoutThemAreEmpty) {
  const CpuPowerFacts f = ReadCpuPowerFacts(Sysfs(root_));
  EXPECT_EQ(f.cpuidle_driver, "");
  EXPECT_EQ(f.cpufreq_governor, "");
  EXPECT_TRUE(f.idle_states.empty());
  EXPECT_EQ(f.guest_halt_poll_ns, -1);
  EXPECT_EQ(f.latency_limit_us, std::nullopt);
}

}  // namespace
}  // namespace tierbench
