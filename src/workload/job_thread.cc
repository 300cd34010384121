#include "workload/job_thread.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "io/engine_registry.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "util/units.h"
#include "workload/job_file_cpu.h"
#include "workload/replay_source.h"
#include "workload/start_line.h"

namespace tierbench {
namespace {

constexpr uint64_t kNoEnd = UINT64_MAX;
// Longest single wait, so an interruption is noticed while draining.
constexpr uint64_t kWaitSliceNs = 50 * kNsPerMs;
// The last stretch of a replay wait is polled rather than slept, as fio's
// iolog_delay() polls: a sleep or a reap timeout overshoots by tens of
// microseconds.
constexpr uint64_t kReplaySpinNs = 200 * kNsPerUs;

// fio's "IO depths" buckets: 1, 2, 4, 8, 16, 32, >=64 (lower bounds).
int DepthIndex(uint32_t depth) {
  if (depth >= 64) return 6;
  if (depth >= 32) return 5;
  if (depth >= 16) return 4;
  if (depth >= 8) return 3;
  if (depth >= 4) return 2;
  if (depth >= 2) return 1;
  return 0;
}

std::unique_ptr<IoSource> MakeSource(const JobSpec& spec, uint64_t target_bytes,
                                     uint32_t clone_index,
                                     std::shared_ptr<const IoLog> replay) {
  if (replay)
    return std::make_unique<ReplaySource>(std::move(replay), spec, clone_index);
  return std::make_unique<PatternSource>(spec, target_bytes, clone_index);
}

}  // namespace

JobThread::JobThread(const JobSpec& spec, uint32_t clone_index, int fd,
                     uint64_t target_bytes, std::shared_ptr<const IoLog> replay)
    : JobThread(spec, clone_index,
                std::vector<File>{File{fd, spec.filename, target_bytes}},
                std::move(replay)) {}

JobThread::JobThread(const JobSpec& spec, uint32_t clone_index,
                     const std::vector<File>& files,
                     std::shared_ptr<const IoLog> replay,
                     std::unique_ptr<IoEngine> engine)
    : spec_(spec),
      engine_(engine ? std::move(engine)
                     : EngineRegistry::Default().Create(spec.ioengine)) {
  if (files.empty()) {
    throw ConfigError("Job '" + spec.name + "' (" + spec.origin +
                      ") has no file to do IO on. Fix: set filename= or size=");
  }
  if (replay && files.size() != 1) {
    throw ConfigError("Job '" + spec.name + "' (" + spec.origin +
                      ") replays a trace onto " + std::to_string(files.size()) +
                      " files. Fix: remove nrfiles= from the read_iolog job");
  }
  uint64_t regions = 0;
  files_.reserve(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    const JobSpec& ps =
        files[f].pattern_spec != nullptr ? *files[f].pattern_spec : spec;
    // File 0 keeps the clone's seed; further files get their own streams.
    Slot slot;
    slot.fd = files[f].fd;
    slot.path = files[f].path;
    slot.source =
        MakeSource(ps, files[f].bytes,
                   clone_index + static_cast<uint32_t>(f << 16), replay);
    regions += slot.source->io_budget();
    files_.push_back(std::move(slot));
  }
  replaying_ = replay != nullptr;
  seed_ = files_[0].source->seed();
  file_rng_ = Rng(Rng::Mix64(seed_ ^ 0x66696c65ULL));  // "file"
  // fio: io_size defaults to size, which fio caps at the files' total
  // (so with filesize= a larger size= changes nothing).
  total_target_ = spec.io_size > 0 ? spec.io_size : regions;
  pass_budget_ = std::min(total_target_, regions);
  depth_ = std::max<uint32_t>(1, spec.iodepth);
  batch_submit_ = spec.iodepth_batch_submit == 0
                      ? depth_
                      : std::min(spec.iodepth_batch_submit, depth_);
  complete_min_ = std::min(spec.iodepth_batch_complete_min, depth_);
  // fio: a complete_max below complete_min (incl. unset, 0) means
  // complete_min, so by default one completion is reaped per call.
  complete_max_ = std::min(
      std::max(spec.iodepth_batch_complete_max, complete_min_), depth_);
  complete_max_ = std::max({complete_max_, complete_min_, 1u});

  const size_t buffer_bytes = static_cast<size_t>(LargestBlock(spec));
  buffers_.reserve(depth_);
  requests_.resize(depth_);
  free_.reserve(depth_);
  completed_.reserve(depth_);
  for (uint32_t i = 0; i < depth_; ++i) {
    buffers_.emplace_back(buffer_bytes);
    buffers_.back().FillRandom(seed_ ^ (0x9E37ull * (i + 1)));
    requests_[i].index = i;
    requests_[i].buffer = buffers_.back().data();
  }
  for (uint32_t i = depth_; i > 0; --i) free_.push_back(&requests_[i - 1]);
  sched_ns_.assign(depth_, 0);
  for (int d = 0; d < kNumDirs; ++d) {
    pacers_[d] =
        RatePacer(spec, static_cast<IoDir>(d), seed_ ^ (0x5EEDull + d));
    checks_min_rate_ =
        checks_min_rate_ || spec.rate_min[d] != 0 || spec.rate_iops_min[d] != 0;
    live_ios_[d].store(0, std::memory_order_relaxed);
    live_bytes_[d].store(0, std::memory_order_relaxed);
  }
  req_file_.assign(depth_, 0);
  const uint64_t loops = std::max<uint32_t>(1, spec.loops);
  byte_budget_ = spec.time_based ? 0
                 : pass_budget_ > UINT64_MAX / loops
                     ? UINT64_MAX
                     : std::max(pass_budget_ * loops, total_target_);

  if (spec.verify.enabled()) {
    verifier_ = std::make_unique<Verifier>(spec, clone_index, seed_, depth_);
  }
  if (!spec.write_iolog.empty()) {
    std::vector<std::string> paths;
    for (const Slot& slot : files_) paths.push_back(slot.path);
    iolog_ = std::make_unique<IologWriter>(spec.write_iolog, paths);
  }

  EngineSetup setup;
  setup.uring = spec.uring;
  for (const Slot& slot : files_) setup.fds.push_back(slot.fd);
  for (const AlignedBuffer& b : buffers_)
    setup.buffers.push_back(iovec{b.data(), b.size()});
  Status s = engine_->Configure(setup);
  if (s.ok()) s = engine_->Init(files_[0].fd, depth_);
  if (!s.ok()) {
    throw SysError::From("Cannot start the IO engine. Job: " + spec.name +
                             "; Engine: " + spec.ioengine +
                             "; Depth: " + std::to_string(depth_),
                         s);
  }
  result_.name = spec.name;
  result_.spec = spec;
  result_.group_id = spec.group_id;
  result_.jobs = 1;
}

void JobThread::StartMeasuring() {
  measuring_ = true;
  cpu_start_ = ThreadCpu::Now();
  engine_->batch_counts().Clear();
}

void JobThread::Run(StartLine* line) {
  // The runner checked the set against the process's CPUs; a CPU taken
  // offline since then fails the clone before its first IO.
  const Status pinned = PinCurrentThread(cpus_);
  if (!pinned.ok()) Fail("cpus_allowed: " + pinned.message());
  if (line != nullptr) line->ArriveAndWait();
  if (spec_.startdelay_ns > 0 || spec_.startdelay_max_ns > 0) {
    uint64_t delay = spec_.startdelay_ns;
    if (spec_.startdelay_max_ns > spec_.startdelay_ns) {
      Rng rng(Rng::Mix64(seed_ ^ 0x64656c6179ULL));  // "delay"
      delay += rng.Uniform(spec_.startdelay_max_ns - spec_.startdelay_ns + 1);
    }
    SleepUntilOrInterrupted(NowNs() + delay);
  }
  // fio's pid= is its worker's; ours are threads, so the thread id (what
  // fio records as well when it runs jobs as threads, thread=1).
  result_.pid = static_cast<int>(syscall(SYS_gettid));
  const uint64_t start = NowNs();
  rate_epoch_ns_ = start;
  run_start_ns_ = start;
  if (iolog_) {
    iolog_->Begin(start);
    iolog_->Open(NowNs());
  }
  measure_start_ns_ = start + spec_.ramp_time_ns;
  end_ns_ =
      spec_.runtime_ns > 0 ? measure_start_ns_ + spec_.runtime_ns : kNoEnd;
  if (spec_.ramp_time_ns == 0) {
    StartMeasuring();
  } else {
    ramping_.store(true, std::memory_order_relaxed);
  }

  try {
    Loop();
    if (!engine_failed_ && result_.error.empty() && spec_.end_fsync &&
        PatternWrites(spec_.rw)) {
      for (size_t f = 0; f < files_.size(); ++f) {
        if (SyncFile(f, false)) ++end_fsyncs_;
      }
      if (measuring_) last_completion_ns_ = NowNs();
    }
  } catch (const std::exception& e) {
    EngineFailed(Status::IoError(e.what()));
  }
  if (engine_failed_) engine_->Cleanup();
  if (iolog_) {
    const Status closed = iolog_->Close(NowNs());
    if (!closed.ok()) Fail("write_iolog failed: " + closed.message());
  }
  EndMeasurement(NowNs());
  finished_.store(true, std::memory_order_release);
}

void JobThread::Loop() {
  while (!engine_failed_) {
    const uint64_t now = NowNs();
    if (!measuring_ && now >= measure_start_ns_) {
      StartMeasuring();
      ramping_.store(false, std::memory_order_relaxed);
      // fio's reset_all_stats(): the rate schedule starts anew.
      rate_epoch_ns_ = now;
      for (RatePacer& p : pacers_) p.Restart();
    }
    if (checks_min_rate_ && measuring_ && result_.error.empty())
      CheckMinRate(now);
    if (issuing_ && now >= end_ns_) reached_end_ = true;
    if (issuing_ && (reached_end_ || Interrupted() ||
                     stop_requested_.load(std::memory_order_relaxed))) {
      issuing_ = false;
    }
    if (issuing_) Fill();
    if (queued_ > 0) Commit();
    if (engine_failed_) break;
    if (in_flight_ == 0) {
      if (!issuing_ && queued_ == 0) break;
      if (held_) {
        SleepUntilOrInterrupted(std::min(HeldDueNs(), end_ns_));
      }
      continue;
    }
    if (issuing_ && !held_ && queued_ == 0) {
      // The queue is full: wait as fio's wait_for_completions().
      Reap(std::max(1u, std::min(complete_min_, in_flight_)), 0);
    } else if (issuing_ && held_) {
      uint64_t next = HeldDueNs();
      Reap(1,
           std::clamp<uint64_t>(next > now ? next - now : 1, 1, kWaitSliceNs));
    } else if (!issuing_ && queued_ == 0) {
      // The job's end: fio's io_u_queued_complete(td, cur_depth) waits for
      // all that is in flight in one reap.
      Reap(in_flight_, kWaitSliceNs, in_flight_);
    } else {
      Reap(1, kWaitSliceNs);  // the kernel refused more for now
    }
  }
}

void JobThread::Fill() {
  while (!free_.empty() && issuing_) {
    DrawnIo io;
    if (held_) {
      io = *held_;
    } else if (!DrawIo(&io.dir, &io.offset, &io.length, &io.file, &io.verify)) {
      issuing_ = false;
      return;
    } else if (sync_due_) {
      // fio issues the sync in place of the IO after the Nth write, so a
      // job's last write is never followed by one.
      sync_due_ = false;
      Drain();
      if (engine_failed_) return;
      const uint64_t syncs_before = syncs_;
      if (fsync_due_ && SyncFile(sync_file_, false)) ++syncs_;
      if (fdatasync_due_ && SyncFile(sync_file_, true)) ++syncs_;
      if (measuring_) issued_syncs_ += syncs_ - syncs_before;
      if (!io.verify && !PaceReplay(io.file)) return;
    } else if (!io.verify && !PaceReplay(io.file)) {
      return;
    }
    if (!held_ && !io.verify && replaying_ && IssueReplaySync(io.file)) {
      if (engine_failed_ || !issuing_) return;
      continue;
    }
    RatePacer& pacer = pacers_[static_cast<int>(io.dir)];
    const uint64_t due = pacer.limited() ? rate_epoch_ns_ + pacer.due_ns()
                         : io.verify     ? 0
                                         : replay_due_ns_;
    if (pacer.limited() && NowNs() < due) {
      held_ = io;
      return;
    }
    held_.reset();
    IoRequest* req = free_.back();
    req->dir = io.dir;
    req->offset = io.offset;
    req->length = io.length;
    req->fd = files_[io.file].fd;
    req_file_[req->index] = io.file;
    req->start_ns = NowNs();
    if (verifier_ && io.dir == IoDir::kWrite) verifier_->FillWrite(req);
    QueueResult qr;
    Status s = engine_->Queue(req, &qr);
    if (!s.ok()) {
      EngineFailed(s);
      return;
    }
    if (qr == QueueResult::kBusy) {
      held_ = io;
      return;
    }
    free_.pop_back();
    if (verifier_) {
      if (io.dir == IoDir::kWrite) {
        verifier_->LogWrite(*req, io.file);
      } else if (io.verify) {
        verifier_->MarkVerifyRead(req->index);
      }
      if (!io.verify) last_dir_ = io.dir;
    }
    // The IO was accepted: book it on the schedule (fio undoes BUSY ones).
    sched_ns_[req->index] = due;
    pacer.Issued(io.length);
    if (iolog_)
      iolog_->Io(req->start_ns, io.dir, io.offset, io.length, io.file);
    if (req->start_ns >= measure_start_ns_) {
      ++depth_hist_[DepthIndex(in_flight_ + queued_ + 1)];
      ++stats_[static_cast<int>(io.dir)].issued;
    }
    if (qr == QueueResult::kCompleted) {
      Complete(req, NowNs());
      if (io.dir == IoDir::kWrite) SyncAfterWrite(io.file);
      // Synchronous engines think too (fio's handle_thinktime() runs after
      // every IO, whatever the engine).
      if (spec_.thinktime_ns > 0) Think(&pacer);
      return;  // let Run() look at the clock between synchronous IOs
    }
    if (++queued_ >= batch_submit_) Commit();
    if (io.dir == IoDir::kWrite) SyncAfterWrite(io.file);
    if (spec_.thinktime_ns > 0) {
      Think(&pacer);
      return;
    }
  }
}

void JobThread::Think(RatePacer* pacer) {
  Drain();
  const uint64_t sleep_start = NowNs();
  SleepUntilOrInterrupted(std::min(sleep_start + spec_.thinktime_ns, end_ns_));
  if (spec_.rate_ignore_thinktime) pacer->SkipIdle(NowNs() - sleep_start);
}

void JobThread::Commit() {
  uint32_t submitted = 0;
  Status s = engine_->Commit(&submitted);
  if (!s.ok()) {
    EngineFailed(s);
    return;
  }
  queued_ -= submitted;
  in_flight_ += submitted;
}

void JobThread::Reap(uint32_t min, uint64_t timeout_ns, uint32_t max) {
  completed_.clear();
  Status s = engine_->Reap(min, max == 0 ? complete_max_ : max, timeout_ns,
                           &completed_);
  if (!s.ok()) {
    EngineFailed(s);
    return;
  }
  if (completed_.empty()) return;
  // One completion timestamp per reaped batch, as fio.
  const uint64_t now = NowNs();
  in_flight_ -= static_cast<uint32_t>(completed_.size());
  for (IoRequest* req : completed_) Complete(req, now);
}

void JobThread::Complete(IoRequest* req, uint64_t now) {
  const int d = static_cast<int>(req->dir);
  free_.push_back(req);
  if (verifier_ && verifier_->Complete(
                       req, files_[req_file_[req->index]].path,
                       req->result == static_cast<int64_t>(req->length)) > 0) {
    VerifyFailed();
  }
  if (req->result != static_cast<int64_t>(req->length)) {
    ++stats_[d].errors;
    if (req->result >= 0 && req->start_ns >= measure_start_ns_)
      ++stats_[d].short_ios;
    std::string what =
        req->result < 0
            ? std::strerror(static_cast<int>(-req->result))
            : "short transfer of " + std::to_string(req->result) + " bytes";
    Fail(std::string(IoDirName(req->dir)) + " of " +
         std::to_string(req->length) + " bytes at offset " +
         std::to_string(req->offset) + " of " +
         files_[req_file_[req->index]].path + " failed: " + what);
    return;
  }
  live_ios_[d].store(live_ios_[d].load(std::memory_order_relaxed) + 1,
                     std::memory_order_relaxed);
  live_bytes_[d].store(
      live_bytes_[d].load(std::memory_order_relaxed) + req->length,
      std::memory_order_relaxed);
  if (req->start_ns < measure_start_ns_) return;  // started during the ramp
  DirectionStats& st = stats_[d];
  ++st.ios;
  st.bytes += req->length;
  const uint64_t slat = req->issue_ns - req->start_ns;
  const uint64_t clat = now - req->issue_ns;
  const uint64_t lat = now - req->start_ns;
  st.slat.Add(static_cast<double>(slat));
  st.clat.Add(static_cast<double>(clat));
  st.lat.Add(static_cast<double>(lat));
  st.clat_hist.Add(clat);
  st.lat_hist.Add(lat);
  if (sched_ns_[req->index] != 0) {
    const uint64_t sched_lat = now - sched_ns_[req->index];
    st.sched_lat.Add(static_cast<double>(sched_lat));
    st.sched_lat_hist.Add(sched_lat);
  }
  st.series.Add(now - measure_start_ns_, req->length, lat);
  last_completion_ns_ = now;
}

void JobThread::Drain() {
  while (!engine_failed_ && (in_flight_ > 0 || queued_ > 0)) {
    if (queued_ > 0) Commit();
    if (in_flight_ > 0) Reap(1, kWaitSliceNs);
  }
}

uint64_t JobThread::HeldDueNs() const {
  const RatePacer& p = pacers_[static_cast<int>(held_->dir)];
  return p.limited() ? rate_epoch_ns_ + p.due_ns() : 0;
}

void JobThread::CheckMinRate(uint64_t now) {
  // fio allows a 2 second settle period after the start (of measurement).
  constexpr uint64_t kSettleNs = 2 * kNsPerSec;
  if (now < measure_start_ns_ + kSettleNs) return;
  for (int d = 0; d < kNumDirs; ++d) {
    const uint64_t min_bytes = spec_.rate_min[d];
    const uint64_t min_iops = spec_.rate_iops_min[d];
    if ((min_bytes == 0 && min_iops == 0) || stats_[d].bytes == 0) continue;
    if (min_rate_baseline_[d]) {
      const uint64_t spent_ms = (now - min_rate_time_[d]) / kNsPerMs;
      if (spent_ms == 0 || spent_ms < spec_.rate_cycle_ns / kNsPerMs) continue;
      const std::string dir = IoDirName(static_cast<IoDir>(d));
      // rate_min= (bytes/s) when set, else rate_iops_min=, as fio.
      const bool bw = min_bytes != 0;
      const uint64_t need = bw ? min_bytes : min_iops;
      const uint64_t got = (bw ? stats_[d].bytes - min_rate_bytes_[d]
                               : stats_[d].ios - min_rate_ios_[d]) *
                           1000 / spent_ms;
      if (got < need) {
        const std::string opt = bw ? "rate_min" : "rate_iops_min";
        result_.error_fix = "lower " + opt +
                            "= (or raise rate_cycle=), or give the target "
                            "less work; the " +
                            dir + (bw ? " bandwidth" : " IOPS") + " fell short";
        Fail(spec_.name + ": " + opt + "=" + std::to_string(need) +
             (bw ? "B/s" : "") + " not met, got " + std::to_string(got) +
             (bw ? "B/s" : " IOPS"));
        return;
      }
    }
    min_rate_baseline_[d] = true;
    min_rate_time_[d] = now;
    min_rate_bytes_[d] = stats_[d].bytes;
    min_rate_ios_[d] = stats_[d].ios;
  }
}

void JobThread::WaitReaping(uint64_t deadline_ns) {
  deadline_ns = std::min(deadline_ns, end_ns_);
  for (uint64_t now = NowNs();
       now < deadline_ns && !engine_failed_ && !Interrupted(); now = NowNs()) {
    if (queued_ > 0) Commit();
    const uint64_t left = deadline_ns - now;
    if (left <= kReplaySpinNs) {  // poll: a sleep would overshoot
      if (in_flight_ > 0) Reap(0, 0);
      continue;
    }
    const uint64_t slice = std::min(left - kReplaySpinNs, kWaitSliceNs);
    if (in_flight_ > 0) {
      Reap(1, slice);
    } else {
      SleepUntilOrInterrupted(now + slice);
    }
  }
}

// The v2 wait, then the v3 schedule: the IO goes at its time, never
// earlier, and at once when late (the next IO's time does not move).
bool JobThread::PaceReplay(size_t file) {
  replay_due_ns_ = 0;
  const IoTiming t = files_[file].source->timing();
  if (!t.scheduled && t.not_before_ns == 0) return true;
  if (t.not_before_ns > 0) WaitReaping(run_start_ns_ + t.not_before_ns);
  if (t.scheduled) {
    replay_due_ns_ = run_start_ns_ + t.due_ns;
    WaitReaping(replay_due_ns_);
  }
  if (issuing_ && NowNs() >= end_ns_) reached_end_ = true;
  if (reached_end_ || Interrupted()) issuing_ = false;
  return issuing_;
}

bool JobThread::IssueReplaySync(size_t file) {
  const IoSync kind = files_[file].source->timing().sync;
  if (kind == IoSync::kNone) return false;
  // fio waits for the IOs in flight before a replayed sync.
  Drain();
  if (engine_failed_) return true;
  if (SyncFile(file, kind == IoSync::kDatasync)) {
    ++syncs_;
    if (measuring_) ++issued_syncs_;
  }
  return true;
}

void JobThread::Fail(const std::string& error) {
  if (result_.error.empty()) result_.error = error;
  issuing_ = false;
}

void JobThread::EngineFailed(const Status& status) {
  Fail(std::string(engine_->name()) + " engine failed: " + status.message());
  engine_failed_ = true;
}

void JobThread::EndMeasurement(uint64_t now) {
  if (measuring_) {
    uint64_t end =
        last_completion_ns_ > 0 ? last_completion_ns_ : std::min(now, end_ns_);
    // A job stopped by its runtime measured the whole window, even when its
    // last IO completed before the deadline (paced, or descheduled).
    if (reached_end_) end = std::max(end, end_ns_);
    result_.runtime_ns = end > measure_start_ns_ ? end - measure_start_ns_ : 0;
    result_.AddCpu(ThreadCpu::Between(cpu_start_, ThreadCpu::Now()));
    const IoBatchCounts& batches = engine_->batch_counts();
    std::copy(std::begin(batches.submit), std::end(batches.submit),
              std::begin(result_.submit_hist));
    std::copy(std::begin(batches.complete), std::end(batches.complete),
              std::begin(result_.complete_hist));
  }
  result_.end_time = static_cast<int64_t>(time(nullptr));
  for (int d = 0; d < kNumDirs; ++d) result_.dir[d] = std::move(stats_[d]);
  result_.syncs = syncs_;
  result_.end_fsyncs = end_fsyncs_;
  if (verifier_) {
    result_.verify_errors = verifier_->errors();
    result_.verify_blocks = verifier_->blocks_verified();
    if (verifier_->errors() > 0 && result_.error.empty()) VerifyFailed();
  }
  result_.issued_syncs = issued_syncs_;
  std::copy(std::begin(depth_hist_), std::end(depth_hist_),
            std::begin(result_.depth_hist));
}

}  // namespace tierbench
