// What the trace parsers (trace_blkparse.cc, trace_csv.cc) share: lines
// with their numbers, fields, whole numbers, and the builder that checks a
// record and interns its volume. Internal to src/trace/ (trace_reader.h is
// the interface).
//
// Errors: TraceParseFail throws ConfigError "<path>:<line>: <what>. Fix:
// <fix>".
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

// Content tests used by DetectTraceFormat: does this (non-empty) line look
// like a record or the header of the format?
bool LooksLikeBlkparseLine(std::string_view line);
bool LooksLikeMsrLine(std::string_view line);
bool LooksLikeCbsLine(std::string_view line);
bool LooksLikeAlibabaLine(std::string_view line);

}  // namespace tierbench

#endif  // TIERBENCH_TRACEFILE_TRACE_PARSE_H_
