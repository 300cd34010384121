// RunWorkload (workload/runner.h): checks every target, lays out files, then
// runs the jobs' clones as JobThreads, one stonewall-separated run set after
// another, and merges the results per reporting group.
#include "workload/runner.h"

#include <unistd.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "io/device_guard.h"
#include "io/engine_registry.h"
#include "io/target.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/units.h"
#include "workload/io_pattern.h"
#include "workload/job_file_cpu.h"
#include "workload/job_files.h"
#include "workload/job_thread.h"
#include "workload/progress.h"
#include "workload/replay_source.h"
#include "workload/start_line.h"
#include "workload/steady_state_monitor.h"

namespace tierbench {
namespace {

// One file of a job after its checks.
struct PreparedFile {
  JobFilePlan plan;
  TargetInfo info;
  uint64_t bytes = 0;  // the size the job sees (after any lay-out)
  bool needs_layout = false;
  std::unique_ptr<Target> target;  // null for engines that do no IO
};

// A job after its checks: what each clone runs on. With filename= the
// clones share clone_files[0]; fio's default files are per clone.
struct PreparedJob {
  const JobSpec* spec = nullptr;
  const EngineInfo* engine = nullptr;
  std::vector<std::vector<PreparedFile>> clone_files;
  std::shared_ptr<const IoLog> replay;  // read_iolog's trace, or null
};

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

void CheckAlignment(const JobSpec& s, const PreparedFile& file,
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
                  ? CheckDeviceWritableAllowMounted(path, Sysfs())
                  : CheckDeviceWritable(path, Sysfs());
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
    if (!CheckDeviceNotInUse(path, Sysfs()).ok() ||
        (DetectSignature(path, &sig).ok() && !sig.empty())) {
      LogNotice("job '" + s.name + "': allow_mounted_write=1: writing to " +
                path + " although it is mounted or carries a filesystem");
    }
  }
}

// Checks one file of a job without writing anything. `replay`: the trace of
// a read_iolog job, whose target must hold the trace's extent.
PreparedFile PrepareFile(const JobSpec& spec, const EngineInfo& engine,
                         const JobFilePlan& plan, const IoLog* replay) {
  PreparedFile file;
  file.plan = plan;
  if (plan.path.empty()) {  // ioengine=null without filename=
    file.bytes = plan.file_bytes;
    return file;
  }
  file.info = Target::Inspect(plan.path, Sysfs());
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

// Checks one job without writing anything; opens existing targets.
PreparedJob Prepare(const JobSpec& spec, std::shared_ptr<const IoLog> replay,
                    const RunOptions& options,
                    std::map<std::string, uint64_t>* layouts) {
  PreparedJob job;
  job.spec = &spec;
  job.replay = std::move(replay);
  job.engine = &EngineRegistry::Default().Get(spec.ioengine);
  CheckCpusAvailable(spec);
  const uint32_t clones = std::max<uint32_t>(1, spec.numjobs);
  const bool shared = !spec.filename.empty() || !job.engine->does_io;
  for (uint32_t c = 0; c < (shared ? 1 : clones); ++c) {
    std::vector<PreparedFile> files;
    for (const JobFilePlan& plan : PlanJobFiles(spec, c))
      files.push_back(PrepareFile(spec, *job.engine, plan, job.replay.get()));
    job.clone_files.push_back(std::move(files));
  }
  if (job.replay) {  // the trace's target: one file, shared by the clones
    const PreparedFile& file = job.clone_files[0][0];
    CheckReplayFits(*job.replay, spec, file.bytes,
                    job.engine->does_io ? file.info.logical_block_size : 1);
  }
  for (uint32_t c = 0; !job.replay && c < clones; ++c) {
    for (const PreparedFile& file : job.clone_files[shared ? 0 : c]) {
      // validates the region
      IoPattern pattern(file.plan.pattern_spec, file.bytes, c);
      if (spec.direct && job.engine->does_io && (c == 0 || !shared))
        CheckAlignment(spec, file, pattern);
    }
  }
  if (!job.engine->does_io) return job;
  for (std::vector<PreparedFile>& files : job.clone_files) {
    for (PreparedFile& file : files) {
      if (file.info.is_block && PatternWrites(spec.rw))
        CheckWritableDevice(spec, file.plan.path, options);
      if (file.needs_layout) {
        uint64_t& size = (*layouts)[file.plan.path];
        size = std::max(size, file.bytes);
      } else {
        file.target = std::make_unique<Target>();
        file.target->Open(file.plan.path, PatternWrites(spec.rw), spec.direct);
      }
    }
  }
  if (spec.ioengine == "libaio" && !spec.direct && spec.iodepth > 1) {
    LogNotice("job '" + spec.name +
              "': libaio without direct=1 runs mostly synchronously; "
              "iodepth=" +
              std::to_string(spec.iodepth) + " will not be reached");
  }
  return job;
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
  if (workload.jobs.empty()) {
    throw ConfigError(
        "The job files define no job. Fix: add a [jobname] section");
  }
  // 1. Every check of every job, before anything is written. read_iolog
  // jobs take their target, directions and block sizes from their trace.
  std::vector<JobSpec> specs = workload.jobs;
  std::vector<std::shared_ptr<const IoLog>> replays(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].read_iolog.empty()) continue;
    std::vector<std::string> notices;
    replays[i] = PrepareReplayJob(&specs[i], &notices);
    for (const std::string& n : notices) LogNotice(n);
  }
  std::map<std::string, uint64_t> layouts;
  std::vector<PreparedJob> jobs;
  jobs.reserve(specs.size());
  for (size_t i = 0; i < specs.size(); ++i)
    jobs.push_back(Prepare(specs[i], replays[i], options, &layouts));

