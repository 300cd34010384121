#include "lab/lab_guest.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>

#include "lab/lab_child.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/scope_guard.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kFnvPrime = 0x100000001b3ull;
constexpr size_t kBuilderTailLines = 5;
const char kPostgresBinary[] = "/usr/lib/postgresql/15/bin/postgres";

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

Status HashFileInto(const std::string& path, uint64_t* hash) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path, errno);
  char buf[1 << 16];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return Status::FromErrno("read " + path, err);
    }
    if (n == 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      *hash ^= static_cast<unsigned char>(buf[i]);
      *hash *= kFnvPrime;
    }
  }
  close(fd);
  return Status::Ok();
}

void HashTextInto(const std::string& text, uint64_t* hash) {
  for (unsigned char c : text) {
    *hash ^= c;
    *hash *= kFnvPrime;
  }
}

LabGuestCache::LabGuestCache(std::string cache_dir, std::string scripts_dir,
                             std::string tierbench_binary)
    : cache_dir_(std::move(cache_dir)),
      scripts_dir_(std::move(scripts_dir)),
      tierbench_binary_(std::move(tierbench_binary)) {}

std::string LabGuestCache::Key() const {
  uint64_t hash = kFnvOffsetBasis;
  for (const std::string& path :
       {tierbench_binary_, scripts_dir_ + "/build-guest",
        scripts_dir_ + "/init"}) {
    Status s = HashFileInto(path, &hash);
    if (!s.ok()) {
      throw SysError::From(
          "Cannot read an input of the lab guest. Path: " + path +
              "; Fix: pass --guest-scripts DIR (scripts/lab of "
              "the source tree)",
          s);
    }
  }
  HashTextInto(access(kPostgresBinary, X_OK) == 0 ? "pg15" : "no-pg", &hash);
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(hash));
  return hex;
}

LabGuest LabGuestCache::GuestIn(const std::string& dir) const {
  LabGuest g;
  g.dir = dir;
  g.kernel = dir + "/vmlinuz";
  g.initrd = dir + "/initrd.gz";
  g.kernel_release = ReadFirstLine(dir + "/kernel-release");
  return g;
}

LabGuest LabGuestCache::Ensure(
    const std::function<void(const std::string&)>& progress) const {
  std::string dir = cache_dir_ + "/guest-" + Key();
  std::error_code ec;
  fs::create_directories(cache_dir_, ec);
  if (ec) {
    throw SysError("Cannot create the lab cache directory. Path: " +
                   cache_dir_ + "; SysErr: " + ec.message() +
                   "; Fix: make the build directory writable");
  }
  std::string lock_path = cache_dir_ + "/.lock";
  int lock_fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd < 0 || flock(lock_fd, LOCK_EX) != 0) {
    throw SysError::From("Cannot lock the lab cache. Path: " + lock_path,
                         Status::FromErrno("lock", errno));
  }
  ScopeGuard unlock([lock_fd] { close(lock_fd); });
  if (fs::exists(dir + "/initrd.gz") && fs::exists(dir + "/vmlinuz")) {
    return GuestIn(dir);
  }

  progress("building the lab guest (once per tierbench build) into " + dir);
  std::vector<std::string> argv = {scripts_dir_ + "/build-guest",
                                   "--out",
                                   dir,
                                   "--tierbench",
                                   tierbench_binary_,
                                   "--cache",
                                   cache_dir_ + "/kernels"};
  LabChild builder;
  Status s = builder.Start(argv);
  if (!s.ok()) {
    throw SysError::From("Cannot start the lab guest builder. Path: " +
                             argv[0] + "; Fix: pass --guest-scripts DIR",
                         s);
  }
  std::deque<std::string> tail;
  std::string line;
  for (;;) {
    if (Interrupted()) {
      builder.KillGroup();
      builder.Wait();
      throw InterruptedError("Interrupted while building the lab guest",
                             InterruptSignal());
    }
    LabChild::Read r = builder.ReadLine(200, &line);
    if (r == LabChild::Read::kEof) break;
    if (r != LabChild::Read::kLine) continue;
    progress(line);
    tail.push_back(line);
    if (tail.size() > kBuilderTailLines) tail.pop_front();
  }
  int rc = builder.Wait();
  if (rc != 0) {
    std::string last;
    for (const std::string& t : tail) last += (last.empty() ? "" : " | ") + t;
    throw SysError("Building the lab guest failed. Builder: " + argv[0] +
                   "; ExitCode: " + std::to_string(rc) + "; Output: " + last +
                   "; Fix: ./scripts/install-deps, then retry");
  }
  RemoveStaleGuests(dir);
  return GuestIn(dir);
}

void LabGuestCache::RemoveStaleGuests(const std::string& keep) const {
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(cache_dir_, ec)) {
    std::string name = e.path().filename().string();
    if (name.rfind("guest-", 0) == 0 && e.path().string() != keep) {
      fs::remove_all(e.path(), ec);
    }
  }
}

}  // namespace tierbench
