// IoSource: where a job clone's IO sequence comes from. JobThread asks it
// for the next IO (direction, offset, length) and, for replayed traces, when
// that IO is due. Two implementations: PatternSource (below), which draws
// the IO from the job's options through IoPattern, and ReplaySource
// (workload/replay_source.h), which replays a fio iolog (read_iolog=).
//
// Contract:
//  - Next() returns false once the source is spent; it leaves the outputs
//    alone then. Rewind() starts a new pass for time_based jobs; a source
//    that cannot repeat (a trace: fio replays it once) stays spent.
//  - timing() describes the IO the last successful Next() returned:
//    `scheduled` with due_ns: the IO is due due_ns after the clone's start
//    (an absolute, open-loop schedule: a late IO does not delay the next
//    one's time); not_before_ns is the earliest time, counted from the
//    clone's start, at which it may be issued (0: none). `sync` (a replayed
//    sync/datasync entry): Next() returned length 0 and the IO is an fsync
//    (kSync) or fdatasync (kDatasync) of the file, not a read or write.
//    Sources without timing report the defaults.
//  - io_budget(): bytes one pass issues. seed(): the seed buffer contents
//    are derived from.
//
// Thread-safety: none; each clone owns its source.
#ifndef TIERBENCH_WORKLOAD_IO_SOURCE_H_
#define TIERBENCH_WORKLOAD_IO_SOURCE_H_

#include <cstdint>

#include "util/io_dir.h"
#include "workload/io_pattern.h"
#include "workload/job_spec.h"

namespace tierbench {

enum class IoSync { kNone, kSync, kDatasync };

struct IoTiming {
  bool scheduled = false;      // due_ns holds the IO's time
  uint64_t due_ns = 0;         // since the clone's start (v3 timestamps)
  uint64_t not_before_ns = 0;  // since the clone's start (v2 "wait")
  IoSync sync = IoSync::kNone;
};

class IoSource {
 public:
  virtual ~IoSource() = default;
  virtual bool Next(IoDir* dir, uint64_t* offset, uint32_t* length) = 0;
  virtual void Rewind() = 0;
  virtual IoTiming timing() const { return {}; }
  virtual uint64_t io_budget() const = 0;
  virtual uint64_t seed() const = 0;
};

// The job's own IO pattern (rw=, bs=, size=, ...) as an IoSource. Throws
// what IoPattern's constructor throws.
class PatternSource : public IoSource {
 public:
  PatternSource(const JobSpec& spec, uint64_t target_bytes,
                uint32_t clone_index)
      : pattern_(spec, target_bytes, clone_index) {}
  bool Next(IoDir* dir, uint64_t* offset, uint32_t* length) override {
    return pattern_.Next(dir, offset, length);
  }
  void Rewind() override { pattern_.Rewind(); }
  uint64_t io_budget() const override { return pattern_.io_budget(); }
  uint64_t seed() const override { return pattern_.seed(); }

 private:
  IoPattern pattern_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_IO_SOURCE_H_
