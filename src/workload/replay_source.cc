// read_iolog= replay (workload/replay_source.h): fio's read_iolog_get() and
// delay_since_ttime() over a parsed IoLog.
#include "workload/replay_source.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "tracefile/trace_reader.h"
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

void ReplaySource::Advance(uint64_t time_us) {
  if (have_time_ && time_us > last_time_us_)
    trace_us_ += time_us - last_time_us_;
  // Backwards in time: the IO is due with the previous one.
  if (!have_time_ || time_us > last_time_us_) last_time_us_ = time_us;
  have_time_ = true;
}

uint64_t ReplayDueNs(uint64_t trace_us, uint32_t time_scale) {
  const unsigned __int128 ns = static_cast<unsigned __int128>(trace_us) *
                               kNsPerUs * 100 /
                               std::max<uint32_t>(1, time_scale);
  return ns > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(ns);
}

bool ReplaySource::Next(IoDir* dir, uint64_t* offset, uint32_t* length) {
  while (position_ < log_->entries.size()) {
    const IoLogEntry& e = log_->entries[position_++];
    if (log_->version == 3) Advance(e.time_us);
    timing_ = IoTiming{};
    switch (e.action) {
      case IoLogAction::kRead:
      case IoLogAction::kWrite:
      case IoLogAction::kSync:
      case IoLogAction::kDatasync:
        *dir = e.action == IoLogAction::kRead ? IoDir::kRead : IoDir::kWrite;
        *offset = e.offset;
        *length = e.length;
        timing_.sync = e.action == IoLogAction::kSync       ? IoSync::kSync
                       : e.action == IoLogAction::kDatasync ? IoSync::kDatasync
                                                            : IoSync::kNone;
        if (timing_.sync != IoSync::kNone) *length = 0;
        timing_.not_before_ns = not_before_ns_;
        if (log_->version == 3 && !no_stall_) {
          timing_.scheduled = true;
          timing_.due_ns = ReplayDueNs(trace_us_, time_scale_);
        }
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

void ScaleReplayOffsets(IoLog* log, uint64_t scale, uint64_t align) {
  if (scale <= 1 && align <= 1) return;
  for (IoLogEntry& e : log->entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    if (scale > 1) e.offset /= scale;
    if (align > 1) e.offset &= ~(align - 1);
  }
  SummarizeIoLog(log);
}

std::shared_ptr<const IoLog> PrepareReplayJob(
    JobSpec* spec, std::vector<std::string>* notices) {
  if (spec->read_iolog == "-") {
    throw ConfigError(
        "option 'read_iolog': reading the trace from stdin ('-') is not "
        "supported. " +
        JobLabel(*spec) + "; Fix: save the trace to a file and name it");
  }
  // A blktrace per-CPU set may be named by its base (X for X.blktrace.N,
  // as blkparse -i takes it): tracefile's reader finds the set.
  int read_error = 0;
  if (::access(spec->read_iolog.c_str(), R_OK) != 0) {
    read_error = errno;
    if (::access((spec->read_iolog + ".blktrace.0").c_str(), R_OK) == 0) {
      read_error = 0;
    }
  }
  if (read_error != 0) {
    throw ConfigError("Cannot read the trace of read_iolog=. " +
                      JobLabel(*spec) + "; Path: " + spec->read_iolog +
                      "; SysErr: " + std::strerror(read_error) +
                      ". Fix: check the path (a relative path starts in the "
                      "current directory, as in fio)");
  }
  TraceReadOptions options;
  options.format =
      TraceFormatOfWord(spec->replay_format).value_or(TraceFormat::kAuto);
  options.volume = spec->replay_volume;
  options.volume_option = "replay_volume=";
  options.format_option = "replay_format=";
  options.purpose = "replay";
  LoadedTrace loaded = LoadTrace(spec->read_iolog, options);
  auto log = std::make_shared<IoLog>(std::move(loaded.log));
  if (log->ios[0] + log->ios[1] == 0) {
    throw ConfigError(
        log->path + ": the " + std::string(TraceFormatTitle(loaded.format)) +
        " trace has no read or write to replay. " + JobLabel(*spec) +
        "; Fix: replay a trace with reads or writes");
  }
  ScaleReplayOffsets(log.get(), spec->replay_scale, spec->replay_align);
  if (!spec->replay_redirected && loaded.format != TraceFormat::kIoLog) {
    throw ConfigError(log->path + ": the " +
                      std::string(TraceFormatTitle(loaded.format)) +
                      " trace names no file to replay onto (volume " +
                      loaded.volume + "). " + JobLabel(*spec) +
                      "; Fix: set replay_redirect=<device or file> (or pass "
                      "--filename) to name the target");
  }
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
                       " trim/discard entries are not replayed (tierbench "
                       "replays reads, writes and flushes); their "
                       "timestamps still count");
  }
  if (log->fua_writes > 0) {
    notices->push_back(log->path + ": " + std::to_string(log->fua_writes) +
                       " FUA writes are replayed as plain writes (the "
                       "engines issue no per-IO FUA); the trace's flushes "
                       "are replayed as fdatasync/fsync");
  }
  return log;
}

std::shared_ptr<const IoLog> WrapReplay(const IoLog& log, const JobSpec& spec,
                                        uint64_t target_bytes,
                                        uint64_t logical_block_size) {
  const uint64_t unit =
      std::max<uint64_t>({1, logical_block_size, spec.replay_align});
  const uint64_t usable = target_bytes - target_bytes % unit;
  auto out = std::make_shared<IoLog>(log);
  for (IoLogEntry& e : out->entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    if (e.length > usable) {
      throw ConfigError(log.Where(e.line) + ": an IO of " +
                        std::to_string(e.length) + " bytes does not fit in " +
                        spec.filename + " (" + std::to_string(usable) +
                        " usable bytes) even with replay_wrap=1. " +
                        JobLabel(spec) + "; Fix: replay onto a larger target");
    }
    uint64_t folded = e.offset % usable;
    if (folded + e.length > usable) {
      // Moved back just enough, in whole units, to end inside the target.
      const uint64_t over = folded + e.length - usable;
      folded -= std::min(folded, (over + unit - 1) / unit * unit);
    }
    e.offset = folded;
  }
  SummarizeIoLog(out.get());
  return out;
}

const IoLogEntry* FirstMisaligned(const IoLog& log, uint64_t block) {
  for (const IoLogEntry& e : log.entries) {
    if (e.action != IoLogAction::kRead && e.action != IoLogAction::kWrite)
      continue;
    if (e.offset % block != 0 || e.length % block != 0) return &e;
  }
  return nullptr;
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
        " with replay_redirect=<device or file> (or --filename), or fold the "
        "offsets into it with replay_wrap=1 (or divide them with "
        "replay_scale=N)");
  }
  if (!spec.direct || logical_block_size <= 1) return;
  if (const IoLogEntry* bad = FirstMisaligned(log, logical_block_size)) {
    const IoLogEntry& e = *bad;
    throw ConfigError(
        log.Where(e.line) + ": offset " + std::to_string(e.offset) +
        " / length " + std::to_string(e.length) +
        " is not a multiple of the logical block size of " + spec.filename +
        " (" + std::to_string(logical_block_size) + ") but direct=1. " +
        JobLabel(spec) + "; Fix: replay with direct=0, or set replay_align=" +
        std::to_string(logical_block_size) +
        " (offsets aligned down to the block, as fio)");
  }
}

}  // namespace tierbench
