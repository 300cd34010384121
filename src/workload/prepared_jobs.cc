// PreparedJobs (workload/prepared_jobs.h): traces, engines and CPUs of a
// workload's jobs, checked once.
#include "workload/prepared_jobs.h"

#include <atomic>

#include "util/errors.h"
#include "util/log.h"
#include "workload/job_file_cpu.h"
#include "workload/replay_source.h"

namespace tierbench {
namespace {

std::atomic<uint64_t> g_made{0};

}  // namespace

PreparedJobs::PreparedJobs(const Workload& workload)
    : notices_(workload.notices) {
  g_made.fetch_add(1, std::memory_order_relaxed);
  if (workload.jobs.empty()) {
    throw ConfigError(
        "The job files define no job. Fix: add a [jobname] section");
  }
  // read_iolog jobs take their target, directions and block sizes from
  // their trace.
  jobs_.resize(workload.jobs.size());
  for (size_t i = 0; i < jobs_.size(); ++i) {
    Job& job = jobs_[i];
    job.spec = workload.jobs[i];
    if (job.spec.read_iolog.empty()) continue;
    std::vector<std::string> notices;
    job.replay = PrepareReplayJob(&job.spec, &notices);
    for (const std::string& n : notices) LogNotice(n);
  }
  for (Job& job : jobs_) {
    job.engine = EngineRegistry::Default().Get(job.spec.ioengine);
    CheckCpusAvailable(job.spec);
    const JobSpec& spec = job.spec;
    if (spec.ioengine == "libaio" && !spec.direct && spec.iodepth > 1) {
      LogNotice("job '" + spec.name +
                "': libaio without direct=1 runs mostly synchronously; "
                "iodepth=" +
                std::to_string(spec.iodepth) + " will not be reached");
    }
  }
}

uint64_t PreparedJobs::MadeForTest() {
  return g_made.load(std::memory_order_relaxed);
}

}  // namespace tierbench
