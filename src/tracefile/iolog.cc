// fio iolog v2/v3 parsing (tracefile/iolog.h), after fio's iolog.c
// read_iolog(): the field count decides between a file action and an IO
// action, then the action word is checked.
#include "tracefile/iolog.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "util/errors.h"

namespace tierbench {
namespace {

constexpr std::string_view kVersion2 = "fio version 2 iolog";
constexpr std::string_view kVersion3 = "fio version 3 iolog";
constexpr uint64_t kMaxLength = 256ULL << 20;  // as the bs= limit

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
      ++i;
    const size_t start = i;
    while (i < line.size() &&
           !std::isspace(static_cast<unsigned char>(line[i])))
      ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// Adds the read or write `e` to the per-direction counts, sizes and extent
// of `log` (not syncs, not FUA).
void IoLogCountIo(const IoLogEntry& e, IoLog* log) {
  const int d = e.action == IoLogAction::kRead ? 0 : 1;
  ++log->ios[d];
  log->bytes[d] += e.length;
  log->min_length[d] = log->min_length[d] == 0
                           ? e.length
                           : std::min(log->min_length[d], e.length);
  log->max_length[d] = std::max(log->max_length[d], e.length);
  if (e.offset + e.length > log->extent) {
    log->extent = e.offset + e.length;
    log->extent_line = e.line;
  }
}

class Parser {
 public:
  explicit Parser(IoLog* log) : log_(log) {}

  [[noreturn]] void Fail(const std::string& why, const std::string& fix) const {
    throw ConfigError(log_->Where(line_) + ": " + why + ". Fix: " + fix);
  }

  uint64_t Number(std::string_view text, const char* what) const {
    uint64_t v = 0;
    const auto [ptr, ec] =
        std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      Fail(std::string(what) + " '" + std::string(text) +
               "' is not a whole number",
           "write it in decimal bytes (or microseconds for a timestamp)");
    }
    return v;
  }

  int FileIndex(std::string_view name) const {
    for (size_t i = 0; i < log_->files.size(); ++i) {
      if (log_->files[i] == name) return static_cast<int>(i);
    }
    return -1;
  }

  void Line(std::string_view text, uint32_t line) {
    line_ = line;
    std::vector<std::string_view> f = Fields(text);
    if (f.empty()) return;
    IoLogEntry e;
    e.line = line;
    const bool v3 = log_->version == 3;
    if (v3) {
      e.time_us = Number(f[0], "timestamp");
      f.erase(f.begin());
    }
    const std::string format =
        v3 ? "'<usec> <file> add|open|close' or '<usec> <file> read|write "
             "<offset> <length>'"
           : "'<file> add|open|close' or '<file> read|write|wait <offset> "
             "<length>'";
    if (f.size() != 2 && f.size() != 4) {
      Fail("expected " + std::to_string(v3 ? 3 : 2) + " or " +
               std::to_string(v3 ? 5 : 4) + " fields, found " +
               std::to_string(f.size() + (v3 ? 1 : 0)),
           "write " + format);
    }
    const std::string_view file = f[0];
    const std::string_view act = f[1];
    int index = FileIndex(file);
    if (f.size() == 2) {
      if (act == "add") {
        e.action = IoLogAction::kAdd;
        if (index < 0) {
          log_->files.emplace_back(file);
          index = static_cast<int>(log_->files.size() - 1);
        }
      } else if (act == "open") {
        e.action = IoLogAction::kOpen;
      } else if (act == "close") {
        e.action = IoLogAction::kClose;
      } else {
        Fail("unknown file action '" + std::string(act) + "'",
             "use add, open or close, or write " + format);
      }
    } else {
      if (act == "read") {
        e.action = IoLogAction::kRead;
      } else if (act == "write") {
        e.action = IoLogAction::kWrite;
      } else if (act == "wait") {
        if (v3) {
          Fail("'wait' is not allowed in a version 3 iolog (fio ignores it)",
               "remove the line; version 3 times IO by its timestamps");
        }
        e.action = IoLogAction::kWait;
      } else if (act == "sync") {
        e.action = IoLogAction::kSync;
      } else if (act == "datasync") {
        e.action = IoLogAction::kDatasync;
      } else if (act == "trim") {
        e.action = IoLogAction::kSkipped;
      } else {
        Fail("unknown IO action '" + std::string(act) + "'",
             "use read, write" + std::string(v3 ? "" : ", wait") +
                 ", sync, datasync or trim");
      }
      e.offset = Number(f[2], "offset");
      const uint64_t length = Number(f[3], "length");
      if (e.action == IoLogAction::kRead || e.action == IoLogAction::kWrite) {
        if (length == 0 || length > kMaxLength) {
          Fail("length " + std::to_string(length) +
                   " is outside 1 byte .. 256 MiB",
               "give each read/write a length between 1 and 268435456");
        }
        if (e.offset > UINT64_MAX - length) {
          Fail("offset + length overflows", "check the offset");
        }
        e.length = static_cast<uint32_t>(length);
        IoLogCountIo(e, log_);
      }
    }
    if (index < 0 && e.action != IoLogAction::kWait) {
      Fail("file '" + std::string(file) + "' is used before its 'add' line",
           "add a line '" + std::string(v3 ? "<usec> " : "") +
               std::string(file) + " add' before its first use");
    }
    e.file = index < 0 ? 0 : static_cast<uint32_t>(index);
    if (e.action == IoLogAction::kSkipped) ++log_->skipped;
    if (e.action == IoLogAction::kSync || e.action == IoLogAction::kDatasync)
      ++log_->syncs;
    log_->entries.push_back(e);
  }

