// verify= on a real loop device with the tierbench binary, and against the
// real fio (/usr/bin/fio, scripts/install-deps): (1) a randwrite job with
// verify=crc32c passes with 0 errors; (2) a block damaged behind
// tierbench's back (pwrite) is reported at its offset by a verify_only job
// and by a read job, which exit 1; (3) fio's verify_only accepts the blocks
// tierbench wrote (and finds the damage), and tierbench accepts the blocks
// fio wrote: the on-media format (fio's verify_header + trailer) matches.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "test_env.h"

namespace tierbench::testing {
namespace {

constexpr uint64_t kVerifyDeviceBytes = 64ull << 20;
constexpr const char* kJobSize = "16M";
constexpr uint64_t kBlocks = (16ull << 20) / 4096;

std::string VerifyReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class VerifyLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TIERBENCH_REQUIRE_ROOT();
    TIERBENCH_REQUIRE_TOOL("fio", "fio");
    loop_ = std::make_unique<LoopDevice>(kVerifyDeviceBytes);
    ASSERT_TRUE(loop_->ok()) << loop_->error();
  }

  // The job both tools run: fio option names, one line each.
  std::string Job(const std::string& rw, const std::string& verify,
                  const std::string& extra = "") const {
    return "[v]\nfilename=" + loop_->device() + "\nrw=" + rw +
           "\nbs=4k\nsize=" + kJobSize +
           "\nioengine=libaio\niodepth=16\ndirect=1\nverify=" + verify + "\n" +
           extra;
  }

  // Runs tierbench on `job`; returns the exit code, the JSON job object in
  // *json and stderr in *console.
  int Tierbench(const std::string& job, nlohmann::json* json,
                std::string* console) {
    const std::string file = dir_.path() + "/job.fio";
    std::ofstream(file) << job;
    const std::string out = dir_.path() + "/out.json";
    const int rc = RunShell(std::string(TIERBENCH_BINARY) +
                                " run --quiet --destructive --output-format "
                                "json --output " +
                                out + " " + file + " 2>&1",
                            console);
    const std::string text = VerifyReadAll(out);
    *json = text.empty() ? nlohmann::json()
                         : nlohmann::json::parse(text)["jobs"][0];
    return rc;
  }

  int Fio(const std::string& job, std::string* console) {
    const std::string file = dir_.path() + "/fio.fio";
    std::ofstream(file) << job;
    // In the temporary folder: a failing verify makes fio save its
    // *-verify.state files in the working directory.
    return RunShell("cd " + dir_.path() + " && fio --output-format=normal " +
                        file + " 2>&1",
                    console);
  }

  void Damage(uint64_t offset) {
    const int fd = ::open(loop_->device().c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    char bytes[16] = {};
    ASSERT_EQ(::pread(fd, bytes, sizeof(bytes), static_cast<off_t>(offset)),
              16);
    for (char& b : bytes) b = static_cast<char>(b ^ 0xff);
    ASSERT_EQ(::pwrite(fd, bytes, sizeof(bytes), static_cast<off_t>(offset)),
              16);
    ASSERT_EQ(::fsync(fd), 0);
    ::close(fd);
  }

  std::unique_ptr<LoopDevice> loop_;
  TempDir dir_;
};

TEST_F(VerifyLoopTest, RandwriteVerifiesThenDamageIsFoundAtItsOffset) {
  nlohmann::json j;
  std::string console;
  ASSERT_EQ(Tierbench(Job("randwrite", "crc32c"), &j, &console), 0) << console;
  EXPECT_EQ(j["verify_errors"], 0);
  EXPECT_EQ(j["verify_blocks"], kBlocks);
  EXPECT_EQ(j["write"]["total_ios"], kBlocks);

  const uint64_t bad = 777 * 4096;
  Damage(bad + 2048);  // payload of block 777
  EXPECT_EQ(
      Tierbench(Job("randwrite", "crc32c", "verify_only=1\n"), &j, &console), 1)
      << console;
  EXPECT_EQ(j["verify_errors"], 1);
  EXPECT_NE(console.find("crc32c: verify failed at file " + loop_->device() +
                         " offset " + std::to_string(bad) +
                         ", length 4096 (requested block: offset=" +
                         std::to_string(bad) + ", length=4096)"),
            std::string::npos)
      << console;
  EXPECT_NE(console.find("Expected CRC: "), std::string::npos);
  EXPECT_NE(console.find("Received CRC: "), std::string::npos);
  EXPECT_NE(console.find("err=84 (EILSEQ)"), std::string::npos);

  // A read job with verify= checks what it reads, here a damaged header.
  Damage(bad + 4096);  // magic of block 778
  EXPECT_EQ(Tierbench(Job("read", "crc32c", "continue_on_error=verify\n"), &j,
                      &console),
            1)
      << console;
  EXPECT_EQ(j["verify_errors"], 2);
  EXPECT_NE(console.find("verify: bad magic header"), std::string::npos);
  EXPECT_NE(
      console.find("offset " + std::to_string(bad + 4096) + ", length 4096"),
      std::string::npos)
      << console;
}

// The layout proof: each tool verifies what the other wrote.
TEST_F(VerifyLoopTest, FioAndTierbenchVerifyEachOthersBlocks) {
  // Types, and fio's verify_pattern / verify_offset forms (the value goes
  // after "verify=").
  for (const std::string type :
       {"crc32c", "md5", "meta", "meta\nverify_pattern=0xaa555aa5",
        "pattern\nverify_pattern=%o\"abc\"", "crc32c\nverify_offset=100"}) {
    SCOPED_TRACE(type);
    nlohmann::json j;
    std::string console;
    ASSERT_EQ(Tierbench(Job("randwrite", type, "do_verify=0\n"), &j, &console),
              0)
        << console;
    EXPECT_EQ(Fio(Job("randwrite", type, "verify_only=1\n"), &console), 0)
        << console;
    EXPECT_EQ(console.find("verify failed"), std::string::npos) << console;

    // fio writes (sequentially, other sizes of IO), tierbench verifies.
    ASSERT_EQ(
        Fio(Job("write", type, "do_verify=0\nbs=16k\nverify_interval=4k\n"),
            &console),
        0)
        << console;
    EXPECT_EQ(Tierbench(Job("read", type, "bs=16k\nverify_interval=4k\n"), &j,
                        &console),
              0)
        << console;
    EXPECT_EQ(j["verify_errors"], 0);
    EXPECT_EQ(j["verify_blocks"], kBlocks / 4);
    EXPECT_EQ(Tierbench(Job("write", type,
                            "verify_only=1\nbs=16k\nverify_interval=4k\n"),
                        &j, &console),
              0)
        << console;
    EXPECT_EQ(j["verify_blocks"], kBlocks / 4);
  }
  // fio finds damage in blocks tierbench wrote, at the same offset.
  nlohmann::json j;
  std::string console;
  ASSERT_EQ(
      Tierbench(Job("randwrite", "crc32c", "do_verify=0\n"), &j, &console), 0);
  Damage(100 * 4096 + 1000);
  EXPECT_NE(Fio(Job("randwrite", "crc32c", "verify_only=1\n"), &console), 0);
  EXPECT_NE(console.find("crc32c: verify failed at file " + loop_->device() +
                         " offset 409600, length 4096"),
            std::string::npos)
      << console;
}

}  // namespace
}  // namespace tierbench::testing
