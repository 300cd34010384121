// PreparedJobs: the part of a run's preparation that needs no target, done
// once per workload (issue 28 rule 5, "Parse once"): every read_iolog trace
// loaded and checked (workload/replay_source.h PrepareReplayJob, which also
// gives the job its directions, block sizes, size and, unless redirected,
// its target from the trace), every job's ioengine looked up, and every
// job's CPUs checked. The notices of the preparation (a trace's skipped
// entries; libaio without direct=1 at iodepth > 1) are logged here, once.
// A PreparedRun (workload/prepared_run.h) places the jobs on their targets;
// RunPrepared (workload/runner.h) runs it, as often as wanted.
//
// Errors (from the constructor, before any IO): ConfigError when the
// workload has no job, a trace cannot be read or is invalid, an ioengine is
// unknown, or a clone would get no CPU this process may run on.
// Immutable after construction; thread-safe to read.
#ifndef TIERBENCH_WORKLOAD_PREPARED_JOBS_H_
#define TIERBENCH_WORKLOAD_PREPARED_JOBS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/engine_registry.h"
#include "tracefile/iolog.h"
#include "workload/job_spec.h"

namespace tierbench {

class PreparedJobs {
 public:
  struct Job {
    // As parsed; a read_iolog job's rw, rwmixread, bs, size, offset (and,
    // unless redirected, filename) are its trace's.
    JobSpec spec;
    EngineInfo engine;  // the job's ioengine (a copy of the registry's entry)
    std::shared_ptr<const IoLog> replay;  // read_iolog's trace, or null
  };

  explicit PreparedJobs(const Workload& workload);

  const std::vector<Job>& jobs() const { return jobs_; }
  // The workload's notices from parsing (RunResult::notices).
  const std::vector<std::string>& notices() const { return notices_; }

  // Test seam: how many PreparedJobs this process has made (each made one
  // loads its traces and looks up its engines).
  static uint64_t MadeForTest();

 private:
  std::vector<Job> jobs_;
  std::vector<std::string> notices_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_PREPARED_JOBS_H_
