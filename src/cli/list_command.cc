// tierbench list: the catalogue of engines, modes and workloads (leveldb's
// db_bench header list, made from the registries and the shipped files).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cache/registry/layer_kinds.h"
#include "cli/commands.h"
#include "cli/help_format.h"
#include "io/engine_registry.h"
#include "util/data_dir.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// First comment line of a shipped file, as its one-line description.
std::string FirstCommentLine(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos) continue;
    // "#" and ";" in job files, "--" in SQL scripts.
    const size_t mark = line[i] == '#' || line[i] == ';' ? 1
                        : line.compare(i, 2, "--") == 0  ? 2
                                                         : 0;
    if (mark > 0) {
      std::string text = line.substr(i + mark);
      size_t j = text.find_first_not_of(" \t");
      return j == std::string::npos ? "" : text.substr(j);
    }
    break;
  }
  return "";
}

// A JSON file's "description", up to its first sentence and at most about
// 100 characters; "" when it has none.
std::string JsonDescription(const std::filesystem::path& p) {
  std::ifstream in(p);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("description") ||
      !j["description"].is_string()) {
    return "";
  }
  std::string d = j["description"].get<std::string>();
  const size_t stop = d.find(". ");
  if (stop != std::string::npos) d = d.substr(0, stop + 1);
  if (d.size() > 100) d = d.substr(0, d.rfind(' ', 97)) + "...";
  return d;
}

// The files of `dir` whose extension is in `extensions` (data files such as
// an iolog a job replays are not workloads), with a one-line description.
void ListDir(const std::string& title, const std::filesystem::path& dir,
             const std::set<std::string>& extensions) {
  std::cout << title << " (" << dir.string() << "):\n";
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  // Files in subdirectories (workloads/seed000/) are listed by their path.
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file() && extensions.count(e.path().extension()) > 0) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    std::cout << "  " << p.lexically_relative(dir).string();
    std::string d =
        p.extension() == ".json" ? JsonDescription(p) : FirstCommentLine(p);
    if (!d.empty()) std::cout << " - " << d;
    std::cout << "\n";
  }
}

}  // namespace

void RegisterListCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "list", CommandDescription("List engines, modes and workloads",
                                 "tierbench list"));
  cmd->callback([exit_code]() {
    const DataDirLookup data = FindDataDir();
    std::string looked;
    for (const std::string& l : data.looked) looked += " " + l;
    if (data.dir.empty()) {
      throw ConfigError(
          "no data directory (a folder with modes/) (looked in:" + looked +
          "). Fix: run tierbench from a checkout's build, install the "
          "package, or set TIERBENCH_DATA_DIR to the folder that holds them");
    }
    std::cout << "data: " << data.dir << " (looked in:" << looked << ")\n";
    std::filesystem::path src(DataDir());
    std::cout << "engines:\n";
    for (const EngineInfo& e : EngineRegistry::Default().engines()) {
      std::cout << "  " << e.name << " - " << e.description << "\n";
    }
    std::cout << "cache layers (compare --stack DEV detects which):\n";
    for (const LayerKind& k : AllLayerKinds()) {
      std::string modes;
      for (const std::string& m : k.modes)
        modes += (modes.empty() ? "" : "|") + m;
      std::cout << "  " << k.name << " - " << k.summary << "; modes " << modes
                << "\n";
    }
    ListDir("modes", src / "modes", {".json"});
    ListDir("workloads (fio job files, DB workloads)", src / "workloads",
            {".fio", ".json"});
    ListDir("pgbench scripts (pgbench -f, a DB workload's \"scripts\")",
            src / "workloads", {".sql"});
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
