// blktrace's binary records (tracefile/trace_reader.h), as blktrace writes
// them per CPU (DEVICE.blktrace.CPU) and as `blkparse -d FILE` dumps them
// merged. Layout, from the kernel's include/uapi/linux/blktrace_api.h (and
// fio's copy, blktrace_api.h, read by fio's blktrace.c): a 48-byte
// struct blk_io_trace
//   u32 magic     0x65617400 | version (7: BLK_IO_TRACE_VERSION)
//   u32 sequence  u64 time (ns)  u64 sector (512 bytes)  u32 bytes
//   u32 action    low 16 bits the action (__BLK_TA_*, bit 8 the cgroup
//                 flag), high 16 bits the categories (BLK_TC_*)
//   u32 pid  u32 device (dev_t: MAJOR = dev >> 20, MINOR = dev & 0xfffff)
//   u32 cpu  u16 error  u16 pdu_len
// followed by pdu_len bytes of payload (skipped). The byte order is the
// recording machine's: told from the magic of the first record, as blkparse
// does; every record of a file must then carry the magic in that order.
// Version 8 (struct blk_io_trace2, the extended protocol with 64-bit
// actions) is refused naming the fix (blkparse's text output reads).
//
// Events taken, as the blkparse text reader (trace_blkparse.cc): ISSUE
// (__BLK_TA_ISSUE, blkparse's D) events, or COMPLETE (C) ones when a trace
// has no ISSUE event (blktrace -a complete); never QUEUE or the others.
// Notify events (BLK_TC_NOTIFY: process names, timestamps, messages) and pc
// (SCSI passthrough, BLK_TC_PC) events are skipped. Direction: BLK_TC_WRITE
// is a write, else a read, as blkparse's RWBS. BLK_TC_FLUSH sets
// kTraceFlush (a flush without data is a record of length 0), BLK_TC_FUA
// kTraceFua; a DISCARD (BLK_TC_DISCARD), or an event without bytes, is kept
// with length 0 and no flag. Volume: "MAJ,MIN". A record's `line` is its
// 1-based index in its file (for a set: in its CPU's file). Records are
// sorted by time (stable); a file that was not is sorted and `reordered`
// set. A per-CPU set is merged by time as blkparse merges it (checked
// against blkparse 1.2.0: same order but for events of equal time, which
// keep CPU order here and which blkparse may order otherwise).
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "tracefile/trace_parse.h"
#include "util/errors.h"

