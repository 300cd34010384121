// The recording psync engine (tests/support/recording_engine.h).
#include "support/recording_engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "io/engine_registry.h"
#include "util/errors.h"

namespace tierbench {
namespace {

class RecordingPsyncEngine : public IoEngine {
 public:
  RecordingPsyncEngine(std::string name, RecordedIoLog* log)
      : name_(std::move(name)),
        log_(log),
        inner_(EngineRegistry::Default().Create("psync")) {}
  const char* name() const override { return name_.c_str(); }
  Status Init(int fd, uint32_t depth) override {
    return inner_->Init(fd, depth);
  }
  Status Queue(IoRequest* req, QueueResult* result) override {
    log_->Add({req->dir, req->offset, req->length});
    return inner_->Queue(req, result);
  }
  Status Commit(uint32_t* submitted) override {
    return inner_->Commit(submitted);
  }
  Status Reap(uint32_t min, uint32_t max, uint64_t timeout_ns,
              std::vector<IoRequest*>* done) override {
    return inner_->Reap(min, max, timeout_ns, done);
  }
  void Cleanup() override { inner_->Cleanup(); }

 private:
  std::string name_;
  RecordedIoLog* log_;
  std::unique_ptr<IoEngine> inner_;
};

}  // namespace

std::ostream& operator<<(std::ostream& os, const RecordedIo& io) {
  return os << IoDirName(io.dir) << " " << io.offset << " " << io.length;
}

void RecordedIoLog::Add(const RecordedIo& io) {
  std::lock_guard<std::mutex> lock(mu_);
  ios_.push_back(io);
}

std::vector<RecordedIo> RecordedIoLog::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RecordedIo> out;
  out.swap(ios_);
  return out;
}

void RegisterRecordingEngine(const std::string& name, RecordedIoLog* log) {
  EngineRegistry::Default().Register(
      {name, "psync that records its IO (tests)", true, [name, log] {
         return std::make_unique<RecordingPsyncEngine>(name, log);
       }});
}

RunResult RunJobTextOn(const std::string& text, const std::string& engine,
                       const JobOverrides& overrides) {
  Workload w = ParseJobText(text, "<test>", overrides);
  if (!engine.empty()) {
    for (JobSpec& j : w.jobs) j.ioengine = engine;
  }
  RunOptions options;
  options.progress = false;
  return RunWorkload(w, options);
}

std::string RunJobTextConfigError(const std::string& text,
                                  const std::string& engine) {
  try {
    RunJobTextOn(text, engine);
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "";
}

}  // namespace tierbench
