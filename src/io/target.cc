#include "io/target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

#include "io/aligned_buffer.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/units.h"

namespace tierbench {
namespace {

std::string Errno(int err) { return std::strerror(err); }

// Logical block size of the device holding a filesystem (dev = st_dev), from
// sysfs; partitions keep their queue in the parent directory.
uint32_t FilesystemBlockSize(dev_t dev, const Sysfs& os) {
  std::string base = os.Path("sys/dev/block/") + std::to_string(major(dev)) +
                     ":" + std::to_string(minor(dev));
  for (const char* rel :
       {"/queue/logical_block_size", "/../queue/logical_block_size"}) {
    std::ifstream in(base + rel);
    uint32_t v = 0;
    if (in >> v && v >= 512) return v;
  }
  return 512;
}

std::string OpenFix(int err, bool direct) {
  if (err == ENOENT) return "check the path (filename= or --filename)";
  if (err == EACCES || err == EPERM)
    return "run as root or fix the permissions";
  if (err == EBUSY)
    return "the device is opened exclusively by another user (mounted, bcache, "
           "LVM)";
  if (err == EINVAL && direct)
    return "use a filesystem that supports O_DIRECT or direct=0";
  return "check the target";
}

}  // namespace

Target::~Target() {
  if (fd_ >= 0) close(fd_);
}

Target::Target(Target&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

Target& Target::operator=(Target&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

TargetInfo Target::Inspect(const std::string& path, const Sysfs& os) {
  TargetInfo info;
  info.path = path;
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      // A file to be created: its directory's filesystem sets the alignment.
      const size_t slash = path.rfind('/');
      const std::string dir = slash == std::string::npos
                                  ? "."
                                  : path.substr(0, std::max<size_t>(slash, 1));
      if (stat(dir.c_str(), &st) == 0)
        info.logical_block_size = FilesystemBlockSize(st.st_dev, os);
      return info;
    }
    throw SysError("Cannot examine the target. File: " + path + "; SysErr: " +
                   Errno(errno) + "; Fix: " + OpenFix(errno, false));
  }
  info.exists = true;
  if (S_ISREG(st.st_mode)) {
    info.size_bytes = static_cast<uint64_t>(st.st_size);
    info.logical_block_size = FilesystemBlockSize(st.st_dev, os);
    return info;
  }
  if (!S_ISBLK(st.st_mode)) {
    throw ConfigError(
        "The target is neither a regular file nor a block device. File: " +
        path + "; Fix: point filename= at a file or a block device");
  }
  info.is_block = true;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    throw SysError("Cannot open the block device. Device: " + path +
                   "; SysErr: " + Errno(err) + "; Fix: " + OpenFix(err, false));
  }
  uint64_t bytes = 0;
  int lbs = 0;
  if (ioctl(fd, BLKGETSIZE64, &bytes) != 0 || ioctl(fd, BLKSSZGET, &lbs) != 0) {
    int err = errno;
    close(fd);
    throw SysError(
        "Cannot read the size of the block device (BLKGETSIZE64/BLKSSZGET). "
        "Device: " +
        path + "; SysErr: " + Errno(err));
  }
  close(fd);
  if (bytes == 0) {
    throw SysError(
        "The block device has size 0. Device: " + path +
        "; Fix: attach a backing file (losetup) or pick another device");
  }
  info.size_bytes = bytes;
  info.logical_block_size = static_cast<uint32_t>(lbs > 0 ? lbs : 512);
  return info;
}

void Target::Open(const std::string& path, bool write, bool direct) {
  if (fd_ >= 0) close(fd_);
  path_ = path;
  int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | (direct ? O_DIRECT : 0);
  fd_ = open(path.c_str(), flags);
  if (fd_ < 0) {
    int err = errno;
    if (err == EINVAL && direct) {
      throw SysError(
          "The filesystem refuses O_DIRECT (direct=1). File: " + path +
          "; SysErr: " + Errno(err) + "; Fix: " + OpenFix(err, true));
    }
    throw SysError(std::string("Cannot open the target for ") +
                   (write ? "writing" : "reading") + ". File: " + path +
                   "; SysErr: " + Errno(err) +
                   "; Fix: " + OpenFix(err, direct));
  }
  if (!direct) return;
  // Some filesystems accept O_DIRECT at open and refuse it at the first IO.
  AlignedBuffer probe(kIoAlignment);
  ssize_t r;
  do {
    r = pread(fd_, probe.data(), kIoAlignment, 0);
  } while (r < 0 && errno == EINTR);
  if (r < 0 && errno == EINVAL) {
    throw SysError(
        "The filesystem refuses O_DIRECT (direct=1): an aligned read failed. "
        "File: " +
        path + "; SysErr: " + Errno(EINVAL) +
        "; Fix: " + OpenFix(EINVAL, true));
  }
}

void Target::LayOut(const std::string& path, uint64_t bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    int err = errno;
    throw SysError("Cannot create the IO file. File: " + path +
                   "; SysErr: " + Errno(err) + "; Fix: " + OpenFix(err, false));
  }
  struct stat st;
  fstat(fd, &st);
  uint64_t pos = static_cast<uint64_t>(st.st_size);
  constexpr size_t kChunk = 1 << 20;
  AlignedBuffer buf(kChunk);
  buf.FillRandom(0x5eed0f10);
  while (pos < bytes) {
    if (Interrupted()) {
      close(fd);
      throw InterruptedError("Interrupted while laying out " + path,
                             InterruptSignal());
    }
    size_t n = static_cast<size_t>(std::min<uint64_t>(kChunk, bytes - pos));
    ssize_t w = pwrite(fd, buf.data(), n, static_cast<off_t>(pos));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      int err = w < 0 ? errno : ENOSPC;
      close(fd);
      throw SysError("Laying out the IO file failed. File: " + path +
                     "; Offset: " + std::to_string(pos) + "; SysErr: " +
                     Errno(err) + "; Fix: free space or reduce size=");
    }
    pos += static_cast<uint64_t>(w);
  }
  if (fsync(fd) != 0) {
    int err = errno;
    close(fd);
    throw SysError("fsync after laying out the IO file failed. File: " + path +
                   "; SysErr: " + Errno(err));
  }
  close(fd);
}

void Target::DropCache() const {
  if (fd_ < 0) return;
  struct stat st;
  if (fstat(fd_, &st) == 0 && S_ISBLK(st.st_mode)) {
    ioctl(fd_, BLKFLSBUF, 0);  // best effort, as fio's invalidate
  } else {
    posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
  }
}

uint64_t TargetSizeBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  uint64_t bytes = 0;
  struct stat st;
  if (::fstat(fd, &st) == 0) {
    if (S_ISBLK(st.st_mode)) {
      if (::ioctl(fd, BLKGETSIZE64, &bytes) != 0) bytes = 0;
    } else if (S_ISREG(st.st_mode)) {
      bytes = static_cast<uint64_t>(st.st_size);
    }
  }
  ::close(fd);
  return bytes;
}

}  // namespace tierbench
