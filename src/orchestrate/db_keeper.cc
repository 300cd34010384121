#include "orchestrate/db_keeper.h"

#include <exception>
#include <string>

#include "util/log.h"

namespace tierbench {

DbKeeper::~DbKeeper() { Close(); }

bool DbKeeper::Holds(size_t workload, const std::string& target) const {
  return session_ != nullptr && session_->healthy() && workload_ == workload &&
         session_->device() == target;
}

void DbKeeper::Prepare(size_t workload, const DbWorkload& w,
                       const std::string& target, const DbCellOptions& opts) {
  if (Holds(workload, target)) return;
  Close();
  session_ = DbSession::Create(w, target, opts);
  workload_ = workload;
}

JobResult DbKeeper::Run(size_t workload, const DbWorkload& w,
                        const std::string& target, const DbCellOptions& opts,
                        DbCellInfo* info) {
  try {
    Prepare(workload, w, target, opts);
    return session_->Run(opts, info);
  } catch (...) {
    Close();  // its state is unknown: the next DB cell makes a new one
    throw;
  }
}

void DbKeeper::KeepOnlyFor(size_t workload, const std::string& target,
                           bool is_db) {
  if (session_ != nullptr && !(is_db && Holds(workload, target))) Close();
}

void DbKeeper::Close() noexcept {
  if (session_ == nullptr) return;
  try {
    LogNotice("closing the database on " + session_->device() + " (" +
              std::to_string(session_->runs()) + " cells ran on it)");
  } catch (...) {
  }
  session_.reset();  // ~DbSession never throws
}

}  // namespace tierbench
