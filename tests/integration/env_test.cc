// Checks the integration-test environment itself, so that a missing
// capability shows up as one visible skip reason rather than many.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_env.h"

namespace tierbench::testing {
namespace {

TEST(EnvTest, LoopDeviceComesAndGoes) {
  TIERBENCH_REQUIRE_ROOT();
  std::string image;
  {
    LoopDevice loop(64ull << 20);
    ASSERT_TRUE(loop.ok()) << loop.error();
    image = loop.image();
    std::string out;
    EXPECT_EQ(RunShell("losetup -j " + image, &out), 0) << out;
    EXPECT_NE(out.find(loop.device()), std::string::npos) << out;
  }
  // Other tests may reuse the device number at once: check by image instead.
  std::string out;
  RunShell("losetup -j " + image, &out);
  EXPECT_EQ(out, "") << out;
  EXPECT_FALSE(std::filesystem::exists(image));
}

}  // namespace
}  // namespace tierbench::testing
