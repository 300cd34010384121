#include "db/db_workload.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/errors.h"
#include "util/units.h"

namespace tierbench {

namespace {

using nlohmann::json;

[[noreturn]] void BadKey(const std::string& path, const std::string& key,
                         const std::string& want) {
  throw ConfigError("invalid DB workload file. File: " + path +
                    "; Key: " + key + "; Fix: " + want);
}

int PositiveInt(const json& j, const std::string& path, const char* key) {
  if (!j.is_number_integer() || j.get<int64_t>() < 1 ||
      j.get<int64_t>() > 1000000) {
    BadKey(path, key, "an integer >= 1");
  }
  return j.get<int>();
}

std::string SettingValue(const json& v, const std::string& path,
                         const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_boolean()) return v.get<bool>() ? "on" : "off";
  BadKey(path, "postgres." + key, "a string, integer or boolean value");
}

// The scripts of `w` (builtin and/or files, defines), parsed; the files
// are read now. Throws ConfigError.
std::shared_ptr<const ScriptSet> ParseScripts(const DbWorkload& w) {
  auto set = std::make_shared<ScriptSet>();
  for (const auto& [name, value] : w.defines) set->Define(name + "=" + value);
  if (w.builtin_set || w.scripts.empty()) {
    Builtin b = Builtin::kTpcbLike;
    ParseBuiltin(w.builtin, &b);
    set->AddBuiltin(b, w.builtin_weight);
  }
  for (const auto& arg : w.scripts) {
    std::string file;
    int weight = 1;
    SplitScriptWeight(arg, "scripts", &file, &weight);
    set->AddFile(file, weight);
  }
  set->Finish();
  return set;
}

}  // namespace

bool IsDbWorkloadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return false;
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.contains("kind") && j["kind"] == "pgbench";
}

DbWorkload LoadDbWorkload(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ConfigError("cannot read DB workload file. File: " + path +
                      "; SysErr: " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseDbWorkloadJson(text.str(), path);
}

DbWorkload ParseDbWorkloadJson(std::string_view text, const std::string& path) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    throw ConfigError("DB workload file is not a JSON object. File: " + path +
                      "; Fix: see workloads/pgbench-tpcb.json");
  }
  DbWorkload w;
  w.path = path;
  w.name = std::filesystem::path(path).stem().string();
  if (!j.contains("kind") || j["kind"] != "pgbench") {
    BadKey(path, "kind", "\"kind\": \"pgbench\"");
  }
  bool have_duration = false;
  for (const auto& [key, v] : j.items()) {
    if (key == "kind" || key == "description") {
      continue;
    } else if (key == "schema_version") {
      if (v != 1) BadKey(path, key, "1 (the only version)");
    } else if (key == "name") {
      if (!v.is_string() || v.get<std::string>().empty()) {
        BadKey(path, key, "a non-empty string");
      }
      w.name = v.get<std::string>();
    } else if (key == "scale") {
      w.scale = PositiveInt(v, path, "scale");
    } else if (key == "clients") {
      w.clients = PositiveInt(v, path, "clients");
    } else if (key == "threads") {
      w.threads = PositiveInt(v, path, "threads");
    } else if (key == "warmup") {
      if (!v.is_string() ||
          !ParseDuration(v.get<std::string>(), kNsPerSec, &w.warmup_ns).ok()) {
        BadKey(path, key, "a duration such as \"20s\" (0s: none)");
      }
    } else if (key == "page_cache") {
      const std::string value = v.is_string() ? v.get<std::string>() : "";
      if (value != "cold" && value != "warm") {
        BadKey(path, key, "\"cold\" or \"warm\"");
      }
      w.page_cache_warm = value == "warm";
    } else if (key == "duration") {
      // Seconds as a JSON number (a fraction is cut off), or a duration
      // string. A float outside int64's range is rejected before the cast
      // (converting it would be undefined behaviour).
      std::string text;
      if (v.is_number_integer()) {
        text = std::to_string(v.get<int64_t>());
      } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d >= 0 && d < 9.2e18) text = std::to_string(int64_t(d));
      } else if (v.is_string()) {
        text = v.get<std::string>();
      }
      if (!ParseDuration(text, kNsPerSec, &w.duration_ns).ok() ||
          w.duration_ns < kNsPerSec) {
        BadKey(path, key, "a duration of at least 1 s (\"10s\", 60)");
      }
      have_duration = true;
    } else if (key == "query_mode") {
      QueryMode m;
      if (!v.is_string() || !ParseQueryMode(v.get<std::string>(), &m).ok()) {
        BadKey(path, key, "simple, extended or prepared");
      }
      w.query_mode = v.get<std::string>();
    } else if (key == "builtin") {
      Builtin b;
      std::string name;
      if (v.is_string()) {
        try {
          SplitScriptWeight(v.get<std::string>(), "builtin", &name,
                            &w.builtin_weight);
        } catch (const ConfigError&) {
          name.clear();
        }
      }
      if (name.empty() || !ParseBuiltin(name, &b).ok()) {
        BadKey(path, key,
               "tpcb-like, simple-update or select-only, optionally @WEIGHT");
      }
      w.builtin = BuiltinName(b);
      w.builtin_set = true;
    } else if (key == "scripts") {
      if (!v.is_array() || v.empty()) {
        BadKey(path, key, "a list of \"FILE[@WEIGHT]\" strings");
      }
      const auto dir = std::filesystem::path(path).parent_path();
      for (const auto& e : v) {
        if (!e.is_string() || e.get<std::string>().empty()) {
          BadKey(path, key, "a list of \"FILE[@WEIGHT]\" strings");
        }
        std::string s = e.get<std::string>();
        std::filesystem::path p(s);
        w.scripts.push_back(p.is_absolute() ? s : (dir / p).string());
      }
    } else if (key == "defines") {
      if (!v.is_object()) BadKey(path, key, "an object of variables");
      for (const auto& [name, value] : v.items()) {
        w.defines[name] = SettingValue(value, path, "defines." + name);
      }
    } else if (key == "rate") {
      if (!v.is_number() || v.get<double>() <= 0) {
        BadKey(path, key, "a rate in transactions per second > 0 (-R)");
      }
      w.rate_tps = v.get<double>();
    } else if (key == "latency_limit") {
      if (!v.is_number() || v.get<double>() <= 0) {
        BadKey(path, key, "a latency limit in ms > 0 (-L)");
      }
      w.latency_limit_ms = v.get<double>();
    } else if (key == "random_seed") {
      if (!v.is_number_unsigned()) BadKey(path, key, "a non-negative integer");
      w.random_seed_set = true;
      w.random_seed = v.get<uint64_t>();
    } else if (key == "postgres") {
      if (!v.is_object()) BadKey(path, key, "an object of settings");
      for (const auto& [name, value] : v.items()) {
        w.postgres_settings[name] = SettingValue(value, path, name);
      }
    } else {
      BadKey(
          path, key,
          "remove it (known keys: schema_version, kind, name, description, "
          "scale, clients, threads, duration, warmup, page_cache, query_mode, "
          "builtin, "
          "scripts, defines, rate, latency_limit, random_seed, postgres)");
    }
  }
  if (!have_duration) BadKey(path, "duration", "set a duration (\"10s\")");
  if (w.threads > w.clients) BadKey(path, "threads", "1 <= threads <= clients");
  try {
    w.parsed_scripts = ParseScripts(w);
  } catch (const ConfigError& e) {
    throw ConfigError("invalid DB workload file. File: " + path +
                      "; Key: scripts; " + e.what());
  }
  return w;
}

}  // namespace tierbench
