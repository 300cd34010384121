// LibaioEngine ("libaio"): Linux native asynchronous IO through libaio, with
// fio's batching (engines/libaio.c):
//  - Queue() only puts the request's iocb in a userspace list; it returns
//    kBusy when queued + in flight would exceed the depth;
//  - Commit() calls io_submit() in a loop until the list is empty, advancing
//    over partial submits; -EAGAIN (or -ENOMEM) with IOs in flight stops the
//    loop so the caller reaps first, with nothing in flight it retries after
//    usleep(1) for up to 30 s ("aio appears to be stalled"); issue_ns is set
//    once per successful io_submit() batch, as fio does;
//  - Reap() is io_getevents(min, max, timeout); an interrupted wait returns
//    what it has (possibly nothing) so the caller can poll for signals.
// Without O_DIRECT the kernel does most IO synchronously inside io_submit(),
// so the requested depth is not reached (as with fio).
#ifndef TIERBENCH_IO_LIBAIO_ENGINE_H_
#define TIERBENCH_IO_LIBAIO_ENGINE_H_

#include <libaio.h>

#include <vector>

#include "io/io_engine.h"

namespace tierbench {

class LibaioEngine : public IoEngine {
 public:
  LibaioEngine() = default;
  ~LibaioEngine() override { Cleanup(); }
  LibaioEngine(const LibaioEngine&) = delete;
  LibaioEngine& operator=(const LibaioEngine&) = delete;

  const char* name() const override { return "libaio"; }
  // Creates the kernel AIO context (io_setup) for `depth` requests. The
  // requests passed later must have index < depth.
  Status Init(int fd, uint32_t depth) override;
  Status Queue(IoRequest* req, QueueResult* result) override;
  Status Commit(uint32_t* submitted) override;
  Status Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
              std::vector<IoRequest*>* done) override;
  void Cleanup() override;

  // Requests handed to the kernel and not yet reaped.
  uint32_t in_flight() const { return in_flight_; }
  // Requests queued and not yet submitted.
  uint32_t queued() const {
    return static_cast<uint32_t>(pending_end_ - pending_begin_);
  }

 private:
  io_context_t ctx_ = nullptr;
  int fd_ = -1;
  uint32_t depth_ = 0;
  uint32_t in_flight_ = 0;
  std::vector<iocb> iocbs_;     // one per request index
  std::vector<iocb*> pending_;  // queued, not submitted: [begin, end)
  size_t pending_begin_ = 0;
  size_t pending_end_ = 0;
  std::vector<io_event> events_;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_LIBAIO_ENGINE_H_
