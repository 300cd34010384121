// Trace format names, detection from content, the shared parse helpers
// (tracefile/trace_parse.h), volume selection and the IoLog handed to the
// profile (tracefile/trace_reader.h).
#include "tracefile/trace_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tracefile/trace_parse.h"
#include "util/errors.h"
#include "util/strings.h"

namespace tierbench {
namespace {

struct TraceFormatName {
  TraceFormat format;
  std::string_view word;
  std::string_view title;
};

constexpr TraceFormatName kTraceFormatNames[] = {
    {TraceFormat::kAuto, "auto", "auto"},
    {TraceFormat::kIoLog, "iolog", "fio iolog"},
    {TraceFormat::kBlkparse, "blkparse", "blkparse text"},
    {TraceFormat::kMsr, "msr", "MSR Cambridge CSV"},
    {TraceFormat::kCbs, "cbs", "Tencent CBS CSV"},
    {TraceFormat::kAlibaba, "alibaba", "Alibaba block CSV"},
    {TraceFormat::kBlktrace, "blktrace", "blktrace binary"},
    {TraceFormat::kVscsi, "vscsi", "CloudPhysics vscsi"},
    {TraceFormat::kOracle, "oracle", "libCacheSim oracleGeneral"},
};

constexpr size_t kTraceDetectBytes = 64 * 1024;

constexpr size_t kTraceMaxVolumesListed = 10;

std::string TraceVolumeList(const std::vector<std::string>& volumes) {
  std::string out;
  for (size_t i = 0; i < volumes.size() && i < kTraceMaxVolumesListed; ++i) {
    out += (i == 0 ? "" : " ") + volumes[i];
  }
  if (volumes.size() > kTraceMaxVolumesListed) {
    out += " ... (" + std::to_string(volumes.size()) + " in all)";
  }
  return out;
}

// A flush (kTraceFlush) becomes a "sync" entry: alone for a flush without
// data, before the request's own entry for a preflush. Another zero-length
// record (a discard, an empty request) is a skipped entry. kTraceFua marks
// the write entry `fua`.
IoLog TraceToIoLog(const ParsedTrace& trace, uint32_t volume) {
  IoLog log;
  log.path = trace.path;
  log.version = 3;
  log.files.push_back(trace.volumes[volume]);
  uint64_t first_ns = 0;
  bool have_first = false;
  for (const TraceRecord& r : trace.records) {
    if (r.volume != volume) continue;
    if (!have_first) {
      first_ns = r.time_ns;
      have_first = true;
    }
    IoLogEntry e;
    e.time_us = (r.time_ns - std::min(first_ns, r.time_ns)) / 1000;
    e.file = 0;
    e.line = r.line;
    if ((r.flags & kTraceFlush) != 0) {
      e.action = IoLogAction::kSync;
      log.entries.push_back(e);
    }
    if (r.length_bytes == 0) {
      if ((r.flags & kTraceFlush) == 0) {
        e.action = IoLogAction::kSkipped;
        e.offset = r.offset_bytes;
        ++log.skipped;
        log.entries.push_back(e);
      }
      continue;
    }
    e.action = r.is_write ? IoLogAction::kWrite : IoLogAction::kRead;
    e.offset = r.offset_bytes;
    e.length = r.length_bytes;
    e.fua = r.is_write && (r.flags & kTraceFua) != 0;
    log.entries.push_back(e);
  }
  SummarizeIoLog(&log);
  return log;
}

// The volume picked from a parsed trace (--volume, or its only one) and its
// records as an IoLog: ReadTraceText's and a blktrace per-CPU set's end.
LoadedTrace TraceWithVolume(const ParsedTrace& trace,
                            const TraceReadOptions& options, LoadedTrace out) {
  const std::string& path = trace.path;
  out.reordered = trace.reordered;
  uint32_t volume = 0;
  if (options.volume.empty()) {
    if (trace.volumes.size() > 1) {
      throw ConfigError(
          path + ": the " + std::string(TraceFormatTitle(out.format)) +
          " trace holds " + std::to_string(trace.volumes.size()) +
          " volumes: " + TraceVolumeList(trace.volumes) +
          ". Fix: " + options.purpose + " one with " + options.volume_option +
          "V (e.g. " + options.volume_option + trace.volumes.front() + ")");
    }
  } else {
    const auto it =
        std::find(trace.volumes.begin(), trace.volumes.end(), options.volume);
    if (it == trace.volumes.end()) {
      throw ConfigError(path + ": " + options.volume_option + options.volume +
                        " is not in the trace (its volumes: " +
                        TraceVolumeList(trace.volumes) +
                        "). Fix: pass one of them");
    }
    volume = static_cast<uint32_t>(it - trace.volumes.begin());
  }
  out.volume = trace.volumes[volume];
  out.log = TraceToIoLog(trace, volume);
  return out;
}

// The bytes of the file at `path`; an unreadable file is a ConfigError.
std::string TraceFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ConfigError("Cannot read the trace " + path + ": " +
                      std::strerror(errno) +
                      ". Fix: pass the path of a block trace (fio iolog, "
                      "blkparse output or blktrace binary, MSR, CBS or "
                      "Alibaba CSV, vscsi, oracleGeneral)");
  }
  std::string bytes;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) bytes.resize(static_cast<size_t>(size));
  if (size < 0 || !in.read(bytes.data(), size)) {
    throw ConfigError("Cannot read the trace " + path + ": " +
                      std::strerror(errno) +
                      ". Fix: pass a readable regular file");
  }
  return bytes;
}

