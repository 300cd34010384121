// EngineRegistry: the IO engines tierbench knows, by name (fio's ioengine=),
// each with a one-line description and a factory.
//
// EngineRegistry::Default() holds the built-in engines:
//   io_uring   Linux io_uring (liburing), fio's io_uring engine options
//   libaio  Linux native async IO (io_submit/io_getevents), batched as fio
//   psync   synchronous pread/pwrite (fio's default engine)
//   null    no IO at all, completes at once (tests the harness itself)
// Lookups of unknown names throw ConfigError listing the known ones.
//
// Thread-safety: Default() is initialised once (thread-safe); Register() must
// not race with lookups. Create() may be called from any thread afterwards.
#ifndef TIERBENCH_IO_ENGINE_REGISTRY_H_
#define TIERBENCH_IO_ENGINE_REGISTRY_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/io_engine.h"

namespace tierbench {

struct EngineInfo {
  std::string name;
  std::string description;  // one line, for `tierbench list` and --help
  bool does_io = true;      // false: needs no open file, moves no data (null)
  std::function<std::unique_ptr<IoEngine>()> factory;
};

class EngineRegistry {
 public:
  // The registry with the built-in engines.
  static EngineRegistry& Default();

  // Adds an engine; a name registered twice replaces the earlier entry.
  void Register(EngineInfo info);

  // The entry for `name`, or nullptr.
  const EngineInfo* Find(const std::string& name) const;

  // The entry for `name`; throws ConfigError "Unknown ioengine '<name>'.
  // Known: io_uring, libaio, null, psync; Fix: ..." when it is missing.
  const EngineInfo& Get(const std::string& name) const;

  // A new instance of engine `name` (ConfigError when unknown).
  std::unique_ptr<IoEngine> Create(const std::string& name) const;

  // All entries, sorted by name.
  const std::vector<EngineInfo>& engines() const { return engines_; }

 private:
  std::vector<EngineInfo> engines_;
};

}  // namespace tierbench

#endif  // TIERBENCH_IO_ENGINE_REGISTRY_H_
