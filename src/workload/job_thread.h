// JobThread: one clone of a job (fio's thread_data): its engine, IO source
// (the job's IoPattern, or a read_iolog replay: workload/io_source.h),
// request pool and statistics, and the queue loop that drives them.
//
// The queue loop follows fio's do_io(): fill the queue up to iodepth,
// committing every iodepth_batch_submit queued IOs; when the queue is full
// (or nothing more may be issued) reap with min = min(
// iodepth_batch_complete_min, in flight) (at least 1 when full) and max =
// iodepth_batch_complete_max, raised to complete_min when smaller (fio's
// fixup_options: unset means complete_min, so one completion per call by
// default, which keeps the queue at iodepth). Latencies as fio: slat = issue -
// start, clat = completion - issue, lat = completion - start, with one
// completion timestamp per reaped batch. IOs started during ramp_time are
// not counted (IOs in flight at the switch belong to the ramp); measurement
// ends at runtime (time_based loops over the region with Rewind()) or when
// the pattern's budget is spent. thinktime drains the queue and sleeps after
// each IO. rate= / rate_iops= pace each direction on an open-loop schedule
// (workload/rate_pacer.h, reset when ramp_time ends as in fio); each rated
// IO also records sched_lat = completion - its scheduled time. rate_min= /
// rate_iops_min= are checked as fio's check_min_rate(): after a 2 s settle
// from the start of measurement, every rate_cycle, on the IOs completed in
// that window; falling short fails the clone with fio's message. A
// replayed trace's IO waits for its scheduled time (reaping completions
// meanwhile; an absolute schedule, workload/replay_source.h) and records
// sched_lat from it, a replayed sync drains the queue and fsyncs; write_iolog
// records each IO as it is queued (workload/iolog_writer.h). The first IO error
// stops the clone (fio's continue_on_error=none).
//
// A clone may have several files (nrfiles=, workload/job_files.h), each with
// its own IoSource (a PatternSource; a read_iolog replay is the clone's one
// file with its ReplaySource, and replays once whatever loops= says);
// write_iolog names the file of each IO; file_service_type picks the file of
// the next IO (roundrobin / random: switch every N IOs; sequential: stay until
// the file's pass is done). As fio's do_io()/keep_running(): a pass goes over
// the files' regions once, ending early at io_size bytes or number_ios IOs
// (a file whose region is done sits out the rest of the pass); every pattern
// then rewinds. There are `loops` passes, then more while the bytes stay
// below io_size (default: the regions) and the IOs below
// number_ios * loops. startdelay (or a draw from its range) passes before
// the clone's clock starts. fsync=N / fdatasync=N: before the IO that
// follows every Nth write, the queue drains and that write's file is synced
// synchronously (fio's sync io_u, which never follows a job's last write);
// end_fsync syncs every file at the end, inside the measured time.
//
// Construction does everything that can fail before IO (pattern, buffers,
// engine Init) and throws ConfigError/SysError. Run() never throws: errors
// land in result().error. The live counters may be read from another thread
// at any time (relaxed atomics written only by Run()); everything else
// belongs to the thread running Run() until it returns.
#ifndef TIERBENCH_WORKLOAD_JOB_THREAD_H_
#define TIERBENCH_WORKLOAD_JOB_THREAD_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/aligned_buffer.h"
#include "io/io_engine.h"
#include "stats/thread_cpu.h"
#include "tracefile/iolog.h"
#include "util/rng.h"
#include "util/status.h"
#include "workload/io_source.h"
#include "workload/iolog_writer.h"
#include "workload/job_result.h"
#include "workload/job_spec.h"
#include "workload/rate_pacer.h"
#include "workload/verifier.h"

namespace tierbench {

class StartLine;

class JobThread {
 public:
  // `fd` is the open target (-1 for engines that do no IO); `target_bytes`
  // its size. `spec` must outlive the JobThread. `replay`: the trace of a
  // read_iolog job (workload/replay_source.h), null otherwise.
  JobThread(const JobSpec& spec, uint32_t clone_index, int fd,
            uint64_t target_bytes,
            std::shared_ptr<const IoLog> replay = nullptr);
  // One open file of the clone and the spec its IoPattern runs (its region).
  struct File {
    int fd = -1;
    std::string path;
    uint64_t bytes = 0;
    const JobSpec* pattern_spec = nullptr;  // null: the job's spec
  };
  // The clone's files, in file-number order (at least one). With `replay`
  // (a read_iolog trace) there must be exactly one: the trace's target.
  // `engine`: the clone's engine instance (a PreparedRun's engine made it);
  // null: one is made from the registry by spec.ioengine.
  JobThread(const JobSpec& spec, uint32_t clone_index,
            const std::vector<File>& files,
            std::shared_ptr<const IoLog> replay = nullptr,
            std::unique_ptr<IoEngine> engine = nullptr);
  JobThread(const JobThread&) = delete;
  JobThread& operator=(const JobThread&) = delete;

