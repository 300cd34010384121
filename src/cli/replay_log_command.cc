// `tierbench replay-log`: replays a dm-log-writes log (io/write_log.h) onto
// a device or image file up to a mark, as xfstests' replay-log does, so a
// cache stack can be checked as a power cut at that mark would have left
// its cache device.
#include <sys/stat.h>

#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "io/device_guard.h"
#include "io/target.h"
#include "io/write_log.h"
#include "util/errors.h"
#include "util/units.h"

namespace tierbench {
namespace {

struct ReplayLogArgs {
  std::string log;
  std::string target;
  std::string end_mark;
  bool list = false;
  bool destructive = false;
};

// The log's headers, checked whole. ConfigError naming the log for a log
// that is not one (or is truncated), SysError when it cannot be read.
WriteLog ReadLog(const Target& log, uint64_t bytes) {
  WriteLog out;
  Status s = ReadWriteLog(log.fd(), bytes, &out);
  if (s.code() == Status::Code::kInvalidArgument) {
    throw ConfigError("Bad --log " + log.path() + ": " + s.message() +
                      ". Fix: pass the log device of a dm-log-writes target "
                      "(after `dmsetup remove` wrote its last entries)");
  }
  if (!s.ok()) {
    throw SysError("Cannot read --log " + log.path() + ": " + s.message());
  }
  return out;
}

// True when paths `a` and `b` name the same file or block device.
bool SameFile(const std::string& a, const std::string& b) {
  struct stat x, y;
  if (::stat(a.c_str(), &x) != 0 || ::stat(b.c_str(), &y) != 0) return false;
  if (S_ISBLK(x.st_mode) && S_ISBLK(y.st_mode)) return x.st_rdev == y.st_rdev;
  return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

void Run(const ReplayLogArgs& a) {
  const TargetInfo log_info = Target::Inspect(a.log, Sysfs());
  if (!log_info.exists) {
    throw ConfigError("--log " + a.log +
                      " does not exist. Fix: pass the log device (or an "
                      "image of it) of a dm-log-writes target");
  }
  if (!a.list && a.target.empty()) {
    throw ConfigError(
        "replay-log needs --target (or --list). Fix: pass --target <device "
        "or image file as large as the logged device>");
  }
  Target log;
  log.Open(a.log, /*write=*/false, /*direct=*/false);
  const WriteLog wl = ReadLog(log, log_info.size_bytes);
  if (a.list) {
    std::cout << DescribeWriteLog(wl);
    return;
  }
  uint64_t end = wl.entries.empty() ? 0 : wl.entries.size() - 1;
  if (!a.end_mark.empty()) {
    Status s = FindWriteLogMark(wl, a.end_mark, &end);
    if (!s.ok()) {
      throw ConfigError("Bad --end-mark: " + s.message() +
                        ". Fix: pass one of its marks (--list shows them)");
    }
  }
  const TargetInfo info = Target::Inspect(a.target, Sysfs());
  if (!info.exists) {
    throw ConfigError("--target " + a.target +
                      " does not exist. Fix: create it (as large as the "
                      "logged device, e.g. truncate -s SIZE FILE)");
  }
  if (SameFile(a.log, a.target)) {
    throw ConfigError("--target " + a.target + " is the log (--log " + a.log +
                      ") itself: the replay would overwrite what it reads. "
                      "Fix: replay onto another device or image file");
  }
  if (info.is_block) {
    if (!a.destructive) {
      throw SafetyError("replay-log would overwrite " + a.target +
                        ". Fix: add --destructive if its contents may be "
                        "destroyed");
    }
    Status s = CheckDeviceWritable(a.target, Sysfs());
    if (!s.ok()) {
      throw SafetyError("Refusing to write to the device. Device: " + a.target +
                        "; Reason: " + s.message());
    }
  }
  Target target;
  target.Open(a.target, /*write=*/true, /*direct=*/false);
  WriteLogReplay r;
  Status s =
      ReplayWriteLog(wl, log.fd(), end, target.fd(), info.size_bytes, &r);
  if (s.code() == Status::Code::kInvalidArgument) {
    throw ConfigError("Bad --target " + a.target + ": " + s.message() +
                      ". Fix: pass a target at least " +
                      FormatBytes(wl.device_end) + " long");
  }
  if (!s.ok()) throw SysError("The replay failed: " + s.message());
  std::cout << "replay-log: " << r.entries << " of " << wl.entries.size()
            << " entries replayed onto " << a.target << " (up to "
            << (a.end_mark.empty()
                    ? "the end"
                    : "mark " + a.end_mark + ", entry " + std::to_string(end))
            << "): " << r.writes << " writes (" << FormatBytes(r.bytes) << "), "
            << r.flushes << " flushes, " << r.fua << " FUA, " << r.discards
            << " discards zeroed, " << r.marks << " marks\n";
}

}  // namespace

void RegisterReplayLogCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<ReplayLogArgs>();
  CLI::App* cmd = app.add_subcommand(
      "replay-log",
      CommandDescription(
          "Replay a dm-log-writes log onto a device or image up to a mark",
          "tierbench replay-log --log /dev/mapper/log --target "
          "/tmp/replay.img --end-mark r2"));
  cmd->add_option("--log", a->log,
                  "the log device of a dm-log-writes target, or an image of "
                  "it")
      ->required();
  cmd->add_option("--target", a->target,
                  "device or existing image file to replay onto, as large as "
                  "the logged device");
  cmd->add_option("--end-mark", a->end_mark,
                  "replay up to and including this mark (`dmsetup message "
                  "<dev> 0 mark <name>`); default: the whole log");
  cmd->add_flag("--list", a->list,
                "print the log's marks and totals; write nothing");
  cmd->add_flag("--destructive", a->destructive,
                "allow overwriting a block device --target");
  cmd->footer(
      "DESCRIPTION\n"
      "  dm-log-writes (dmsetup create NAME --table \"0 SIZE log-writes DEV "
      "LOGDEV\")\n"
      "  records every write to DEV on LOGDEV in the order it reached the "
      "disk, flushes\n"
      "  and FUA writes included, and `dmsetup message NAME 0 mark M` adds "
      "a mark. This\n"
      "  command writes the logged writes, from the first up to the mark, "
      "onto --target:\n"
      "  DEV as a power cut at the mark would have left a disk that "
      "honours flushes.\n"
      "  Start from a target that holds what DEV held when the log started "
      "(zeroes when\n"
      "  DEV was zeroed first). Discards are written as zeroes. The whole "
      "log is checked\n"
      "  before anything is written. A block device --target needs "
      "--destructive and is\n"
      "  refused when mounted, held or signed, like run's devices. The log "
      "itself is no\n  --target.\n"
      "\n"
      "EXAMPLE\n"
      "  truncate -s 64M /tmp/replay.img\n"
      "  tierbench replay-log --log /dev/mapper/log --target "
      "/tmp/replay.img --end-mark r2\n"
      "\n"
      "EXIT STATUS\n"
      "  0 replayed (or listed); 2 bad log, mark or target size, or the "
      "log as target;\n"
      "  3 a read or write failed; 4 refused for safety (--destructive "
      "missing, device\n"
      "  in use or signed).");
  cmd->callback([a, exit_code]() {
    Run(*a);
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
