// ReplaySource: read_iolog=, a block trace replayed as a job clone's IO
// source (workload/io_source.h), and the checks that run before the replay
// does any IO.
//
// The trace is any format tracefile/trace_reader.h reads (fio iolog,
// blkparse text, MSR, CBS, Alibaba), detected from its content unless
// replay_format= names it; replay_volume= picks the volume of a
// multi-volume trace (without it such a trace is refused, listing them).
//
// Replay semantics follow fio's iolog.c, except for the timing:
//  - Every read, write, sync and datasync of the trace, in trace order,
//    once (time_based does not repeat it; runtime= may cut it short). A
//    sync/datasync entry (a flush of another format) drains the IOs in
//    flight and issues fsync/fdatasync on the target, as fio does; it
//    counts in the job's syncs. trim entries are skipped with a notice; FUA
//    writes are replayed as plain writes with a notice.
//  - Offsets: replay_scale=N divides them by N, then replay_align=A aligns
//    them down to A (fio's semantics, in that order); replay_wrap=1 folds
//    them modulo the target's size (whole logical blocks, or replay_align
//    units; an IO that would cross the end moves back to end inside it).
//  - With replay_redirect= (or a command-line --filename, or compare's
//    target) every file of the trace is replayed onto the job's filename;
//    without it the trace must be a fio iolog naming one file (tierbench
//    runs one file per job), which becomes the target, and the job's own
//    filename= is ignored, as in fio. The other formats name no file and
//    need a target.
//  - Version 3 timing (the other formats convert to it): an open-loop,
//    absolute schedule. Each entry is due at the clone's start + (t_i -
//    t_0) * 100 / replay_time_scale, t_0 the first entry's timestamp
//    (time going backwards adds nothing: such an entry is due with the
//    previous one). JobThread issues it at that time, never earlier; a late
//    one goes at once and its sched_lat counts from its scheduled time (as
//    a rated IO's). Unlike fio's relative delays (delay_since_ttime(),
//    counted from the previous issue), lateness does not accumulate, so
//    the replay lasts as long as the trace (fio issue #1537).
//  - Version 2 "wait <value>": the following IOs wait until <value>
//    milliseconds after the clone's start. fio's HOWTO describes the value
//    as microseconds relative to the previous wait, but iolog.c compares it
//    with mtime_since_genesis(); tierbench follows the code.
//  - replay_no_stall=1: no schedule and no waits; order is kept.
// Buffers are seeded from randseed (or fio's fixed seed) and the clone.
//
// Thread-safety: a ReplaySource belongs to one clone; the IoLog is shared
// read-only between clones.
#ifndef TIERBENCH_WORKLOAD_REPLAY_SOURCE_H_
#define TIERBENCH_WORKLOAD_REPLAY_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tracefile/iolog.h"
#include "workload/io_source.h"
#include "workload/job_spec.h"

namespace tierbench {

class ReplaySource : public IoSource {
 public:
  ReplaySource(std::shared_ptr<const IoLog> log, const JobSpec& spec,
               uint32_t clone_index);

  bool Next(IoDir* dir, uint64_t* offset, uint32_t* length) override;
  void Rewind() override {}  // fio replays a trace once
  IoTiming timing() const override { return timing_; }
  uint64_t io_budget() const override {
    return log_->bytes[0] + log_->bytes[1];
  }
  uint64_t seed() const override { return seed_; }

 private:
  // Moves the trace clock to an entry's v3 timestamp.
  void Advance(uint64_t time_us);

  std::shared_ptr<const IoLog> log_;
  bool no_stall_ = false;
  uint32_t time_scale_ = 100;
  uint64_t seed_ = 0;
  size_t position_ = 0;
  bool have_time_ = false;     // an entry's timestamp was seen
  uint64_t last_time_us_ = 0;  // the latest timestamp seen
  uint64_t trace_us_ = 0;      // trace time since the first entry
  IoTiming timing_;
  uint64_t not_before_ns_ = 0;  // from the last v2 wait
};

// When an IO `trace_us` into the trace (since its first entry) is due at
// replay_time_scale `time_scale` percent, in ns since the clone's start.
uint64_t ReplayDueNs(uint64_t trace_us, uint32_t time_scale);

// fio's replay_scale= and replay_align=: each read/write offset divided by
// `scale` (0, 1: unchanged), then aligned down to `align` (a power of 2; 0,
// 1: unchanged); the summary is recomputed.
void ScaleReplayOffsets(IoLog* log, uint64_t scale, uint64_t align);

// Loads the trace of a read_iolog job (format and volume from
// replay_format= / replay_volume=), applies replay_scale= / replay_align=,
// and fills in what the rest of the runner needs from it: the target when
// the job is not redirected (an iolog's only file; it must exist; other
// formats need a target), and rw=, rwmixread=, bs= and size= as the
// trace's reads and writes (fio likewise derives the job's directions,
// largest block size and size from the trace). Notes skipped trims and FUA
// writes in *notices. Throws ConfigError (one line naming the trace and
// line, or the job, and the fix).
std::shared_ptr<const IoLog> PrepareReplayJob(
    JobSpec* spec, std::vector<std::string>* notices);

// replay_wrap=1: a copy of `log` whose read/write offsets are folded into
// the target: offset % usable, usable = `target_bytes` rounded down to the
// unit (the largest of `logical_block_size` and replay_align=); an IO that
// would end past `usable` moves back by whole units to end inside it.
// Throws ConfigError naming the line of an IO longer than `usable`.
std::shared_ptr<const IoLog> WrapReplay(const IoLog& log, const JobSpec& spec,
                                        uint64_t target_bytes,
                                        uint64_t logical_block_size);

// The first read or write of `log` whose offset or length is not a
// multiple of `block`, or null.
const IoLogEntry* FirstMisaligned(const IoLog& log, uint64_t block);

// Refuses a replay whose IO ends past the target (`target_bytes`), and with
// direct=1 one whose offsets or lengths are not multiples of
// `logical_block_size`. Throws ConfigError naming the first such trace line.
void CheckReplayFits(const IoLog& log, const JobSpec& spec,
                     uint64_t target_bytes, uint64_t logical_block_size);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_REPLAY_SOURCE_H_
