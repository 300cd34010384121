#include "test_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
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
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) text.append(buf.data(), n);
  int rc = ::pclose(p);
  if (out) *out = text;
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

LoopDevice::LoopDevice(uint64_t bytes, const std::string& dir, bool direct_io) {
  std::random_device rd;
  image_ = dir + "/tierbench-test-" + std::to_string(::getpid()) + "-" +
           std::to_string(rd()) + ".img";
  std::string out;
  if (RunShell("truncate -s " + std::to_string(bytes) + " " + image_, &out) != 0) {
    error_ = "truncate failed: " + out;
    return;
  }
  std::string cmd = "losetup --find --show ";
  if (direct_io) cmd += "--direct-io=on ";
  if (RunShell(cmd + image_, &out) != 0) {
    error_ = "losetup failed: " + out;
    std::filesystem::remove(image_);
    return;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  device_ = out;
}

LoopDevice::~LoopDevice() {
  if (!device_.empty()) RunShell("losetup -d " + device_);
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
