#include "io/io_uring_engine.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "util/clock.h"
#include "util/units.h"

namespace tierbench {
namespace {

// As the libaio engine: give up on a ring that accepts nothing for this long.
constexpr uint64_t kStallLimitNs = 30 * kNsPerSec;
// Longest wait for in-flight IO when the engine is torn down early.
constexpr uint64_t kCleanupWaitNs = 30 * kNsPerSec;

uint32_t RoundUpPow2(uint32_t v) {
  uint32_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// The one-line reason io_uring_setup failed with -err, with the fix.
Status SetupError(int err, uint32_t entries, const IoUringOptions& o) {
  const std::string base = "io_uring: io_uring_setup(" +
                           std::to_string(entries) + ") was refused (" +
                           std::strerror(err) + ")";
  switch (err) {
    case EPERM:
    case EACCES:
      return Status::PermissionDenied(
          base +
          ": io_uring is blocked here (a seccomp filter, as in containers, "
          "or sysctl kernel.io_uring_disabled" +
          (o.sqthread_poll ? ", or sqthread_poll without CAP_SYS_NICE" : "") +
          "); Fix: use ioengine=libaio, or allow io_uring");
    case ENOSYS:
      return Status::Unsupported(
          base + ": this kernel has no io_uring; Fix: use ioengine=libaio");
    case ENOMEM:
      return Status::IoError(base +
                             ": not enough locked memory for the ring; Fix: "
                             "raise RLIMIT_MEMLOCK (ulimit -l) or lower "
                             "iodepth=");
    case EINVAL:
      if (o.sqthread_poll && o.sqthread_poll_cpu >= 0) {
        return Status::InvalidArgument(
            base +
            ": sqthread_poll_cpu=" + std::to_string(o.sqthread_poll_cpu) +
            " is not a CPU the SQ thread can run on; Fix: use an online CPU "
            "(nproc) or remove sqthread_poll_cpu=");
      }
      return Status::InvalidArgument(
          base + ": the kernel rejects these ring options" +
          (o.hipri ? " (hipri)" : "") +
          (o.sqthread_poll ? " (sqthread_poll)" : "") + "; Fix: remove them");
    default:
      return Status::FromErrno(base, err);
  }
}

}  // namespace

Status IoUringEngine::Available() {
  io_uring ring{};
  const int r = io_uring_queue_init(1, &ring, 0);
  if (r < 0) return SetupError(-r, 1, IoUringOptions{});
  io_uring_queue_exit(&ring);
  return Status::Ok();
}

Status IoUringEngine::Configure(const EngineSetup& setup) {
  if (setup.uring.fixedbufs && setup.buffers.empty()) {
    return Status::InvalidArgument(
        "io_uring: fixedbufs needs the request buffers to register");
  }
  setup_ = setup;
  return Status::Ok();
}

Status IoUringEngine::SetUpRing(uint32_t entries) {
  // fio's fio_ioring_queue_init(), plus R_DISABLED (see the header).
  unsigned flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN |
                   IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
                   IORING_SETUP_R_DISABLED;
  if (options_.hipri) flags |= IORING_SETUP_IOPOLL;
  if (options_.sqthread_poll) {
    flags |= IORING_SETUP_SQPOLL;
    if (options_.sqthread_poll_cpu >= 0) flags |= IORING_SETUP_SQ_AFF;
  }
  while (true) {
    io_uring_params p{};
    p.flags = flags;
    p.cq_entries = entries;
    if (flags & IORING_SETUP_SQ_AFF)
      p.sq_thread_cpu = static_cast<uint32_t>(options_.sqthread_poll_cpu);
    const int r = io_uring_queue_init_params(entries, &ring_, &p);
    if (r == 0) break;
    if (r == -EINVAL) {
      // Older kernels: drop what they do not know, in fio's order.
      const unsigned optional[] = {
          IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
          IORING_SETUP_COOP_TASKRUN, IORING_SETUP_CQSIZE,
          IORING_SETUP_R_DISABLED};
      bool dropped = false;
      for (unsigned f : optional) {
        if (flags & f) {
          flags &= ~f;
          dropped = true;
          break;
        }
      }
      if (dropped) continue;
    }
    return SetupError(-r, entries, options_);
  }
  ring_up_ = true;
  enabled_ = (flags & IORING_SETUP_R_DISABLED) == 0;
  return Status::Ok();
}

Status IoUringEngine::RegisterFiles(int fd) {
  std::vector<int> fds;
  for (int f : setup_.fds.empty() ? std::vector<int>{fd} : setup_.fds) {
    if (f < 0) {
      return Status::InvalidArgument(
          "io_uring: registerfiles needs open files (ioengine=null has none)");
    }
    if (std::find(fds.begin(), fds.end(), f) == fds.end()) fds.push_back(f);
  }
  const int largest = *std::max_element(fds.begin(), fds.end());
  fixed_index_.assign(static_cast<size_t>(largest) + 1, -1);
  for (size_t i = 0; i < fds.size(); ++i)
    fixed_index_[static_cast<size_t>(fds[i])] = static_cast<int>(i);
  const int r = io_uring_register_files(&ring_, fds.data(),
                                        static_cast<unsigned>(fds.size()));
  if (r < 0) {
    return Status::FromErrno("io_uring: registerfiles: registering " +
                                 std::to_string(fds.size()) + " file(s)",
                             -r);
  }
  return Status::Ok();
}

Status IoUringEngine::Init(int fd, uint32_t depth) {
  Cleanup();
  if (depth == 0)
    return Status::InvalidArgument("io_uring: iodepth must be >= 1");
  options_ = setup_.uring;
  // fio: sqthread submission requires registered files.
  if (options_.sqthread_poll) options_.registerfiles = true;
  if (options_.fixedbufs && setup_.buffers.size() < depth) {
    return Status::InvalidArgument(
        "io_uring: fixedbufs needs one buffer per request (" +
        std::to_string(setup_.buffers.size()) +
        " for iodepth=" + std::to_string(depth) + ")");
  }
  Status s = SetUpRing(RoundUpPow2(depth));
  if (!s.ok()) return s;
  fd_ = fd;
  depth_ = depth;
  in_flight_ = 0;
  iovecs_.assign(depth, iovec{});
  pending_.clear();
  pending_.reserve(depth);
  pending_begin_ = 0;
  if (options_.nonvectored < 0) {
    // fio_ioring_probe(): non-vectored when the kernel has READ and WRITE.
    options_.nonvectored = 0;
    std::unique_ptr<io_uring_probe, void (*)(io_uring_probe*)> probe(
        io_uring_get_probe_ring(&ring_), io_uring_free_probe);
    if (probe && io_uring_opcode_supported(probe.get(), IORING_OP_READ) &&
        io_uring_opcode_supported(probe.get(), IORING_OP_WRITE)) {
      options_.nonvectored = 1;
    }
  }
  if (options_.fixedbufs) {
    const int r =
        io_uring_register_buffers(&ring_, setup_.buffers.data(), depth);
    if (r < 0) {
      Cleanup();
      return Status::FromErrno(
          std::string("io_uring: fixedbufs: registering ") +
              std::to_string(depth) + " buffers" +
              (r == -ENOMEM ? " needs more locked memory (ulimit -l)" : ""),
          -r);
    }
  }
  if (options_.registerfiles) {
    s = RegisterFiles(fd);
    if (!s.ok()) {
      Cleanup();
      return s;
    }
  }
  return Status::Ok();
}

Status IoUringEngine::Queue(IoRequest* req, QueueResult* result) {
  if (!ring_up_) return Status::InvalidArgument("io_uring: Queue before Init");
  if (!enabled_) {
    // The first use: this thread becomes the ring's single issuer.
    // liburing 2.3 declares io_uring_enable_rings() but does not export it.
    if (syscall(__NR_io_uring_register, ring_.ring_fd,
                IORING_REGISTER_ENABLE_RINGS, nullptr, 0) < 0) {
      return Status::FromErrno("io_uring: enabling the ring", errno);
    }
    enabled_ = true;
  }
  if (in_flight_ + queued() >= depth_ || req->index >= depth_) {
    *result = QueueResult::kBusy;
    return Status::Ok();
  }
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) {
    *result = QueueResult::kBusy;
    return Status::Ok();
  }
  int fd = req->fd >= 0 ? req->fd : fd_;
  unsigned sqe_flags = 0;
  if (options_.registerfiles) {
    const int slot = fd >= 0 && static_cast<size_t>(fd) < fixed_index_.size()
                         ? fixed_index_[static_cast<size_t>(fd)]
                         : -1;
    if (slot < 0) {
      return Status::InvalidArgument("io_uring: fd " + std::to_string(fd) +
                                     " is not among the registered files");
    }
    fd = slot;
    sqe_flags |= IOSQE_FIXED_FILE;
  }
  const bool read = req->dir == IoDir::kRead;
  const auto offset = static_cast<__u64>(req->offset);
  if (options_.fixedbufs) {
    const iovec& reg = setup_.buffers[req->index];
    const auto* base = static_cast<const char*>(reg.iov_base);
    const auto* buf = static_cast<const char*>(req->buffer);
    if (buf < base || buf + req->length > base + reg.iov_len) {
      return Status::InvalidArgument("io_uring: fixedbufs: request " +
                                     std::to_string(req->index) +
                                     " is outside its registered buffer");
    }
    if (read) {
      io_uring_prep_read_fixed(sqe, fd, req->buffer, req->length, offset,
                               static_cast<int>(req->index));
    } else {
      io_uring_prep_write_fixed(sqe, fd, req->buffer, req->length, offset,
                                static_cast<int>(req->index));
    }
  } else if (options_.nonvectored == 1) {
    if (read) {
      io_uring_prep_read(sqe, fd, req->buffer, req->length, offset);
    } else {
      io_uring_prep_write(sqe, fd, req->buffer, req->length, offset);
    }
  } else {
    iovec* iov = &iovecs_[req->index];
    iov->iov_base = req->buffer;
    iov->iov_len = req->length;
    if (read) {
      io_uring_prep_readv(sqe, fd, iov, 1, offset);
    } else {
      io_uring_prep_writev(sqe, fd, iov, 1, offset);
    }
  }
  sqe->flags |= static_cast<__u8>(sqe_flags);
  io_uring_sqe_set_data(sqe, req);
  pending_.push_back(req);
  *result = QueueResult::kQueued;
  return Status::Ok();
}

Status IoUringEngine::Commit(uint32_t* submitted) {
  *submitted = 0;
  uint64_t stall_start = 0;
  while (queued() > 0) {
    // fio: io_uring_enter(n, 0, GETEVENTS); with an SQ thread only a
    // wakeup when it sleeps (liburing's io_uring_submit does exactly that).
    const int r = options_.sqthread_poll
                      ? io_uring_submit(&ring_)
                      : io_uring_submit_and_get_events(&ring_);
    if (r >= 0) batch_counts_.Submitted(static_cast<uint32_t>(r));
    if (r > 0) {
      const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(r), queued());
      const uint64_t now = NowNs();
      for (uint32_t i = 0; i < n; ++i)
        pending_[pending_begin_ + i]->issue_ns = now;
      pending_begin_ += n;
      in_flight_ += n;
      *submitted += n;
      stall_start = 0;
      continue;
    }
    if (r == -EINTR) continue;
    if (r == 0 || r == -EAGAIN || r == -EBUSY) {
      // The kernel is full: let the caller reap what is in flight.
      if (in_flight_ > 0) break;
      const uint64_t now = NowNs();
      if (stall_start == 0) stall_start = now;
      if (now - stall_start > kStallLimitNs) {
        return Status::TimedOut(
            "io_uring: io_uring_enter accepted nothing for 30 s");
      }
      usleep(1);
      continue;
    }
    return Status::FromErrno("io_uring: io_uring_enter (submit)", -r);
  }
  if (pending_begin_ == pending_.size()) {
    pending_.clear();
    pending_begin_ = 0;
  }
  return Status::Ok();
}

