// The log of dm-log-writes (the kernel's drivers/md/dm-log-writes.c, the
// target xfstests' log-writes tests record with), read and replayed: what
// `tierbench replay-log` and the lab's log-replay check run on.
//
// The log device holds, all little-endian:
//   sector 0                 the super: magic 0x6a736677736872 (u64),
//                            version 1 (u64), nr_entries (u64), sectorsize
//                            (u32, the logged device's logical block size)
//   then, from byte sectorsize, nr_entries entries, each
//     one sectorsize block   sector, nr_sectors, flags, data_len (4 x u64;
//                            sector and nr_sectors in sectorsize units),
//                            then a mark's name (data_len bytes)
//     nr_sectors blocks      the written data (none for a discard)
// flags: FLUSH 1, FUA 2, DISCARD 4, MARK 8, METADATA 16. Writes are logged
// in the order they completed and were flushed, so replaying the entries up
// to a mark gives the device as a power cut at that mark would have left a
// disk that honours flushes. The kernel updates nr_entries at every FUA
// write, every mark and when the target is removed.
//
// ReadWriteLog reads only the headers and checks the whole log before
// ReplayWriteLog writes anything: bad input names the entry and what is
// wrong. Both read the log with pread (a device or an image file) and
// are thread-safe (no shared state; callers own the descriptors).
#ifndef TIERBENCH_IO_WRITE_LOG_H_
#define TIERBENCH_IO_WRITE_LOG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "util/status.h"

namespace tierbench {

inline constexpr uint64_t kWriteLogMagic = 0x6a736677736872ull;
inline constexpr uint64_t kWriteLogVersion = 1;
inline constexpr uint64_t kWriteLogFlush = 1;
inline constexpr uint64_t kWriteLogFua = 2;
inline constexpr uint64_t kWriteLogDiscard = 4;
inline constexpr uint64_t kWriteLogMark = 8;
inline constexpr uint64_t kWriteLogMetadata = 16;

struct WriteLogEntry {
  uint64_t index = 0;       // 0-based, in log order
  uint64_t sector = 0;      // in sectorsize units
  uint64_t nr_sectors = 0;  // in sectorsize units
  uint64_t flags = 0;
  std::string mark;          // a mark's name ("" otherwise)
  uint64_t data_offset = 0;  // byte offset of the data in the log
};

struct WriteLog {
  uint32_t sectorsize = 0;
  std::vector<WriteLogEntry> entries;
  // The highest byte any write or discard reaches on the logged device.
  uint64_t device_end = 0;
};

// Reads the super and every entry header of the log on `fd`
// (`log_bytes` long). InvalidArgument for a wrong magic or version, a
// sectorsize that is not a power of two in 512..65536, a mark name that
// does not fit its block, or an entry past the end of the log (a
// truncated log); kIoError when a read fails.
Status ReadWriteLog(int fd, uint64_t log_bytes, WriteLog* out);

// The index of the first entry marked `name`; NotFound listing the marks
// there are ("none" when the log has none).
Status FindWriteLogMark(const WriteLog& log, const std::string& name,
                        uint64_t* index);

struct WriteLogReplay {
  uint64_t entries = 0;  // entries replayed (marks and flushes included)
  uint64_t writes = 0;
  uint64_t bytes = 0;  // written by the writes
  uint64_t flushes = 0;
  uint64_t fua = 0;
  uint64_t discards = 0;  // each zeroes its range (see below)
  uint64_t marks = 0;
};

// Replays entries [0, end] (end = the last entry when `end` is past it) of
// `log` from `log_fd` onto `target_fd` (`target_bytes` long): each write's
// data at its offset, each discard as zeroes (what a device that
// returns zeroes after discard holds), then fdatasync. InvalidArgument
// before anything is written when a replayed entry reaches past
// `target_bytes`; kIoError naming the entry when a read or write fails.
Status ReplayWriteLog(const WriteLog& log, int log_fd, uint64_t end,
                      int target_fd, uint64_t target_bytes,
                      WriteLogReplay* out);

// "r2 (entry 567)" lines' worth of a log for --list: one line per mark,
// then the totals ("1,234 entries: 1,100 writes (9.5 MiB), ...").
std::string DescribeWriteLog(const WriteLog& log);

}  // namespace tierbench

#endif  // TIERBENCH_IO_WRITE_LOG_H_
