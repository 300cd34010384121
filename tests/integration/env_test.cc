// Checks the integration-test environment itself, so that a missing
// capability shows up as one visible skip reason rather than many.
#include <gtest/gtest.h>

#include "test_env.h"

namespace tierbench::testing {
namespace {

TEST(EnvTest, LoopDeviceComesAndGoes) {
  TIERBENCH_REQUIRE_ROOT();
  std::string dev;
  {
    LoopDevice loop(64ull << 20);
    ASSERT_TRUE(loop.ok()) << loop.error();
    dev = loop.device();
    std::string out;
    EXPECT_EQ(RunShell("losetup " + dev, &out), 0) << out;
  }
  std::string out;
  RunShell("losetup " + dev, &out);
  EXPECT_EQ(out.find("tierbench-test"), std::string::npos) << out;
}

}  // namespace
}  // namespace tierbench::testing
