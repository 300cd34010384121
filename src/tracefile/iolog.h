// IoLog: a fio iolog (trace) of version 2 or 3, parsed and checked, for
// read_iolog= replay (workload/replay_source.h). The writer is
// workload/iolog_writer.h.
//
// Format (fio's HOWTO "Trace file format" and iolog.c read_iolog()):
//   line 1: "fio version 2 iolog" or "fio version 3 iolog" (prefix match)
//   v2: "<file> add|open|close" and "<file> read|write|wait|sync|datasync|
//        trim <offset> <length>"
//   v3: the same with a leading "<timestamp>" in microseconds since the
//       start of the run; "wait" is not allowed (fio ignores it).
// Fields are separated by blanks; numbers are decimal. Empty lines are
// skipped.
//
// tierbench replays reads, writes, sync and datasync (as fsync/fdatasync of
// the target, fio's semantics). trim entries are counted in `skipped` and
// not replayed (their timestamps still count).
// Unlike fio, which logs and skips a bad line, every malformed line is an
// error: an unknown action, a wrong field count, a bad number, a zero or
// over-256 MiB length, an IO on a file that was never added, "wait" in v3.
//
// Errors: ConfigError "<path>:<line>: <what>. Fix: <fix>" (exit code 2).
#ifndef TIERBENCH_TRACEFILE_IOLOG_H_
#define TIERBENCH_TRACEFILE_IOLOG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/io_dir.h"

namespace tierbench {

enum class IoLogAction {
  kRead,
  kWrite,
  kWait,  // v2: wait; the value sits in `offset`
  kAdd,
  kOpen,
  kClose,
  kSync,      // fsync of the target (a cache flush on a block device)
  kDatasync,  // fdatasync of the target
  kSkipped,   // trim: not replayed
};

struct IoLogEntry {
  IoLogAction action = IoLogAction::kRead;
  uint64_t time_us = 0;  // v3 timestamp; 0 in v2
  uint32_t file = 0;     // index into IoLog::files
  uint64_t offset = 0;
  uint32_t length = 0;
  uint32_t line = 0;  // 1-based line in the trace
  bool fua = false;   // a write the trace marks forced unit access
};

struct IoLog {
  std::string path;  // as given; messages name it
  int version = 3;
  std::vector<std::string> files;  // in order of their "add"
  std::vector<IoLogEntry> entries;
  // Summary of the read/write entries.
  uint64_t ios[kNumDirs] = {0, 0};
  uint64_t bytes[kNumDirs] = {0, 0};
  uint32_t min_length[kNumDirs] = {0, 0};  // 0 when the direction is unused
  uint32_t max_length[kNumDirs] = {0, 0};
  uint64_t extent = 0;       // largest offset + length
  uint32_t extent_line = 0;  // the first line that reaches it
  uint64_t syncs = 0;        // sync/datasync entries
  uint64_t fua_writes = 0;   // writes with `fua` set
  uint64_t skipped = 0;      // trim entries

  // "<path>:<line>" for messages.
  std::string Where(uint32_t line) const {
    return path + ":" + std::to_string(line);
  }
};

// Recomputes the read/write summary (ios .. extent_line, syncs,
// fua_writes; not `skipped`) from `entries`, after their offsets changed.
void SummarizeIoLog(IoLog* log);

// Parses trace text; `path` names it in messages.
IoLog ParseIoLog(std::string_view text, const std::string& path);
// Reads and parses the trace at `path` ("-" and unreadable files are
// ConfigErrors naming the job option).
IoLog LoadIoLog(const std::string& path);

}  // namespace tierbench

#endif  // TIERBENCH_TRACEFILE_IOLOG_H_
