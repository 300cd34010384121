// NullEngine ("null"): pretends to do IO. Every request completes inside
// Queue() with its full length and no system call, as fio's engines/null.c;
// its purpose is to test and time the harness itself (queue loop, pattern
// generation, statistics) without a device.
#ifndef TIERBENCH_IO_NULL_ENGINE_H_
#define TIERBENCH_IO_NULL_ENGINE_H_

#include "io/io_engine.h"

namespace tierbench {

class NullEngine : public IoEngine {
 public:
  const char* name() const override { return "null"; }
  Status Init(int fd, uint32_t depth) override;
  Status Queue(IoRequest* req, QueueResult* result) override;
  Status Commit(uint32_t* submitted) override;
  Status Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
              std::vector<IoRequest*>* done) override;
  void Cleanup() override {}
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_NULL_ENGINE_H_