uint32_t IoUringEngine::TakeCompletions(uint32_t max,
                                        std::vector<IoRequest*>* done) {
  uint32_t n = 0;
  unsigned head;
  io_uring_cqe* cqe;
  io_uring_for_each_cqe(&ring_, head, cqe) {
    if (n == max) break;
    auto* req = static_cast<IoRequest*>(io_uring_cqe_get_data(cqe));
    // res carries bytes transferred or a negative errno.
    req->result = cqe->res;
    done->push_back(req);
    ++n;
  }
  if (n > 0) io_uring_cq_advance(&ring_, n);
  in_flight_ -= n;
  return n;
}

int IoUringEngine::WaitEvents(uint32_t min, uint64_t timeout_ns) {
  if (timeout_ns > 0 && (ring_.features & IORING_FEAT_EXT_ARG) != 0) {
    __kernel_timespec ts{};
    ts.tv_sec = static_cast<int64_t>(timeout_ns / kNsPerSec);
    ts.tv_nsec = static_cast<long long>(timeout_ns % kNsPerSec);
    io_uring_getevents_arg arg{};
    arg.sigmask_sz = _NSIG / 8;
    arg.ts = reinterpret_cast<uint64_t>(&ts);
    return io_uring_enter2(static_cast<unsigned>(ring_.ring_fd), 0, min,
                           IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
                           reinterpret_cast<sigset_t*>(&arg), sizeof(arg));
  }
  return io_uring_enter(static_cast<unsigned>(ring_.ring_fd), 0, min,
                        IORING_ENTER_GETEVENTS, nullptr);
}

