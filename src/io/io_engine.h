// IoEngine: how tierbench issues IO, modelled on fio's ioengine_ops.
//
// A job thread owns one engine instance and drives it as:
//   Configure(setup) once, optionally (engine options, files, buffers);
//   Init(fd, depth) once;
//   repeatedly: Queue(req) for each prepared request (kQueued/kBusy/
//   kCompleted), Commit() to submit what is queued, Reap(min, max, timeout,
//   out) to collect completions;
//   Cleanup() once (also called by the destructor).
// Synchronous engines (psync, null) complete inside Queue() and return
// kCompleted; the caller then records the completion itself.
// Every engine counts its submit and reap batches in batch_counts() (fio's
// "submit" / "complete" distributions, io/io_batch_counts.h): asynchronous
// engines per io_submit()/io_getevents() call, synchronous ones 1 and 1
// per IO, as fio's td_io_queue() does for engines without ->commit.
//
// Engines are registered by name in EngineRegistry (io/engine_registry.h) and
// found by the job's ioengine= value. Instances are not thread-safe: one per
// job thread.
#ifndef TIERBENCH_IO_IO_ENGINE_H_
#define TIERBENCH_IO_IO_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/engine_options.h"
#include "io/io_batch_counts.h"
#include "util/io_dir.h"
#include "util/status.h"

namespace tierbench {

// One IO, fio's io_u. The runner owns the requests (a fixed pool of `depth`
// per job thread) and their aligned buffers.
struct IoRequest {
  IoDir dir = IoDir::kRead;
  uint64_t offset = 0;
  uint32_t length = 0;
  void* buffer = nullptr;
  uint64_t start_ns = 0;        // prepared (fio's start_time)
  uint64_t issue_ns = 0;        // handed to the kernel (fio's issue_time)
  int64_t result = 0;           // bytes transferred, or -errno
  uint32_t index = 0;           // position in the runner's pool
  int fd = -1;                  // file of this IO; -1: the fd given to Init
  void* engine_data = nullptr;  // owned by the engine
};

enum class QueueResult { kQueued, kBusy, kCompleted };

class IoEngine {
 public:
  virtual ~IoEngine() = default;

  // Registered name ("libaio", "psync", "null").
  virtual const char* name() const = 0;

  // Takes the engine options and the job's files and buffers before Init()
  // (io/engine_options.h). Engines without options keep this no-op. A
  // non-OK Status names the option that cannot be honoured.
  virtual Status Configure(const EngineSetup& setup) {
    (void)setup;
    return Status::Ok();
  }

  // Prepares for IO on `fd` with at most `depth` requests in flight.
  virtual Status Init(int fd, uint32_t depth) = 0;

  // Takes one prepared request. kQueued: held until Commit(); kBusy: the
  // engine is full, reap first; kCompleted: done synchronously (req->result
  // and req->issue_ns are set). A non-OK Status is an engine failure.
  virtual Status Queue(IoRequest* req, QueueResult* result) = 0;

  // Submits everything queued. Sets issue_ns on each submitted request.
  // *submitted receives how many were handed to the kernel.
  virtual Status Commit(uint32_t* submitted) = 0;

  // Waits for at least `min` (0 = poll) and at most `max` completions, or
  // until `timeout_ns` passes (0 = no timeout). Appends completed requests
  // (result set) to *done.
  virtual Status Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
                      std::vector<IoRequest*>* done) = 0;

  // Releases kernel resources. Safe to call twice.
  virtual void Cleanup() = 0;

  // The submit/complete batch sizes counted so far (see above); the owner
  // may Clear() them.
  IoBatchCounts& batch_counts() { return batch_counts_; }

 protected:
  IoBatchCounts batch_counts_;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_IO_ENGINE_H_
