// PreparedRun (workload/prepared_run.h): each job's files planned and their
// targets inspected and checked, without writing anything.
#include "workload/prepared_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "util/errors.h"
#include "util/sysfs.h"
#include "workload/io_pattern.h"
#include "workload/replay_source.h"

namespace tierbench {
namespace {

std::atomic<uint64_t> g_made{0};

std::string JobLabel(const JobSpec& spec) {
  return "Job: " + spec.name +
         (spec.origin.empty() ? "" : " (" + spec.origin + ")");
}

// Bytes a regular file must have for the job's absolute offset + size (0 when
// size is unset or a percentage: the job then uses what exists).
uint64_t RequiredFileBytes(const JobSpec& spec, uint64_t existing) {
  if (!spec.size.set || spec.size.is_percent) return 0;
  return spec.offset.Resolve(existing) + spec.size.bytes;
}

void CheckAlignment(const JobSpec& s, const PreparedRun::File& file,
                    const IoPattern& pattern) {
  const uint64_t lbs = file.info.logical_block_size;
  auto check = [&](uint64_t value, const char* what) {
    if (value % lbs != 0) {
      throw ConfigError(
          "Not a multiple of the logical block size with direct=1. " +
          JobLabel(s) + "; " + what + ": " + std::to_string(value) +
          "; Block size of " + file.plan.path + ": " + std::to_string(lbs) +
          "; Fix: use multiples of " + std::to_string(lbs) +
          " for bs/bssplit/blockalign/offset, or direct=0");
    }
  };
  for (int d = 0; d < kNumDirs; ++d) {
    const bool used = d == 0 ? PatternReads(s.rw) : PatternWrites(s.rw);
    if (!used) continue;
    check(s.bs[d].min, "bs");
    check(s.bs[d].max, "bs");
    for (const auto& [size, percent] : s.bs[d].split)
      check(size, "bssplit size");
    check(s.blockalign[d], "blockalign");
  }
  check(pattern.region_start(), "offset");
}

// Checks one file of a job without writing anything. `replay`: the trace of
// a read_iolog job, whose target must hold the trace's extent.
PreparedRun::File PrepareFile(const JobSpec& spec, const EngineInfo& engine,
                              const JobFilePlan& plan, const IoLog* replay,
                              const Sysfs& sysfs) {
  PreparedRun::File file;
  file.plan = plan;
  if (plan.path.empty()) {  // ioengine=null without filename=
    file.bytes = plan.file_bytes;
    return file;
  }
  file.info = Target::Inspect(plan.path, sysfs);
  const uint64_t existing = file.info.size_bytes;
  // A replay needs a file as long as the trace's extent; an existing one
  // that is shorter is refused (CheckReplayFits), not extended.
  const uint64_t need = file.info.is_block ? 0
                        : replay ? (file.info.exists ? 0 : replay->extent)
                        : plan.default_name ? plan.file_bytes
                                            : RequiredFileBytes(spec, existing);
  if (!file.info.exists) {
    if (plan.path.rfind("/dev/", 0) == 0) {
      throw SysError("The target does not exist. " + JobLabel(spec) +
                     "; Device: " + plan.path +
                     "; Fix: check the device name (lsblk)");
    }
    if (need == 0) {
      throw ConfigError(
          "The target file does not exist and its size is unknown. " +
          JobLabel(spec) + "; File: " + plan.path +
          "; Fix: set size= (bytes, not %) to create it, or point filename= at "
          "an existing file");
    }
    if (engine.does_io) {
      const size_t slash = plan.path.rfind('/');
      const std::string dir =
          slash == std::string::npos
              ? "."
              : plan.path.substr(0, std::max<size_t>(slash, 1));
      if (access(dir.c_str(), W_OK) != 0) {
        throw SysError("Cannot create the target file. " + JobLabel(spec) +
                       "; File: " + plan.path + "; Fix: create the directory " +
                       dir + " or make it writable");
      }
    }
  }
  file.bytes = std::max(existing, need);
  file.needs_layout = engine.does_io && need > existing;
  return file;
}

// Plans and checks the files of one job.
void PlaceJob(PreparedRun::Job* job, const Sysfs& sysfs) {
  const JobSpec& spec = job->spec;
  const uint32_t clones = std::max<uint32_t>(1, spec.numjobs);
  const bool shared = !spec.filename.empty() || !job->engine.does_io;
  for (uint32_t c = 0; c < (shared ? 1 : clones); ++c) {
    std::vector<PreparedRun::File> files;
    for (const JobFilePlan& plan : PlanJobFiles(spec, c))
      files.push_back(
          PrepareFile(spec, job->engine, plan, job->replay.get(), sysfs));
    job->clone_files.push_back(std::move(files));
  }
  if (job->replay) {  // the trace's target: one file, shared by the clones
    const PreparedRun::File& file = job->clone_files[0][0];
    const uint64_t block =
        job->engine.does_io ? file.info.logical_block_size : 1;
    if (spec.replay_wrap)
      job->replay = WrapReplay(*job->replay, spec, file.bytes, block);
    CheckReplayFits(*job->replay, spec, file.bytes, block);
  }
  for (uint32_t c = 0; !job->replay && c < clones; ++c) {
    for (const PreparedRun::File& file : job->clone_files[shared ? 0 : c]) {
      // validates the region
      IoPattern pattern(file.plan.pattern_spec, file.bytes, c);
      if (spec.direct && job->engine.does_io && (c == 0 || !shared))
        CheckAlignment(spec, file, pattern);
    }
  }
}

}  // namespace

PreparedRun::PreparedRun(const PreparedJobs& jobs, const std::string& target,
                         const Sysfs& sysfs)
    : notices_(jobs.notices()) {
  g_made.fetch_add(1, std::memory_order_relaxed);
  jobs_.reserve(jobs.jobs().size());
  for (const PreparedJobs::Job& prepared : jobs.jobs()) {
    Job job;
    job.spec = prepared.spec;
    job.engine = prepared.engine;
    job.replay = prepared.replay;
    // A trace that names its own target keeps it (PrepareReplayJob).
    if (!target.empty() &&
        (job.spec.read_iolog.empty() || job.spec.replay_redirected)) {
      job.spec.filename = target;
    }
    PlaceJob(&job, sysfs);
    jobs_.push_back(std::move(job));
  }
}

void PreparedRun::SetRunWindow(const RunWindow& window) {
  const auto apply = [&window](JobSpec* s) {
    s->time_based = window.time_based;
    s->runtime_ns = window.runtime_ns;
    s->ramp_time_ns = window.ramp_time_ns;
    s->draw_stream = window.draw_stream;
  };
  for (Job& job : jobs_) {
    apply(&job.spec);
    for (std::vector<File>& files : job.clone_files) {
      for (File& file : files) apply(&file.plan.pattern_spec);
    }
  }
}

uint64_t PreparedRun::MadeForTest() {
  return g_made.load(std::memory_order_relaxed);
}

}  // namespace tierbench
