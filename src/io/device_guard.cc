#include "io/device_guard.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// The kernel's device numbers of `name` and its partitions.
struct DeviceFamily {
  std::vector<std::string> names;
  std::vector<std::string> devnums;  // "M:m", same order
};

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

DeviceFamily FamilyOf(const BlockDeviceId& id, const Sysfs& os) {
  DeviceFamily f;
  f.names.push_back(id.name);
  f.devnums.push_back(std::to_string(id.major) + ":" +
                      std::to_string(id.minor));
  std::error_code ec;
  fs::path dir = fs::path(os.Path("sys/class/block")) / id.name;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!fs::exists(entry.path() / "partition", ec)) continue;
    std::string dev = ReadFirstLine((entry.path() / "dev").string());
    if (dev.empty()) continue;
    f.names.push_back(entry.path().filename().string());
    f.devnums.push_back(dev);
  }
  return f;
}

// Splits a mountinfo line into whitespace-separated fields.
std::vector<std::string> Fields(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  std::string f;
  while (in >> f) out.push_back(f);
  return out;
}

Status CheckMounts(const DeviceFamily& f, const Sysfs& os,
                   bool allow_mounted = false) {
  std::ifstream in(os.Path("proc/self/mountinfo"));
  std::string line;
  while (!allow_mounted && std::getline(in, line)) {
    // id parent M:m root mountpoint options [optional...] - fstype source ...
    std::vector<std::string> v = Fields(line);
    if (v.size() < 5) continue;
    std::string source;
    for (size_t i = 5; i + 2 < v.size(); ++i) {
      if (v[i] == "-") {
        source = v[i + 2];
        break;
      }
    }
    for (size_t i = 0; i < f.names.size(); ++i) {
      if (v[2] == f.devnums[i] || source == "/dev/" + f.names[i]) {
        return Status::Busy("/dev/" + f.names[i] + " is mounted on " + v[4] +
                            " (unmount it first)");
      }
    }
  }
  std::ifstream swaps(os.Path("proc/swaps"));
  while (std::getline(swaps, line)) {
    std::vector<std::string> v = Fields(line);
    if (v.empty()) continue;
    for (const std::string& n : f.names) {
      if (v[0] == "/dev/" + n) {
        return Status::Busy("/dev/" + n +
                            " is an active swap device (swapoff it first)");
      }
    }
  }
  return Status::Ok();
}

// "dm-3 (device-mapper device tb-dmcache)", "dm-4 (LVM volume tbvg-main)",
// "bcache0 (bcache)", or the bare name.
std::string DescribeHolder(const std::string& holder, const Sysfs& os) {
  std::string name, uuid;
  if (os.Read("sys/class/block/" + holder + "/dm/name", &name).ok()) {
    os.Read("sys/class/block/" + holder + "/dm/uuid", &uuid).ok();
    if (uuid.rfind("LVM-", 0) == 0)
      return holder + " (LVM volume " + name + ")";
    return holder + " (device-mapper device " + name + ")";
  }
  if (holder.rfind("bcache", 0) == 0) return holder + " (bcache)";
  if (holder.rfind("md", 0) == 0) return holder + " (MD RAID)";
  return holder;
}

Status CheckHolders(const DeviceFamily& f, const Sysfs& os) {
  std::error_code ec;
  for (size_t i = 0; i < f.names.size(); ++i) {
    fs::path holders = fs::path(os.Path("sys/class/block")) / f.names[0];
    if (i > 0) holders /= f.names[i];
    holders /= "holders";
    for (const auto& entry : fs::directory_iterator(holders, ec)) {
      return Status::Busy("/dev/" + f.names[i] + " is held by " +
                          DescribeHolder(entry.path().filename().string(), os) +
                          ": it is part of a stack; stop that first");
    }
  }
  return Status::Ok();
}

struct Magic {
  size_t offset;
  std::string bytes;
  const char* name;
};