namespace tierbench {
namespace {

constexpr size_t kBlktraceHeader = 48;
constexpr uint32_t kBlktraceMagic = 0x65617400;
constexpr uint32_t kBlktraceVersion = 7;
constexpr uint32_t kBlktraceVersion2 = 8;

// Categories (BLK_TC_*, the action's high 16 bits) and actions.
constexpr uint32_t kBlktraceTcWrite = 1 << 1;
constexpr uint32_t kBlktraceTcFlush = 1 << 2;
constexpr uint32_t kBlktraceTcPc = 1 << 9;
constexpr uint32_t kBlktraceTcNotify = 1 << 10;
constexpr uint32_t kBlktraceTcDiscard = 1 << 13;
constexpr uint32_t kBlktraceTcFua = 1 << 15;
constexpr uint32_t kBlktraceTaIssue = 7;
constexpr uint32_t kBlktraceTaComplete = 8;
constexpr uint32_t kBlktraceTaCgroup = 1 << 8;

constexpr const char* kBlktraceFix =
    "pass blktrace's per-CPU files (DEVICE.blktrace.N) or a blkparse -d "
    "dump, whole; or read the trace with blkparse -i DEVICE > trace.txt and "
    "pass that";

bool BlktraceMagicIn(uint32_t m) { return (m & 0xffffff00) == kBlktraceMagic; }

std::string BlktraceHex(uint32_t v) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%08x", v);
  return hex;
}

// Issue and complete events apart, with where each file's records start.
struct BlktraceEvents {
  explicit BlktraceEvents(const std::string& path)
      : issued(path, TraceFormat::kBlktrace, /*monotonic=*/false),
        completed(path, TraceFormat::kBlktrace, /*monotonic=*/false) {}
  TraceBuilder issued;
  TraceBuilder completed;
  std::vector<size_t> issued_starts;
  std::vector<size_t> completed_starts;
};

void BlktraceReadFile(std::string_view data, const std::string& path,
                      BlktraceEvents* events) {
  events->issued_starts.push_back(events->issued.trace().records.size());
  events->completed_starts.push_back(events->completed.trace().records.size());
  bool big = false;
  uint64_t record = 0;
  size_t pos = 0;
  while (pos < data.size()) {
    ++record;
    if (data.size() - pos < kBlktraceHeader) {
      TraceRecordFail(
          path, record, pos,
          "a truncated record: " + std::to_string(data.size() - pos) +
              " bytes left where a blk_io_trace header takes 48",
          kBlktraceFix);
    }
    const char* r = data.data() + pos;
    const uint32_t le = TraceLoad32(r, false);
    if (record == 1) big = !BlktraceMagicIn(le);
    const uint32_t magic = TraceLoad32(r, big);
    if (!BlktraceMagicIn(magic)) {
      TraceRecordFail(
          path, record, pos,
          "bad magic " + BlktraceHex(le) +
              " where a blk_io_trace record holds 0x656174 and its version "
              "(in the byte order of the first record)",
          record == 1 ? "pass a blktrace binary file (--format blktrace), or "
                        "drop --format to tell the format from the content"
                      : kBlktraceFix);
    }
    const uint32_t version = magic & 0xff;
    if (version != kBlktraceVersion) {
      TraceRecordFail(
          path, record, pos,
          "blktrace version " + std::to_string(version) +
              (version == kBlktraceVersion2 ? " (struct blk_io_trace2)" : "") +
              " where tierbench reads version 7 (struct blk_io_trace)",
          "read the trace with a blkparse that knows it (blkparse -i DEVICE "
          "> trace.txt) and pass its text output");
    }
    const uint32_t pdu = TraceLoad16(r + 46, big);
    if (data.size() - pos - kBlktraceHeader < pdu) {
      TraceRecordFail(path, record, pos,
                      "a truncated record: its payload (pdu_len " +
                          std::to_string(pdu) +
                          ") runs past the end of the "
                          "file (" +
                          std::to_string(data.size()) + " bytes)",
                      kBlktraceFix);
    }
    const uint64_t at = pos;
    pos += kBlktraceHeader + pdu;
    const uint32_t action = TraceLoad32(r + 28, big);
    const uint32_t cats = action >> 16;
    if ((cats & (kBlktraceTcNotify | kBlktraceTcPc)) != 0) continue;
    const uint32_t what = (action & 0xffff) & ~kBlktraceTaCgroup;
    if (what != kBlktraceTaIssue && what != kBlktraceTaComplete) continue;
    const uint64_t time_ns = TraceLoad64(r + 8, big);
    const uint64_t sector = TraceLoad64(r + 16, big);
    uint64_t length = TraceLoad32(r + 24, big);
    const uint32_t device = TraceLoad32(r + 36, big);
    uint64_t offset = 0;
    if (!TraceMulU64(sector, 512, &offset)) {
      TraceRecordFail(path, record, at,
                      "sector " + std::to_string(sector) +
                          " does not fit in 64 bits in bytes",
                      kBlktraceFix);
    }
    const bool is_write = (cats & kBlktraceTcWrite) != 0;
    uint8_t flags = 0;
    if ((cats & kBlktraceTcFlush) != 0) flags |= kTraceFlush;
    if ((cats & kBlktraceTcFua) != 0) flags |= kTraceFua;
    if ((cats & kBlktraceTcDiscard) != 0) length = 0;  // as blkparse's D
    TraceCheckRecord(path, record, at, offset, length, kBlktraceFix);
    const std::string volume =
        std::to_string(device >> 20) + "," + std::to_string(device & 0xfffff);
    const uint32_t line =
        record > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(record);
    (what == kBlktraceTaIssue ? events->issued : events->completed)
        .Add(line, time_ns, offset, length, is_write, volume, flags);
  }
}

ParsedTrace BlktraceFinish(BlktraceEvents* events) {
  const bool use_issued = !events->issued.trace().records.empty();
  TraceBuilder& used = use_issued ? events->issued : events->completed;
  std::vector<size_t> starts =
      use_issued ? events->issued_starts : events->completed_starts;
  ParsedTrace trace = used.Finish(
      "a blktrace trace needs ISSUE (D) or COMPLETE (C) events of "
      "filesystem requests; record with blktrace -d DEVICE (all events) "
      "and pass every DEVICE.blktrace.N file");
  starts.push_back(trace.records.size());
  // Each file in time order, then the files merged by time.
  for (size_t i = 0; i + 1 < starts.size(); ++i) {
    if (TraceSortByTime(&trace.records, starts[i], starts[i + 1])) {
      trace.reordered = true;
    }
  }
  TraceSortByTime(&trace.records, 0, trace.records.size());
  return trace;
}

bool BlktraceCpuSuffix(std::string_view name, std::string_view base,
                       uint64_t* cpu) {
  constexpr std::string_view kInfix = ".blktrace.";
  if (name.size() <= base.size() + kInfix.size() ||
      name.substr(0, base.size()) != base ||
      name.substr(base.size(), kInfix.size()) != kInfix) {
    return false;
  }
  return TraceParseU64(name.substr(base.size() + kInfix.size()), cpu);
}

bool BlktraceIsFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

ParsedTrace ParseBlktraceTrace(std::string_view data, const std::string& path) {
  BlktraceEvents events(path);
  BlktraceReadFile(data, path, &events);
  return BlktraceFinish(&events);
}

ParsedTrace ParseBlktraceFiles(const std::vector<std::string>& files,
                               const std::vector<std::string_view>& data,
                               const std::string& path) {
  BlktraceEvents events(path);
  for (size_t i = 0; i < files.size() && i < data.size(); ++i) {
    BlktraceReadFile(data[i], files[i], &events);
  }
  return BlktraceFinish(&events);
}

std::vector<std::string> BlktraceCpuFiles(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);
  std::string base;
  uint64_t cpu = 0;
  const size_t infix = name.rfind(".blktrace.");
  if (infix != std::string::npos && infix > 0 &&
      BlktraceCpuSuffix(name, name.substr(0, infix), &cpu) &&
      BlktraceIsFile(path)) {
    base = name.substr(0, infix);
  } else if (!name.empty() && !BlktraceIsFile(path) &&
             BlktraceIsFile(path + ".blktrace.0")) {
    base = name;
  } else {
    return {};
  }
  std::vector<std::pair<uint64_t, std::string>> found;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return {};
  while (const dirent* e = ::readdir(d)) {
    if (BlktraceCpuSuffix(e->d_name, base, &cpu)) {
      found.emplace_back(cpu, e->d_name);
    }
  }
  ::closedir(d);
  std::sort(found.begin(), found.end());
  const std::string prefix = slash == std::string::npos ? "" : dir;
  std::vector<std::string> out;
  for (const auto& [n, file] : found) {
    if (BlktraceIsFile(prefix + file)) out.push_back(prefix + file);
  }
  return out;
}

bool LooksLikeBlktrace(std::string_view head) {
  if (head.size() < 4) return false;
  for (const bool big : {false, true}) {
    const uint32_t m = TraceLoad32(head.data(), big);
    if (BlktraceMagicIn(m) &&
        ((m & 0xff) == kBlktraceVersion || (m & 0xff) == kBlktraceVersion2)) {
      return true;
    }
  }
  return false;
}

}  // namespace tierbench
