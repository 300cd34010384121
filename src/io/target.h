// Target: the file or block device a job does IO on.
//
// Inspect() looks without writing: whether the path exists, its kind, its
// size (st_size, or BLKGETSIZE64) and the logical block size that O_DIRECT
// IO must be aligned to (BLKSSZGET for devices; for regular files the
// logical block size of the filesystem's device from
// <sys>/dev/block/M:m/queue, else 512). Open() opens it with the job's
// flags and, with O_DIRECT, proves that the filesystem accepts O_DIRECT
// (EINVAL at open or at a first aligned read). LayOut() creates or extends a
// regular file by writing it, as fio's "Laying out IO file".
//
// Errors: one-line SysError (missing, permission, O_DIRECT refused, size
// unknown) or ConfigError (not a file or block device), naming the path and
// the fix. Not thread-safe; the fd may be shared by threads for pread/pwrite/
// io_submit once open.
#ifndef TIERBENCH_IO_TARGET_H_
#define TIERBENCH_IO_TARGET_H_

#include <cstdint>
#include <string>

#include "io/device_guard.h"

namespace tierbench {

struct TargetInfo {
  std::string path;
  bool exists = false;
  bool is_block = false;
  uint64_t size_bytes = 0;            // 0 when missing
  uint32_t logical_block_size = 512;  // alignment for O_DIRECT
};

class Target {
 public:
  Target() = default;
  ~Target();
  Target(Target&& other) noexcept;
  Target& operator=(Target&& other) noexcept;
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;

  // Describes `path` without changing anything. Throws SysError when the
  // path cannot be examined (other than not existing: exists = false, which
  // the caller judges), ConfigError when it is neither a regular file nor a
  // block device.
  static TargetInfo Inspect(const std::string& path, const Sysfs& os);

  // Opens `path` read-only or read-write, with O_DIRECT when `direct`.
  // Throws SysError on failure; with `direct`, a filesystem that refuses
  // O_DIRECT gives "... refuses O_DIRECT ... Fix: ... or direct=0".
  void Open(const std::string& path, bool write, bool direct);

  // Makes the regular file `path` at least `bytes` long by writing
  // pseudo-random data from its current end (creating it when missing),
  // then fsync. Polls Interrupted() and throws InterruptedError. Throws
  // SysError on failure.
  static void LayOut(const std::string& path, uint64_t bytes);

  // Drops the page cache of the open file (fio's invalidate=1).
  void DropCache() const;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// Size in bytes of a block device or regular file; 0 when it cannot be
// opened (a file the runner will create).
uint64_t TargetSizeBytes(const std::string& path);

}  // namespace tierbench

#endif  // TIERBENCH_IO_TARGET_H_
