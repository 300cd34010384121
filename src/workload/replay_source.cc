// read_iolog= replay (workload/replay_source.h): fio's read_iolog_get() and
// delay_since_ttime() over a parsed IoLog.
#include "workload/replay_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/errors.h"
#include "util/rng.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr uint64_t kRepeatableSeed = 0xb1899bedULL;  // fio's FIO_RANDSEED

std::string JobLabel(const JobSpec& spec) {
  return "Job: " + spec.name +
         (spec.origin.empty() ? "" : " (" + spec.origin + ")");
}

}  // namespace

ReplaySource::ReplaySource(std::shared_ptr<const IoLog> log,
                           const JobSpec& spec, uint32_t clone_index)
    : log_(std::move(log)),
      no_stall_(spec.replay_no_stall),
      time_scale_(std::max<uint32_t>(1, spec.replay_time_scale)),
      seed_(Rng::Mix64((spec.randseed_set ? spec.randseed : kRepeatableSeed) +
                       0x9e3779b97f4a7c15ULL * (clone_index + 1))) {}

uint64_t ReplaySource::DelaySince(uint64_t time_us) const {
  if (last_time_us_ == 0 || no_stall_ || time_us < last_time_us_) return 0;
  if (time_scale_ == 100) return time_us - last_time_us_;
  const double scale = 100.0 / static_cast<double>(time_scale_);
  return static_cast<uint64_t>(static_cast<double>(time_us - last_time_us_) *
                               scale);
}

bool ReplaySource::Next(IoDir* dir, uint64_t* offset, uint32_t* length) {
  uint64_t delay_us = 0;
  while (position_ < log_->entries.size()) {
    const IoLogEntry& e = log_->entries[position_++];
    if (log_->version == 3) {
      delay_us += DelaySince(e.time_us);
      last_time_us_ = e.time_us;
    }
    switch (e.action) {
      case IoLogAction::kRead:
      case IoLogAction::kWrite:
        *dir = e.action == IoLogAction::kRead ? IoDir::kRead : IoDir::kWrite;
        *offset = e.offset;
        *length = e.length;
        timing_.delay_ns = delay_us * kNsPerUs;
        timing_.not_before_ns = not_before_ns_;
        return true;
      case IoLogAction::kWait:
        if (!no_stall_)
          not_before_ns_ = std::max(not_before_ns_, e.offset * kNsPerMs);
        break;
      case IoLogAction::kAdd:
      case IoLogAction::kOpen:
      case IoLogAction::kClose:
      case IoLogAction::kSkipped:
        break;
    }
  }
  return false;
}

std::shared_ptr<const IoLog> PrepareReplayJob(
    JobSpec* spec, std::vector<std::string>* notices) {
  if (spec->read_iolog != "-" &&
      ::access(spec->read_iolog.c_str(), R_OK) != 0) {
    throw ConfigError("Cannot read the trace of read_iolog=. " +
                      JobLabel(*spec) + "; Path: " + spec->read_iolog +
                      "; SysErr: " + std::strerror(errno) +
                      ". Fix: check the path (a relative path starts in the "
                      "current directory, as in fio)");
  }
  auto log = std::make_shared<IoLog>(LoadIoLog(spec->read_iolog));
  if (!spec->replay_redirected) {
    if (log->files.size() != 1) {
      std::string names;
      for (const std::string& f : log->files)
        names += (names.empty() ? "" : ", ") + f;
      throw ConfigError(log->path + ": the trace replays onto " +
                        std::to_string(log->files.size()) + " files (" + names +
                        "); tierbench runs one file per job. " +
                        JobLabel(*spec) +
                        "; Fix: set replay_redirect=<device or file> (or "
                        "pass --filename) to replay them onto one target");
    }
    uint32_t add_line = 1;
    for (const IoLogEntry& e : log->entries) {
      if (e.action == IoLogAction::kAdd) {
        add_line = e.line;
        break;
      }
    }
    struct stat st;
    if (::stat(log->files[0].c_str(), &st) != 0) {
      throw ConfigError(log->Where(add_line) + ": the trace replays onto " +
                        log->files[0] + ", which does not exist. " +
                        JobLabel(*spec) +
                        "; Fix: set replay_redirect=<device or file> (or pass "
                        "--filename) to replay it onto an existing target");
    }
    spec->filename = log->files[0];
  }
  const bool reads = log->ios[0] > 0;
  const bool writes = log->ios[1] > 0;
  spec->rw = reads && writes ? RwPattern::kReadWrite
             : reads         ? RwPattern::kRead
                             : RwPattern::kWrite;
  spec->rwmixread = static_cast<uint32_t>(
      (log->ios[0] * 100 + (log->ios[0] + log->ios[1]) / 2) /
      (log->ios[0] + log->ios[1]));
  for (int d = 0; d < kNumDirs; ++d) {
    if (log->ios[d] == 0) continue;
    spec->bs[d] = BlockSizeSpec{log->min_length[d], log->max_length[d], {}};
    spec->blockalign[d] = 0;
  }
  spec->size = SizeSpec{true, false, log->bytes[0] + log->bytes[1], 0};
  spec->offset = SizeSpec{};
  if (log->skipped > 0) {
    notices->push_back(log->path + ": " + std::to_string(log->skipped) +
                       " sync/datasync/trim entries are not replayed "
                       "(tierbench replays reads and writes); their "
                       "timestamps still count");
  }
  return log;
}

void CheckReplayFits(const IoLog& log, const JobSpec& spec,
                     uint64_t target_bytes, uint64_t logical_block_size) {
  if (log.extent > target_bytes) {
    throw ConfigError(
        log.Where(log.extent_line) + ": the trace's IO reaches byte " +
        std::to_string(log.extent) + " (" + FormatBytes(log.extent) +
        "), past the end of " + spec.filename + " (" +
        std::to_string(target_bytes) + " bytes). " + JobLabel(spec) +
        "; Fix: replay onto a target of at least " + FormatBytes(log.extent) +
        " with replay_redirect=<device or file> (or --filename)");
  }
  if (!spec.direct || logical_block_size <= 1) return;
  for (const IoLogEntry& e : log.entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    if (e.offset % logical_block_size == 0 &&
        e.length % logical_block_size == 0)
      continue;
    throw ConfigError(
        log.Where(e.line) + ": offset " + std::to_string(e.offset) +
        " / length " + std::to_string(e.length) +
        " is not a multiple of the logical block size of " + spec.filename +
        " (" + std::to_string(logical_block_size) + ") but direct=1. " +
        JobLabel(spec) + "; Fix: replay with direct=0");
  }
}

}  // namespace tierbench
