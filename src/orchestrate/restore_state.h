// The restore state file: what `tierbench compare` must put back, written
// before it changes anything, so a compare that is killed (SIGKILL, a
// crash, a power cut) can be undone by `tierbench restore`.
//
// Path: <root>/run/tierbench/state.json, where <root> is the tree that
// plays "/" (--sysfs-root; "/" on a real system, so /run/tierbench, which
// is on tmpfs and therefore gone after a reboot, as are the modes a
// reboot resets). A copy is kept in the run folder (restore-state.json).
// Content (JSON, schema_version 1):
//   {"schema_version": 1, "pid": N, "run_dir": "...", "started": "UTC",
//    "stacks": [{"device": "/dev/bcache0", "layer": "bcache",
//                "original": <CacheLayer::OriginalJson()>}, ...]}
// Life cycle: compare refuses to start while the file exists
// (RefuseStaleState); it writes the file after capturing the originals and
// before the first change, and removes it once every stack was restored.
// A failed restore keeps it. `tierbench restore` (RestoreFromState) opens
// every stack again, loads its original and restores it, and removes the
// file when all succeeded.
//
// Errors: ConfigError (unreadable or malformed file, a stack of another
// layer now), SafetyError (a stale state or a live compare), SysError.
#ifndef TIERBENCH_ORCHESTRATE_RESTORE_STATE_H_
#define TIERBENCH_ORCHESTRATE_RESTORE_STATE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cache/registry/layer_registry.h"
#include "util/host.h"
#include "util/sysfs.h"

namespace tierbench {

inline constexpr int kRestoreStateSchemaVersion = 1;

struct StackState {
  std::string device;
  std::string layer;
  nlohmann::json original;
};

struct RestoreState {
  long pid = 0;
  std::string run_dir;
  std::string started;
  std::vector<StackState> stacks;

  nlohmann::json ToJson() const;
  // Throws ConfigError naming `path` and the bad key.
  static RestoreState FromJson(const nlohmann::json& j,
                               const std::string& path);
};

// <root>/run/tierbench/state.json.
std::string StateFilePath(const Sysfs& os);

// Throws SafetyError when the state file exists: a compare is running
// (its pid is alive and is tierbench) or one ended without restoring
// ("... Fix: tierbench restore").
void RefuseStaleState(const Sysfs& os);

// Writes the file atomically (temporary file + rename), creating the
// directory. Throws SysError.
void WriteStateFile(const std::string& path, const RestoreState& state);

// Nullopt when the file does not exist; ConfigError when it is unreadable
// or malformed.
std::optional<RestoreState> ReadStateFile(const std::string& path);

// `tierbench restore`: restores every stack of the state file, reporting
// each to `out`. Returns true when there was nothing to restore or every
// stack was restored (the file is then removed); false when a stack could
// not be restored (the file is kept). Throws SafetyError while the compare
// that wrote the file is still running.
bool RestoreFromState(const Host& host, std::ostream& out);

}  // namespace tierbench

#endif  // TIERBENCH_ORCHESTRATE_RESTORE_STATE_H_
