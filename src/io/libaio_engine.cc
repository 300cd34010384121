#include "io/libaio_engine.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "util/clock.h"
#include "util/units.h"

namespace tierbench {
namespace {

// fio gives up on a queue that accepts nothing for this long.
constexpr uint64_t kStallLimitNs = 30 * kNsPerSec;

}  // namespace

Status LibaioEngine::Init(int fd, uint32_t depth) {
  Cleanup();
  if (depth == 0)
    return Status::InvalidArgument("libaio: iodepth must be >= 1");
  int r = io_setup(static_cast<int>(depth), &ctx_);
  if (r < 0) {
    ctx_ = nullptr;
    return Status::FromErrno("libaio: io_setup(" + std::to_string(depth) +
                                 ") failed (see /proc/sys/fs/aio-max-nr)",
                             -r);
  }
  fd_ = fd;
  depth_ = depth;
  in_flight_ = 0;
  iocbs_.assign(depth, iocb{});
  pending_.assign(depth, nullptr);
  pending_begin_ = pending_end_ = 0;
  events_.assign(depth, io_event{});
  return Status::Ok();
}

Status LibaioEngine::Queue(IoRequest* req, QueueResult* result) {
  if (in_flight_ + queued() >= depth_ || req->index >= depth_) {
    *result = QueueResult::kBusy;
    return Status::Ok();
  }
  iocb* cb = &iocbs_[req->index];
  if (req->dir == IoDir::kRead) {
    io_prep_pread(cb, req->fd >= 0 ? req->fd : fd_, req->buffer, req->length,
                  static_cast<long long>(req->offset));
  } else {
    io_prep_pwrite(cb, req->fd >= 0 ? req->fd : fd_, req->buffer, req->length,
                   static_cast<long long>(req->offset));
  }
  cb->data = req;
  if (pending_end_ == pending_.size()) {
    // Partial submits left a gap at the front: compact (rare).
    std::memmove(pending_.data(), pending_.data() + pending_begin_,
                 queued() * sizeof(iocb*));
    pending_end_ -= pending_begin_;
    pending_begin_ = 0;
  }
  pending_[pending_end_++] = cb;
  *result = QueueResult::kQueued;
  return Status::Ok();
}

Status LibaioEngine::Commit(uint32_t* submitted) {
  *submitted = 0;
  uint64_t stall_start = 0;
  while (pending_begin_ < pending_end_) {
    long nr = static_cast<long>(pending_end_ - pending_begin_);
    int r = io_submit(ctx_, nr, pending_.data() + pending_begin_);
    if (r >= 0) batch_counts_.Submitted(static_cast<uint32_t>(r));
    if (r > 0) {
      uint64_t now = NowNs();
      for (int i = 0; i < r; ++i) {
        static_cast<IoRequest*>(pending_[pending_begin_ + i]->data)->issue_ns =
            now;
      }
      pending_begin_ += static_cast<size_t>(r);
      in_flight_ += static_cast<uint32_t>(r);
      *submitted += static_cast<uint32_t>(r);
      stall_start = 0;
      continue;
    }
    if (r == -EINTR) continue;
    if (r == -EAGAIN || r == -ENOMEM || r == 0) {
      // The kernel is full: let the caller reap what is in flight.
      if (in_flight_ > 0) break;
      uint64_t now = NowNs();
      if (stall_start == 0) stall_start = now;
      if (now - stall_start > kStallLimitNs) {
        return Status::TimedOut(
            "libaio: io_submit accepted nothing for 30 s (aio appears to be "
            "stalled)");
      }
      usleep(1);
      continue;
    }
    return Status::FromErrno("libaio: io_submit", -r);
  }
  if (pending_begin_ == pending_end_) pending_begin_ = pending_end_ = 0;
  return Status::Ok();
}

Status LibaioEngine::Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
                          std::vector<IoRequest*>* done) {
  if (max == 0 || max > depth_) max = depth_;
  if (min > max) min = max;
  if (min > in_flight_) min = in_flight_;
  timespec ts;
  timespec* tsp = nullptr;
  if (min == 0) {
    ts = {0, 0};
    tsp = &ts;
  } else if (timeout_ns > 0) {
    ts.tv_sec = static_cast<time_t>(timeout_ns / kNsPerSec);
    ts.tv_nsec = static_cast<long>(timeout_ns % kNsPerSec);
    tsp = &ts;
  }
  int r = io_getevents(ctx_, min, max, events_.data(), tsp);
  if (r == -EINTR) return Status::Ok();
  if (r < 0) return Status::FromErrno("libaio: io_getevents", -r);
  // fio's libaio getevents waits until `min` arrived, so a wait that timed
  // out empty is not a reap; a poll (min 0) that found none is.
  if (r > 0 || min == 0) batch_counts_.Completed(static_cast<uint32_t>(r));
  for (int i = 0; i < r; ++i) {
    const io_event& ev = events_[i];
    auto* req = static_cast<IoRequest*>(ev.data);
    // res carries bytes transferred or a negative errno.
    req->result = static_cast<int64_t>(static_cast<long>(ev.res));
    done->push_back(req);
  }
  in_flight_ -= static_cast<uint32_t>(r);
  return Status::Ok();
}

void LibaioEngine::Cleanup() {
  if (ctx_ != nullptr) {
    // io_destroy waits for the IOs still in flight.
    io_destroy(ctx_);
    ctx_ = nullptr;
  }
  in_flight_ = 0;
  pending_begin_ = pending_end_ = 0;
}

}  // namespace tierbench
