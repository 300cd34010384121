#include "io/device_guard.h"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
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
  while (std::getline(in, line)) {
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
      if (v[2] != f.devnums[i] && source != "/dev/" + f.names[i]) continue;
      // allow_mounted_write=1 never extends to the system's own disk.
      const std::string& at = v[4];
      if (at == "/" || at == "/boot" || at.rfind("/boot/", 0) == 0) {
        return Status::Busy("/dev/" + f.names[i] + " holds " + at +
                            ": tierbench never writes to the system disk, "
                            "not even with --destructive or "
                            "allow_mounted_write=1 (give a spare disk)");
      }
      if (!allow_mounted) {
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

// A readable name for one libblkid finding: TYPE with its USAGE
// ("filesystem", "raid", "crypto", "other"), or a partition table's PTTYPE.
std::string DescribeSignature(const std::string& type, const std::string& usage,
                              bool partition_table) {
  if (partition_table) {
    if (type == "dos") return "MBR (dos) partition table";
    if (type == "gpt") return "GPT partition table";
    return type + " partition table";
  }
  if (type == "bcache") return "bcache superblock";
  if (type == "swap") return "swap area";
  if (type == "LVM2_member") return "LVM2 physical volume";
  if (type == "linux_raid_member") return "MD RAID member (linux_raid_member)";
  if (type == "crypto_LUKS") return "LUKS encrypted volume (crypto_LUKS)";
  if (type == "zfs_member") return "ZFS pool member (zfs_member)";
  if (usage == "filesystem") return type + " filesystem";
  if (usage == "raid") return type + " RAID member";
  if (usage == "crypto") return type + " encrypted volume";
  return type + " signature";
}

// Frees the probe and closes its descriptor on every path.
struct ProbeCloser {
  blkid_probe probe = nullptr;
  int fd = -1;
  ~ProbeCloser() {
    if (probe != nullptr) blkid_free_probe(probe);
    if (fd >= 0) close(fd);
  }
};

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
  ProbeCloser p;
  p.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (p.fd < 0) return Status::FromErrno("open " + path, errno);
  p.probe = blkid_new_probe();
  if (p.probe == nullptr) {
    return Status::IoError("libblkid: cannot allocate a probe for " + path);
  }
  if (blkid_probe_set_device(p.probe, p.fd, 0, 0) != 0) {
    return Status::IoError("libblkid: cannot probe " + path);
  }
  // What wipefs(8) lists: every superblock (filesystems, RAID, crypto,
  // swap, bcache, LVM...) and every partition table, ambiguous ones too.
  blkid_probe_enable_superblocks(p.probe, 1);
  blkid_probe_set_superblocks_flags(
      p.probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_MAGIC);
  blkid_probe_enable_partitions(p.probe, 1);
  blkid_probe_set_partitions_flags(p.probe, BLKID_PARTS_MAGIC);
  std::vector<std::string> found;
  auto add = [&found](std::string what) {
    // The same kind twice (e.g. a primary and a backup GPT) is said once.
    if (std::find(found.begin(), found.end(), what) == found.end())
      found.push_back(std::move(what));
  };
  int rc;
  while ((rc = blkid_do_probe(p.probe)) == 0) {
    const char* value = nullptr;
    if (blkid_probe_lookup_value(p.probe, "TYPE", &value, nullptr) == 0) {
      const char* usage = nullptr;
      blkid_probe_lookup_value(p.probe, "USAGE", &usage, nullptr);
      add(DescribeSignature(value, usage != nullptr ? usage : "", false));
    } else if (blkid_probe_lookup_value(p.probe, "PTTYPE", &value, nullptr) ==
               0) {
      add(DescribeSignature(value, "", true));
    }
  }
  if (rc < 0) return Status::IoError("libblkid: probing " + path + " failed");
  for (const std::string& f : found)
    *signature += (signature->empty() ? "" : " and a ") + f;
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
