// Verifier: one clone's fio-style data verification (verify=, see
// workload/verify_spec.h), driven by JobThread at four points:
//
//  - FillWrite() before a write is queued: header + payload into the
//    request's buffer (workload/verify_block.h), numbered as fio numbers
//    writes (numberio = writes logged so far);
//  - LogWrite() once the engine accepted it: the block goes into the write
//    log (fio's log_io_piece(): only when do_verify=1). With a random map
//    (uniform, all-random IO of one write size, so no block is written twice
//    in a pass) the log keeps issue order (fio's io_hist_list); otherwise it
//    is sorted by file and offset and a newer write replaces the blocks it
//    overlaps (fio's io_hist_tree);
//  - TakeBacklog() / TakePiece() when picking the next IO: a read of the
//    oldest (or lowest) logged block, as fio's get_next_verify(); the
//    backlog rule is fio's check_get_verify(): when the log holds a
//    multiple of verify_backlog blocks (and the last IO was not a read) a
//    batch of verify_backlog_batch (default verify_backlog) reads follows;
//  - Complete() for every completion: a write leaves the log's "in flight"
//    state (or the log, when it failed); a verify read, and any read of a
//    job that does not write, is checked. For logged blocks the header's
//    rand_seed is checked, and numberio too when fio checks it (a writing
//    job with one fixed block size, not time_based, not verify_only).
//
// Mismatches print fio's diagnostic lines on stderr (one set per bad
// interval) and count into errors(). ioengine=null is not checked (fio's
// FIO_FAKEIO). Not thread-safe: it belongs to its JobThread.
#ifndef TIERBENCH_WORKLOAD_VERIFIER_H_
#define TIERBENCH_WORKLOAD_VERIFIER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/io_engine.h"
#include "util/rng.h"
#include "workload/job_spec.h"
#include "workload/verify_block.h"

namespace tierbench {

class Verifier {
 public:
  // `depth`: the clone's request pool size (IoRequest::index < depth).
  Verifier(const JobSpec& spec, uint32_t clone_index, uint64_t seed,
           uint32_t depth);

  // A write about to be queued: fills req->buffer.
  void FillWrite(IoRequest* req);
  // The write `req` (on `file`) was accepted by the engine.
  void LogWrite(const IoRequest& req, size_t file);
  // verify_only: a write the job would have issued (no IO is done).
  void LogDryWrite(size_t file, uint64_t offset, uint32_t length);

  // A backlog verify read is due: fills the block to read. `last_dir`: the
  // direction of the job's previous IO.
  bool TakeBacklog(IoDir last_dir, size_t* file, uint64_t* offset,
                   uint32_t* length);
  // The verify phase after a write pass: the next logged block, false when
  // the log is empty (or its first block is still in flight).
  bool TakePiece(size_t* file, uint64_t* offset, uint32_t* length);
  // Marks request `index` as the verify read of the block just taken.
  void MarkVerifyRead(uint32_t index);
  // True when a verify phase follows the write pass (do_verify=1, the job
  // writes and blocks are logged).
  bool PhaseWanted() const;

  // A completion. `ok`: the whole transfer succeeded. Returns the number of
  // bad intervals found (0 for writes and good reads); prints diagnostics.
  uint32_t Complete(IoRequest* req, const std::string& path, bool ok);

  uint64_t errors() const { return errors_; }
  uint64_t blocks_verified() const { return verified_; }
  const std::string& first_failure() const { return first_failure_; }

 private:
  struct Piece {
    uint64_t length = 0;
    uint64_t seed = 0;
    uint16_t numberio = 0;
    bool in_flight = false;
    bool seed_known = false;
    size_t file = 0;
    uint64_t offset = 0;
  };
  using Key = std::pair<uint64_t, uint64_t>;  // (file, offset) or (0, seq)
  struct ReqInfo {
    bool verify_read = false;
    bool logged = false;
    Key key{0, 0};
    uint16_t numberio = 0;
    uint64_t seed = 0;
    // Filled when the read is taken from the log.
    bool check_seed = false;
    uint64_t expect_seed = 0;
    bool check_numberio = false;
    uint16_t expect_numberio = 0;
  };

  void Log(size_t file, uint64_t offset, uint32_t length, uint64_t seed,
           bool seed_known, bool in_flight, ReqInfo* info);
  bool Take(size_t* file, uint64_t* offset, uint32_t* length, ReqInfo* next);

  const JobSpec& spec_;
  VerifySpec vs_;
  bool list_order_ = false;  // random map: verify in issue order
  bool log_writes_ = false;  // do_verify=1 and the job writes
  bool check_reads_ = false;
  bool check_numberio_ = false;
  uint16_t thread_ = 1;
  Rng rng_;
  uint64_t writes_logged_ = 0;  // fio's io_issues[DDIR_WRITE]
  uint64_t seq_ = 0;
  uint64_t batch_left_ = 0;
  std::map<Key, Piece> log_;
  std::vector<ReqInfo> reqs_;
  ReqInfo taken_;  // what the last Take() returned, until MarkVerifyRead
  uint64_t errors_ = 0;
  uint64_t verified_ = 0;
  std::string first_failure_;
};

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_VERIFIER_H_