  // 2. Lay out missing or short files, then open them.
  for (const auto& [path, bytes] : layouts) {
    LogNotice("laying out IO file " + path + " (" + FormatBytes(bytes) + ")");
    Target::LayOut(path, bytes);
  }
  for (PreparedJob& job : jobs) {
    if (!job.engine->does_io) continue;
    for (std::vector<PreparedFile>& files : job.clone_files) {
      for (PreparedFile& file : files) {
        if (!file.target) {
          file.target = std::make_unique<Target>();
          file.target->Open(file.plan.path, PatternWrites(job.spec->rw),
                            job.spec->direct);
        }
        file.target->DropCache();  // fio's invalidate=1
      }
    }
  }

  // 3. One JobThread per clone (engines and buffers ready before any IO).
  std::vector<std::function<std::unique_ptr<JobThread>()>> makers;
  std::vector<size_t> set_starts;
  uint32_t thread_number = 0;  // fio's, 0-based: cpus_allowed_policy=split
  for (const PreparedJob& job : jobs) {
    if (makers.empty() || job.spec->stonewall)
      set_starts.push_back(makers.size());
    for (uint32_t c = 0; c < std::max<uint32_t>(1, job.spec->numjobs);
         ++c, ++thread_number) {
      const std::vector<PreparedFile>& files =
          job.clone_files[job.clone_files.size() == 1 ? 0 : c];
      std::vector<JobThread::File> thread_files;
      for (const PreparedFile& file : files) {
        thread_files.push_back(JobThread::File{
            file.target ? file.target->fd() : -1, file.plan.path, file.bytes,
            &file.plan.pattern_spec});
      }
      makers.push_back([&job, c, thread_files, thread_number] {
        auto t =
            std::make_unique<JobThread>(*job.spec, c, thread_files, job.replay);
        t->set_cpus(CloneCpus(*job.spec, thread_number));
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
  result.notices = workload.notices;
  result.wall_ns = NowNs() - t0;
  return result;
}

}  // namespace tierbench
