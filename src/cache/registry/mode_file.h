// Mode files: modes/*.json, one cache configuration (or raw baseline) each,
// read into a ModeSpec (cache/mode_spec.h).
//
//   {"schema_version": 1, "name": "writeback", "description": "...",
//    "layer": "bcache", "cache_mode": "writeback",
//    "knobs": {"sequential_cutoff": "4M", "writeback_percent": 10},
//    "cache_set_knobs": {"congested_read_threshold_us": 0}}
//   {"schema_version": 1, "name": "dm-cache-writeback", "description": "...",
//    "layer": "dm-cache", "cache_mode": "writeback",
//    "knobs": {"policy": "smq", "migration_threshold": 2048}}
//   {"schema_version": 1, "name": "hdd", "description": "...",
//    "layer": "raw", "target": "hdd"}
//
// Keys: schema_version (must be 1), name (non-empty, [A-Za-z0-9._-]),
// description (string), layer ("raw" or a layer of layer_kinds.h).
// For a cache layer: cache_mode (one of the layer's modes, required) and the
// layer's knob groups (optional objects: "knobs" for every layer,
// "cache_set_knobs" for bcache); names and values are validated by the
// layer. For "raw": target ("hdd" | "ssd"). Any other key is an error. Knob
// values are kept as text (numbers become decimal text).
//
// Errors: ConfigError "<file>: <what>. Fix: ..." (exit 2); an unreadable file
// is a ConfigError too (it is user input). Thread-safe (pure functions).
#ifndef TIERBENCH_CACHE_REGISTRY_MODE_FILE_H_
#define TIERBENCH_CACHE_REGISTRY_MODE_FILE_H_

#include <string>
#include <string_view>
#include <vector>

#include "cache/mode_spec.h"

namespace tierbench {

// Loads and validates one mode file. Throws ConfigError.
ModeSpec LoadModeFile(const std::string& path);

// Validates already-read text; `origin` names it in messages.
ModeSpec ParseModeJson(std::string_view text, const std::string& origin);

// The default mode list of `tierbench compare`: <dir>/{hdd,ssd,writethrough,
// writeback,writearound,none,dm-cache-writethrough,dm-cache-writeback,
// dm-cache-passthrough,dm-writecache,lvmcache-writethrough,
// lvmcache-writeback,lvmcache-passthrough}.json (compare keeps those of the
// layers whose --stack is given).
std::vector<std::string> DefaultModePaths(const std::string& modes_dir);

}  // namespace tierbench

#endif  // TIERBENCH_CACHE_REGISTRY_MODE_FILE_H_