Status IoUringEngine::Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
                           std::vector<IoRequest*>* done) {
  if (max == 0 || max > depth_) max = depth_;
  if (min > max) min = max;
  if (min > in_flight_) min = in_flight_;
  const uint64_t deadline = timeout_ns > 0 ? NowNs() + timeout_ns : 0;
  uint32_t got = TakeCompletions(max, done);
  // A poll that found nothing enters once: with DEFER_TASKRUN completions
  // reach the ring only inside io_uring_enter (as fio's getevents).
  bool polled = min > 0 || got > 0;
  while (got < min || !polled) {
    uint64_t left = 0;
    if (deadline != 0) {
      const uint64_t now = NowNs();
      if (now >= deadline) break;
      left = deadline - now;
    }
    const int r = WaitEvents(polled ? min - got : 0, left);
    polled = true;
    if (r == -EINTR || r == -ETIME) break;  // the caller looks at signals
    if (r < 0 && r != -EAGAIN && r != -EBUSY)
      return Status::FromErrno("io_uring: io_uring_enter (getevents)", -r);
    got += TakeCompletions(max - got, done);
  }
  // As libaio: a wait that ended empty is not a reap; a poll that found none
  // is.
  if (got > 0 || min == 0) batch_counts_.Completed(got);
  return Status::Ok();
}

void IoUringEngine::Cleanup() {
  if (ring_up_) {
    // The kernel does not wait for in-flight IO when the ring closes, and
    // the buffers belong to the caller: wait for it here when we may.
    const uint64_t deadline = NowNs() + kCleanupWaitNs;
    while (enabled_ && in_flight_ > 0 && NowNs() < deadline) {
      const int r = WaitEvents(in_flight_, kNsPerSec);
      if (r < 0 && r != -EINTR && r != -ETIME && r != -EAGAIN) break;
      std::vector<IoRequest*> dropped;
      TakeCompletions(depth_, &dropped);
    }
    io_uring_queue_exit(&ring_);
    ring_ = io_uring{};
    ring_up_ = false;
  }
  enabled_ = false;
  in_flight_ = 0;
  pending_.clear();
  pending_begin_ = 0;
  fixed_index_.clear();
}

}  // namespace tierbench
