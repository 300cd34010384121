// Device guard against a fake /proc and /sys tree and against image files
// carrying each known signature.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/device_guard.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

class FakeHost {
 public:
  FakeHost() {
    root_ =
        fs::temp_directory_path() / ("tb-guard-" + std::to_string(::getpid()) +
                                     "-" + std::to_string(counter_++));
    fs::create_directories(root_ / "proc/self");
    fs::create_directories(root_ / "sys/class/block/loop7/holders");
    fs::create_directories(root_ / "sys/class/block/loop7/loop7p1/holders");
    Write("sys/class/block/loop7/dev", "7:7\n");
    Write("sys/class/block/loop7/loop7p1/dev", "259:3\n");
    Write("sys/class/block/loop7/loop7p1/partition", "1\n");
    Write("proc/self/mountinfo",
          "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
          "23 22 0:21 / /proc rw shared:2 - proc proc rw\n");
    Write("proc/swaps", "Filename Type Size Used Priority\n");
    paths_ = Sysfs(root_.string());
  }
  ~FakeHost() { fs::remove_all(root_); }

  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(root_ / rel) << text;
  }
  void Append(const std::string& rel, const std::string& text) {
    std::ofstream(root_ / rel, std::ios::app) << text;
  }
  void AddHolder(const std::string& rel_dir, const std::string& holder) {
    fs::create_directories(root_ / rel_dir / "holders" / holder);
  }
  const Sysfs& paths() const { return paths_; }
  fs::path root() const { return root_; }

 private:
  static inline int counter_ = 0;
  fs::path root_;
  Sysfs paths_;
};

const BlockDeviceId kLoop7{7, 7, "loop7"};

TEST(DeviceGuardTest, InUseCases) {
  struct Case {
    const char* name;
    const char* mountinfo_line;  // appended to mountinfo ("" = none)
    const char* swaps_line;      // appended to swaps
    const char* holder_dir;      // gets a holder ("" = none)
    const char* expect;          // substring of the message, "" = OK
  } cases[] = {
      {"clean", "", "", "", ""},
      {"mounted by devnum", "40 22 7:7 / /mnt/data rw - ext4 /dev/loop7 rw\n",
       "", "", "/dev/loop7 is mounted on /mnt/data"},
      {"partition mounted", "41 22 259:3 / /mnt/p1 rw - xfs /dev/loop7p1 rw\n",
       "", "", "/dev/loop7p1 is mounted on /mnt/p1"},
      {"btrfs anonymous devnum, matched by source",
       "42 22 0:45 / /mnt/b rw - btrfs /dev/loop7 rw\n", "", "",
       "mounted on /mnt/b"},
      {"other device mounted", "43 22 7:8 / /mnt/o rw - ext4 /dev/loop8 rw\n",
       "", "", ""},
      {"swap", "", "/dev/loop7 partition 1024 0 -2\n", "", "active swap"},
      {"held by bcache", "", "", "sys/class/block/loop7", "held by bcache0"},
      {"partition held", "", "", "sys/class/block/loop7/loop7p1",
       "/dev/loop7p1 is held"},
  };
  for (const Case& c : cases) {
    FakeHost host;
    host.Append("proc/self/mountinfo", c.mountinfo_line);
    host.Append("proc/swaps", c.swaps_line);
    if (*c.holder_dir) host.AddHolder(c.holder_dir, "bcache0");
    Status s = CheckDeviceNotInUse(kLoop7, host.paths());
    if (*c.expect == '\0') {
      EXPECT_TRUE(s.ok()) << c.name << ": " << s.ToString();
    } else {
      EXPECT_EQ(s.code(), Status::Code::kBusy) << c.name;
      EXPECT_NE(s.message().find(c.expect), std::string::npos)
          << c.name << ": " << s.message();
    }
  }
}

// fio's allow_mounted_write=1 lets mounts through, but not swap or holders.
TEST(DeviceGuardTest, AllowMountedSkipsOnlyTheMountCheck) {
  FakeHost mounted;
  mounted.Append("proc/self/mountinfo",
                 "40 22 7:7 / /mnt/data rw - ext4 /dev/loop7 rw\n");
  EXPECT_EQ(CheckDeviceNotInUse(kLoop7, mounted.paths(), false).code(),
            Status::Code::kBusy);
  EXPECT_TRUE(CheckDeviceNotInUse(kLoop7, mounted.paths(), true).ok());
  FakeHost swap;
  swap.Append("proc/swaps", "/dev/loop7 partition 1024 0 -2\n");
  EXPECT_EQ(CheckDeviceNotInUse(kLoop7, swap.paths(), true).code(),
            Status::Code::kBusy);
  FakeHost held;
  held.AddHolder("sys/class/block/loop7", "bcache0");
  EXPECT_EQ(CheckDeviceNotInUse(kLoop7, held.paths(), true).code(),
            Status::Code::kBusy);
}

