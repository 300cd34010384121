// The device guard against signatures written by the real tools (mkfs.ext4,
// mkswap, mkfs.vfat, cryptsetup, sfdisk, make-bcache, pvcreate), probed by
// libblkid, and `tierbench run` refusing such a device end to end.
#include "io/device_guard.h"

#include <gtest/gtest.h>

#include <string>

#include "test_env.h"
#include "util/sysfs.h"

namespace tierbench {
namespace {

using testing::LoopDevice;
using testing::RunShell;
using testing::TempDir;

struct ToolImage {
  const char* name;
  const char* tool;     // on PATH
  const char* package;  // Debian package that has it
  const char* command;  // "%s" = the image file
  const char* expect;   // a substring of the signature
};

std::string Format(const char* command, const std::string& image) {
  std::string out = command;
  for (size_t at; (at = out.find("%s")) != std::string::npos;)
    out.replace(at, 2, image);
  return out;
}

TEST(DeviceGuardRealTest, SignaturesWrittenByTheTools) {
  const ToolImage cases[] = {
      {"ext4", "mkfs.ext4", "e2fsprogs", "mkfs.ext4 -q -F %s",
       "ext4 filesystem"},
      {"swap", "mkswap", "util-linux", "mkswap %s", "swap area"},
      {"vfat", "mkfs.vfat", "dosfstools", "mkfs.vfat %s", "vfat filesystem"},
      {"luks2", "cryptsetup", "cryptsetup-bin",
       "printf pw | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 "
       "--pbkdf-force-iterations 1000 --key-file - %s",
       "LUKS encrypted volume"},
      {"gpt", "sfdisk", "fdisk", "echo 'label: gpt' | sfdisk -q %s",
       "GPT partition table"},
      {"mbr", "sfdisk", "fdisk",
       "printf 'label: dos\\n,10MiB,83\\n' | sfdisk -q %s",
       "MBR (dos) partition table"},
      {"bcache backing", "make-bcache", "bcache-tools", "make-bcache -B %s",
       "bcache superblock"},
      {"bcache cache", "make-bcache", "bcache-tools", "make-bcache -C %s",
       "bcache superblock"},
  };
  TempDir dir;
  for (const ToolImage& c : cases) {
    SCOPED_TRACE(c.name);
    TIERBENCH_REQUIRE_TOOL(c.tool, c.package);
    const std::string image = dir.path() + "/image";
    ASSERT_EQ(RunShell("rm -f " + image + " && truncate -s 64M " + image), 0);
    std::string out;
    ASSERT_EQ(RunShell(Format(c.command, image) + " 2>&1", &out), 0) << out;
    std::string sig;
    ASSERT_TRUE(DetectSignature(image, &sig).ok());
    EXPECT_NE(sig.find(c.expect), std::string::npos) << sig;
    // wipefs -a (what the refusal tells the user) leaves nothing behind
    // (-f: a file is not a whole disk, where wipefs keeps partition tables).
    ASSERT_EQ(RunShell("wipefs -q -a -f " + image), 0);
    ASSERT_TRUE(DetectSignature(image, &sig).ok());
    EXPECT_EQ(sig, "");
  }
}

// An LVM physical volume needs a block device; the guard names it and
// `tierbench run --destructive` refuses to write there (exit 4).
TEST(DeviceGuardRealTest, RunRefusesAnLvmPhysicalVolumeAndALuksDevice) {
  TIERBENCH_REQUIRE_ROOT();
  TIERBENCH_REQUIRE_TOOL("pvcreate", "lvm2");
  TIERBENCH_REQUIRE_TOOL("cryptsetup", "cryptsetup-bin");
  LoopDevice loop(64u << 20);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  const std::string job = dir.path() + "/w.fio";
  ASSERT_EQ(
      RunShell("printf '[w]\\nfilename=" + loop.device() +
               "\\nrw=randwrite\\nbs=4k\\nsize=1m\\ndirect=1\\n' > " + job),
      0);
  const std::string run =
      std::string(TIERBENCH_BINARY) + " run --destructive " + job + " 2>&1";
  const struct {
    const char* make;
    const char* expect;
  } cases[] = {
      {"pvcreate -q -y %s", "LVM2 physical volume"},
      {"printf pw | cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 "
       "--pbkdf-force-iterations 1000 --key-file - %s",
       "LUKS encrypted volume"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.expect);
    std::string out;
    ASSERT_EQ(RunShell(Format(c.make, loop.device()) + " 2>&1", &out), 0)
        << out;
    std::string sig;
    ASSERT_TRUE(DetectSignature(loop.device(), &sig).ok());
    EXPECT_NE(sig.find(c.expect), std::string::npos) << sig;
    Status s = CheckDeviceWritable(loop.device(), Sysfs());
    EXPECT_EQ(s.code(), Status::Code::kBusy);
    EXPECT_NE(s.message().find("wipefs -a " + loop.device()), std::string::npos)
        << s.message();
    EXPECT_EQ(RunShell(run, &out), 4) << out;
    EXPECT_NE(out.find(c.expect), std::string::npos) << out;
    EXPECT_EQ(out.find('\n'), out.size() - 1) << "one line: " << out;
    ASSERT_EQ(RunShell("wipefs -q -a " + loop.device()), 0);
  }
  // Blank again: the write runs.
  std::string out;
  EXPECT_EQ(RunShell(run, &out), 0) << out;
}

}  // namespace
}  // namespace tierbench
