// LogBuilder: dm-log-writes logs built byte by byte in the kernel's layout
// (io/write_log.h), for the tests of the reader and of `tierbench
// replay-log`. Header-only; not thread-safe.
#ifndef TIERBENCH_TESTS_SUPPORT_WRITE_LOG_BUILDER_H_
#define TIERBENCH_TESTS_SUPPORT_WRITE_LOG_BUILDER_H_

#include <cstdint>
#include <string>

#include "io/write_log.h"

namespace tierbench::testing {

// Stores the low `bytes` bytes of `v` little-endian at s[at].
inline void PutLe(std::string* s, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    (*s)[at + i] = static_cast<char>(v >> (8 * i));
}

// Builds a log as dm-log-writes lays it out (sector 0 the super, then per
// entry a header block and its data blocks).
class LogBuilder {
 public:
  explicit LogBuilder(uint32_t ss) : ss_(ss), bytes_(ss, '\0') {}

  // A write of `nr` sectors at `sector`, every byte `fill`.
  LogBuilder& Write(uint64_t sector, uint64_t nr, char fill,
                    uint64_t flags = 0) {
    Header(sector, nr, flags, 0, "");
    bytes_.append(nr * ss_, fill);
    return *this;
  }
  LogBuilder& Flush() { return Header(0, 0, kWriteLogFlush, 0, ""); }
  LogBuilder& Discard(uint64_t sector, uint64_t nr) {
    return Header(sector, nr, kWriteLogDiscard, 0, "");
  }
  LogBuilder& Mark(const std::string& name) {
    return Header(0, 0, kWriteLogMark, name.size(), name);
  }
  // The log, with `nr_entries` in the super (default: every entry).
  std::string Bytes(int64_t nr_entries = -1) const {
    std::string out = bytes_;
    PutLe(&out, 0, kWriteLogMagic, 8);
    PutLe(&out, 8, kWriteLogVersion, 8);
    PutLe(&out, 16, nr_entries < 0 ? entries_ : uint64_t(nr_entries), 8);
    PutLe(&out, 24, ss_, 4);
    return out;
  }

 private:
  LogBuilder& Header(uint64_t sector, uint64_t nr, uint64_t flags,
                     uint64_t data_len, const std::string& mark) {
    std::string h(ss_, '\0');
    PutLe(&h, 0, sector, 8);
    PutLe(&h, 8, nr, 8);
    PutLe(&h, 16, flags, 8);
    PutLe(&h, 24, data_len, 8);
    h.replace(32, mark.size(), mark);
    bytes_ += h;
    ++entries_;
    return *this;
  }

  uint32_t ss_;
  std::string bytes_;
  uint64_t entries_ = 0;
};

}  // namespace tierbench::testing

#endif  // TIERBENCH_TESTS_SUPPORT_WRITE_LOG_BUILDER_H_
