#include "util/sysfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>

namespace tierbench {
namespace {

// Closes a file descriptor on scope exit.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

bool RealPath(const std::string& path, std::string* out) {
  char buf[PATH_MAX];
  if (realpath(path.c_str(), buf) == nullptr) return false;
  *out = buf;
  return true;
}

}  // namespace

Sysfs::Sysfs(std::string root) : root_(std::move(root)) {
  if (root_.empty()) root_ = "/";
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string Sysfs::Path(std::string_view rel) const {
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  if (root_ == "/") return "/" + std::string(rel);
  return root_ + "/" + std::string(rel);
}

Status Sysfs::Read(std::string_view rel, std::string* out) const {
  const std::string path = Path(rel);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path, errno);
  FdCloser closer(fd);
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno("read " + path, errno);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' ||
                           text.back() == ' ' || text.back() == '\t')) {
    text.pop_back();
  }
  *out = std::move(text);
  return Status::Ok();
}

Status Sysfs::Write(std::string_view rel, std::string_view value) const {
  const std::string path = Path(rel);
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return Status::FromErrno("write " + path, errno);
  }
  if (hook_) return hook_(std::string(rel), value);
  int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno("open " + path + " for writing", errno);
  FdCloser closer(fd);
  ssize_t n;
  do {
    n = write(fd, value.data(), value.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    return Status::FromErrno("write '" + std::string(value) + "' to " + path,
                             errno);
  }
  if (static_cast<size_t>(n) != value.size()) {
    return Status::IoError("short write of '" + std::string(value) + "' to " +
                           path);
  }
  return Status::Ok();
}

bool Sysfs::Exists(std::string_view rel) const {
  struct stat st;
  return stat(Path(rel).c_str(), &st) == 0;
}

Status Sysfs::List(std::string_view dir_rel,
                   std::vector<std::string>* out) const {
  const std::string path = Path(dir_rel);
  DIR* dir = opendir(path.c_str());
  if (dir == nullptr) return Status::FromErrno("list " + path, errno);
  std::vector<std::string> names;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  *out = std::move(names);
  return Status::Ok();
}

Status Sysfs::Resolve(std::string_view rel, std::string* out_rel) const {
  std::string canonical_root;
  std::string canonical;
  if (!RealPath(root_, &canonical_root)) {
    return Status::FromErrno("resolve sysfs root " + root_, errno);
  }
  const std::string path = Path(rel);
  if (!RealPath(path, &canonical)) {
    return Status::FromErrno("resolve " + path, errno);
  }
  if (canonical_root == "/") {
    *out_rel = canonical.substr(1);
    return Status::Ok();
  }
  if (canonical.compare(0, canonical_root.size(), canonical_root) != 0 ||
      (canonical.size() > canonical_root.size() &&
       canonical[canonical_root.size()] != '/')) {
    return Status::NotFound("resolve " + path + ": " + canonical +
                            " lies outside the sysfs root " + canonical_root);
  }
  *out_rel = canonical.size() > canonical_root.size()
                 ? canonical.substr(canonical_root.size() + 1)
                 : std::string();
  return Status::Ok();
}

Status DropPageCache(const Sysfs& os) {
  ::sync();
  return os.Write("proc/sys/vm/drop_caches", "3");
}

}  // namespace tierbench