  // Runs the clone to its end on the calling thread, pinned first to the
  // CPUs set_cpus() gave (none: the thread's affinity is left alone), then
  // waiting at `line` (workload/start_line.h; null: no wait) before its
  // startdelay and first IO. Arrives at the line even when pinning failed.
  void Run(StartLine* line = nullptr);
  // The clone's CPUs (workload/job_file_cpu.h CloneCpus); before Run().
  void set_cpus(std::vector<int> cpus) { cpus_ = std::move(cpus); }

  const JobResult& result() const { return result_; }
  const JobSpec& spec() const { return spec_; }

  // Live progress (any thread): completed IOs/bytes per direction including
  // ramp, whether the clone is ramping or finished, and the bytes it will
  // transfer when it is not time-bound (0 otherwise).
  uint64_t live_ios(IoDir d) const {
    return live_ios_[static_cast<int>(d)].load(std::memory_order_relaxed);
  }
  uint64_t live_bytes(IoDir d) const {
    return live_bytes_[static_cast<int>(d)].load(std::memory_order_relaxed);
  }
  bool ramping() const { return ramping_.load(std::memory_order_relaxed); }
  bool finished() const { return finished_.load(std::memory_order_acquire); }
  uint64_t byte_budget() const { return byte_budget_; }

  // Any thread: asks the clone to stop issuing (steady state attained); it
  // drains what is in flight and ends as if its runtime had run out.
  void RequestStop() { stop_requested_.store(true, std::memory_order_relaxed); }
  // After Run() returned: records the steady-state outcome in result().
  void SetSteadyState(const SteadyStateResult& ss) { result_.steadystate = ss; }

 private:
  // The queue loop proper (may throw on allocation failure).
  void Loop();
  // Measurement begins (at once, or when ramp_time ends): CPU baseline and
  // the engine's batch counts cleared, as fio's reset_all_stats().
  void StartMeasuring();

  // One IO as DrawIo() returns it: its direction, file (index in files_),
  // offset and length, and whether it is a verify read.
  struct DrawnIo {
    IoDir dir = IoDir::kRead;
    size_t file = 0;
    uint64_t offset = 0;
    uint32_t length = 0;
    bool verify = false;
  };

  // One of the clone's files with its own IO sequence: a PatternSource, or
  // the ReplaySource of a read_iolog job (then the clone's only slot).
  struct Slot {
    int fd = -1;
    std::string path;
    std::unique_ptr<IoSource> source;
    bool exhausted = false;  // its pass of this loop is done
  };
  // Draws the next IO from the file chosen by file_service_type, keeping
  // io_size, loops and number_ios; false when the clone has issued all.
  bool NextIo(IoDir* dir, uint64_t* offset, uint32_t* length, size_t* file);
  // verify=: the next IO, a verify read (*verify) when one is due (backlog,
  // or the verify phase after a write pass), else NextIo(); verify_only
  // writes are logged, not issued. Without verify it is NextIo().
  bool DrawIo(IoDir* dir, uint64_t* offset, uint32_t* length, size_t* file,
              bool* verify);
  // Drains, syncs and drops the files' cached pages before the verify
  // phase (fio's do_verify()); false when the clone failed meanwhile.
  bool StartVerifyPhase();
  // A verify read found bad data: the job fails unless
  // continue_on_error=verify (and not verify_fatal).
  void VerifyFailed();
  // The file of the next IO (one not exhausted).
  size_t PickFile();
  // The current pass is over: its bytes, number_ios, or every file done.
  bool PassDone() const;
  // Rewinds for the next pass when fio would go on; false when finished.
  bool StartNextPass();
  void RewindAll();
  // fsync/fdatasync after every Nth write: drains, then syncs `file`.
  // Counts a write; after every Nth, the next IO is preceded by a sync.
  void SyncAfterWrite(size_t file);
  // fsync / fdatasync of one file; false (and the clone failed) on error or
  // when there is no file (ioengine=null).
  bool SyncFile(size_t file, bool data_only);

  // Fills the queue until it is full, the pattern or the rate says stop,
  // or a synchronous engine completed an IO; clears issuing_ at the end.
  void Fill();
  // Submits queued IOs; records an engine failure.
  void Commit();
  // Reaps at least `min` and at most `max` completions (0: the job's
  // iodepth_batch_complete_max); the timeout bounds the wait.
  void Reap(uint32_t min, uint64_t timeout_ns, uint32_t max = 0);
  // Records one finished IO that completed at `now`.
  void Complete(IoRequest* req, uint64_t now);
  // Waits until every IO in flight completed.
  void Drain();
  // thinktime after an IO: drains the queue and sleeps (not past the end);
  // with rate_ignore_thinktime moves `pacer`'s schedule past the pause.
  void Think(RatePacer* pacer);
  // Waits until `deadline_ns` (at most the end of the run), reaping
  // completions meanwhile.
  void WaitReaping(uint64_t deadline_ns);
  // Waits for the time of the IO `file`'s source just returned (a v2 wait,
  // the v3 schedule: never early) and sets replay_due_ns_; false when
  // issuing stopped meanwhile.
  bool PaceReplay(size_t file);
  // When that IO is a replayed sync/datasync entry: drains the queue,
  // syncs the file (counted in syncs) and returns true.
  bool IssueReplaySync(size_t file);
  // Records the clone's first error and stops issuing.
  void Fail(const std::string& error);
  // Records an engine failure; Run() then abandons the queue.
  void EngineFailed(const Status& status);
  void EndMeasurement(uint64_t now);
  // When the held IO's direction is due (absolute ns). Only while held_.
  uint64_t HeldDueNs() const;
  // fio's check_min_rate(): fails the clone when a minimum is not met.
  void CheckMinRate(uint64_t now);

