// One clone's data verification (see the header).
#include "workload/verifier.h"

#include <time.h>

#include <iostream>
#include <mutex>

#include "util/log.h"

namespace tierbench {
namespace {

// Diagnostics of all clones go to stderr whole lines at a time.
void PrintLines(const std::vector<std::string>& lines) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  ClearProgressLine();
  for (const std::string& l : lines) std::cerr << l << "\n";
  std::cerr.flush();
}

bool FixedBlockSize(const JobSpec& s) {
  for (int d = 0; d < kNumDirs; ++d) {
    if (!s.bs[d].split.empty() && s.bs[d].split.size() > 1) return false;
    if (s.bs[d].min != s.bs[d].max) return false;
  }
  return s.bs[0].max == s.bs[1].max;
}

}  // namespace

Verifier::Verifier(const JobSpec& spec, uint32_t clone_index, uint64_t seed,
                   uint32_t depth)
    : spec_(spec),
      vs_(spec.verify),
      rng_(Rng::Mix64(seed ^ 0x766572696679ULL)) {  // "verify"
  const bool writes = PatternWrites(spec.rw);
  // fio keeps issue order when its random map guarantees one write per
  // block per pass; tierbench's map does so for uniform, all-random IO of
  // one write size (else blocks may overlap and the sorted log drops them).
  list_order_ = PatternIsRandom(spec.rw) && !spec.norandommap &&
                spec.random_distribution.IsUniform() &&
                spec.percentage_random == 100 && spec.bs[1].split.empty() &&
                spec.bs[1].min == spec.bs[1].max;
  log_writes_ = writes && vs_.do_verify;
  check_reads_ = spec.ioengine != "null";
  // fio's verify_header(): numberio is known only to a writing job with one
  // block size that is not time_based, and not under verify_only.
  check_numberio_ =
      writes && FixedBlockSize(spec) && !spec.time_based && !vs_.verify_only;
  thread_ = static_cast<uint16_t>(clone_index + 1);
  reqs_.resize(depth);
}

void Verifier::FillWrite(IoRequest* req) {
  VerifyStamp stamp;
  stamp.rand_seed = vs_.pattern.empty() ? rng_.Next() : 0;
  stamp.thread = thread_;
  stamp.numberio = static_cast<uint16_t>(writes_logged_);
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  stamp.time_sec = static_cast<uint32_t>(ts.tv_sec);
  stamp.time_nsec = static_cast<uint32_t>(ts.tv_nsec);
  FillVerifyBlock(vs_, static_cast<uint8_t*>(req->buffer), req->length,
                  req->offset, stamp);
  ReqInfo& info = reqs_[req->index];
  info = ReqInfo();
  info.numberio = stamp.numberio;
  info.seed = stamp.rand_seed;
}

void Verifier::LogWrite(const IoRequest& req, size_t file) {
  ReqInfo& info = reqs_[req.index];
  ++writes_logged_;
  if (!log_writes_) return;
  Log(file, req.offset, req.length, info.seed, true, true, &info);
}

void Verifier::LogDryWrite(size_t file, uint64_t offset, uint32_t length) {
  ReqInfo info;
  info.numberio = static_cast<uint16_t>(writes_logged_++);
  if (log_writes_) Log(file, offset, length, 0, false, false, &info);
}

void Verifier::Log(size_t file, uint64_t offset, uint32_t length, uint64_t seed,
                   bool seed_known, bool in_flight, ReqInfo* info) {
  Piece p;
  p.length = length;
  p.seed = seed;
  p.seed_known = seed_known;
  p.numberio = info->numberio;
  p.in_flight = in_flight;
  p.file = file;
  p.offset = offset;
  Key key;
  if (list_order_) {
    key = Key(0, seq_++);
  } else {
    key = Key(file, offset);
    // fio's io_hist_tree: a newer write drops the blocks it overlaps.
    auto it = log_.lower_bound(key);
    if (it != log_.begin()) {
      auto prev = std::prev(it);
      if (prev->first.first == file &&
          prev->second.offset + prev->second.length > offset) {
        log_.erase(prev);
      }
    }
    while (it != log_.end() && it->first.first == file &&
           it->first.second < offset + length) {
      it = log_.erase(it);
    }
  }
  log_[key] = p;
  info->logged = true;
  info->key = key;
}

bool Verifier::Take(size_t* file, uint64_t* offset, uint32_t* length,
                    ReqInfo* next) {
  if (log_.empty()) return false;
  auto it = log_.begin();
  if (it->second.in_flight) return false;  // fio: "nothing" for now
  const Piece& p = it->second;
  *file = p.file;
  *offset = p.offset;
  *length = static_cast<uint32_t>(p.length);
  *next = ReqInfo();
  next->verify_read = true;
  next->check_seed = p.seed_known;
  next->expect_seed = p.seed;
  next->check_numberio = check_numberio_;
  next->expect_numberio = p.numberio;
  log_.erase(it);
  return true;
}

bool Verifier::TakeBacklog(IoDir last_dir, size_t* file, uint64_t* offset,
                           uint32_t* length) {
  if (vs_.backlog == 0 || log_.empty()) return false;
  bool get = batch_left_ > 0;
  if (!get && log_.size() % vs_.backlog == 0 && last_dir != IoDir::kRead) {
    batch_left_ = vs_.backlog_batch != 0 ? vs_.backlog_batch : vs_.backlog;
    get = true;
  }
  if (get && Take(file, offset, length, &taken_)) {
    --batch_left_;
    return true;
  }
  return false;
}

bool Verifier::TakePiece(size_t* file, uint64_t* offset, uint32_t* length) {
  return Take(file, offset, length, &taken_);
}

void Verifier::MarkVerifyRead(uint32_t index) {
  reqs_[index] = taken_;
  reqs_[index].verify_read = true;
}

bool Verifier::PhaseWanted() const { return log_writes_ && !log_.empty(); }

uint32_t Verifier::Complete(IoRequest* req, const std::string& path, bool ok) {
  ReqInfo& info = reqs_[req->index];
  if (req->dir == IoDir::kWrite) {
    if (info.logged) {
      auto it = log_.find(info.key);
      if (it != log_.end() && it->second.numberio == info.numberio) {
        if (ok) {
          it->second.in_flight = false;
        } else {
          log_.erase(it);  // fio's unlog_io_piece()
        }
      }
    }
    info = ReqInfo();
    return 0;
  }
  const bool verify_read = info.verify_read;
  const ReqInfo taken = info;
  info = ReqInfo();
  // A writing job checks only the reads of its log (fio: td_rw jobs verify
  // the IO_U_F_VER_LIST reads; a job that does not write checks them all).
  if (!ok || !check_reads_) return 0;
  if (!verify_read && PatternWrites(spec_.rw)) return 0;
  VerifyExpect expect;
  expect.check_seed = taken.check_seed;
  expect.rand_seed = taken.expect_seed;
  expect.check_numberio = taken.check_numberio;
  expect.numberio = taken.expect_numberio;
  std::vector<std::string> lines;
  const uint32_t bad =
      CheckVerifyBlock(vs_, static_cast<uint8_t*>(req->buffer), req->length,
                       req->offset, path, expect, &lines);
  ++verified_;
  if (bad == 0) return 0;
  errors_ += bad;
  if (first_failure_.empty()) {
    for (const std::string& l : lines) {
      if (l.find(" at file ") != std::string::npos) {
        first_failure_ = l;
        break;
      }
    }
  }
  PrintLines(lines);
  return bad;
}

}  // namespace tierbench
