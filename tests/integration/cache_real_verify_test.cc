// compare --verify's check (orchestrate/verify_runner.h) on the REAL kernel
// bcache: a clean stack passes every step with dirty data after the writes,
// and a block changed behind the cache (on the backing device, between two
// mode switches) is found, with its LBA. Runs in the lab guest (after the
// compare of LabCompare.RealBcacheModesBehaveAsDocumented); skips visibly
// where bcache is missing (this development machine).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

#include "cache/bcache/bcache_device.h"
#include "cache/bcache/bcache_layer.h"
#include "io/aligned_buffer.h"
#include "orchestrate/verify_runner.h"
#include "real_bcache_stack.h"
#include "test_env.h"
#include "workload/verify_block.h"

namespace tierbench::testing {
namespace {

constexpr uint64_t kBytes = 4ull << 20;
constexpr uint64_t kChangedBlock = 100;
constexpr double kDrainTimeoutS = 60;

// Where bcache keeps LBA 0 of its device on the backing device: the first
// 512-byte aligned place in its first 1 MiB holding the check's block 0
// (fio's verify header: magic 0xacca, offset 0). -1 when not found.
int64_t DataOffset(int fd) {
  AlignedBuffer buf(1 << 20);
  if (::pread(fd, buf.data(), buf.size(), 0) !=
      static_cast<ssize_t>(buf.size())) {
    return -1;
  }
  const uint8_t* p = static_cast<const uint8_t*>(buf.data());
  for (size_t at = 0; at + kVerifyHeaderBytes <= buf.size(); at += 512) {
    const VerifyHeader h = DecodeVerifyHeader(p + at);
    if (h.magic == kVerifyMagic && h.offset == 0 &&
        h.len == kVerifyBlockBytes) {
      return static_cast<int64_t>(at);
    }
  }
  return -1;
}

TEST(CacheRealVerifyTest, FindsABlockChangedBehindTheCache) {
  TIERBENCH_REQUIRE_ROOT();
  if (!BcacheDevice::ModulePresent(Sysfs())) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI(
        "no bcache in this kernel (/sys/fs/bcache missing); scripts/test runs "
        "this test in the lab guest");
  }
  if (!HaveTool("make-bcache")) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI(
        "make-bcache not found (apt-get install bcache-tools)");
  }
  RealBcacheStack stack;
  ASSERT_EQ("", stack.Build());
  const std::string dev = "/dev/" + stack.bcache();
  BcacheLayer layer(Sysfs(), dev);
  layer.CaptureOriginal();

  VerifyRunOptions opts;
  opts.bytes = kBytes;
  opts.drain_timeout_s = kDrainTimeoutS;
  opts.nonce = 1;
  const VerifyOutcome good = VerifyRunner(opts).Run(layer, dev);
  EXPECT_TRUE(good.verified());
  EXPECT_EQ(good.steps.size(), 7u);
  EXPECT_GT(good.dirty_bytes_after_write, 0);
  for (const VerifyStep& s : good.steps) {
    EXPECT_EQ(s.errors, 0u) << s.step;
    if (s.step != "write" && s.step != "cold" && s.step != "warm") {
      EXPECT_EQ(s.mode, s.step);  // the mode read back from sysfs
    }
  }

  // Again with another nonce; after the "none" step everything is written
  // back and the cache emptied, then one block changes on the backing
  // device, behind bcache: the "cold" step must find it.
  opts.nonce = 2;
  std::string hook_error;
  opts.after_step = [&](const std::string& step) {
    if (step != "none") return;
    layer.MakeCold(kDrainTimeoutS);
    const int fd = ::open(stack.hdd().c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
    if (fd < 0) {
      hook_error = "open " + stack.hdd() + ": " + std::strerror(errno);
      return;
    }
    const int64_t base = DataOffset(fd);
    AlignedBuffer junk(kVerifyBlockBytes);
    std::memset(junk.data(), 0x5a, junk.size());
    if (base < 0) {
      hook_error = "no check data on " + stack.hdd();
    } else if (::pwrite(fd, junk.data(), junk.size(),
                        base + static_cast<int64_t>(kChangedBlock *
                                                    kVerifyBlockBytes)) !=
               static_cast<ssize_t>(junk.size())) {
      hook_error = "write " + stack.hdd() + ": " + std::strerror(errno);
    }
    ::close(fd);
  };
  const VerifyOutcome bad = VerifyRunner(opts).Run(layer, dev);
  ASSERT_EQ(hook_error, "");
  EXPECT_FALSE(bad.verified());
  EXPECT_EQ(bad.errors, 1u);
  ASSERT_FALSE(bad.steps.empty());
  EXPECT_EQ(bad.steps.back().step, "cold");
  ASSERT_EQ(bad.steps.back().mismatches.size(), 1u);
  const std::string lba =
      "LBA " + std::to_string(kChangedBlock * kVerifyBlockBytes / 512) + " ";
  EXPECT_EQ(bad.steps.back().mismatches[0].rfind(lba, 0), 0u)
      << bad.steps.back().mismatches[0];
  EXPECT_NE(bad.steps.back().mismatches[0].find("found magic 0x5a5a"),
            std::string::npos)
      << bad.steps.back().mismatches[0];

  const RestoreReport restored = layer.RestoreOriginal();
  EXPECT_TRUE(restored.ok());
  std::cout << "verify: bcache dirty after the writes "
            << good.dirty_bytes_after_write << " B, " << good.seconds
            << " s for " << good.steps.size() << " steps" << std::endl;
}

}  // namespace
}  // namespace tierbench::testing
