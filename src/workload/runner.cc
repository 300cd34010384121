// RunWorkload and RunPrepared (workload/runner.h): the checks of the run,
// the lay-out of files, then the jobs' clones as JobThreads, one
// stonewall-separated run set after another, and the results merged per
// reporting group.
#include "workload/runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "io/device_guard.h"
#include "io/target.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/units.h"
#include "workload/job_file_cpu.h"
#include "workload/job_thread.h"
#include "workload/prepared_jobs.h"
#include "workload/progress.h"
#include "workload/start_line.h"
#include "workload/steady_state_monitor.h"

namespace tierbench {
namespace {

std::string JobLabel(const JobSpec& spec) {
  return "Job: " + spec.name +
         (spec.origin.empty() ? "" : " (" + spec.origin + ")");
}

// --destructive for any block device write, then the device guard; fio's
// allow_mounted_write=1 lets a mounted device (and its filesystem) through.
void CheckWritableDevice(const JobSpec& s, const std::string& path,
                         const RunOptions& options) {
  if (!options.destructive) {
    throw SafetyError(
        "Job '" + s.name + "' would overwrite " + path +
        " (rw=" + RwPatternName(s.rw) +
        "). Fix: add --destructive if its contents may be destroyed");
  }
  Status st = s.allow_mounted_write
                  ? CheckDeviceWritableAllowMounted(path, options.sysfs)
                  : CheckDeviceWritable(path, options.sysfs);
  if (!st.ok()) {
    throw SafetyError(
        "Refusing to write to the device. " + JobLabel(s) +
        "; Device: " + path + "; Reason: " + st.message() +
        (s.allow_mounted_write
             ? ""
             : "; allow_mounted_write=1 permits a mounted device, as in fio"));
  }
  if (s.allow_mounted_write) {
    std::string sig;
    if (!CheckDeviceNotInUse(path, options.sysfs).ok() ||
        (DetectSignature(path, &sig).ok() && !sig.empty())) {
      LogNotice("job '" + s.name + "': allow_mounted_write=1: writing to " +
                path + " although it is mounted or carries a filesystem");
    }
  }
}

// The targets of one job for one run, parallel to its clone_files (null
// until opened, and for engines that do no IO).
using JobTargets = std::vector<std::vector<std::unique_ptr<Target>>>;

// The current size of the regular file `path` (0 when missing).
uint64_t FileBytesNow(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// A job's file opened for its IO: for writing when the job writes, with
// O_DIRECT when it says direct=1.
std::unique_ptr<Target> OpenTarget(const PreparedRun::File& file,
                                   const JobSpec& spec) {
  auto target = std::make_unique<Target>();
  target->Open(file.plan.path, PatternWrites(spec.rw), spec.direct);
  return target;
}

// The checks of one job that may change between runs, without writing
// anything; opens its targets that need no lay-out and adds the others to
// *layouts (path -> bytes).
JobTargets OpenJob(const PreparedRun::Job& job, const RunOptions& options,
                   std::map<std::string, uint64_t>* layouts) {
  JobTargets targets(job.clone_files.size());
  for (size_t c = 0; c < job.clone_files.size(); ++c)
    targets[c].resize(job.clone_files[c].size());
  if (!job.engine.does_io) return targets;
  const JobSpec& spec = job.spec;
  for (size_t c = 0; c < job.clone_files.size(); ++c) {
    for (size_t f = 0; f < job.clone_files[c].size(); ++f) {
      const PreparedRun::File& file = job.clone_files[c][f];
      if (file.info.is_block && PatternWrites(spec.rw))
        CheckWritableDevice(spec, file.plan.path, options);
      // An earlier run of the same PreparedRun may have laid it out.
      if (file.needs_layout && FileBytesNow(file.plan.path) < file.bytes) {
        uint64_t& size = (*layouts)[file.plan.path];
        size = std::max(size, file.bytes);
      } else {
        targets[c][f] = OpenTarget(file, spec);
      }
    }
  }
  return targets;
}

// Joins worker threads on every exit path.
class ThreadSet {
 public:
  ~ThreadSet() { JoinAll(); }
  void Start(JobThread* t, StartLine* line) {
    threads_.emplace_back([t, line] { t->Run(line); });
  }
  void JoinAll() {
    for (std::thread& t : threads_) {
      if (t.joinable()) t.join();
    }
    threads_.clear();
  }

 private:
  std::vector<std::thread> threads_;
};

void RunSet(const std::vector<JobThread*>& set, const RunOptions& options) {
  const bool draw = options.progress && StderrIsTerminal();
  // As fio's parent: the set's threads set up, pause ~100 ms and start
  // together (workload/start_line.h says why the pause matters).
  StartLine line(set.size(), StartLine::kFioSettleNs);
  ThreadSet workers;
  for (JobThread* t : set) workers.Start(t, &line);
  // The set's clock (steady state, progress, on_second) starts when the
  // line opens, not before the pause.
  SleepUntilOrInterrupted(line.opens_at_ns());
  const uint64_t start = NowNs();
  SteadyStateMonitor steady(set, start);
  ProgressMeter meter(std::vector<const JobThread*>(set.begin(), set.end()),
                      options.progress_label, start);
  uint64_t next_draw = start + kNsPerSec;
  uint64_t next_second = start + kNsPerSec;
  uint64_t nap_us = 1000;
  while (!std::all_of(set.begin(), set.end(),
                      [](const JobThread* t) { return t->finished(); })) {
    uint64_t nap = nap_us;
    if (steady.active()) {  // wake up at the next steady-state boundary
      const uint64_t due = steady.NextDeadlineNs();
      const uint64_t t = NowNs();
      nap = std::min(nap, due > t ? (due - t) / 1000 + 1 : 0);
    }
    if (nap > 0) usleep(static_cast<useconds_t>(nap));
    nap_us = std::min<uint64_t>(nap_us * 2, 100000);
    const uint64_t now = NowNs();
    steady.Poll(now);
    if (draw && now >= next_draw) {
      meter.Tick(now);
      next_draw += kNsPerSec;
    }
    if (options.on_second && now >= next_second) {
      options.on_second(start);
      next_second += kNsPerSec;
    }
  }
  workers.JoinAll();
  steady.Finish();
  if (draw) ClearProgressLine();
}

// fio's group_reporting: consecutive clones/jobs of one group that all have
// group_reporting are reported as one.
std::vector<JobResult> MergeGroups(
    const std::vector<std::unique_ptr<JobThread>>& threads) {
  std::vector<JobResult> out;
  bool last_merges = false;
  int last_group = -1;
  for (const auto& t : threads) {
    const JobSpec& s = t->spec();
    if (!out.empty() && s.group_reporting && last_merges &&
        last_group == s.group_id) {
      out.back().Merge(t->result());
    } else {
      out.push_back(t->result());
    }
    last_merges = s.group_reporting;
    last_group = s.group_id;
  }
  return out;
}

// Builds every JobThread, each on a thread of its own, all alive at once:
// glibc then gives each builder its own malloc arena, so one clone's hot
// state (request pool, free list, the engine's arrays, the histograms)
// shares no cache line with another's, as with fio's clones, which are
// processes. Built one after another on one thread, the clones' small
// blocks can interleave in one arena, and then one core's IO writes cache
// lines the other core writes too. Measured at numjobs=2 QD32: 0.96x fio
// before, 0.99x after, within the noise (results/benchmarks.md, sixth
// session). One job is built here. The first failure (in job order) is
// rethrown once all builders are done.
std::vector<std::unique_ptr<JobThread>> BuildApart(
    const std::vector<std::function<std::unique_ptr<JobThread>()>>& makers) {
  std::vector<std::unique_ptr<JobThread>> built(makers.size());
  if (makers.size() == 1) {
    built[0] = makers[0]();
    return built;
  }
  std::vector<std::exception_ptr> errors(makers.size());
  {
    std::vector<std::thread> builders;
    builders.reserve(makers.size());
    for (size_t i = 0; i < makers.size(); ++i) {
      builders.emplace_back([&, i] {
        try {
          built[i] = makers[i]();
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
    for (std::thread& b : builders) b.join();
  }
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return built;
}

}  // namespace

RunResult RunWorkload(const Workload& workload, const RunOptions& options) {
  const uint64_t t0 = NowNs();
  const PreparedRun run(PreparedJobs(workload), "", options.sysfs);
  RunResult result = RunPrepared(run, options);
  result.wall_ns = NowNs() - t0;
  return result;
}

RunResult RunPrepared(const PreparedRun& run, const RunOptions& options) {
  const uint64_t t0 = NowNs();
  const std::vector<PreparedRun::Job>& jobs = run.jobs();
  // 1. The checks of this run (the rest were made by PreparedRun), before
  // anything is written.
  std::map<std::string, uint64_t> layouts;
  std::vector<JobTargets> targets;
  targets.reserve(jobs.size());
  for (const PreparedRun::Job& job : jobs)
    targets.push_back(OpenJob(job, options, &layouts));

  // 2. Lay out missing or short files, then open them.
  for (const auto& [path, bytes] : layouts) {
    LogNotice("laying out IO file " + path + " (" + FormatBytes(bytes) + ")");
    Target::LayOut(path, bytes);
  }
  for (size_t j = 0; j < jobs.size(); ++j) {
    const PreparedRun::Job& job = jobs[j];
    if (!job.engine.does_io) continue;
    for (size_t c = 0; c < job.clone_files.size(); ++c) {
      for (size_t f = 0; f < job.clone_files[c].size(); ++f) {
        std::unique_ptr<Target>& target = targets[j][c][f];
        if (!target) target = OpenTarget(job.clone_files[c][f], job.spec);
        target->DropCache();  // fio's invalidate=1
      }
    }
  }

  // 3. One JobThread per clone (engines and buffers ready before any IO).
  std::vector<std::function<std::unique_ptr<JobThread>()>> makers;
  std::vector<size_t> set_starts;
  uint32_t thread_number = 0;  // fio's, 0-based: cpus_allowed_policy=split
  for (size_t j = 0; j < jobs.size(); ++j) {
    const PreparedRun::Job& job = jobs[j];
    if (makers.empty() || job.spec.stonewall)
      set_starts.push_back(makers.size());
    for (uint32_t c = 0; c < std::max<uint32_t>(1, job.spec.numjobs);
         ++c, ++thread_number) {
      const size_t k = job.clone_files.size() == 1 ? 0 : c;
      std::vector<JobThread::File> thread_files;
      for (size_t f = 0; f < job.clone_files[k].size(); ++f) {
        const PreparedRun::File& file = job.clone_files[k][f];
        const std::unique_ptr<Target>& target = targets[j][k][f];
        thread_files.push_back(JobThread::File{target ? target->fd() : -1,
                                               file.plan.path, file.bytes,
                                               &file.plan.pattern_spec});
      }
      makers.push_back([&job, c, thread_files, thread_number] {
        auto t = std::make_unique<JobThread>(job.spec, c, thread_files,
                                             job.replay, job.engine.factory());
        t->set_cpus(CloneCpus(job.spec, thread_number));
        return t;
      });
    }
  }
  set_starts.push_back(makers.size());
  std::vector<std::unique_ptr<JobThread>> threads = BuildApart(makers);

  // 4. Run sets one after another (stonewall).
  for (size_t i = 0; i + 1 < set_starts.size(); ++i) {
    std::vector<JobThread*> set;
    for (size_t k = set_starts[i]; k < set_starts[i + 1]; ++k)
      set.push_back(threads[k].get());
    RunSet(set, options);
    if (Interrupted()) {
      throw InterruptedError(
          "Interrupted; the jobs were stopped and their IO drained",
          InterruptSignal());
    }
    for (const JobThread* t : set) {
      if (!t->result().error.empty()) {
        if (options.report_verify_failures && t->result().verify_errors > 0)
          continue;
        throw RunError("IO failed during the run. " + JobLabel(t->spec()) +
                       "; Error: " + t->result().error + "; Fix: " +
                       (t->result().error_fix.empty()
                            ? "check the device (dmesg) and the job's region"
                            : t->result().error_fix));
      }
    }
  }

  RunResult result;
  result.jobs = MergeGroups(threads);
  result.notices = run.notices();
  result.wall_ns = NowNs() - t0;
  return result;
}

}  // namespace tierbench