  const JobSpec& spec_;
  std::unique_ptr<IoEngine> engine_;
  std::unique_ptr<IologWriter> iolog_;  // write_iolog=, or null
  std::unique_ptr<Verifier> verifier_;  // verify=, or null
  bool verify_phase_ = false;           // reading back the write log
  bool verify_phase_due_ = false;       // a pass ended; the phase comes next
  bool verify_phase_done_ = false;      // this pass's phase is over
  IoDir last_dir_ = IoDir::kRead;  // of the last pattern IO (fio last_ddir)
  std::vector<Slot> files_;
  uint64_t seed_ = 0;
  size_t current_file_ = 0;
  uint64_t ios_on_file_ = 0;
  uint64_t total_target_ = 0;  // io_size, else size (fio's keep_running)
  uint64_t pass_budget_ = 0;   // bytes per pass: min(total, the regions)
  uint64_t pass_bytes_ = 0;    // issued in this pass
  uint64_t pass_ios_ = 0;
  uint64_t total_bytes_ = 0;
  uint64_t passes_ = 0;  // finished passes
  uint64_t issued_ios_ = 0;
  uint64_t writes_issued_ = 0;
  uint64_t syncs_ = 0;
  uint64_t end_fsyncs_ = 0;
  uint64_t issued_syncs_ = 0;  // syncs after ramp_time
  bool sync_due_ = false;
  bool fsync_due_ = false;
  bool fdatasync_due_ = false;
  size_t sync_file_ = 0;
  std::vector<size_t> req_file_;  // file index per request in the pool
  Rng file_rng_{0};
  std::vector<AlignedBuffer> buffers_;
  std::vector<IoRequest> requests_;
  std::vector<IoRequest*> free_;       // requests not in use (stack)
  std::vector<IoRequest*> completed_;  // Reap() output, reused
  RatePacer pacers_[kNumDirs];
  uint64_t rate_epoch_ns_ = 0;      // the pacers' time zero (absolute)
  std::vector<uint64_t> sched_ns_;  // per request: scheduled time, 0: none
  bool checks_min_rate_ = false;
  bool min_rate_baseline_[kNumDirs] = {false, false};
  uint64_t min_rate_time_[kNumDirs] = {0, 0};
  uint64_t min_rate_bytes_[kNumDirs] = {0, 0};
  uint64_t min_rate_ios_[kNumDirs] = {0, 0};
  uint64_t byte_budget_ = 0;

  // Queue-loop state (owned by Run()).
  uint32_t depth_ = 1;
  uint32_t batch_submit_ = 1;
  uint32_t complete_min_ = 1;
  uint32_t complete_max_ = 1;
  uint32_t queued_ = 0;     // handed to Queue(), not committed
  uint32_t in_flight_ = 0;  // committed, not reaped
  bool issuing_ = true;
  bool engine_failed_ = false;
  // An IO drawn from the pattern that waits for its turn (its direction's
  // rate is not yet due, or the engine was busy); Fill() issues it next.
  std::optional<DrawnIo> held_;
  bool measuring_ = false;
  uint64_t measure_start_ns_ = 0;
  uint64_t end_ns_ = 0;
  bool reached_end_ = false;  // issuing stopped because end_ns_ passed
  uint64_t last_completion_ns_ = 0;
  uint64_t run_start_ns_ = 0;
  bool replaying_ = false;      // a read_iolog clone
  uint64_t replay_due_ns_ = 0;  // the drawn replay IO's time (absolute; 0)
  ThreadCpu cpu_start_;
  DirectionStats stats_[kNumDirs];
  uint64_t depth_hist_[7] = {0, 0, 0, 0, 0, 0, 0};
  JobResult result_;

  std::atomic<uint64_t> live_ios_[kNumDirs];
  std::atomic<uint64_t> live_bytes_[kNumDirs];
  std::atomic<bool> ramping_{false};
  std::atomic<bool> finished_{false};
  std::vector<int> cpus_;  // set_cpus()
  std::atomic<bool> stop_requested_{false};
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_THREAD_H_
