#include "cache/registry/mode_file.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "cache/registry/layer_kinds.h"
#include "util/errors.h"

namespace tierbench {
namespace {

[[noreturn]] void Fail(const std::string& origin, const std::string& what,
                       const std::string& fix) {
  throw ConfigError(origin + ": " + what + ". Fix: " + fix);
}

std::string RequireString(const nlohmann::json& j, const char* key,
                          const std::string& origin) {
  if (!j.contains(key)) {
    Fail(origin, std::string("missing key \"") + key + "\"",
         std::string("add \"") + key + "\" (see man tierbench-modes)");
  }
  if (!j[key].is_string()) {
    Fail(origin, std::string("\"") + key + "\" must be a string",
         "quote the value");
  }
  return j[key].get<std::string>();
}

// Reads a "knobs"/"cache_set_knobs" object, validating names and values.
std::vector<std::pair<std::string, std::string>> ReadKnobs(
    const nlohmann::json& j, const std::string& key, const LayerKind& kind,
    const std::string& origin) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!j.contains(key)) return out;
  const nlohmann::json& obj = j[key];
  if (!obj.is_object()) {
    Fail(origin, "\"" + key + "\" must be an object",
         "write \"" + key + "\": {\"name\": value, ...}");
  }
  for (const auto& [name, value] : obj.items()) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_number_unsigned()) {
      text = std::to_string(value.get<uint64_t>());
    } else if (value.is_number_integer()) {
      text = std::to_string(value.get<int64_t>());
    } else if (value.is_boolean()) {
      text = value.get<bool>() ? "1" : "0";
    } else {
      Fail(origin,
           std::string("knob \"") + name + "\" has a " + value.type_name() +
               " value",
           "use a string or a whole number");
    }
    Status s = kind.check_knob(key, name, text);
    if (!s.ok()) {
      const std::string msg = s.message();
      const size_t fix = msg.find(". Fix: ");
      if (fix == std::string::npos)
        Fail(origin, msg, "see man tierbench-modes");
      Fail(origin, msg.substr(0, fix), msg.substr(fix + 7));
    }
    out.emplace_back(name, text);
  }
  return out;
}

}  // namespace

ModeSpec ParseModeJson(std::string_view text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for a number too large for a double.
    Fail(origin, std::string("not valid JSON (") + e.what() + ")",
         "correct the syntax");
  }
  if (!j.is_object()) Fail(origin, "not a JSON object", "write {...}");

  if (!j.contains("schema_version")) {
    Fail(origin, "missing key \"schema_version\"", "add \"schema_version\": 1");
  }
  if (!j["schema_version"].is_number_integer() ||
      j["schema_version"].get<int64_t>() != kModeSchemaVersion) {
    Fail(origin, "unsupported schema_version " + j["schema_version"].dump(),
         "use \"schema_version\": 1");
  }
  ModeSpec mode;
  mode.path = origin;
  mode.name = RequireString(j, "name", origin);
  if (mode.name.empty() ||
      mode.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
          std::string::npos) {
    Fail(origin, "bad name \"" + mode.name + "\"",
         "use letters, digits, '.', '_' and '-' only");
  }
  mode.description = RequireString(j, "description", origin);
  const std::string layer = RequireString(j, "layer", origin);

  std::set<std::string> allowed = {"schema_version", "name", "description",
                                   "layer"};
  mode.layer = layer;
  const LayerKind* kind = FindLayerKind(layer);
  if (kind != nullptr) {
    allowed.insert("cache_mode");
    for (const std::string& g : kind->knob_groups) allowed.insert(g);
    mode.cache_mode = RequireString(j, "cache_mode", origin);
    if (std::find(kind->modes.begin(), kind->modes.end(), mode.cache_mode) ==
        kind->modes.end()) {
      std::string valid;
      for (const std::string& m : kind->modes) {
        valid += (valid.empty() ? "" : ", ") + m;
      }
      Fail(origin,
           "unknown cache_mode \"" + mode.cache_mode + "\" for layer " + layer,
           "use one of " + valid);
    }
    mode.knobs = ReadKnobs(j, "knobs", *kind, origin);
    if (std::find(kind->knob_groups.begin(), kind->knob_groups.end(),
                  "cache_set_knobs") != kind->knob_groups.end()) {
      mode.cache_set_knobs = ReadKnobs(j, "cache_set_knobs", *kind, origin);
    }
  } else if (layer == kRawLayerName) {
    allowed.insert("target");
    const std::string target = RequireString(j, "target", origin);
    if (target == "hdd") {
      mode.target = RawTarget::kHdd;
    } else if (target == "ssd") {
      mode.target = RawTarget::kSsd;
    } else {
      Fail(origin, "unknown target \"" + target + "\"", "use hdd or ssd");
    }
  } else {
    Fail(origin, "unknown layer \"" + layer + "\"",
         "use raw or one of " + LayerKindNames());
  }
  for (const auto& [key, value] : j.items()) {
    if (allowed.count(key) == 0) {
      Fail(origin, "unknown key \"" + key + "\" for layer " + layer,
           "remove it (keys: schema_version, name, description, layer, and "
           "cache_mode/knobs (bcache also cache_set_knobs) for a cache "
           "layer or target for raw)");
    }
  }
  return mode;
}

ModeSpec LoadModeFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw ConfigError("cannot read mode file. File: " + path +
                      "; Fix: check the path (modes/*.json)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseModeJson(text.str(), path);
}

std::vector<std::string> DefaultModePaths(const std::string& modes_dir) {
  std::vector<std::string> paths;
  for (const char* name :
       {"hdd", "ssd", "writethrough", "writeback", "writearound", "none",
        "dm-cache-writethrough", "dm-cache-writeback", "dm-cache-passthrough",
        "dm-writecache", "lvmcache-writethrough", "lvmcache-writeback",
        "lvmcache-passthrough"}) {
    paths.push_back(modes_dir + "/" + name + ".json");
  }
  return paths;
}

}  // namespace tierbench
