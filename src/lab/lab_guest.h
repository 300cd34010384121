// LabGuestCache: finds or builds the lab guest (kernel + initramfs) for the
// running tierbench binary.
//
// The guest is built once by scripts/lab/build-guest and kept under
// `<cache_dir>/guest-<key>/` (vmlinuz, initrd.gz, kernel-release). The key is
// a hash of everything that goes into the initramfs and can change: the
// tierbench binary, the builder and /init scripts, and whether PostgreSQL 15
// is installed. A rebuilt tierbench therefore gets a fresh initramfs; older
// guest-* directories are removed after a successful build. Downloaded and
// unpacked kernel packages stay in `<cache_dir>/kernels/` across keys.
// A lock file serialises concurrent builders.
//
// Thread-safety: one object per thread; concurrent processes are safe.
#ifndef TIERBENCH_LAB_LAB_GUEST_H_
#define TIERBENCH_LAB_LAB_GUEST_H_

#include <cstdint>
#include <functional>
#include <string>

#include "util/status.h"

namespace tierbench {

struct LabGuest {
  std::string dir;             // <cache_dir>/guest-<key>
  std::string kernel;          // dir/vmlinuz
  std::string initrd;          // dir/initrd.gz
  std::string kernel_release;  // e.g. "6.1.0-57-amd64"
};

// FNV-1a 64 over the bytes of `path`, continued from *hash.
Status HashFileInto(const std::string& path, uint64_t* hash);
// FNV-1a 64 over `text`, continued from *hash.
void HashTextInto(const std::string& text, uint64_t* hash);
inline constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;

class LabGuestCache {
 public:
  // `scripts_dir` holds build-guest and init; `tierbench_binary` is the
  // executable copied into the guest.
  LabGuestCache(std::string cache_dir, std::string scripts_dir,
                std::string tierbench_binary);

  // The 16-hex-digit key of the current inputs. Throws SysError when an
  // input cannot be read.
  std::string Key() const;

  // Returns the cached guest, building it first when missing. `progress`
  // receives each line the builder prints. Throws SysError (naming the
  // builder's last lines and the fix) when the build fails, and
  // InterruptedError when SIGINT/SIGTERM arrives meanwhile.
  LabGuest Ensure(
      const std::function<void(const std::string&)>& progress) const;

 private:
  LabGuest GuestIn(const std::string& dir) const;
  void RemoveStaleGuests(const std::string& keep) const;

  std::string cache_dir_;
  std::string scripts_dir_;
  std::string tierbench_binary_;
};

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_GUEST_H_
