// The fio iolog (version 3, tracefile/iolog.h) of a captured block trace
// (`tierbench capture`, cli/capture_session.h): the records of one volume
// of a parsed trace (tracefile/trace_reader.h ParseTrace; for blkparse text
// its ISSUE (D) events, the requests as the device saw them) written as the
// lines read_iolog= replays:
//   fio version 3 iolog
//   0 <file> add
//   0 <file> open
//   <usec> <file> read|write <offset> <length>
//   <usec> <file> sync 0 0
//   <usec> <file> close
// Timestamps are microseconds since the volume's first record. A record
// with kTraceFlush becomes a `sync` line (fio's DDIR_SYNC form, offset and
// length 0), whether or not it carries data; with data (a write with
// REQ_PREFLUSH: the cache is flushed before the data is written) the sync
// line comes first, then the read/write line at the same time. FUA
// (kTraceFua) has no iolog form: the write is written plainly and counted
// in `fua`. A record with neither data nor a flush (a discard, whose length
// the readers drop, or an empty request) is left out and counted in
// `dropped`. The close line carries the last record's time.
//
// Pure; thread-safe.
#ifndef TIERBENCH_TRACEFILE_CAPTURE_IOLOG_H_
#define TIERBENCH_TRACEFILE_CAPTURE_IOLOG_H_

#include <cstdint>
#include <string>

#include "tracefile/trace_reader.h"

namespace tierbench {

struct CaptureIoLogCounts {
  uint64_t reads = 0, writes = 0;  // read/write lines
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t syncs = 0;    // sync lines (flushes, with or without data)
  uint64_t fua = 0;      // FUA writes written as plain writes
  uint64_t dropped = 0;  // records without data or flush, left out
  uint64_t span_us = 0;  // the last record's time
};

struct CaptureIoLog {
  std::string text;
  CaptureIoLogCounts counts;
};

// The iolog of `trace`'s records of volume `volume` (an index into
// trace.volumes), each line naming `file` (e.g. the device's path; it must
// hold no blank). A volume with no records gives the header, add, open and
// close lines only. `base_bytes`: where the traced device starts on its
// disk. blktrace of a partition reports sectors of the whole disk (the
// kernel filters a partition's events by its sector range but does not
// shift them), so a partition's iolog subtracts its start (sysfs
// .../start x 512); a record below it is a ConfigError naming its line.
CaptureIoLog CaptureIoLogOf(const ParsedTrace& trace, uint32_t volume,
                            const std::string& file, uint64_t base_bytes = 0);

}  // namespace tierbench

#endif  // TIERBENCH_TRACEFILE_CAPTURE_IOLOG_H_
