// Sysfs: the one OS seam for the kernel's views under sys/ and proc/. Every
// read and write of sysfs and procfs (the cache layers, the device guard,
// target inspection, dropping the page cache) goes through one of these, so
// that unit tests can point it at a fake tree in a temporary directory
// (leveldb's Env idea). Paths given to the methods are RELATIVE to the root
// ("sys/block/bcache0/bcache/cache_mode", "proc/self/mountinfo"); the root
// defaults to "/".
//
// Semantics mirror what the kernel's sysfs does and what a fake tree of plain
// files and symlinks can reproduce:
//   - Read() returns the whole file with trailing newlines/blanks removed.
//   - Write() opens the file O_WRONLY|O_TRUNC (never creates it) and writes the
//     value in ONE write(2) call, without adding a newline (the kernel's
//     parsers accept both); a short write or a kernel error (EINVAL for a
//     rejected value, EBUSY...) is returned as a Status.
//   - Resolve() follows symlinks (sysfs is a forest of relative links) and
//     returns the canonical path, relative to the canonical root.
// Low-level: returns Status, never throws. Messages name the absolute path.
//
// Thread-safety: const methods only; safe to share between threads.
#ifndef TIERBENCH_UTIL_SYSFS_H_
#define TIERBENCH_UTIL_SYSFS_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace tierbench {

class Sysfs {
 public:
  // `root` is the directory that plays "/" (a trailing slash is optional).
  explicit Sysfs(std::string root = "/");

  const std::string& root() const { return root_; }
  // True when the root is "/" (the real system), false for a test tree.
  bool IsRealRoot() const { return root_ == "/"; }

  // Absolute path of `rel` under the root ("/sys/block/..." for the real
  // root); used in error messages.
  std::string Path(std::string_view rel) const;

  // Reads the file; trailing '\n', '\r', ' ', '\t' are trimmed. NotFound when
  // the file is missing; PermissionDenied for write-only attributes.
  Status Read(std::string_view rel, std::string* out) const;

  // Writes `value` to an existing file (see above). NotFound when missing.
  Status Write(std::string_view rel, std::string_view value) const;

  // True when `rel` exists (following symlinks).
  bool Exists(std::string_view rel) const;

  // Names of the entries of directory `rel` (not "." / ".."), sorted.
  Status List(std::string_view dir_rel, std::vector<std::string>* out) const;

  // Test seam: when a hook is set, Write() on an existing file calls it
  // INSTEAD of writing and returns its Status. The hook writes the file
  // itself (or not), emulating the kernel: e.g. a written "writeback" becomes
  // "writethrough [writeback] writearound none", or EINVAL leaves the file
  // unchanged. Copies of this Sysfs share the hook's target.
  using WriteHook =
      std::function<Status(const std::string& rel, std::string_view value)>;
  void set_write_hook_for_testing(WriteHook hook) { hook_ = std::move(hook); }

  // Canonical form of `rel` (all symlinks resolved), relative to the
  // canonical root, without a leading slash. NotFound when it does not exist
  // or lies outside the root.
  Status Resolve(std::string_view rel, std::string* out_rel) const;

 private:
  std::string root_;  // Normalised: no trailing slash except for "/".
  WriteHook hook_;    // Empty on real systems.
};

// sync(2), then writes 3 to proc/sys/vm/drop_caches: the page cache, dentries
// and inodes are dropped so reads measure the device, not RAM. The Status
// names the file when the write fails (not root, read-only /proc).
Status DropPageCache(const Sysfs& os);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_SYSFS_H_
