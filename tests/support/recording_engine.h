// A psync IoEngine that records every IO handed to it (the replay tests'
// observer of what the runner issues), and running job text on it.
// RegisterRecordingEngine() adds it to EngineRegistry::Default() under a name
// the caller keeps unique per test file; each registration records into its own
// RecordedIoLog. Thread-safety: RecordedIoLog is safe for the runner's job
// threads; register from one thread (as EngineRegistry::Register requires).
#ifndef TIERBENCH_TESTS_SUPPORT_RECORDING_ENGINE_H_
#define TIERBENCH_TESTS_SUPPORT_RECORDING_ENGINE_H_

#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "io/io_engine.h"
#include "util/io_dir.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {

// One IO as queued to the engine.
struct RecordedIo {
  IoDir dir;
  uint64_t offset;
  uint32_t length;
  bool operator==(const RecordedIo& o) const {
    return dir == o.dir && offset == o.offset && length == o.length;
  }
};

// "read 4096 512" (gtest prints it in a failed comparison).
std::ostream& operator<<(std::ostream& os, const RecordedIo& io);

// The IOs recorded so far, in queue order.
class RecordedIoLog {
 public:
  void Add(const RecordedIo& io);
  // The IOs recorded since the last Take(), and forgets them.
  std::vector<RecordedIo> Take();

 private:
  std::mutex mu_;
  std::vector<RecordedIo> ios_;
};

// Registers `name` (unique in the registry) as psync recording into `log`,
// which must outlive every run that uses the engine.
void RegisterRecordingEngine(const std::string& name, RecordedIoLog* log);

// `text` parsed as the job file "<test>" with `overrides` and run without
// progress output, every job on the engine `engine` ("" keeps the jobs'
// own engines); throws what parsing and running throw.
RunResult RunJobTextOn(const std::string& text, const std::string& engine,
                       const JobOverrides& overrides = {});

// The message of the ConfigError RunJobTextOn(text, engine) throws, or ""
// when it runs; a gtest failure if that error's exit code is not 2.
std::string RunJobTextConfigError(const std::string& text,
                                  const std::string& engine);

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_RECORDING_ENGINE_H_