// A blktrace per-CPU set (BlktraceCpuFiles) read whole, or nullopt when
// `path` names none or --format (or, with auto, the content of its first
// non-empty file) says another format.
std::optional<LoadedTrace> TraceLoadBlktraceSet(
    const std::string& path, const TraceReadOptions& options) {
  if (options.format != TraceFormat::kAuto &&
      options.format != TraceFormat::kBlktrace) {
    return std::nullopt;
  }
  const std::vector<std::string> files = BlktraceCpuFiles(path);
  if (files.empty()) return std::nullopt;
  std::vector<std::string> bytes;
  for (const std::string& f : files) {
    bytes.push_back(TraceFileBytes(f));
    if (TraceIsZstd(bytes.back())) {
      bytes.back() =
          TraceInflateZstd(bytes.back(), f, options.max_inflated_bytes);
    }
  }
  if (options.format == TraceFormat::kAuto) {
    const auto first = std::find_if(bytes.begin(), bytes.end(),
                                    [](const auto& b) { return !b.empty(); });
    if (first != bytes.end() &&
        DetectTraceFormat(*first) != TraceFormat::kBlktrace) {
      return std::nullopt;
    }
  }
  LoadedTrace out;
  out.format = TraceFormat::kBlktrace;
  out.detected = options.format == TraceFormat::kAuto;
  const std::vector<std::string_view> views(bytes.begin(), bytes.end());
  return TraceWithVolume(ParseBlktraceFiles(files, views, path), options,
                         std::move(out));
}

}  // namespace

// ---- shared parse helpers (tracefile/trace_parse.h) ----

void TraceParseFail(const std::string& path, uint32_t line,
                    const std::string& what, const std::string& fix) {
  throw ConfigError(path + ":" + std::to_string(line) + ": " + what +
                    ". Fix: " + fix);
}

