#include "fuzz_entries.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cache/bcache/bcache_values.h"
#include "cache/dm/dm_status.h"
#include "cache/registry/mode_file.h"
#include "db/db_workload.h"
#include "db/pgbench/pgbench_script.h"
#include "io/write_log.h"
#include "tracefile/iolog.h"
#include "tracefile/trace_reader.h"
#include "util/errors.h"
#include "util/status.h"
#include "workload/job_file.h"

namespace tierbench {
namespace {

void CheckMessage(std::string_view kind, const std::string& message) {
  if (message.empty()) throw FuzzBug(std::string(kind) + ": empty message");
  if (message.find('\n') != std::string::npos) {
    throw FuzzBug(std::string(kind) + ": multi-line message: " + message);
  }
}

// Runs `parse`; a ConfigError with a one-line message is a clean rejection.
template <typename F>
void ExpectConfigError(F&& parse) {
  try {
    parse();
  } catch (const ConfigError& e) {
    CheckMessage("ConfigError", e.what());
  }
}

void CheckStatus(const Status& s) {
  if (!s.ok()) CheckMessage("Status", s.message());
}

void RunJobFile(std::string_view data) {
  ExpectConfigError([&] { ParseJobText(data, "<fuzz>", JobOverrides()); });
}

void RunModeJson(std::string_view data) {
  ExpectConfigError([&] { ParseModeJson(data, "<fuzz>.json"); });
}

// True when `data` is a JSON object whose "scripts" names an absolute
// file: ParseDbWorkloadJson would read it, and a device such as /dev/zero
// never ends.
bool NamesAbsoluteScript(std::string_view data) {
  const nlohmann::json j =
      nlohmann::json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;
  const auto scripts = j.find("scripts");
  if (scripts == j.end() || !scripts->is_array()) return false;
  for (const auto& e : *scripts) {
    if (e.is_string() &&
        std::filesystem::path(e.get<std::string>()).is_absolute()) {
      return true;
    }
  }
  return false;
}

void RunDbWorkload(std::string_view data) {
  // ParseDbWorkloadJson parses the scripts too (builtin + defines + files).
  // A directory that does not exist: a relative script name reads nothing
  // (the file is refused as unreadable); an absolute one is not tried.
  if (NamesAbsoluteScript(data)) return;
  ExpectConfigError(
      [&] { ParseDbWorkloadJson(data, "/nonexistent-fuzz/w.json"); });
}

void RunIoLog(std::string_view data) {
  ExpectConfigError([&] { ParseIoLog(data, "<fuzz>.iolog"); });
}

// A block trace (tracefile/trace_reader.h): detected from its content, then
// read as each format that is not an iolog (the iolog target covers that),
// once without and once with a volume. zstd input is decompressed up to
// 1 MiB (a small input can inflate without bound).
void RunTrace(std::string_view data) {
  TraceReadOptions options;
  options.max_inflated_bytes = 1 << 20;
  ExpectConfigError([&] { ReadTraceText(data, "<fuzz>.trace", options); });
  for (TraceFormat f :
       {TraceFormat::kBlkparse, TraceFormat::kMsr, TraceFormat::kCbs,
        TraceFormat::kAlibaba, TraceFormat::kBlktrace, TraceFormat::kVscsi,
        TraceFormat::kOracle}) {
    options.format = f;
    for (const char* volume : {"", "1"}) {
      options.volume = volume;
      ExpectConfigError([&] { ReadTraceText(data, "<fuzz>.trace", options); });
    }
  }
}

void RunPgbenchScript(std::string_view data) {
  ExpectConfigError([&] {
    ScriptSet set;
    set.AddText(std::string(data), "<fuzz>.sql", "fuzz", 1);
    set.Finish();
  });
}

// A dm-log-writes log in a memfd: read, described and, when it reads,
// replayed onto a 1 MiB memfd (a log reaching further is refused before
// anything is written).
void RunWriteLog(std::string_view data) {
  const int log = ::memfd_create("fuzz-write-log", 0);
  const int target = ::memfd_create("fuzz-write-log-target", 0);
  constexpr uint64_t kTargetBytes = 1 << 20;
  if (log < 0 || target < 0 || ::ftruncate(target, kTargetBytes) != 0 ||
      ::pwrite(log, data.data(), data.size(), 0) !=
          static_cast<ssize_t>(data.size())) {
    throw std::runtime_error("fuzz write_log: cannot set up the memfds");
  }
  WriteLog wl;
  const Status read = ReadWriteLog(log, data.size(), &wl);
  CheckStatus(read);
  if (read.ok()) {
    DescribeWriteLog(wl);
    WriteLogReplay r;
    CheckStatus(ReplayWriteLog(wl, log, UINT64_MAX, target, kTargetBytes, &r));
  }
  ::close(log);
  ::close(target);
}

// The first byte picks the parser, the rest is the value text.
void RunSysfsValues(std::string_view data) {
  if (data.empty()) return;
  const unsigned char which = static_cast<unsigned char>(data[0]) % 11;
  const std::string_view text = data.substr(1);
  switch (which) {
    case 0: {
      uint64_t v;
      CheckStatus(ParseHumanSize(text, &v));
      if (ParseHumanSize(text, &v).ok()) HumanSizeMatches(v, text);
      break;
    }
    case 1: {
      int64_t v;
      CheckStatus(ParseSignedHumanSize(text, &v));
      if (ParseSignedHumanSize(text, &v).ok()) FormatHumanSize(v);
      break;
    }
    case 2: {
      int64_t v;
      CheckStatus(ParseInteger(text, &v));
      break;
    }
    case 3: {
      std::string selected;
      std::vector<std::string> options;
      CheckStatus(ParseBracketChoice(text, &selected, &options));
      IsCacheMode(text);
      break;
    }
    case 4: {
      BcacheState state;
      CheckStatus(ParseBcacheState(text, &state));
      break;
    }
    case 5: {
      WritebackRateDebug d;
      CheckStatus(ParseWritebackRateDebug(text, &d));
      break;
    }
    case 6: {
      PriorityStats p;
      CheckStatus(ParsePriorityStats(text, &p));
      break;
    }
    case 7: {
      DmCacheTable t;
      CheckStatus(ParseDmCacheTable(text, &t));
      break;
    }
    case 8: {
      DmCacheStatus st;
      CheckStatus(ParseDmCacheStatus(text, &st));
      break;
    }
    case 9: {
      DmWritecacheTable t;
      CheckStatus(ParseDmWritecacheTable(text, &t));
      break;
    }
    default: {
      DmWritecacheStatus st;
      CheckStatus(ParseDmWritecacheStatus(text, &st));
      break;
    }
  }
}

}  // namespace

const std::vector<FuzzEntry>& FuzzEntries() {
  static const std::vector<FuzzEntry> entries = {
      {"job_file", RunJobFile},
      {"mode_json", RunModeJson},
      {"db_workload", RunDbWorkload},
      {"sysfs_values", RunSysfsValues},
      {"iolog", RunIoLog},
      {"pgbench_script", RunPgbenchScript},
      {"write_log", RunWriteLog},
      {"trace", RunTrace},
  };
  return entries;
}

const FuzzEntry* FindFuzzEntry(std::string_view name) {
  for (const FuzzEntry& e : FuzzEntries()) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

}  // namespace tierbench
