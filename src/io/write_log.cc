#include "io/write_log.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "util/units.h"

namespace tierbench {
namespace {

constexpr size_t kEntryHeaderBytes = 32;  // 4 x le64
constexpr size_t kSuperBytes = 28;        // 3 x le64 + le32
constexpr size_t kCopyBytes = 1 << 20;    // replay copies in 1 MiB pieces

uint64_t Le64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint32_t Le32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

// Reads exactly `len` bytes at `off`; kIoError naming `what` otherwise.
Status ReadAt(int fd, uint64_t off, size_t len, void* buf,
              const std::string& what) {
  auto* p = static_cast<char*>(buf);
  size_t done = 0;
  while (done < len) {
    const ssize_t n =
        ::pread(fd, p + done, len - done, static_cast<off_t>(off + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::FromErrno("reading " + what, errno);
    if (n == 0) {
      return Status::IoError("reading " + what + ": end of file at byte " +
                             std::to_string(off + done));
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status WriteAt(int fd, uint64_t off, size_t len, const void* buf,
               const std::string& what) {
  const auto* p = static_cast<const char*>(buf);
  size_t done = 0;
  while (done < len) {
    const ssize_t n =
        ::pwrite(fd, p + done, len - done, static_cast<off_t>(off + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::FromErrno("writing " + what, errno);
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

std::string EntryName(uint64_t index) {
  return "log entry " + std::to_string(index);
}

// "1,234".
std::string Count(uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace

Status ReadWriteLog(int fd, uint64_t log_bytes, WriteLog* out) {
  *out = WriteLog();
  if (log_bytes < 512) {
    return Status::InvalidArgument(
        "not a dm-log-writes log: " + std::to_string(log_bytes) +
        " bytes, less than its 512-byte super");
  }
  unsigned char super[kSuperBytes];
  Status s = ReadAt(fd, 0, sizeof(super), super, "the log's super");
  if (!s.ok()) return s;
  const uint64_t magic = Le64(super);
  if (magic != kWriteLogMagic) {
    char hex[40];
    std::snprintf(hex, sizeof(hex), "0x%llx",
                  static_cast<unsigned long long>(magic));
    return Status::InvalidArgument(
        std::string("not a dm-log-writes log: magic ") + hex +
        " in sector 0, not 0x6a736677736872 (is it the log device, and was "
        "the log-writes target created on it?)");
  }
  const uint64_t version = Le64(super + 8);
  if (version != kWriteLogVersion) {
    return Status::InvalidArgument("dm-log-writes log version " +
                                   std::to_string(version) +
                                   ", not 1: written by an unknown kernel");
  }
  const uint64_t nr_entries = Le64(super + 16);
  const uint32_t ss = Le32(super + 24);
  if (ss < 512 || ss > 65536 || (ss & (ss - 1)) != 0) {
    return Status::InvalidArgument(
        "dm-log-writes log: sectorsize " + std::to_string(ss) +
        " in the super is not a power of two from 512 to 65536");
  }
  out->sectorsize = ss;
  // Each entry takes at least one block: more entries than blocks is a
  // corrupt super, not a reason to reserve memory.
  if (nr_entries > log_bytes / ss) {
    return Status::InvalidArgument(
        "dm-log-writes log: the super counts " + Count(nr_entries) +
        " entries, more than the " + Count(log_bytes / ss) +
        " blocks of the log");
  }
  out->entries.reserve(static_cast<size_t>(nr_entries));
  std::vector<unsigned char> block(ss);
  uint64_t pos = ss;
  for (uint64_t i = 0; i < nr_entries; ++i) {
    if (pos + ss > log_bytes) {
      return Status::InvalidArgument(
          "dm-log-writes log truncated: " + EntryName(i) + " of " +
          Count(nr_entries) + " starts at byte " + std::to_string(pos) +
          ", past the log's " + std::to_string(log_bytes) + " bytes");
    }
    s = ReadAt(fd, pos, ss, block.data(), EntryName(i));
    if (!s.ok()) return s;
    WriteLogEntry e;
    e.index = i;
    e.sector = Le64(block.data());
    e.nr_sectors = Le64(block.data() + 8);
    e.flags = Le64(block.data() + 16);
    const uint64_t data_len = Le64(block.data() + 24);
    pos += ss;
    if (e.flags & kWriteLogMark) {
      if (data_len > ss - kEntryHeaderBytes) {
        return Status::InvalidArgument(
            "dm-log-writes log: " + EntryName(i) + " is a mark of " +
            std::to_string(data_len) + " bytes, more than its block holds");
      }
      e.mark.assign(
          reinterpret_cast<const char*>(block.data()) + kEntryHeaderBytes,
          static_cast<size_t>(data_len));
      const size_t nul = e.mark.find('\0');
      if (nul != std::string::npos) e.mark.resize(nul);
    }
    // A count that overflows a byte offset cannot come from a device.
    if (e.nr_sectors > (UINT64_MAX / 4) / ss ||
        e.sector > (UINT64_MAX / 4) / ss) {
      return Status::InvalidArgument(
          "dm-log-writes log: " + EntryName(i) +
          " has an impossible range (sector " + std::to_string(e.sector) +
          ", " + std::to_string(e.nr_sectors) + " sectors)");
    }
    const uint64_t bytes = e.nr_sectors * ss;
    if (!(e.flags & kWriteLogMark) && e.nr_sectors > 0) {
      out->device_end = std::max(out->device_end, (e.sector * ss) + bytes);
    }
    if (!(e.flags & kWriteLogDiscard)) {
      e.data_offset = pos;
      if (bytes > log_bytes - pos) {
        return Status::InvalidArgument(
            "dm-log-writes log truncated: the data of " + EntryName(i) + " (" +
            FormatBytes(bytes) + " at byte " + std::to_string(pos) +
            ") runs past the log's " + std::to_string(log_bytes) + " bytes");
      }
      pos += bytes;
    }
    out->entries.push_back(std::move(e));
  }
  return Status::Ok();
}

Status FindWriteLogMark(const WriteLog& log, const std::string& name,
                        uint64_t* index) {
  std::string marks;
  for (const WriteLogEntry& e : log.entries) {
    if (!(e.flags & kWriteLogMark)) continue;
    if (e.mark == name) {
      *index = e.index;
      return Status::Ok();
    }
    marks += (marks.empty() ? "" : ", ") + e.mark;
  }
  return Status::NotFound("the log has no mark '" + name +
                          "'; its marks: " + (marks.empty() ? "none" : marks));
}

namespace {

// Adds entry `e` to `totals` (all but `entries`): a mark, or a write or
// discard with its flush and FUA flags; a zero-length write or discard
// (a bare flush) counts only its flags. The one count ReplayWriteLog
// reports and DescribeWriteLog prints.
void CountWriteLogEntry(const WriteLogEntry& e, uint64_t sectorsize,
                        WriteLogReplay* totals) {
  if (e.flags & kWriteLogMark) {
    ++totals->marks;
    return;
  }
  if (e.flags & kWriteLogFlush) ++totals->flushes;
  if (e.flags & kWriteLogFua) ++totals->fua;
  if (e.nr_sectors == 0) return;
  if (e.flags & kWriteLogDiscard) {
    ++totals->discards;
  } else {
    ++totals->writes;
    totals->bytes += e.nr_sectors * sectorsize;
  }
}

}  // namespace

Status ReplayWriteLog(const WriteLog& log, int log_fd, uint64_t end,
                      int target_fd, uint64_t target_bytes,
                      WriteLogReplay* out) {
  *out = WriteLogReplay();
  const uint64_t ss = log.sectorsize;
  const size_t count = log.entries.empty()
                           ? 0
                           : static_cast<size_t>(std::min<uint64_t>(
                                 end, log.entries.size() - 1)) +
                                 1;
  // Everything checked before the first write.
  for (size_t i = 0; i < count; ++i) {
    const WriteLogEntry& e = log.entries[i];
    if (e.flags & kWriteLogMark) continue;
    const uint64_t last = (e.sector + e.nr_sectors) * ss;
    if (last > target_bytes) {
      return Status::InvalidArgument(
          EntryName(e.index) + " writes bytes " +
          std::to_string(e.sector * ss) + ".." + std::to_string(last) +
          ", past the end of the " + std::to_string(target_bytes) +
          "-byte target: the target must be as large as the logged device");
    }
  }
  std::vector<char> buf(kCopyBytes);
  for (size_t i = 0; i < count; ++i) {
    const WriteLogEntry& e = log.entries[i];
    ++out->entries;
    CountWriteLogEntry(e, ss, out);
    if (e.flags & kWriteLogMark) continue;
    const uint64_t bytes = e.nr_sectors * ss;
    if (bytes == 0) continue;
    const bool discard = (e.flags & kWriteLogDiscard) != 0;
    if (discard) std::fill(buf.begin(), buf.end(), 0);
    for (uint64_t done = 0; done < bytes;) {
      const size_t n = static_cast<size_t>(
          std::min<uint64_t>(bytes - done, static_cast<uint64_t>(buf.size())));
      Status s;
      if (!discard) {
        s = ReadAt(log_fd, e.data_offset + done, n, buf.data(),
                   "the data of " + EntryName(e.index));
        if (!s.ok()) return s;
      }
      s = WriteAt(target_fd, e.sector * ss + done, n, buf.data(),
                  "the target at " + EntryName(e.index));
      if (!s.ok()) return s;
      done += n;
    }
  }
  if (::fdatasync(target_fd) != 0) {
    return Status::FromErrno("flushing the target after the replay", errno);
  }
  return Status::Ok();
}

std::string DescribeWriteLog(const WriteLog& log) {
  std::string text;
  WriteLogReplay t;
  for (const WriteLogEntry& e : log.entries) {
    CountWriteLogEntry(e, log.sectorsize, &t);
    if (e.flags & kWriteLogMark) {
      text += "mark " + e.mark + " (entry " + std::to_string(e.index) + ")\n";
    }
  }
  text += Count(log.entries.size()) + " entries (sectorsize " +
          std::to_string(log.sectorsize) + "): " + Count(t.writes) +
          " writes (" + FormatBytes(t.bytes) + "), " + Count(t.flushes) +
          " flushes, " + Count(t.fua) + " FUA, " + Count(t.discards) +
          " discards, " + Count(t.marks) + " marks; the device reaches " +
          FormatBytes(log.device_end) + "\n";
  return text;
}

}  // namespace tierbench
