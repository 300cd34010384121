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
//              timestamp" (trace_csv.cc);
//  - blktrace: blktrace's binary struct blk_io_trace records (kernel
//              include/uapi/linux/blktrace_api.h): 48-byte header {magic
//              0x65617407, sequence, time ns, sector, bytes, action, pid,
//              device, cpu, error, pdu_len} + pdu_len bytes, either byte
//              order; per-CPU files DEVICE.blktrace.N (LoadTrace merges a
//              set by time) or a blkparse -d dump (trace_blktrace.cc);
//  - vscsi:    CloudPhysics vscsi (libCacheSim's vscsi reader), 32-byte
//              version 1 or 40-byte version 2 records {cmd, ver, len, lbn
//              (512-byte sectors), ts us, ...} (trace_vscsi.cc);
//  - oracle:   libCacheSim oracleGeneral, 24-byte records {u32 time s, u64
//              obj_id (a 4 KiB block), u32 obj_size, i64 next access}; no
//              direction: every request is a read (trace_oracle.cc).
// The CSV formats may start with their header line (as above); it is
// skipped. A file starting with a zstd frame (.zst) is decompressed first
// (libzstd), whatever its format.
//
// Detection: the text formats by their first non-empty line; then, for
// binary content, blktrace by its magic, vscsi by its version bytes and,
// last, oracle by a heuristic (no magic: size a multiple of 24, plausible
// first records; trace_oracle.cc says its limits).
//
// Records: time in ns as the format gives it (absolute), offset and length
// in bytes, the direction, the volume. A zero-length record (a flush, an
// empty request) is kept with `length_bytes` 0 and counted apart by the
// profile. A volume is "HOST_DISK" (msr), the VolumeID (cbs), the
// device_id (alibaba), "MAJ,MIN" (blkparse, blktrace) or the file's name
// (vscsi, oracle: one volume).
//
// Errors: ConfigError, one line, "<path>:<line>: <what>. Fix: <fix>" for a
// bad line (wrong column count, a non-number, an unknown direction, a
// timestamp going backwards in a CSV format, a length over 256 MiB), and
// "<path>: record N (byte OFFSET): <what>. Fix: <fix>" for a bad record of
// a binary format (truncated, bad magic or version); an empty trace, an
// undetectable format (naming the formats tried), a corrupt zstd stream or
// one inflating past TraceReadOptions::max_inflated_bytes, a multi-volume
// trace without a volume (listing up to 10 of them) and a volume not in the
// trace name the file. blkparse and binary traces not sorted by time are
// sorted (stable), and `reordered` says so. Pure except LoadTrace (reads
// the file, or a blktrace per-CPU set); thread-safe.
#ifndef TIERBENCH_TRACEFILE_TRACE_READER_H_
#define TIERBENCH_TRACEFILE_TRACE_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tracefile/iolog.h"

namespace tierbench {

enum class TraceFormat {
  kAuto,
  kIoLog,
  kBlkparse,
  kMsr,
  kCbs,
  kAlibaba,
  kBlktrace,
  kVscsi,
  kOracle
};

// "auto", "iolog", "blkparse", "msr", "cbs", "alibaba", "blktrace",
// "vscsi", "oracle" (the --format words).
std::string_view TraceFormatWord(TraceFormat format);
// The word's format, or nullopt.
std::optional<TraceFormat> TraceFormatOfWord(std::string_view word);
// What the profile calls it: "fio iolog", "blkparse text", "MSR Cambridge
// CSV", "Tencent CBS CSV", "Alibaba block CSV", "blktrace binary",
// "CloudPhysics vscsi", "libCacheSim oracleGeneral".
std::string_view TraceFormatTitle(TraceFormat format);

// The format of a (decompressed) trace from its content; kAuto when no
// format matches. The text formats and blktrace, vscsi need the first few
// KiB; oracle's heuristic needs the whole trace (its size).
TraceFormat DetectTraceFormat(std::string_view data);

// True when the file at `path` is a block trace of any format above (told
// by its content, as LoadTrace tells it) or zstd-compressed: what compare
// replays when it is given as a workload, rather than a job file. Reads the
// first 64 KiB; oracleGeneral's test needs whole 24-byte records, so the
// head of a file of whole records is cut to whole records. An unreadable
// file is no trace (the job-file parser then names it).
bool LooksLikeTraceFile(const std::string& path);

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

// Parses the text (the bytes, for a binary format; not zstd) of a trace of
// `format` (not kAuto, not kIoLog: those go through ReadTraceText). At
// least one record, else a ConfigError.
ParsedTrace ParseTrace(std::string_view text, const std::string& path,
                       TraceFormat format);

struct TraceReadOptions {
  TraceFormat format = TraceFormat::kAuto;
  std::string volume;  // empty: the trace must have one volume
  // A zstd trace inflating past this is refused (the whole trace is held in
  // memory, and its records beside it).
  uint64_t max_inflated_bytes = 8ULL << 30;
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
  // "MSR Cambridge CSV (detected), volume hm_0": the profile's first line
  // (an oracleGeneral trace adds that every request is taken as a read).
  std::string Description() const;
};

// Parses `text` (the whole trace; zstd is decompressed first): detects the
// format unless one is given, picks the volume and converts the records to
// an IoLog of version 3 (time in us since the first record; a flush,
// kTraceFlush, becomes a "sync" entry, before the request's own entry for a
// preflush; kTraceFua sets the write entry's `fua`; another zero-length
// record is a skipped entry). --volume with an iolog is refused.
LoadedTrace ReadTraceText(std::string_view text, const std::string& path,
                          const TraceReadOptions& options);
// Reads the file at `path` and calls ReadTraceText; an unreadable file is a
// ConfigError naming it. A blktrace per-CPU file X.blktrace.N, or X when
// only X.blktrace.0 exists, reads every X.blktrace.* merged by time
// (unless --format names another format).
LoadedTrace LoadTrace(const std::string& path, const TraceReadOptions& options);

}  // namespace tierbench

#endif  // TIERBENCH_TRACEFILE_TRACE_READER_H_