std::vector<std::string_view> TraceFields(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  if (sep == ' ') {
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() &&
             std::isspace(static_cast<unsigned char>(line[i]))) {
        ++i;
      }
      const size_t start = i;
      while (i < line.size() &&
             !std::isspace(static_cast<unsigned char>(line[i]))) {
        ++i;
      }
      if (i > start) out.push_back(line.substr(start, i - start));
    }
    if (out.empty()) out.push_back(std::string_view());
    return out;
  }
  size_t start = 0;
  while (true) {
    const size_t end = line.find(sep, start);
    out.push_back(Trim(line.substr(start, end == std::string_view::npos
                                              ? std::string_view::npos
                                              : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

bool TraceParseU64(std::string_view s, uint64_t* out) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front()))) {
    return false;
  }
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool TraceMulU64(uint64_t a, uint64_t b, uint64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

bool TraceLines::Next(std::string_view* line, uint32_t* number) {
  if (pos_ >= text_.size()) return false;
  const size_t end = text_.find('\n', pos_);
  const size_t stop = end == std::string_view::npos ? text_.size() : end;
  *line = text_.substr(pos_, stop - pos_);
  pos_ = stop + 1;
  *number = ++number_;
  return true;
}

TraceBuilder::TraceBuilder(const std::string& path, TraceFormat format,
                           bool monotonic)
    : monotonic_(monotonic) {
  trace_.path = path;
  trace_.format = format;
}

void TraceBuilder::Add(uint32_t line, uint64_t time_ns, uint64_t offset,
                       uint64_t length, bool is_write, std::string_view volume,
                       uint8_t flags) {
  if (length > kTraceMaxLength) {
    TraceParseFail(trace_.path, line,
                   "a request of " + std::to_string(length) +
                       " bytes, over the 256 MiB trace-stats takes",
                   "check the column order and units (" +
                       std::string(TraceFormatTitle(trace_.format)) + ")");
  }
  if (offset > UINT64_MAX - length) {
    TraceParseFail(trace_.path, line,
                   "offset " + std::to_string(offset) + " + length " +
                       std::to_string(length) + " does not fit in 64 bits",
                   "check the column order and units");
  }
  if (monotonic_ && !trace_.records.empty() &&
      time_ns < trace_.records.back().time_ns) {
    TraceParseFail(
        trace_.path, line,
        "the timestamp goes backwards (" + std::to_string(time_ns) +
            " ns after " + std::to_string(trace_.records.back().time_ns) +
            " ns on line " + std::to_string(trace_.records.back().line) + ")",
        "sort the trace by its timestamp column (sort -t, -n -k COLUMN)");
  }
  auto [it, added] = volume_index_.try_emplace(
      std::string(volume), static_cast<uint32_t>(trace_.volumes.size()));
  if (added) trace_.volumes.emplace_back(volume);
  TraceRecord r;
  r.time_ns = time_ns;
  r.offset_bytes = offset;
  r.length_bytes = static_cast<uint32_t>(length);
  r.is_write = is_write;
  r.flags = flags;
  r.volume = it->second;
  r.line = line;
  trace_.records.push_back(r);
}

ParsedTrace TraceBuilder::Finish(const std::string& empty_fix) {
  if (trace_.records.empty()) {
    throw ConfigError(trace_.path + ": an empty " +
                      std::string(TraceFormatTitle(trace_.format)) +
                      " trace (no requests). Fix: " + empty_fix);
  }
  return std::move(trace_);
}

// ---- formats ----

std::string_view TraceFormatWord(TraceFormat format) {
  for (const TraceFormatName& n : kTraceFormatNames) {
    if (n.format == format) return n.word;
  }
  return "auto";
}

std::optional<TraceFormat> TraceFormatOfWord(std::string_view word) {
  for (const TraceFormatName& n : kTraceFormatNames) {
    if (n.word == word) return n.format;
  }
  return std::nullopt;
}

std::string_view TraceFormatTitle(TraceFormat format) {
  for (const TraceFormatName& n : kTraceFormatNames) {
    if (n.format == format) return n.title;
  }
  return "auto";
}

TraceFormat DetectTraceFormat(std::string_view data) {
  const std::string_view head = data.substr(0, kTraceDetectBytes);
  TraceLines lines(head);
  std::string_view line;
  uint32_t number = 0;
  while (lines.Next(&line, &number)) {
    line = Trim(line);
    if (line.empty()) continue;
    if (line.substr(0, 12) == "fio version ") return TraceFormat::kIoLog;
    if (LooksLikeMsrLine(line)) return TraceFormat::kMsr;
    if (LooksLikeCbsLine(line)) return TraceFormat::kCbs;
    if (LooksLikeAlibabaLine(line)) return TraceFormat::kAlibaba;
    if (LooksLikeBlkparseLine(line)) return TraceFormat::kBlkparse;
    break;  // the first line decides among the text formats
  }
  // Binary formats: by magic, by version bytes, then oracle's heuristic.
  if (LooksLikeBlktrace(head)) return TraceFormat::kBlktrace;
  if (LooksLikeVscsi(head)) return TraceFormat::kVscsi;
  if (LooksLikeOracle(data)) return TraceFormat::kOracle;
  return TraceFormat::kAuto;
}

bool LooksLikeTraceFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string head(64 * 1024, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (TraceIsZstd(head)) return true;  // LoadTrace inflates and names it
  std::error_code ec;
  const uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > head.size() && bytes % 24 == 0) {
    head.resize(head.size() - head.size() % 24);
  }
  return DetectTraceFormat(head) != TraceFormat::kAuto;
}

ParsedTrace ParseTrace(std::string_view text, const std::string& path,
                       TraceFormat format) {
  switch (format) {
    case TraceFormat::kBlkparse:
      return ParseBlkparseTrace(text, path);
    case TraceFormat::kMsr:
      return ParseMsrTrace(text, path);
    case TraceFormat::kCbs:
      return ParseCbsTrace(text, path);
    case TraceFormat::kAlibaba:
      return ParseAlibabaTrace(text, path);
    case TraceFormat::kBlktrace:
      return ParseBlktraceTrace(text, path);
    case TraceFormat::kVscsi:
      return ParseVscsiTrace(text, path);
    case TraceFormat::kOracle:
      return ParseOracleTrace(text, path);
    case TraceFormat::kAuto:
    case TraceFormat::kIoLog:
      break;
  }
  throw ConfigError(path +
                    ": ParseTrace takes blkparse, msr, cbs, alibaba, "
                    "blktrace, vscsi or oracle. Fix: call ReadTraceText");
}

std::string LoadedTrace::Description() const {
  std::string out(TraceFormatTitle(format));
  if (format == TraceFormat::kIoLog) out += " v" + std::to_string(log.version);
  // An iolog names itself ("fio version N iolog"); the others say how
  // their format was known.
  if (detected && format != TraceFormat::kIoLog) out += " (detected)";
  if (!volume.empty()) out += ", volume " + volume;
  if (format == TraceFormat::kOracle) {
    out += ", every request a read (the format has no direction)";
  }
  if (reordered) out += ", events sorted by time";
  return out;
}

LoadedTrace ReadTraceText(std::string_view text, const std::string& path,
                          const TraceReadOptions& options) {
  std::string inflated;
  if (TraceIsZstd(text)) {
    inflated = TraceInflateZstd(text, path, options.max_inflated_bytes);
    text = inflated;
  }
  LoadedTrace out;
  out.format = options.format;
  if (out.format == TraceFormat::kAuto) {
    if (Trim(text).find_first_not_of("\n\r\t ") == std::string_view::npos) {
      throw ConfigError(path +
                        ": an empty trace (no lines). Fix: pass a trace "
                        "with requests");
    }
    out.format = DetectTraceFormat(text);
    out.detected = true;
    if (out.format == TraceFormat::kAuto) {
      throw ConfigError(
          path +
          ": cannot tell the trace's format from its content (tried fio "
          "iolog, MSR Cambridge CSV, Tencent CBS CSV, Alibaba block CSV, "
          "blkparse text, blktrace binary, CloudPhysics vscsi, libCacheSim "
          "oracleGeneral). Fix: pass " +
          options.format_option +
          "iolog|blkparse|msr|cbs|alibaba|blktrace|vscsi|oracle or check "
          "that the file is a block trace");
    }
  }
  if (out.format == TraceFormat::kIoLog) {
    if (!options.volume.empty()) {
      const std::string option(Trim(options.volume_option));
      throw ConfigError(path + ": " + options.volume_option + options.volume +
                        " given for a fio iolog, which has no volumes. Fix: "
                        "drop " +
                        option +
                        " (it selects the volume of a msr, cbs, alibaba or "
                        "blkparse trace)");
    }
    out.log = ParseIoLog(text, path);
    return out;
  }
  return TraceWithVolume(ParseTrace(text, path, out.format), options,
                         std::move(out));
}

LoadedTrace LoadTrace(const std::string& path,
                      const TraceReadOptions& options) {
  if (std::optional<LoadedTrace> set = TraceLoadBlktraceSet(path, options)) {
    return std::move(*set);
  }
  return ReadTraceText(TraceFileBytes(path), path, options);
}

}  // namespace tierbench
