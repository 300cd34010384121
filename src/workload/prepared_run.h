// PreparedRun: a workload's prepared jobs (workload/prepared_jobs.h) placed
// on their files and checked there, once per (workload, target) (issue 28
// rule 5, "Parse once"), then run by RunPrepared (workload/runner.h) any
// number of times: compare's repetitions and modes of one target reuse it.
//
// The constructor plans each clone's files (workload/job_files.h) and
// inspects every target without writing or keeping it open: it exists (or,
// for a regular file, its directory is writable and its size is known, and
// it is marked for lay-out), its size, the job's region inside it, block
// sizes and offset aligned to its logical block size with direct=1, and a
// trace's extent (and alignment) inside it (CheckReplayFits). What may
// change between runs is checked by each run instead: --destructive and the
// device guard for writes to block devices, opening the targets, and
// whether a file marked for lay-out still needs it.
//
// Errors (from the constructor, nothing written): ConfigError (region,
// alignment, size unknown, trace past the target), SysError (a missing
// device, a directory that is not writable, a target that cannot be
// examined). Copyable (the copy shares the traces); not thread-safe.
#ifndef TIERBENCH_WORKLOAD_PREPARED_RUN_H_
#define TIERBENCH_WORKLOAD_PREPARED_RUN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/engine_registry.h"
#include "io/target.h"
#include "tracefile/iolog.h"
#include "util/sysfs.h"
#include "workload/job_files.h"
#include "workload/job_spec.h"
#include "workload/prepared_jobs.h"

namespace tierbench {

// What a caller may change on a prepared run without preparing it again
// (no check reads these fields): compare's warm-up chunks run the measured
// workload time-based, in chunks, each on a draw stream of its own.
struct RunWindow {
  bool time_based = false;
  uint64_t runtime_ns = 0;
  uint64_t ramp_time_ns = 0;
  uint64_t draw_stream = 0;  // JobSpec::draw_stream
};

class PreparedRun {
 public:
  // One file of a clone after its checks.
  struct File {
    JobFilePlan plan;
    TargetInfo info;
    uint64_t bytes = 0;         // the size the job sees (after any lay-out)
    bool needs_layout = false;  // missing or short: written before the run
  };
  // A job on its files. With filename= (or an engine that does no IO) the
  // clones share clone_files[0]; fio's default files are per clone.
  struct Job {
    JobSpec spec;
    EngineInfo engine;
    std::shared_ptr<const IoLog> replay;  // read_iolog's trace, or null
    std::vector<std::vector<File>> clone_files;
  };

  // On `target` when it is not empty: every job's filename= becomes
  // `target` (compare's cell target; a read_iolog job whose trace names its
  // own target keeps it, as when parsed with a filename); else on the jobs'
  // own files. Targets are inspected through `sysfs` (the Host's,
  // util/host.h).
  explicit PreparedRun(const PreparedJobs& jobs, const std::string& target = "",
                       const Sysfs& sysfs = Sysfs());

  // Sets the window of every job (and of every file's pattern).
  void SetRunWindow(const RunWindow& window);

  const std::vector<Job>& jobs() const { return jobs_; }
  const std::vector<std::string>& notices() const { return notices_; }

  // Test seam: how many PreparedRun this process has constructed (copies
  // not counted); each one planned and inspected its files.
  static uint64_t MadeForTest();

 private:
  std::vector<Job> jobs_;
  std::vector<std::string> notices_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_PREPARED_RUN_H_
