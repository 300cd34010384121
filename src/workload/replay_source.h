// ReplaySource: read_iolog=, a fio iolog (tracefile/iolog.h) replayed as a
// job clone's IO source (workload/io_source.h), and the checks that run
// before the replay does any IO.
//
// Replay semantics follow fio's iolog.c:
//  - Every read and write of the trace, in trace order, once (time_based
//    does not repeat it; runtime= may cut it short). With replay_redirect=
//    (or a command-line --filename, or compare's target) every file of the
//    trace is replayed onto the job's filename; without it the trace must
//    name one file (tierbench runs one file per job), which becomes the
//    target, and the job's own filename= is ignored, as in fio.
//  - Version 3 timing (delay_since_ttime()): an entry's delay is its
//    timestamp minus the previous entry's, 0 for the first entry, after a
//    timestamp of 0 and when time goes backwards; multiplied by
//    100 / replay_time_scale. The IO is due that long after the previous IO
//    was issued (JobThread applies fio's iolog_delay(), including its
//    overshoot compensation). Delays of file actions and of skipped
//    sync/trim entries are added to the next IO's delay.
//  - Version 2 "wait <value>": the following IOs wait until <value>
//    milliseconds after the clone's start. fio's HOWTO describes the value
//    as microseconds relative to the previous wait, but iolog.c compares it
//    with mtime_since_genesis(); tierbench follows the code.
//  - replay_no_stall=1: no delays and no waits; order is kept.
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
  // fio's delay_since_ttime(), in microseconds.
  uint64_t DelaySince(uint64_t time_us) const;

  std::shared_ptr<const IoLog> log_;
  bool no_stall_ = false;
  uint32_t time_scale_ = 100;
  uint64_t seed_ = 0;
  size_t position_ = 0;
  uint64_t last_time_us_ = 0;
  IoTiming timing_;
  uint64_t not_before_ns_ = 0;  // from the last v2 wait
};

// Loads the trace of a read_iolog job and fills in what the rest of the
// runner needs from it: the target when the job is not redirected (the
// trace's only file; it must exist), and rw=, rwmixread=, bs= and size= as
// the trace's reads and writes (fio likewise derives the job's directions,
// largest block size and size from the trace). Notes skipped sync/trim
// entries in *notices. Throws ConfigError (one line naming the trace and
// line, or the job, and the fix).
std::shared_ptr<const IoLog> PrepareReplayJob(
    JobSpec* spec, std::vector<std::string>* notices);

// Refuses a replay whose IO ends past the target (`target_bytes`), and with
// direct=1 one whose offsets or lengths are not multiples of
// `logical_block_size`. Throws ConfigError naming the first such trace line.
void CheckReplayFits(const IoLog& log, const JobSpec& spec,
                     uint64_t target_bytes, uint64_t logical_block_size);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_REPLAY_SOURCE_H_
