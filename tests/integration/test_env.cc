#include "test_env.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace tierbench::testing {

bool IsRoot() { return ::geteuid() == 0; }

bool HaveTool(const std::string& tool) {
  return RunShell("command -v " + tool + " >/dev/null 2>&1") == 0;
}

int RunShell(const std::string& cmd, std::string* out) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return -1;
  std::array<char, 4096> buf;
  std::string text;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    text.append(buf.data(), n);
  int rc = ::pclose(p);
  if (out) *out = text;
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// Through the loop driver's ioctls rather than losetup(8): in the lab
// guest, busybox's sh runs its own cut-down losetup applet whatever PATH
// says, and it lacks --find --show --direct-io.
LoopDevice::LoopDevice(uint64_t bytes, const std::string& dir, bool direct_io) {
  std::random_device rd;
  image_ = dir + "/tierbench-test-" + std::to_string(::getpid()) + "-" +
           std::to_string(rd()) + ".img";
  const int file =
      ::open(image_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (file < 0 || ::ftruncate(file, static_cast<off_t>(bytes)) != 0) {
    error_ = "cannot create " + image_ + ": " + std::strerror(errno);
    if (file >= 0) ::close(file);
    std::filesystem::remove(image_);
    image_.clear();
    return;
  }
  const int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) {
    error_ = std::string("cannot open /dev/loop-control: ") +
             std::strerror(errno) + " (modprobe loop?)";
  }
  for (int attempt = 0; control >= 0 && attempt < 20; ++attempt) {
    const int n = ::ioctl(control, LOOP_CTL_GET_FREE);
    if (n < 0) {
      error_ = std::string("LOOP_CTL_GET_FREE: ") + std::strerror(errno);
      break;
    }
    const std::string dev = "/dev/loop" + std::to_string(n);
    int loop = -1;
    for (int wait = 0; wait < 50 && loop < 0; ++wait) {
      loop = ::open(dev.c_str(), O_RDWR | O_CLOEXEC);
      if (loop < 0) ::usleep(20000);  // the node may appear a moment later
    }
    if (loop < 0) {
      error_ = "cannot open " + dev + ": " + std::strerror(errno);
      break;
    }
    if (::ioctl(loop, LOOP_SET_FD, file) != 0) {
      const int err = errno;
      ::close(loop);
      if (err == EBUSY) continue;  // taken meanwhile by someone else
      error_ = "LOOP_SET_FD " + dev + ": " + std::strerror(err);
      break;
    }
    struct loop_info64 info {};
    std::snprintf(reinterpret_cast<char*>(info.lo_file_name),
                  sizeof info.lo_file_name, "%s", image_.c_str());
    info.lo_flags = LO_FLAGS_AUTOCLEAR;
    ::ioctl(loop, LOOP_SET_STATUS64, &info);
    // As losetup --direct-io=on: a backing file that cannot do O_DIRECT
    // (tmpfs) keeps buffered IO.
    if (direct_io) ::ioctl(loop, LOOP_SET_DIRECT_IO, 1UL);
    loop_fd_ = loop;
    device_ = dev;
    error_.clear();
    break;
  }
  if (control >= 0) ::close(control);
  ::close(file);
  if (device_.empty()) {
    if (error_.empty()) error_ = "no free loop device";
    std::filesystem::remove(image_);
    image_.clear();
  }
}

LoopDevice::~LoopDevice() {
  if (loop_fd_ >= 0) {
    ::ioctl(loop_fd_, LOOP_CLR_FD, 0);
    ::close(loop_fd_);
  }
  if (!image_.empty()) {
    std::error_code ec;
    std::filesystem::remove(image_, ec);
  }
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/tierbench-test-XXXXXX";
  char* p = ::mkdtemp(tmpl);
  if (p) path_ = p;
}

TempDir::~TempDir() {
  if (!path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
}

}  // namespace tierbench::testing
