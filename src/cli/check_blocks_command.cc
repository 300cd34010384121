// `tierbench check-blocks` (hidden; a tool of `tierbench lab --fault`,
// lab/lab_fault.h): writes a region of a device as one generation of
// verify-headed blocks, or reads it back and counts intact, stale, lost and
// corrupt blocks (workload/block_check.h). Prints one JSON object:
//   write: {"blocks":N,"written":N,"write_errors":N,"synced":true,
//           "acknowledged":N,"first_error":""}
//   (with --repeat-until FILE: one write object per pass, on one open
//   descriptor, until FILE exists)
//   read:  {"blocks":N,"intact":N,"stale":N,"lost":N,"corrupt":N,
//           "silent":N,"first_error":"","first_corrupt":""}
// Exit 0 when it ran, whatever it counted (the counts are the answer);
// 2 bad options; 3 the device cannot be opened; 4 refused for safety.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "io/device_guard.h"
#include "io/target.h"
#include "util/errors.h"
#include "util/units.h"
#include "workload/block_check.h"

namespace tierbench {
namespace {

struct CheckBlocksArgs {
  std::string device;
  std::string offset = "0";
  std::string size;
  std::string block_size = "32k";
  uint64_t write_generation = 0;
  uint64_t read_generation = 0;
  std::vector<uint64_t> older;
  std::string shift = "0";
  std::string repeat_until;  // --repeat-until FILE (write passes)
  bool destructive = false;
};

uint64_t Size(const std::string& option, const std::string& text) {
  uint64_t v = 0;
  Status s = ParseSize(text, &v);
  if (!s.ok()) {
    throw ConfigError("Bad " + option + " '" + text + "': " + s.message() +
                      ". Fix: pass a size such as 8M or 32k");
  }
  return v;
}

// The object of one write pass (see the header comment).
nlohmann::ordered_json WriteJson(const BlockWriteResult& r) {
  nlohmann::ordered_json j;
  j["blocks"] = r.blocks;
  j["written"] = r.written;
  j["write_errors"] = r.write_errors;
  j["synced"] = r.synced;
  j["acknowledged"] = r.acknowledged();
  j["first_error"] = r.first_error;
  return j;
}

void Run(const CheckBlocksArgs& a) {
  const bool write = a.write_generation != 0;
  if (write == (a.read_generation != 0)) {
    throw ConfigError(
        "check-blocks needs exactly one of --write GEN and --read GEN. Fix: "
        "pass --write 1 to write generation 1, --read 2 --older 1 to check "
        "it");
  }
  BlockRegion region;
  region.offset = Size("--offset", a.offset);
  region.bytes = Size("--size", a.size);
  const uint64_t block = Size("--block-size", a.block_size);
  if (block > (64u << 20)) {
    throw ConfigError("Bad --block-size " + a.block_size +
                      ": over 64 MiB. Fix: a block size of 4k to 64M");
  }
  region.block_bytes = static_cast<uint32_t>(block);
  Status ok = CheckBlockRegion(region);
  if (!ok.ok()) {
    throw ConfigError("Bad region: " + ok.message() +
                      ". Fix: pass whole 4 KiB multiples to --offset, "
                      "--size and --block-size");
  }
  const TargetInfo info = Target::Inspect(a.device, Sysfs());
  if (!info.exists) {
    throw ConfigError("--device " + a.device +
                      " does not exist. Fix: pass an existing block device "
                      "or file");
  }
  const uint64_t shift = Size("--shift", a.shift);
  if (write && shift != 0) {
    throw ConfigError("--shift is for --read only. Fix: drop --shift");
  }
  if (shift % 4096 != 0) {
    throw ConfigError("Bad --shift " + a.shift +
                      ": not a multiple of 4 KiB. Fix: the data offset in "
                      "bytes, e.g. 8k");
  }
  if (info.size_bytes < shift + region.offset + region.bytes) {
    throw ConfigError("--device " + a.device + " holds " +
                      FormatBytes(info.size_bytes) +
                      ", less than the region's end. Fix: a smaller --size");
  }
  if (write && info.is_block) {
    if (!a.destructive) {
      throw SafetyError("check-blocks --write would overwrite " + a.device +
                        ". Fix: add --destructive");
    }
    Status s = CheckDeviceWritable(a.device, Sysfs());
    if (!s.ok()) {
      throw SafetyError("Refusing to write to the device. Device: " + a.device +
                        "; Reason: " + s.message());
    }
  }
  const int fd = ::open(a.device.c_str(),
                        (write ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd < 0) {
    throw SysError("Cannot open --device " + a.device + ": " +
                   std::strerror(errno) +
                   ". Fix: run as root, on a device that accepts O_DIRECT");
  }
  if (write && !a.repeat_until.empty()) {
    // One pass after another on the one descriptor (as an application
    // keeps its file open through a failure), a line each, until the file
    // exists.
    for (;;) {
      const BlockWriteResult r =
          WriteGeneration(fd, region, a.write_generation);
      std::cout << WriteJson(r).dump() << std::endl;
      if (::access(a.repeat_until.c_str(), F_OK) == 0) break;
    }
    ::close(fd);
    return;
  }
  nlohmann::ordered_json j;
  if (write) {
    const BlockWriteResult r = WriteGeneration(fd, region, a.write_generation);
    j = WriteJson(r);
  } else {
    const BlockReadResult r =
        ReadGenerations(fd, region, a.read_generation, a.older, shift);
    j["blocks"] = r.blocks;
    j["intact"] = r.intact;
    j["stale"] = r.stale;
    j["lost"] = r.lost;
    j["corrupt"] = r.corrupt;
    j["silent"] = r.silent();
    j["first_error"] = r.first_error;
    j["first_corrupt"] = r.first_corrupt;
  }
  ::close(fd);
  std::cout << j.dump() << std::endl;
}

}  // namespace

void RegisterCheckBlocksCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<CheckBlocksArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check-blocks",
      "Write or check generations of verify-headed blocks (lab --fault)");
  cmd->group("");  // hidden: a tool of `tierbench lab --fault`
  cmd->add_option("--device", a->device, "block device or file")->required();
  cmd->add_option("--offset", a->offset, "region start (default 0)");
  cmd->add_option("--size", a->size, "region length")->required();
  cmd->add_option("--block-size", a->block_size,
                  "bytes per block (default 32k)");
  cmd->add_option("--write", a->write_generation,
                  "write the region as generation GEN (>= 1)");
  cmd->add_option("--read", a->read_generation,
                  "check the region for generation GEN (>= 1)");
  cmd->add_option("--older", a->older,
                  "an older generation that counts as stale, not corrupt");
  cmd->add_option("--shift", a->shift,
                  "with --read: the region starts this many bytes into the "
                  "device (a backing device's data offset), its blocks "
                  "judged at their unshifted offsets");
  cmd->add_option("--repeat-until", a->repeat_until,
                  "with --write: write pass after pass on one open "
                  "descriptor, a JSON line each, until FILE exists");
  cmd->add_flag("--destructive", a->destructive,
                "allow --write on a block device");
  cmd->callback([a, exit_code]() {
    Run(*a);
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
