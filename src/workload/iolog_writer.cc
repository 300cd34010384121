// write_iolog= (workload/iolog_writer.h): buffered stdio, one fprintf per
// line, as fio's log_io_u().
#include "workload/iolog_writer.h"

#include <cerrno>
#include <cstring>

#include "util/errors.h"

namespace tierbench {

IologWriter::IologWriter(const std::string& path, const std::string& target)
    : IologWriter(path, std::vector<std::string>{target}) {}

IologWriter::IologWriter(const std::string& path,
                         const std::vector<std::string>& targets)
    : path_(path), targets_(targets) {
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) {
    throw SysError("Cannot create the iolog of write_iolog=. Path: " + path +
                   "; SysErr: " + std::strerror(errno) +
                   ". Fix: create its directory or choose a writable path");
  }
  std::setvbuf(file_, buffer_, _IOFBF, sizeof(buffer_));
}

void IologWriter::Begin(uint64_t start_ns) {
  start_ns_ = start_ns;
  if (file_ == nullptr) return;
  std::fputs("fio version 3 iolog\n", file_);
  for (const std::string& target : targets_)
    std::fprintf(file_, "%llu %s add\n", Usec(start_ns), target.c_str());
}

IologWriter::~IologWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

unsigned long long IologWriter::Usec(uint64_t now_ns) const {
  return static_cast<unsigned long long>(
      now_ns > start_ns_ ? (now_ns - start_ns_) / 1000 : 0);
}

void IologWriter::Open(uint64_t now_ns) {
  if (file_ == nullptr) return;
  for (const std::string& target : targets_)
    std::fprintf(file_, "%llu %s open\n", Usec(now_ns), target.c_str());
}

void IologWriter::Io(uint64_t now_ns, IoDir dir, uint64_t offset,
                     uint32_t length, size_t file) {
  if (file_ == nullptr) return;
  std::fprintf(file_, "%llu %s %s %llu %u\n", Usec(now_ns),
               targets_[file].c_str(), IoDirName(dir),
               static_cast<unsigned long long>(offset), length);
}

Status IologWriter::Close(uint64_t now_ns) {
  if (file_ == nullptr) return closed_;
  for (const std::string& target : targets_)
    std::fprintf(file_, "%llu %s close\n", Usec(now_ns), target.c_str());
  const bool write_failed = std::ferror(file_) != 0;
  const int write_errno = errno;
  const bool close_failed = std::fclose(file_) != 0;
  const int close_errno = errno;
  file_ = nullptr;
  if (write_failed || close_failed) {
    const int err = write_failed ? write_errno : close_errno;
    closed_ =
        Status::FromErrno("writing the iolog " + path_, err != 0 ? err : EIO);
  }
  return closed_;
}

}  // namespace tierbench
