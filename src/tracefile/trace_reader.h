// Trace readers for `tierbench trace-stats` (issue 30): the public block
// trace formats, detected from the file's content (never from its name),
// parsed into records and handed to the profile as an IoLog
// (tracefile/iolog.h) of the one volume profiled.
//
// Formats (layouts and their sources are in the parsers):
//  - iolog:    fio iolog v2/v3 (tracefile/iolog.h; first line
//              "fio version N iolog");
//  - blkparse: blkparse's default text output, "MAJ,MIN CPU SEQ SECS.NSECS
//              PID ACTION RWBS SECTOR + COUNT [PROC]" (trace_blkparse.cc);
//  - msr:      MSR Cambridge CSV (SNIA IOTTA), "Timestamp,Hostname,
//              DiskNumber,Type,Offset,Size,ResponseTime" (trace_csv.cc);
//  - cbs:      Tencent CBS CSV (SNIA IOTTA), "Timestamp,Offset,Size,IOType,
//              VolumeID" (trace_csv.cc);
//  - alibaba:  Alibaba block traces CSV, "device_id,opcode,offset,length,
//              timestamp" (trace_csv.cc).
// The CSV formats may start with their header line (as above); it is
// skipped.
//
// Records: time in ns as the format gives it (absolute), offset and length
// in bytes, the direction, the volume. A zero-length record (a flush, an
// empty request) is kept with `length_bytes` 0 and counted apart by the
// profile. A volume is "HOST_DISK" (msr), the VolumeID (cbs), the
// device_id (alibaba) or "MAJ,MIN" (blkparse).
//
// Errors: ConfigError, one line, "<path>:<line>: <what>. Fix: <fix>" for a
// bad line (wrong column count, a non-number, an unknown direction, a
// timestamp going backwards in a CSV format, a length over 256 MiB); an
// empty trace, an undetectable format (naming the formats tried), a
// multi-volume trace without a volume (listing up to 10 of them) and a
// volume not in the trace name the file. blkparse output that is not sorted
// by time (blkparse sorts its default output) is sorted, and `reordered`
// says so. Pure except LoadTrace (reads the file); thread-safe.
#ifndef TIERBENCH_TRACEFILE_TRACE_READER_H_
#define TIERBENCH_TRACEFILE_TRACE_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tracefile/iolog.h"

namespace tierbench {

enum class TraceFormat { kAuto, kIoLog, kBlkparse, kMsr, kCbs, kAlibaba };

// "auto", "iolog", "blkparse", "msr", "cbs", "alibaba" (the --format words).
std::string_view TraceFormatWord(TraceFormat format);
// The word's format, or nullopt.
std::optional<TraceFormat> TraceFormatOfWord(std::string_view word);
// What the profile calls it: "fio iolog", "blkparse text", "MSR Cambridge
// CSV", "Tencent CBS CSV", "Alibaba block CSV".
std::string_view TraceFormatTitle(TraceFormat format);

// The format of a trace from its first lines (a few KiB are enough);
// kAuto when no format matches.
TraceFormat DetectTraceFormat(std::string_view head);

// TraceRecord::flags: the request carried a cache flush (a preflush, or a
// flush request without data, which has length 0) / forced unit access.
inline constexpr uint8_t kTraceFlush = 1;
inline constexpr uint8_t kTraceFua = 2;

struct TraceRecord {
  uint64_t time_ns = 0;
  uint64_t offset_bytes = 0;
  uint32_t length_bytes = 0;  // 0: a flush or empty request, not profiled
  bool is_write = false;
  uint8_t flags = 0;    // kTraceFlush | kTraceFua
  uint32_t volume = 0;  // index into ParsedTrace::volumes
  uint32_t line = 0;    // 1-based line in the trace
};

struct ParsedTrace {
  std::string path;
  TraceFormat format = TraceFormat::kAuto;
  std::vector<std::string> volumes;  // in order of first appearance
  std::vector<TraceRecord> records;  // by time
  bool reordered = false;            // blkparse lines sorted by time
};

// Parses the text of a trace of `format` (not kAuto, not kIoLog: those go
// through LoadTraceAsIoLog). At least one record, else a ConfigError.
ParsedTrace ParseTrace(std::string_view text, const std::string& path,
                       TraceFormat format);

struct TraceReadOptions {
  TraceFormat format = TraceFormat::kAuto;
  std::string volume;  // empty: the trace must have one volume
  // How messages name the options and what the trace is read for:
  // trace-stats' "--volume ", "--format ", "profile"; read_iolog's
  // "replay_volume=", "replay_format=", "replay".
  std::string volume_option = "--volume ";
  std::string format_option = "--format ";
  std::string purpose = "profile";
};

struct LoadedTrace {
  TraceFormat format = TraceFormat::kIoLog;
  bool detected = false;  // the format came from the content
  std::string volume;     // the volume profiled; empty for an iolog
  bool reordered = false;
  IoLog log;  // v3; one file, named by the volume, for the other formats
  // "MSR Cambridge CSV (detected), volume hm_0": the profile's first line.
  std::string Description() const;
};

// Parses `text` (the whole trace): detects the format unless one is given,
// picks the volume and converts the records to an IoLog of version 3 (time
// in us since the first record; a flush, kTraceFlush, becomes a "sync"
// entry, before the request's own entry for a preflush; kTraceFua sets the
// write entry's `fua`; another zero-length record is a skipped entry).
// --volume with an iolog is refused.
LoadedTrace ReadTraceText(std::string_view text, const std::string& path,
                          const TraceReadOptions& options);
// Reads the file at `path` and calls ReadTraceText; an unreadable file is a
// ConfigError naming it.
LoadedTrace LoadTrace(const std::string& path, const TraceReadOptions& options);

}  // namespace tierbench

#endif  // TIERBENCH_TRACEFILE_TRACE_READER_H_
