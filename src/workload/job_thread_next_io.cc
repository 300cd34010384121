// JobThread (workload/job_thread.h): where the clone's next IO comes from.
// The file of each IO (file_service_type), the passes over the files'
// regions (loops, io_size, number_ios: fio's keep_running()), the verify
// reads of verify= with their phase after a write pass, and the fsync= /
// fdatasync= syncs due after every Nth write. The queue loop that issues
// what these draw is in job_thread.cc.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "workload/job_thread.h"

namespace tierbench {

bool JobThread::DrawIo(IoDir* dir, uint64_t* offset, uint32_t* length,
                       size_t* file, bool* verify) {
  *verify = false;
  if (!verifier_) return NextIo(dir, offset, length, file);
  const bool dry = spec_.verify.verify_only && PatternWrites(spec_.rw);
  while (issuing_) {
    if (verify_phase_) {
      if (verifier_->TakePiece(file, offset, length)) {
        *dir = IoDir::kRead;
        *verify = true;
        return true;
      }
      verify_phase_ = false;
      verify_phase_done_ = true;
    }
    if (verifier_->TakeBacklog(last_dir_, file, offset, length)) {
      *dir = IoDir::kRead;
      *verify = true;
      return true;
    }
    if (NextIo(dir, offset, length, file)) {
      if (!dry) return true;
      // verify_only: fio's do_dry_run() logs the writes without doing IO.
      if (*dir == IoDir::kWrite)
        verifier_->LogDryWrite(*file, *offset, *length);
      continue;
    }
    if (!verify_phase_due_) return false;
    verify_phase_due_ = false;
    if (!StartVerifyPhase()) return false;
    verify_phase_ = true;
  }
  return false;
}

bool JobThread::StartVerifyPhase() {
  Drain();
  if (engine_failed_ || !result_.error.empty()) return false;
  // fio's do_verify(): sync the files and invalidate their cached pages so
  // the reads come from the device.
  for (size_t f = 0; f < files_.size(); ++f) {
    if (files_[f].fd < 0) continue;
    if (!spec_.direct && !SyncFile(f, false)) return false;
    (void)posix_fadvise(files_[f].fd, 0, 0, POSIX_FADV_DONTNEED);
  }
  return true;
}

void JobThread::VerifyFailed() {
  const VerifySpec& v = spec_.verify;
  if (v.continue_on_error && !v.fatal && issuing_) return;  // counted only
  if (!result_.error.empty()) {
    issuing_ = false;
    return;
  }
  result_.error_fix =
      "the data read back differs from what was written; check the device "
      "and its cache (dmesg), and that no other writer shares the region";
  const uint64_t n = verifier_->errors();
  Fail("verify failed, err=84 (EILSEQ), " + std::to_string(n) +
       " bad block interval" + (n == 1 ? "" : "s") +
       "; first: " + verifier_->first_failure());
}

bool JobThread::NextIo(IoDir* dir, uint64_t* offset, uint32_t* length,
                       size_t* file) {
  // At most one pass ends per call: a fresh pass always yields an IO.
  for (int round = 0; round < 2; ++round) {
    if (PassDone()) {
      // verify=: the write pass is followed by its verify phase first.
      if (verifier_ && !verify_phase_done_ && verifier_->PhaseWanted()) {
        verify_phase_due_ = true;
        return false;
      }
      verify_phase_done_ = false;
      if (!StartNextPass()) return false;
    }
    for (size_t attempt = 0; attempt < files_.size(); ++attempt) {
      const size_t f = PickFile();
      if (files_[f].source->Next(dir, offset, length)) {
        *file = f;
        pass_bytes_ += *length;
        total_bytes_ += *length;
        ++pass_ios_;
        ++issued_ios_;
        ++ios_on_file_;
        return true;
      }
      files_[f].exhausted = true;  // PickFile() skips it from now on
    }
  }
  return false;
}

bool JobThread::PassDone() const {
  // A replay's budget is its reads and writes: without io_size= it ends
  // with the trace, so the syncs after its last write are replayed too.
  if (pass_bytes_ >= pass_budget_ && (!replaying_ || spec_.io_size > 0))
    return true;
  if (spec_.number_ios > 0 && pass_ios_ >= spec_.number_ios) return true;
  return std::all_of(files_.begin(), files_.end(),
                     [](const Slot& s) { return s.exhausted; });
}

// fio's keep_running(): time_based always goes on; otherwise `loops` passes,
// then more while the bytes stay below io_size (size) and the IOs below
// number_ios * loops.
bool JobThread::StartNextPass() {
  ++passes_;
  const uint64_t loops = std::max<uint32_t>(1, spec_.loops);
  bool more = spec_.time_based || passes_ < loops;
  if (!more) {
    const bool ios_done =
        spec_.number_ios > 0 && issued_ios_ >= spec_.number_ios * loops;
    more = !ios_done && total_bytes_ < total_target_;
  }
  if (more) RewindAll();
  return more;
}

size_t JobThread::PickFile() {
  const size_t n = files_.size();
  if (n == 1) return 0;
  const bool switch_due = spec_.file_service != FileService::kSequential &&
                          ios_on_file_ >= spec_.file_service_nr;
  if (!switch_due && !files_[current_file_].exhausted) return current_file_;
  ios_on_file_ = 0;
  if (spec_.file_service == FileService::kRandom) {
    size_t pick = static_cast<size_t>(file_rng_.Uniform(n));
    for (size_t i = 0; i < n && files_[pick].exhausted; ++i)
      pick = (pick + 1) % n;
    current_file_ = pick;
    return current_file_;
  }
  for (size_t i = 1; i <= n; ++i) {
    const size_t next = (current_file_ + i) % n;
    if (!files_[next].exhausted) {
      current_file_ = next;
      break;
    }
  }
  return current_file_;
}

void JobThread::RewindAll() {
  for (Slot& s : files_) {
    s.source->Rewind();
    s.exhausted = false;
  }
  pass_bytes_ = 0;
  pass_ios_ = 0;
  current_file_ = 0;
  ios_on_file_ = 0;
}

void JobThread::SyncAfterWrite(size_t file) {
  ++writes_issued_;
  fsync_due_ =
      spec_.fsync_blocks > 0 && writes_issued_ % spec_.fsync_blocks == 0;
  fdatasync_due_ = spec_.fdatasync_blocks > 0 &&
                   writes_issued_ % spec_.fdatasync_blocks == 0;
  sync_due_ = fsync_due_ || fdatasync_due_;
  sync_file_ = file;
}

bool JobThread::SyncFile(size_t file, bool data_only) {
  const int fd = files_[file].fd;
  if (fd < 0) return false;  // ioengine=null: nothing to sync
  const int r = data_only ? fdatasync(fd) : fsync(fd);
  if (r != 0) {
    Fail(std::string(data_only ? "fdatasync" : "fsync") + " of " +
         files_[file].path + " failed: " + std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace tierbench
