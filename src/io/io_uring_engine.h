// IoUringEngine ("io_uring"): Linux io_uring through liburing, with fio's
// options (io/engine_options.h) and fio's system calls (engines/io_uring.c),
// so that strace counts the same io_uring_enter calls per IO as fio:
//  - the ring has `depth` entries rounded up to a power of two and a
//    completion queue of the same size; it is set up as fio sets it up
//    (COOP_TASKRUN, SINGLE_ISSUER | DEFER_TASKRUN, dropped one by one when
//    the kernel refuses them with EINVAL) and, so that the thread that
//    constructs the engine need not be the one that runs it, disabled
//    (R_DISABLED) until the first Queue(), which enables it on the calling
//    thread: from then on that thread alone may use the engine;
//  - Queue() fills one SQE per request (READ/WRITE, READV/WRITEV, or
//    READ_FIXED/WRITE_FIXED with fixedbufs; the registered file index with
//    registerfiles); kBusy when queued + in flight would exceed the depth;
//  - Commit() is one io_uring_enter(n, 0, GETEVENTS) per batch (with
//    sqthread_poll only when the kernel thread needs a wakeup); issue_ns is
//    set once per successful enter, as fio's fio_ioring_queued(); EAGAIN/
//    EBUSY with IOs in flight returns so the caller reaps first;
//  - Reap() takes what the completion ring holds and, while fewer than
//    `min` arrived, calls io_uring_enter(0, min - got, GETEVENTS) (with a
//    timeout through IORING_ENTER_EXT_ARG when one is given); a poll
//    (min 0) that finds nothing enters once to run deferred completions.
//    Unlike fio, sqthread_poll waits in the kernel instead of spinning.
// Setup errors are one line naming the cause and the fix: io_uring refused
// (EPERM/EACCES: a seccomp filter or kernel.io_uring_disabled; ENOSYS: no
// io_uring in the kernel), RLIMIT_MEMLOCK too small for fixedbufs, a CPU the
// SQ thread cannot run on.
#ifndef TIERBENCH_IO_IO_URING_ENGINE_H_
#define TIERBENCH_IO_IO_URING_ENGINE_H_

#include <liburing.h>

#include <vector>

#include "io/engine_options.h"
#include "io/io_engine.h"

namespace tierbench {

class IoUringEngine : public IoEngine {
 public:
  IoUringEngine() = default;
  ~IoUringEngine() override { Cleanup(); }
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;

  const char* name() const override { return "io_uring"; }
  // Keeps the options, the files (registerfiles) and the buffers
  // (fixedbufs) for Init(). fixedbufs without buffers is InvalidArgument.
  Status Configure(const EngineSetup& setup) override;
  // Sets up the ring for `depth` requests (index < depth), registers
  // buffers and files as configured and probes nonvectored=-1.
  Status Init(int fd, uint32_t depth) override;
  Status Queue(IoRequest* req, QueueResult* result) override;
  Status Commit(uint32_t* submitted) override;
  Status Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
              std::vector<IoRequest*>* done) override;
  void Cleanup() override;

  // Whether this process may use io_uring at all: OK, or the one-line
  // reason Init() would give (a seccomp filter, kernel.io_uring_disabled,
  // no io_uring in the kernel).
  static Status Available();

  // Requests handed to the kernel and not yet reaped.
  uint32_t in_flight() const { return in_flight_; }
  // Requests queued and not yet submitted.
  uint32_t queued() const {
    return static_cast<uint32_t>(pending_.size() - pending_begin_);
  }
  // The options in effect after Init() (nonvectored probed, registerfiles
  // implied by sqthread_poll).
  const IoUringOptions& options() const { return options_; }

 private:
  Status SetUpRing(uint32_t entries);
  Status RegisterFiles(int fd);
  // Takes up to `max` completions from the ring into *done.
  uint32_t TakeCompletions(uint32_t max, std::vector<IoRequest*>* done);
  // io_uring_enter(0, min, GETEVENTS), with a timeout when timeout_ns > 0.
  int WaitEvents(uint32_t min, uint64_t timeout_ns);

  io_uring ring_{};
  bool ring_up_ = false;
  bool enabled_ = false;
  EngineSetup setup_;
  IoUringOptions options_;
  int fd_ = -1;
  uint32_t depth_ = 0;
  uint32_t in_flight_ = 0;
  std::vector<int> fixed_index_;     // fd -> registered index, or -1
  std::vector<iovec> iovecs_;        // one per request index (vectored IO)
  std::vector<IoRequest*> pending_;  // queued, not submitted: [begin, end)
  size_t pending_begin_ = 0;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_IO_URING_ENGINE_H_
