// IologWriter: write_iolog=, the record of every IO a job clone issues, in
// the format fio writes by default since 3.31: a version 3 iolog
// (tracefile/iolog.h), as fio's iolog.c init_iolog_write(), log_file() and
// log_io_u():
//   fio version 3 iolog
//   <usec> <file> add
//   <usec> <file> open
//   <usec> <file> read|write <offset> <length>     (one per IO, at issue)
//   <usec> <file> close
// Timestamps are microseconds since Begin(), when the clone starts (fio:
// since init_iolog() at the start of the job's thread), taken from the caller's
// clock readings so the output is deterministic under test.
//
// Differences from fio, on purpose: the file is replaced, not appended to
// (fio opens it with "a", so a second run adds a second header that fio's
// own reader then rejects line by line); one clone writes one file (the job
// parser refuses numjobs > 1 with write_iolog, where fio would interleave
// the clones' lines).
//
// A clone with several files (nrfiles=) names each: one add/open/close line
// per file, in file order, and each IO line names the file it went to.
//
// Errors: the constructor throws SysError when the file cannot be created;
// Close() returns the first write error. Thread-safety: none (one clone).
#ifndef TIERBENCH_WORKLOAD_IOLOG_WRITER_H_
#define TIERBENCH_WORKLOAD_IOLOG_WRITER_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "util/io_dir.h"
#include "util/status.h"

namespace tierbench {

class IologWriter {
 public:
  // Creates (truncates) `path`; nothing is written yet.
  IologWriter(const std::string& path, const std::string& target);
  // The same for a clone's several files (at least one), in file order.
  IologWriter(const std::string& path, const std::vector<std::string>& targets);
  ~IologWriter();
  IologWriter(const IologWriter&) = delete;
  IologWriter& operator=(const IologWriter&) = delete;

  // The clone starts: timestamps count from `start_ns`; writes the header
  // and "0 <target> add" per target.
  void Begin(uint64_t start_ns);
  void Open(uint64_t now_ns);  // "<usec> <target> open" per target
  // An IO to targets[file].
  void Io(uint64_t now_ns, IoDir dir, uint64_t offset, uint32_t length,
          size_t file = 0);
  // Writes "<usec> <target> close" per target, flushes and closes the file.
  // Later calls return the same status.
  Status Close(uint64_t now_ns);

  const std::string& path() const { return path_; }

 private:
  unsigned long long Usec(uint64_t now_ns) const;

  std::string path_;
  std::vector<std::string> targets_;
  uint64_t start_ns_ = 0;
  FILE* file_ = nullptr;
  Status closed_;
  char buffer_[1 << 16];
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_IOLOG_WRITER_H_
