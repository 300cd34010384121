// JobSpec: one fio-style job after parsing, with every option resolved to its
// final value ([global] defaults applied, command-line overrides applied).
// This is the contract between the job-file parser (workload/job_file.h),
// the runner (workload/runner.h) and the reporters (report/).
//
// All sizes are bytes, all durations nanoseconds. Fields carry fio's default
// when the file does not set them. A JobSpec that came out of the parser has
// been validated: bssplit weights sum to 100 per direction, block sizes are
// non-zero, iodepth >= 1, and so on (see job_file.h for the rules).
#ifndef TIERBENCH_WORKLOAD_JOB_SPEC_H_
#define TIERBENCH_WORKLOAD_JOB_SPEC_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/engine_options.h"
#include "stats/steady_state.h"
#include "util/io_dir.h"
#include "workload/distribution_spec.h"
#include "workload/verify_spec.h"

namespace tierbench {

// Block sizes for one direction. Exactly one form is in effect:
//  - split non-empty: bssplit, (size, percent) pairs, percents sum to 100;
//  - otherwise min..max: fixed when min == max (bs=), else a uniform choice
//    among multiples of min in [min, max] (blocksize_range=, as fio does
//    without blocksize_unaligned).
struct BlockSizeSpec {
  uint64_t min = 4096;
  uint64_t max = 4096;
  std::vector<std::pair<uint64_t, uint32_t>> split;
};

// A size that may be absolute or a percentage of the target (size=20%).
struct SizeSpec {
  bool set = false;
  bool is_percent = false;
  uint64_t bytes = 0;  // when !is_percent
  double percent = 0;  // when is_percent, 0 < percent <= 100
  // Resolves against the target's size in bytes.
  uint64_t Resolve(uint64_t target_bytes) const {
    if (!set) return 0;
    if (!is_percent) return bytes;
    return static_cast<uint64_t>(static_cast<long double>(target_bytes) *
                                 percent / 100.0L);
  }
};

// rate_process=: how rated IO is spaced (fio's RATE_PROCESS_*).
enum class RateProcess {
  kLinear,   // fixed spacing: the next IO is due when the bytes issued so far
             // took their share of the rate (fio's usec_for_io)
  kPoisson,  // exponential inter-arrival times with mean 1/IOPS
};
// fio's file_service_type: which of a job's files the next IO goes to.
enum class FileService { kRoundRobin, kSequential, kRandom };

struct JobSpec {
  std::string name;      // name= or the section name
  std::string origin;    // "path/to/file.fio:12": where the section starts
  std::string filename;  // target: block device or regular file
  // fio's default files when filename= is not given: <directory>/
  // <name>.<clone>.<filenum> (directory "" = the current directory), one set
  // per clone, nrfiles each; size is divided among them unless filesize= set.
  std::string directory;
  uint32_t nrfiles = 1;
  uint64_t filesize_min = 0;  // filesize=a[-b]; 0: size / nrfiles
  uint64_t filesize_max = 0;
  uint32_t openfiles = 0;  // 0: nrfiles (all files stay open)
  FileService file_service = FileService::kRoundRobin;
  uint32_t file_service_nr = 1;  // IOs before switching (file_service_type:N)
  RwPattern rw = RwPattern::kRead;
  uint32_t rwmixread = 50;                 // % reads in mixed patterns
  uint32_t percentage_random = 100;        // % random offsets in rand* patterns
  BlockSizeSpec bs[kNumDirs];              // per direction (bs=r,w)
  uint64_t blockalign[kNumDirs] = {0, 0};  // 0: align to the direction's min bs
  uint32_t iodepth = 1;
  uint32_t iodepth_batch_submit = 1;        // 0 in the file means iodepth
  uint32_t iodepth_batch_complete_min = 1;  // 0 means poll without waiting
  uint32_t iodepth_batch_complete_max =
      0;  // < complete_min: complete_min (fio)
  uint32_t numjobs = 1;
  // cpus_allowed= / cpumask= (sorted, unique; empty: no affinity) and
  // cpus_allowed_policy=split (workload/job_file_cpu.h).
  std::vector<int> cpus;
  bool cpus_split = false;
  bool direct = false;
  std::string ioengine = "psync";  // fio's default on Linux
  IoUringOptions uring;            // fixedbufs= etc. (job_file_engine.h)
  SizeSpec size;                   // unset: the whole target from offset
  SizeSpec offset;                 // start of the job's region
  uint64_t runtime_ns = 0;         // 0: no limit
  bool time_based = false;
  uint64_t ramp_time_ns = 0;
  bool norandommap = false;
  // random_distribution=: how random offsets are spread (rand* patterns).
  DistributionSpec random_distribution;
  bool randrepeat = true;
  bool randseed_set = false;
  uint64_t randseed = 0;
  // Not a job-file option: the stream the random draws (offsets,
  // directions, block sizes) come from. 0 is the seed's own stream (fio's);
  // n > 0 an independent one, while the hot-set placement (zipf/pareto's
  // offset) stays the seed's. A cell warmed until steady runs its chunks on
  // streams 1, 2, ..., so each chunk reads new draws of the same hot set
  // and the measured run (stream 0) replays none of them.
  uint64_t draw_stream = 0;
  bool group_reporting = false;
  bool stonewall = false;          // waits for earlier jobs; new group
  uint64_t thinktime_ns = 0;       // pause after each IO (fio: usec default)
  uint32_t loops = 1;              // passes over the job's IO (fio's loops=)
  uint64_t startdelay_ns = 0;      // delay before the clone starts ...
  uint64_t startdelay_max_ns = 0;  // ... drawn from [startdelay, max] if set
  uint64_t io_size = 0;       // bytes per loop (fio's io_size); 0: the region
  uint64_t number_ios = 0;    // stop after this many IOs; 0: no limit
  uint32_t fsync_blocks = 0;  // fsync the file every N writes (fsync=)
  uint32_t fdatasync_blocks = 0;     // fdatasync every N writes (fdatasync=)
  bool end_fsync = false;            // fsync written files at the end
  bool allow_mounted_write = false;  // fio: write to a mounted device
  uint32_t kb_base = 1024;           // unit prefixes of later sizes (kb_base=)
  uint64_t rate_iops[kNumDirs] = {0, 0};  // 0: unlimited
  int group_id = 0;  // reporting group, counted by stonewall
  // Rated IO (fio's rate group). rate= and rate_iops= exclude each other.
  uint64_t rate[kNumDirs] = {0, 0};           // bytes/s; 0: unlimited
  uint64_t rate_min[kNumDirs] = {0, 0};       // bytes/s; 0: no minimum
  uint64_t rate_iops_min[kNumDirs] = {0, 0};  // IOPS; 0: no minimum
  RateProcess rate_process = RateProcess::kLinear;
  uint64_t rate_cycle_ns = 1000000000;  // window of the rate_min check
  bool rate_ignore_thinktime = false;
  SteadyStateSpec steadystate;  // steadystate=, ss_dur=, ss_ramp=
  // Trace replay and recording (fio's iolog options; tracefile/iolog.h).
  std::string read_iolog;        // replay this trace instead of rw=/bs=/size=
  std::string write_iolog;       // record every issued IO here (v3 iolog)
  bool replay_no_stall = false;  // replay as fast as possible, in order
  uint32_t replay_time_scale = 100;    // % of the trace's IO rate
  std::string replay_format = "auto";  // a TraceFormatWord (trace_reader.h)
  std::string replay_volume;           // the volume of a multi-volume trace
  uint64_t replay_scale = 0;  // offsets divided by this (0, 1: unchanged)
  uint64_t replay_align = 0;  // offsets aligned down to this power of 2
  bool replay_wrap = false;   // offsets folded into the target's size
  // The trace's files are replayed onto `filename` (set by replay_redirect=,
  // a command-line --filename or compare's target). When false, the target
  // is the trace's own file and `filename` is empty until the runner loads
  // the trace.
  bool replay_redirected = false;
  VerifySpec verify;  // verify= and friends (workload/verify_spec.h)
};

// The largest block size a job uses in either direction (bs=, bsrange=,
// bssplit=): IO buffers and region rounding are sized from it.
inline uint64_t LargestBlock(const JobSpec& spec) {
  uint64_t largest = 0;
  for (const BlockSizeSpec& bs : spec.bs) {
    largest = bs.max > largest ? bs.max : largest;
    for (const auto& [size, percent] : bs.split) {
      largest = size > largest ? size : largest;
    }
  }
  return largest;
}

// A parsed job file (or several, concatenated): the jobs in file order, and
// notices about accepted-but-ignored options.
struct Workload {
  std::vector<std::string> paths;
  std::vector<JobSpec> jobs;
  std::vector<std::string> notices;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_SPEC_H_
