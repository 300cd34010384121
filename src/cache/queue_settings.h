// Request-queue settings of a block device, recorded in the run manifest
// because they change results (reference-notes §7(c) 13, 14, 17):
// sys/class/block/<name>/queue/{scheduler, write_cache, read_ahead_kb,
// logical_block_size, rotational, wbt_lat_usec}. A partition has no queue of
// its own: its parent disk's queue is read (and `queue_owner` names it).
//
// Missing files are normal (bcache devices are bio-based: no wbt_lat_usec on
// some kernels; loop devices lack others): their fields stay empty / -1.
// Thread-safe (reads only).
#ifndef TIERBENCH_CACHE_QUEUE_SETTINGS_H_
#define TIERBENCH_CACHE_QUEUE_SETTINGS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/sysfs.h"

namespace tierbench {

struct QueueSettings {
  std::string device;       // As asked: "vda", "sda2", "bcache0".
  std::string queue_owner;  // Whose queue was read: "vda", "sda".
  std::string scheduler;    // Selected scheduler ("mq-deadline", "none").
  std::string write_cache;  // "write back" | "write through" | "".
  int64_t read_ahead_kb = -1;
  int64_t logical_block_size = -1;  // Bytes.
  int64_t rotational = -1;          // 1 = spinning disk, 0 = not.
  int64_t wbt_lat_usec = -1;        // Writeback throttling target, 0 = off.

  // {"device":..,"queue_owner":..,"scheduler":..,"write_cache":..,
  //  "read_ahead_kb":..,"logical_block_size":..,"rotational":..,
  //  "wbt_lat_usec":..}; fields that were missing are JSON null.
  nlohmann::json ToJson() const;
};

// Reads the settings of device `name` (no "/dev/" prefix; a "/dev/" prefix is
// stripped). Never fails: what cannot be read stays unset. `device` and
// `queue_owner` are always filled.
QueueSettings ReadQueueSettings(const Sysfs& sysfs, std::string_view name);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_QUEUE_SETTINGS_H_