 private:
  IoLog* log_;
  uint32_t line_ = 0;
};

}  // namespace

void SummarizeIoLog(IoLog* log) {
  for (int d = 0; d < kNumDirs; ++d) {
    log->ios[d] = log->bytes[d] = 0;
    log->min_length[d] = log->max_length[d] = 0;
  }
  log->extent = 0;
  log->extent_line = 0;
  log->syncs = log->fua_writes = 0;
  for (const IoLogEntry& e : log->entries) {
    if (e.action == IoLogAction::kSync || e.action == IoLogAction::kDatasync)
      ++log->syncs;
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    IoLogCountIo(e, log);
    if (e.fua) ++log->fua_writes;
  }
}

IoLog ParseIoLog(std::string_view text, const std::string& path) {
  IoLog log;
  log.path = path;
  size_t pos = 0;
  uint32_t line = 0;
  Parser parser(&log);
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    if (line == 1) {
      if (l.substr(0, kVersion2.size()) == kVersion2) {
        log.version = 2;
      } else if (l.substr(0, kVersion3.size()) == kVersion3) {
        log.version = 3;
      } else {
        throw ConfigError(log.Where(1) +
                          ": not a fio iolog of version 2 or 3 (the first "
                          "line must be 'fio version 2 iolog' or 'fio version "
                          "3 iolog'). Fix: point read_iolog= at a trace "
                          "written by fio's or tierbench's write_iolog=");
      }
      continue;
    }
    parser.Line(l, line);
  }
  if (line == 0) {
    throw ConfigError(path +
                      ": the iolog is empty. Fix: point read_iolog= at a "
                      "trace written by write_iolog=");
  }
  if (log.ios[0] + log.ios[1] == 0) {
    throw ConfigError(path +
                      ": the iolog has no read or write to replay. Fix: "
                      "record a trace with reads or writes (write_iolog=)");
  }
  return log;
}

IoLog LoadIoLog(const std::string& path) {
  if (path == "-") {
    throw ConfigError(
        "option 'read_iolog': reading the trace from stdin ('-') is not "
        "supported. Fix: save the trace to a file and name it");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ConfigError("Cannot read the iolog of read_iolog=. Path: " + path +
                      "; SysErr: " + std::strerror(errno) +
                      ". Fix: check the path (relative paths start in the "
                      "current directory)");
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseIoLog(buffer.str(), path);
}

}  // namespace tierbench