// A member of a device-mapper stack (dm-cache, dm-writecache, an LVM
// volume) is refused, and the message names the holder for what it is.
TEST(DeviceGuardTest, DmAndLvmHoldersAreNamed) {
  const struct {
    const char* uuid;
    const char* expect;
  } cases[] = {
      {"", "held by dm-3 (device-mapper device tb-dmcache)"},
      {"LVM-4fK2xyz", "held by dm-3 (LVM volume tb-dmcache)"},
  };
  for (const auto& c : cases) {
    FakeHost host;
    host.AddHolder("sys/class/block/loop7", "dm-3");
    std::filesystem::create_directories(host.root() /
                                        "sys/class/block/dm-3/dm");
    host.Write("sys/class/block/dm-3/dm/name", "tb-dmcache\n");
    host.Write("sys/class/block/dm-3/dm/uuid", std::string(c.uuid) + "\n");
    Status s = CheckDeviceNotInUse(kLoop7, host.paths());
    EXPECT_EQ(s.code(), Status::Code::kBusy);
    EXPECT_NE(s.message().find(c.expect), std::string::npos) << s.message();
  }
}

TEST(DeviceGuardTest, ResolveRejectsRegularFile) {
  FakeHost host;
  BlockDeviceId id;
  Status s = ResolveBlockDevice((host.root() / "proc/swaps").string(),
                                host.paths(), &id);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  s = ResolveBlockDevice((host.root() / "nope").string(), host.paths(), &id);
  EXPECT_EQ(s.code(), Status::Code::kNotFound);
}

std::string MakeImage(
    const fs::path& path,
    const std::vector<std::pair<size_t, std::string>>& patches) {
  std::string bytes(0x200000, '\0');
  for (const auto& [offset, data] : patches)
    bytes.replace(offset, data.size(), data);
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

// Byte-level cases; real images made by mkfs, mkswap, cryptsetup, sfdisk,
// make-bcache and pvcreate are in tests/integration/device_guard_test.cc.
TEST(DeviceGuardTest, Signatures) {
  std::string md_090(128, '\0');  // mdadm's 0.90 superblock head
  const uint32_t words[] = {0xa92b4efc, 0, 90, 0, 0, 0x1234, 0, 1,
                            900,        2, 2,  0, 0, 1,      2, 3};
  std::memcpy(md_090.data(), words, sizeof words);
  struct Case {
    const char* name;
    std::vector<std::pair<size_t, std::string>> patches;
    const char* expect;  // "" = no signature
  } cases[] = {
      {"blank", {}, ""},
      // libblkid (as the kernel) reads an MBR even with an empty table.
      {"mbr boot signature, empty table",
       {{510, std::string("\x55\xAA", 2)}},
       "MBR (dos) partition table"},
      // 0.90 sits 64 KiB below the end (2 MiB image), rounded to 64 KiB.
      {"md 0.90 member",
       {{0x200000 - 0x10000, md_090}},
       "MD RAID member (linux_raid_member)"},
      // libblkid takes ext's magic alone for ext2: refused, as it should.
      {"ext magic alone",
       {{0x438, std::string("\x53\xEF", 2)}},
       "ext2 filesystem"},
      {"ext magic at a wrong offset",
       {{0x400, std::string("\x53\xEF", 2)}},
       ""},
  };
  FakeHost host;
  for (const Case& c : cases) {
    std::string image = MakeImage(host.root() / "image", c.patches);
    std::string sig = "unset";
    Status s = DetectSignature(image, &sig);
    ASSERT_TRUE(s.ok()) << c.name << ": " << s.ToString();
    EXPECT_EQ(sig, c.expect) << c.name;
  }
}

TEST(DeviceGuardTest, SignatureOfShortImageAndMissingFile) {
  FakeHost host;
  std::ofstream(host.root() / "tiny") << "XFSB";
  std::string sig = "unset";
  ASSERT_TRUE(DetectSignature((host.root() / "tiny").string(), &sig).ok());
  EXPECT_EQ(sig, "");
  EXPECT_EQ(DetectSignature((host.root() / "missing").string(), &sig).code(),
            Status::Code::kNotFound);
}

// The system disk stays refused when mounts are allowed.
TEST(DeviceGuardTest, SystemDiskIsRefusedEvenWhenMountsAreAllowed) {
  for (const char* at : {"/", "/boot", "/boot/efi"}) {
    FakeHost host;
    host.Append("proc/self/mountinfo", std::string("41 22 259:3 / ") + at +
                                           " rw - ext4 /dev/loop7p1 rw\n");
    Status s = CheckDeviceNotInUse(kLoop7, host.paths(), true);
    EXPECT_EQ(s.code(), Status::Code::kBusy) << at;
    EXPECT_NE(s.message().find(std::string("holds ") + at), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("system disk"), std::string::npos)
        << s.message();
  }
}

}  // namespace
}  // namespace tierbench
