// PsyncEngine ("psync"): synchronous pread(2)/pwrite(2), fio's default
// engine on Linux. Each request is done inside Queue(), which returns
// kCompleted with req->result = bytes transferred or -errno; the effective
// IO depth is therefore always 1.
#ifndef TIERBENCH_IO_PSYNC_ENGINE_H_
#define TIERBENCH_IO_PSYNC_ENGINE_H_

#include "io/io_engine.h"

namespace tierbench {

class PsyncEngine : public IoEngine {
 public:
  const char* name() const override { return "psync"; }
  Status Init(int fd, uint32_t depth) override;
  Status Queue(IoRequest* req, QueueResult* result) override;
  Status Commit(uint32_t* submitted) override;
  Status Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
              std::vector<IoRequest*>* done) override;
  void Cleanup() override {}

 private:
  int fd_ = -1;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_PSYNC_ENGINE_H_
