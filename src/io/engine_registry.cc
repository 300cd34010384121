#include "io/engine_registry.h"

#include <algorithm>
#include <utility>

#include "io/io_uring_engine.h"
#include "io/libaio_engine.h"
#include "io/null_engine.h"
#include "io/psync_engine.h"
#include "util/errors.h"

namespace tierbench {

EngineRegistry& EngineRegistry::Default() {
  static EngineRegistry* registry = [] {
    auto* r = new EngineRegistry();
    r->Register({"libaio",
                 "Linux native asynchronous IO (io_submit/io_getevents), "
                 "batched as fio's libaio",
                 true, [] { return std::make_unique<LibaioEngine>(); }});
    r->Register({"io_uring",
                 "Linux io_uring (liburing), with fio's io_uring options "
                 "(fixedbufs, registerfiles, sqthread_poll, hipri, "
                 "nonvectored)",
                 true, [] { return std::make_unique<IoUringEngine>(); }});
    r->Register({"psync",
                 "synchronous pread/pwrite, one IO at a time (fio's default)",
                 true, [] { return std::make_unique<PsyncEngine>(); }});
    r->Register(
        {"null",
         "no IO at all, every request completes at once (tests the harness)",
         false, [] { return std::make_unique<NullEngine>(); }});
    return r;
  }();
  return *registry;
}

void EngineRegistry::Register(EngineInfo info) {
  auto it =
      std::find_if(engines_.begin(), engines_.end(),
                   [&](const EngineInfo& e) { return e.name == info.name; });
  if (it != engines_.end()) {
    *it = std::move(info);
  } else {
    engines_.push_back(std::move(info));
  }
  std::sort(
      engines_.begin(), engines_.end(),
      [](const EngineInfo& a, const EngineInfo& b) { return a.name < b.name; });
}

const EngineInfo* EngineRegistry::Find(const std::string& name) const {
  for (const EngineInfo& e : engines_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const EngineInfo& EngineRegistry::Get(const std::string& name) const {
  const EngineInfo* e = Find(name);
  if (e == nullptr) {
    std::string known;
    for (const EngineInfo& k : engines_)
      known += (known.empty() ? "" : ", ") + k.name;
    throw ConfigError(
        "Unknown ioengine '" + name + "'. Known: " + known +
        "; Fix: set ioengine= to one of them (tierbench list engines)");
  }
  return *e;
}

std::unique_ptr<IoEngine> EngineRegistry::Create(
    const std::string& name) const {
  return Get(name).factory();
}

}  // namespace tierbench
