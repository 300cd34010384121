#include "orchestrate/restore_state.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "cache/cache_layer.h"
#include "util/errors.h"
#include "util/strings.h"

namespace tierbench {
namespace fs = std::filesystem;
namespace {

// The pid is alive and runs tierbench (a recycled pid of another program
// does not count).
bool TierbenchAlive(const Sysfs& os, long pid) {
  if (pid <= 0) return false;
  std::string comm;
  if (!os.Read("proc/" + std::to_string(pid) + "/comm", &comm).ok()) {
    return false;
  }
  return TrimmedCopy(comm) == "tierbench";
}

std::string StackList(const RestoreState& s) {
  std::string list;
  for (const StackState& st : s.stacks) {
    list += (list.empty() ? "" : ", ") + st.device + " (" + st.layer + ")";
  }
  return list;
}

}  // namespace

nlohmann::json RestoreState::ToJson() const {
  nlohmann::json stacks_json = nlohmann::json::array();
  for (const StackState& s : stacks) {
    stacks_json.push_back(
        {{"device", s.device}, {"layer", s.layer}, {"original", s.original}});
  }
  return {{"schema_version", kRestoreStateSchemaVersion},
          {"pid", pid},
          {"run_dir", run_dir},
          {"started", started},
          {"stacks", stacks_json}};
}

RestoreState RestoreState::FromJson(const nlohmann::json& j,
                                    const std::string& path) {
  RestoreState s;
  try {
    const int version = j.at("schema_version").get<int>();
    if (version != kRestoreStateSchemaVersion) {
      throw ConfigError("restore state " + path + " has schema_version " +
                        std::to_string(version) + ", this tierbench reads " +
                        std::to_string(kRestoreStateSchemaVersion) +
                        ". Fix: restore with the tierbench that wrote it");
    }
    s.pid = j.at("pid").get<long>();
    s.run_dir = j.at("run_dir").get<std::string>();
    s.started = j.at("started").get<std::string>();
    for (const nlohmann::json& st : j.at("stacks")) {
      s.stacks.push_back({st.at("device").get<std::string>(),
                          st.at("layer").get<std::string>(),
                          st.at("original")});
    }
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError("restore state " + path + " is malformed: " +
                      TrimmedCopy(std::string(e.what()).substr(0, 120)) +
                      ". Fix: restore the stacks by hand from its copy in "
                      "the run folder (restore-state.json), then delete it");
  }
  return s;
}

std::string StateFilePath(const Sysfs& os) {
  return os.Path("run/tierbench/state.json");
}

std::optional<RestoreState> ReadStateFile(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    throw ConfigError("cannot read the restore state " + path +
                      ". Fix: check its permissions (run as root)");
  }
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded()) {
    throw ConfigError("restore state " + path +
                      " is not JSON. Fix: restore the stacks by hand from "
                      "its copy in the run folder (restore-state.json), then "
                      "delete it");
  }
  return RestoreState::FromJson(j, path);
}

void RefuseStaleState(const Sysfs& os) {
  const std::string path = StateFilePath(os);
  const std::optional<RestoreState> s = ReadStateFile(path);
  if (!s) return;
  if (TierbenchAlive(os, s->pid)) {
    throw SafetyError("another tierbench compare is running (pid " +
                      std::to_string(s->pid) + ", run " + s->run_dir + ") on " +
                      StackList(*s) +
                      ". Fix: wait for it, or stop it with Ctrl-C (it "
                      "restores its stacks)");
  }
  throw SafetyError("a compare (pid " + std::to_string(s->pid) + ", run " +
                    s->run_dir + ") ended without restoring " + StackList(*s) +
                    ": its state is in " + path + ". Fix: tierbench restore");
}

void WriteStateFile(const std::string& path, const RestoreState& state) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << state.ToJson().dump(2) << "\n";
    out.flush();
    if (!out) {
      throw SysError("cannot write the restore state " + tmp +
                     ". Fix: a writable " +
                     fs::path(path).parent_path().string() + " (run as root)");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    throw SysError("cannot rename " + tmp + " to " + path +
                   ". SysErr: " + ec.message());
  }
}

bool RestoreFromState(const Host& host, std::ostream& out) {
  const std::string path = StateFilePath(host.sysfs);
  const std::optional<RestoreState> s = ReadStateFile(path);
  if (!s) {
    out << "nothing to restore: no " << path << "\n";
    return true;
  }
  if (TierbenchAlive(host.sysfs, s->pid)) {
    throw SafetyError("the compare that wrote " + path +
                      " is still running (pid " + std::to_string(s->pid) +
                      "). Fix: stop it with Ctrl-C (it restores its stacks), "
                      "or wait for it");
  }
  out << "restoring what the compare of " << s->started << " (pid " << s->pid
      << ", run " << s->run_dir << ") changed\n";
  bool ok = true;
  for (const StackState& st : s->stacks) {
    std::vector<std::string> failures;
    try {
      std::unique_ptr<CacheLayer> layer = OpenCacheStack(host, st.device);
      if (layer->layer() != st.layer) {
        throw ConfigError(st.device + " is now a " + layer->layer() +
                          " stack, not the " + st.layer +
                          " stack the compare changed");
      }
      layer->LoadOriginal(st.original);
      failures = layer->RestoreOriginal().failures;
    } catch (const std::exception& e) {
      failures.push_back(e.what());
    }
    if (failures.empty()) {
      out << "restored " << st.device << " (" << st.layer << ")\n";
      continue;
    }
    ok = false;
    for (const std::string& f : failures) {
      out << "could not restore " << st.device << " (" << st.layer << "): " << f
          << "\n";
    }
  }
  if (ok) {
    std::error_code ec;
    fs::remove(path, ec);
  } else {
    out << "the state is kept in " << path
        << "; fix the cause and run tierbench restore again\n";
  }
  return ok;
}

}  // namespace tierbench
