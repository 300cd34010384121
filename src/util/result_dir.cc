#include "util/result_dir.h"

#include <fstream>

#include "util/errors.h"

namespace tierbench {
namespace fs = std::filesystem;

void WriteFileAtomically(const fs::path& path, const std::string& content,
                         const std::string& fix) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc | std::ios::binary);
    out << content;
    out.flush();
    if (!out) throw SysError("cannot write " + tmp.string() + ". Fix: " + fix);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    throw SysError("cannot rename " + tmp.string() + " to " + path.string() +
                   ". SysErr: " + ec.message());
  }
}

ResultDir::ResultDir(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    throw SysError("cannot create the results directory. Key: path: " + dir_ +
                   "; SysErr: " + ec.message() +
                   "; Fix: choose a writable --results");
  }
}

std::string ResultDir::Path(const std::string& file) const {
  return (fs::path(dir_) / file).string();
}

void ResultDir::Write(const std::string& file,
                      const std::string& content) const {
  WriteFileAtomically(Path(file), content,
                      "check free space and permissions of --results");
}

}  // namespace tierbench