const std::vector<Magic>& Magics() {
  static const std::vector<Magic> kMagics = {
      {0x438, std::string("\x53\xEF", 2), "ext2/3/4 filesystem"},
      {0, "XFSB", "XFS filesystem"},
      {0x10040, "_BHRfS_M", "btrfs filesystem"},
      {4086, "SWAPSPACE2", "swap area"},
      {4086, "SWAP-SPACE", "swap area"},
      {4096 + 24,
       std::string(
           "\xc6\x85\x73\xf6\x4e\x1a\x45\xca\x82\x65\xf5\x7f\x48\xba\x6d\x81",
           16),
       "bcache superblock"},
      {512, "EFI PART", "GPT partition table"},
      {0, "LABELONE", "LVM2 physical volume"},
      {512, "LABELONE", "LVM2 physical volume"},
      {1024, "LABELONE", "LVM2 physical volume"},
      {1536, "LABELONE", "LVM2 physical volume"},
  };
  return kMagics;
}

// MBR: 0x55AA at 510 and at least one partition entry with a type byte.
bool HasMbrPartitions(const std::vector<unsigned char>& b) {
  if (b.size() < 512 || b[510] != 0x55 || b[511] != 0xAA) return false;
  for (int i = 0; i < 4; ++i) {
    if (b[446 + 16 * i + 4] != 0) return true;
  }
  return false;
}

}  // namespace

Status ResolveBlockDevice(const std::string& dev_path, const Sysfs& os,
                          BlockDeviceId* id) {
  struct stat st;
  if (stat(dev_path.c_str(), &st) != 0)
    return Status::FromErrno(dev_path, errno);
  if (!S_ISBLK(st.st_mode)) {
    return Status::InvalidArgument(dev_path + " is not a block device");
  }
  id->major = major(st.st_rdev);
  id->minor = minor(st.st_rdev);
  std::string link = os.Path("sys/dev/block/") + std::to_string(id->major) +
                     ":" + std::to_string(id->minor);
  std::error_code ec;
  fs::path target = fs::read_symlink(link, ec);
  id->name =
      ec ? fs::path(dev_path).filename().string() : target.filename().string();
  return Status::Ok();
}

Status CheckDeviceNotInUse(const BlockDeviceId& id, const Sysfs& os) {
  return CheckDeviceNotInUse(id, os, /*allow_mounted=*/false);
}

Status CheckDeviceNotInUse(const BlockDeviceId& id, const Sysfs& os,
                           bool allow_mounted) {
  DeviceFamily f = FamilyOf(id, os);
  Status s = CheckMounts(f, os, allow_mounted);
  if (!s.ok()) return s;
  return CheckHolders(f, os);
}

Status CheckDeviceNotInUse(const std::string& dev_path, const Sysfs& os) {
  BlockDeviceId id;
  Status s = ResolveBlockDevice(dev_path, os, &id);
  if (!s.ok()) return s;
  return CheckDeviceNotInUse(id, os);
}

Status DetectSignature(const std::string& path, std::string* signature) {
  signature->clear();
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path, errno);
  std::vector<unsigned char> buf(0x10040 + 8);
  size_t got = 0;
  while (got < buf.size()) {
    ssize_t r =
        pread(fd, buf.data() + got, buf.size() - got, static_cast<off_t>(got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      int err = errno;
      close(fd);
      return Status::FromErrno("read " + path, err);
    }
    if (r == 0) break;
    got += static_cast<size_t>(r);
  }
  close(fd);
  buf.resize(got);
  for (const Magic& m : Magics()) {
    if (m.offset + m.bytes.size() <= buf.size() &&
        std::memcmp(buf.data() + m.offset, m.bytes.data(), m.bytes.size()) ==
            0) {
      *signature = m.name;
      return Status::Ok();
    }
  }
  if (HasMbrPartitions(buf)) *signature = "MBR partition table";
  return Status::Ok();
}

Status CheckDeviceWritable(const std::string& dev_path, const Sysfs& os) {
  Status s = CheckDeviceNotInUse(dev_path, os);
  if (!s.ok()) return s;
  std::string sig;
  s = DetectSignature(dev_path, &sig);
  if (!s.ok()) return s;
  if (!sig.empty()) {
    return Status::Busy(dev_path + " carries a " + sig +
                        " (erase it with 'wipefs -a " + dev_path +
                        "' if its contents may be destroyed)");
  }
  return Status::Ok();
}

Status CheckDeviceWritableAllowMounted(const std::string& dev_path,
                                       const Sysfs& os) {
  BlockDeviceId id;
  Status s = ResolveBlockDevice(dev_path, os, &id);
  if (!s.ok()) return s;
  return CheckDeviceNotInUse(id, os, /*allow_mounted=*/true);
}

}  // namespace tierbench
