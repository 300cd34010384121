#include "io/null_engine.h"

namespace tierbench {

Status NullEngine::Init(int /*fd*/, uint32_t /*depth*/) { return Status::Ok(); }

Status NullEngine::Queue(IoRequest* req, QueueResult* result) {
  req->issue_ns = req->start_ns;
  req->result = req->length;
  batch_counts_.Submitted(1);  // fio: engines without commit count 1 and 1
  batch_counts_.Completed(1);
  *result = QueueResult::kCompleted;
  return Status::Ok();
}

Status NullEngine::Commit(uint32_t* submitted) {
  *submitted = 0;
  return Status::Ok();
}

Status NullEngine::Reap(uint32_t /*min*/, uint32_t /*max*/,
                        uint64_t /*timeout_ns*/,
                        std::vector<IoRequest*>* /*done*/) {
  return Status::Ok();
}

}  // namespace tierbench
