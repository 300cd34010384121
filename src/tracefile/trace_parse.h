// What the trace parsers (trace_blkparse.cc, trace_csv.cc and the binary
// trace_blktrace.cc, trace_vscsi.cc, trace_oracle.cc) share: lines with
// their numbers, fields, whole numbers, and the builder that checks a
// record and interns its volume; for the binary formats (trace_binary.cc)
// loads in either byte order, zstd decompression and their record checks.
// Internal to src/tracefile/ (trace_reader.h is the interface).
//
// Errors: TraceParseFail throws ConfigError "<path>:<line>: <what>. Fix:
// <fix>"; TraceRecordFail (binary formats) "<path>: record N (byte OFFSET):
// <what>. Fix: <fix>", N 1-based.
#ifndef TIERBENCH_TRACEFILE_TRACE_PARSE_H_
#define TIERBENCH_TRACEFILE_TRACE_PARSE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tracefile/trace_reader.h"

namespace tierbench {

inline constexpr uint64_t kTraceMaxLength = 256ULL << 20;  // as iologs

[[noreturn]] void TraceParseFail(const std::string& path, uint32_t line,
                                 const std::string& what,
                                 const std::string& fix);

// Fields split at `sep`, each trimmed (util/strings.h Trim); blank-separated
// (runs of blanks) when `sep` is ' '.
std::vector<std::string_view> TraceFields(std::string_view line, char sep);
// A decimal whole number (no sign, no blanks) into *out; false otherwise or
// on overflow.
bool TraceParseU64(std::string_view s, uint64_t* out);
// a * b into *out; false on overflow.
bool TraceMulU64(uint64_t a, uint64_t b, uint64_t* out);

// Iterates the lines of a text: Next() gives each line (without '\n') and
// its 1-based number.
class TraceLines {
 public:
  explicit TraceLines(std::string_view text) : text_(text) {}
  bool Next(std::string_view* line, uint32_t* number);

 private:
  std::string_view text_;
  size_t pos_ = 0;
  uint32_t number_ = 0;
};

// Collects the records of a trace: interns volumes, checks lengths and,
// when `monotonic`, that time never goes backwards.
class TraceBuilder {
 public:
  TraceBuilder(const std::string& path, TraceFormat format, bool monotonic);
  // `length` in bytes (0: a flush or empty request); `flags` kTraceFlush |
  // kTraceFua.
  void Add(uint32_t line, uint64_t time_ns, uint64_t offset, uint64_t length,
           bool is_write, std::string_view volume, uint8_t flags = 0);
  // The trace; an empty one is a ConfigError whose fix is `empty_fix`.
  ParsedTrace Finish(const std::string& empty_fix);
  const std::string& path() const { return trace_.path; }
  ParsedTrace& trace() { return trace_; }

 private:
  ParsedTrace trace_;
  bool monotonic_;
  std::unordered_map<std::string, uint32_t> volume_index_;
};

ParsedTrace ParseBlkparseTrace(std::string_view text, const std::string& path);
ParsedTrace ParseMsrTrace(std::string_view text, const std::string& path);
ParsedTrace ParseCbsTrace(std::string_view text, const std::string& path);
ParsedTrace ParseAlibabaTrace(std::string_view text, const std::string& path);
// The binary formats; `data` is the file's bytes (not zstd).
ParsedTrace ParseBlktraceTrace(std::string_view data, const std::string& path);
ParsedTrace ParseVscsiTrace(std::string_view data, const std::string& path);
ParsedTrace ParseOracleTrace(std::string_view data, const std::string& path);

// A blktrace per-CPU set (trace_blktrace.cc): for `path` X.blktrace.N (an
// existing file), or X when X does not exist and X.blktrace.0 does, the
// paths of every X.blktrace.<digits> by CPU number; empty otherwise.
std::vector<std::string> BlktraceCpuFiles(const std::string& path);
// Parses the CPU files of a set (`data[i]` the bytes of `files[i]`; empty
// files are idle CPUs) into one trace named `path`, merged by time (stable:
// CPU order breaks ties). Records keep their index in their own file.
ParsedTrace ParseBlktraceFiles(const std::vector<std::string>& files,
                               const std::vector<std::string_view>& data,
                               const std::string& path);

// Content tests used by DetectTraceFormat: does this (non-empty) line look
// like a record or the header of the format?
bool LooksLikeBlkparseLine(std::string_view line);
bool LooksLikeMsrLine(std::string_view line);
bool LooksLikeCbsLine(std::string_view line);
bool LooksLikeAlibabaLine(std::string_view line);
// Content tests for the binary formats, on the trace's first bytes (oracle:
// the whole trace, whose size must be a multiple of 24).
bool LooksLikeBlktrace(std::string_view head);
bool LooksLikeVscsi(std::string_view head);
bool LooksLikeOracle(std::string_view data);
// True when `head` holds a byte no text trace has (a NUL or another control
// character but tab, CR and LF).
bool TraceLooksBinary(std::string_view head);

// ---- binary formats (trace_binary.cc) ----

inline constexpr uint32_t kTraceZstdMagic = 0xFD2FB528;  // bytes 28 B5 2F FD

// Unsigned loads of 2, 4, 8 bytes at `p` in the given byte order.
uint16_t TraceLoad16(const char* p, bool big_endian);
uint32_t TraceLoad32(const char* p, bool big_endian);
uint64_t TraceLoad64(const char* p, bool big_endian);

[[noreturn]] void TraceRecordFail(const std::string& path, uint64_t record,
                                  uint64_t byte, const std::string& what,
                                  const std::string& fix);
// What TraceBuilder::Add would refuse (over 256 MiB, offset + length past
// 64 bits), refused first in the binary wording.
void TraceCheckRecord(const std::string& path, uint64_t record, uint64_t byte,
                      uint64_t offset, uint64_t length, const std::string& fix);
// Stable-sorts records [begin, end) by time; true when they were not sorted.
bool TraceSortByTime(std::vector<TraceRecord>* records, size_t begin,
                     size_t end);
// The volume of a one-volume binary trace: the file's name without its
// folders.
std::string TraceFileVolume(const std::string& path);

// Does `data` start with a zstd frame (magic 0xFD2FB528, little endian)?
bool TraceIsZstd(std::string_view data);
// The whole decompressed stream (every frame); a corrupt or cut stream, or
// one inflating past `max_bytes`, is a ConfigError naming `path`.
std::string TraceInflateZstd(std::string_view data, const std::string& path,
                             uint64_t max_bytes);

}  // namespace tierbench

#endif  // TIERBENCH_TRACEFILE_TRACE_PARSE_H_
