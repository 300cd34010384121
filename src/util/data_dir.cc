#include "util/data_dir.h"

#include <stdlib.h>

#include <filesystem>
#include <system_error>

namespace tierbench {
namespace {

namespace fs = std::filesystem;

#ifndef TIERBENCH_INSTALL_DATA_DIR
#define TIERBENCH_INSTALL_DATA_DIR "/usr/share/tierbench"
#endif

bool HoldsModes(const std::string& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_directory(fs::path(dir) / "modes", ec);
}

}  // namespace

DataDirLookup FindDataDir() {
  DataDirLookup r;
  const char* env = getenv("TIERBENCH_DATA_DIR");
  if (env != nullptr && *env != '\0') {
    r.looked.push_back(std::string(env) + " ($TIERBENCH_DATA_DIR)");
    if (HoldsModes(env)) r.dir = env;
    return r;
  }
  std::vector<std::string> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(
        (exe.parent_path().parent_path() / "share" / "tierbench").string());
  }
  candidates.push_back(TIERBENCH_SOURCE_DIR);
  candidates.push_back(TIERBENCH_INSTALL_DATA_DIR);
  for (const std::string& c : candidates) {
    r.looked.push_back(c);
    if (HoldsModes(c)) {
      r.dir = c;
      break;
    }
  }
  return r;
}

std::string DataDir() {
  DataDirLookup r = FindDataDir();
  if (!r.dir.empty()) return r.dir;
  const char* env = getenv("TIERBENCH_DATA_DIR");
  return env != nullptr && *env != '\0' ? env : TIERBENCH_SOURCE_DIR;
}

}  // namespace tierbench
