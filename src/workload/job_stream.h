// JobStream: the whole IO stream one generated fio job issues, computed
// without doing IO, as an IoLog (tracefile/iolog.h) the trace tools read
// (trace/read_hit_curve.h's LRU and OPT curves).
//
// The stream is known only when the job's options fix it before the run:
//  - one clone (numjobs=1) on one file (nrfiles=1), no read_iolog=;
//  - its length set by its options, not by the device's speed: no
//    time_based, no runtime= (a runtime may cut the pass), no io_size=
//    (passes past the region), and no ramp_time= (its IO reaches the
//    cache but not the measured window);
//  - repeatable draws: randrepeat=1 or randseed=, draw stream 0 (a
//    warm-until-steady chunk draws others);
//  - reads and writes only: no verify= (its read-back phase) and no trims.
// Then the stream is what JobThread (workload/job_thread.h) issues: the
// job's IoPattern (workload/io_pattern.h) over its region, `loops` passes,
// each ended by the region's bytes or number_ios=, a new pass rewinding
// the pattern as the engine does. Entries are in issue order, without
// timestamps (version 2) and without syncs; the file is "job".
//
// Returns null with `*why_not` set (a clause: "it is time_based") when the
// stream is not known or has more than `max_ios` IOs. Throws what
// IoPattern's constructor throws (a region that does not fit the target).
// Pure; thread-safe.
#ifndef TIERBENCH_WORKLOAD_JOB_STREAM_H_
#define TIERBENCH_WORKLOAD_JOB_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>

#include "tracefile/iolog.h"
#include "workload/job_spec.h"

namespace tierbench {

inline constexpr uint64_t kJobStreamMaxIos = 20000000;

// Why `spec`'s stream is not known before the run (see above); "" when it
// is (the cheap check JobStream makes first).
std::string JobStreamUnknownWhy(const JobSpec& spec);

// `target_bytes`: the size of the job's target (resolves size= and
// offset=). `path` names the stream in messages.
std::shared_ptr<const IoLog> JobStream(const JobSpec& spec,
                                       uint64_t target_bytes,
                                       const std::string& path,
                                       std::string* why_not,
                                       uint64_t max_ios = kJobStreamMaxIos);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_STREAM_H_
