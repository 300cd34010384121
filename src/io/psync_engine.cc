#include "io/psync_engine.h"

#include <unistd.h>

#include <cerrno>

#include "util/clock.h"

namespace tierbench {

Status PsyncEngine::Init(int fd, uint32_t /*depth*/) {
  if (fd < 0) return Status::InvalidArgument("psync: no open file");
  fd_ = fd;
  return Status::Ok();
}

Status PsyncEngine::Queue(IoRequest* req, QueueResult* result) {
  // fio takes the issue time just before a synchronous engine's queue().
  req->issue_ns = NowNs();
  ssize_t r;
  do {
    r = req->dir == IoDir::kRead
            ? pread(req->fd >= 0 ? req->fd : fd_, req->buffer, req->length,
                    static_cast<off_t>(req->offset))
            : pwrite(req->fd >= 0 ? req->fd : fd_, req->buffer, req->length,
                     static_cast<off_t>(req->offset));
  } while (r < 0 && errno == EINTR);
  req->result = r < 0 ? -errno : r;
  batch_counts_.Submitted(1);  // fio: engines without commit count 1 and 1
  batch_counts_.Completed(1);
  *result = QueueResult::kCompleted;
  return Status::Ok();
}

Status PsyncEngine::Commit(uint32_t* submitted) {
  *submitted = 0;
  return Status::Ok();
}

Status PsyncEngine::Reap(uint32_t /*min*/, uint32_t /*max*/,
                         uint64_t /*timeout_ns*/,
                         std::vector<IoRequest*>* /*done*/) {
  return Status::Ok();
}

}  // namespace tierbench
