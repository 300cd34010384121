// JobFiles: the files one clone of a job does IO on, as fio's setup_files().
//
//  - filename= given: that one file (or device), shared by every clone; the
//    job's region is size/offset within it (nrfiles is ignored, as in fio).
//  - no filename=: fio's default names <jobname>.<clone>.<filenum> (fio's
//    filename_format $jobname.$jobnum.$filenum), under directory= or in the
//    working directory; nrfiles of them per clone. Each file is filesize=
//    bytes (a range: drawn per file from the clone's seed, rounded down to
//    the smallest block size, as fio's get_rand_file_size), else size /
//    nrfiles. A file is laid out to offset + its size before IO; its region
//    is [offset, offset + file size).
//  - ioengine=null without filename=: one file entry with no path whose size
//    is `size` (the engine does no IO).
//
// Pure; thread-safe.
#ifndef TIERBENCH_WORKLOAD_JOB_FILES_H_
#define TIERBENCH_WORKLOAD_JOB_FILES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "workload/job_spec.h"

namespace tierbench {

struct JobFilePlan {
  std::string path;           // "" for ioengine=null without filename=
  bool default_name = false;  // made up from the job name
  uint64_t file_bytes = 0;    // default files: size to lay out (offset + io)
  JobSpec pattern_spec;       // the spec the file's IoPattern runs
};

// The files of clone `clone` of `spec` (at least one).
std::vector<JobFilePlan> PlanJobFiles(const JobSpec& spec, uint32_t clone);

// fio's default name of file `file` of clone `clone`.
std::string DefaultFileName(const JobSpec& spec, uint32_t clone, uint32_t file);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILES_H_
