#include "lab/power_cut_record.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cache/bcache/bcache_values.h"
#include "cache/dm/dm_status.h"
#include "lab/lab_layers.h"

namespace tierbench {
namespace {

std::string KiB(uint64_t bytes) {
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB"
                           : std::to_string(bytes) + " B";
}

}  // namespace

bool DmParams(const std::string& line, const std::string& target,
              std::string* params) {
  std::vector<std::string> words = SplitDmWords(line);
  if (words.size() < 4 || words[2] != target) return false;
  params->clear();
  for (size_t i = 3; i < words.size(); ++i) {
    *params += (params->empty() ? "" : " ") + words[i];
  }
  return true;
}

const std::string* FindRecordLine(const PowerCutRecord& record,
                                  const std::string& layer,
                                  const std::string& key) {
  auto it = record.find(layer + "." + key);
  return it == record.end() ? nullptr : &it->second;
}

std::string PowerCutJobText(bool verify_only) {
  return VerifiedWriteJobText("power-cut", 0, kPowerCutBytes, verify_only);
}

std::string LogReplayJobText(int round, bool verify_only) {
  return VerifiedWriteJobText(
      "log-replay-r" + std::to_string(round),
      static_cast<uint64_t>(round) * kLogReplayRoundBytes, kLogReplayRoundBytes,
      verify_only);
}

std::string VerifiedWriteJobText(const std::string& name, uint64_t offset,
                                 uint64_t bytes, bool verify_only) {
  std::ostringstream job;
  job << "; tierbench lab --power-cut: "
      << (verify_only ? "read back and check"
                      : "write, acknowledged and "
                        "flushed,")
      << " " << bytes / 1024 << " KiB at " << offset / 1024
      << " KiB with fio's crc32c verify headers\n"
      << "[global]\n"
      << "ioengine=libaio\n"
      << "direct=1\n"
      << "rw=write\n"
      << "bs=" << kPowerCutBlockBytes / 1024 << "k\n"
      << "offset=" << offset / 1024 << "k\n"
      << "size=" << bytes / 1024 << "k\n"
      << "iodepth=4\n"
      << "verify=crc32c\n";
  if (verify_only) {
    job << "verify_only=1\n"
        << "continue_on_error=verify\n";
  } else {
    job << "do_verify=0\n"
        << "end_fsync=1\n";
  }
  job << "\n[" << name << "]\n";
  return job.str();
}

PowerCutRecord ParsePowerCutRecord(const std::string& text) {
  PowerCutRecord record;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const size_t dot = line.find('.');
    if (dot == std::string::npos || dot == 0 || dot > eq) continue;
    record[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return record;
}

Status ParsePowerCutJobReport(const std::string& text, PowerCutJobReport* out) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument("not a JSON report");
  }
  if (!j.contains("jobs") || !j["jobs"].is_array() || j["jobs"].size() != 1) {
    return Status::InvalidArgument("the report does not hold exactly one job");
  }
  const nlohmann::json& job = j["jobs"][0];
  if (!job.contains("verify_blocks") || !job.contains("verify_errors") ||
      !job["verify_blocks"].is_number_unsigned() ||
      !job["verify_errors"].is_number_unsigned()) {
    return Status::InvalidArgument("the job has no verify counts");
  }
  PowerCutJobReport r;
  r.verify_blocks = job["verify_blocks"].get<uint64_t>();
  r.verify_errors = job["verify_errors"].get<uint64_t>();
  if (job.contains("write") && job["write"].contains("total_ios") &&
      job["write"]["total_ios"].is_number_unsigned()) {
    r.write_ios = job["write"]["total_ios"].get<uint64_t>();
  }
  if (job.contains("error_message") && job["error_message"].is_string()) {
    r.error = job["error_message"].get<std::string>();
  }
  *out = r;
  return Status::Ok();
}

Status PowerCutDirtyAtCut(const std::string& layer,
                          const PowerCutRecord& record, uint64_t* bytes,
                          std::string* text) {
  if (layer == kLabLayerBcache) {
    const std::string* dirty = FindRecordLine(record, layer, "dirty");
    if (dirty == nullptr) {
      return Status::InvalidArgument("no " + layer + ".dirty line");
    }
    Status s = ParseHumanSize(*dirty, bytes);
    if (!s.ok()) {
      return Status::InvalidArgument(layer + ".dirty '" + *dirty +
                                     "': " + s.message());
    }
    *text = *dirty;
    return Status::Ok();
  }
  const std::string* status = FindRecordLine(record, layer, "status");
  if (status == nullptr) {
    return Status::InvalidArgument("no " + layer + ".status line");
  }
  std::string params;
  if (layer == kLabLayerDmCache) {
    DmCacheStatus st;
    if (!DmParams(*status, "cache", &params) ||
        !ParseDmCacheStatus(params, &st).ok()) {
      return Status::InvalidArgument(
          layer + ".status is not a dm-cache status: '" + *status + "'");
    }
    const uint64_t block = st.cache_block_sectors * 512;
    *bytes = st.dirty * block;
    *text = std::to_string(st.dirty) + " x " + KiB(block);
    return Status::Ok();
  }
  if (layer == kLabLayerWritecache) {
    const std::string* table = FindRecordLine(record, layer, "table");
    DmWritecacheStatus st;
    DmWritecacheTable t;
    std::string table_params;
    if (table == nullptr || !DmParams(*table, "writecache", &table_params) ||
        !ParseDmWritecacheTable(table_params, &t).ok()) {
      return Status::InvalidArgument(layer +
                                     ".table missing or not a "
                                     "dm-writecache table");
    }
    if (!DmParams(*status, "writecache", &params) ||
        !ParseDmWritecacheStatus(params, &st).ok()) {
      return Status::InvalidArgument(
          layer + ".status is not a dm-writecache status: '" + *status + "'");
    }
    *bytes = st.used_blocks() * t.block_size;
    *text = std::to_string(st.used_blocks()) + " x " + KiB(t.block_size);
    return Status::Ok();
  }
  return Status::InvalidArgument("layer '" + layer +
                                 "' has no power-cut dirty reading");
}

Status PowerCutLayerFromGuest(const std::string& layer,
                              const PowerCutRecord& record,
                              const std::string& write_json,
                              const std::string& origin_json,
                              const std::string& verify_json,
                              PowerCutLayer* out) {
  PowerCutLayer l;
  l.layer = layer;
  l.block_bytes = kPowerCutBlockBytes;
  if (const std::string* d = FindRecordLine(record, layer, "device"))
    l.device = *d;
  PowerCutJobReport write, origin, verify;
  const struct {
    const char* name;
    const std::string& json;
    PowerCutJobReport* report;
  } reports[] = {{"write", write_json, &write},
                 {"origin", origin_json, &origin},
                 {"verify", verify_json, &verify}};
  for (const auto& r : reports) {
    if (r.json.empty()) {
      return Status::InvalidArgument(layer + "-" + r.name +
                                     ".json missing or empty");
    }
    Status s = ParsePowerCutJobReport(r.json, r.report);
    if (!s.ok()) {
      return Status::InvalidArgument(layer + "-" + r.name +
                                     ".json: " + s.message());
    }
  }
  l.blocks_written = write.write_ios;
  l.write_error = write.error;
  Status s =
      PowerCutDirtyAtCut(layer, record, &l.dirty_bytes_at_cut, &l.dirty_at_cut);
  if (!s.ok()) return s;
  l.blocks_origin_lacked = origin.verify_errors;
  const std::string* ms = FindRecordLine(record, layer, "recovery_ms");
  if (ms == nullptr || ms->empty()) {
    return Status::InvalidArgument("no " + layer + ".recovery_ms line");
  }
  char* end = nullptr;
  l.recovery_ms = std::strtod(ms->c_str(), &end);
  if (end == ms->c_str() || *end != '\0' || l.recovery_ms < 0) {
    return Status::InvalidArgument(layer + ".recovery_ms '" + *ms +
                                   "' is not a number");
  }
  l.blocks_checked = verify.verify_blocks;
  l.mismatches = verify.verify_errors;
  l.verify_error = verify.error;
  *out = l;
  return Status::Ok();
}

Status LogReplayFromGuest(
    const std::string& layer, const PowerCutRecord& record, int rounds,
    const std::function<std::string(const std::string&)>& read_json,
    std::vector<LogReplayMark>* out) {
  out->clear();
  const std::string* marks = FindRecordLine(record, layer, "lr_marks");
  if (marks == nullptr || *marks != std::to_string(rounds)) {
    return Status::InvalidArgument(
        layer + ".lr_marks is '" + (marks ? *marks : std::string("missing")) +
        "', not " + std::to_string(rounds) + ": the log replay did not finish");
  }
  const uint64_t per_round = kLogReplayRoundBytes / kPowerCutBlockBytes;
  for (int k = 0; k < rounds; ++k) {
    LogReplayMark m;
    m.layer = layer;
    m.mark = "r" + std::to_string(k);
    const std::string key = "lr_m" + std::to_string(k) + "_replay";
    const std::string* replay = FindRecordLine(record, layer, key);
    // "replay-log: 1234 of 2345 entries replayed onto ..."
    const std::string prefix = "replay-log: ";
    if (replay == nullptr || replay->rfind(prefix, 0) != 0) {
      return Status::InvalidArgument("no " + layer + "." + key +
                                     " line from replay-log");
    }
    m.entries_replayed =
        std::strtoull(replay->c_str() + prefix.size(), nullptr, 10);
    if (const std::string* st = FindRecordLine(
            record, layer, "lr_m" + std::to_string(k) + "_state")) {
      m.state_after_replay = *st;
    }
    m.blocks_expected = per_round * static_cast<uint64_t>(k + 1);
    for (int r = 0; r <= k + 1 && r < rounds; ++r) {
      const std::string name =
          layer + "/m" + std::to_string(k) + "-r" + std::to_string(r) + ".json";
      const std::string json = read_json(name);
      PowerCutJobReport rep;
      Status s = json.empty() ? Status::InvalidArgument("missing or empty")
                              : ParsePowerCutJobReport(json, &rep);
      if (!s.ok()) {
        return Status::InvalidArgument("log-replay/" + name + ": " +
                                       s.message());
      }
      if (r <= k) {
        m.blocks_checked += rep.verify_blocks;
        m.mismatches += rep.verify_errors;
        if (!rep.error.empty() && rep.verify_errors == 0) m.error = rep.error;
      } else {
        // Blocks that did not verify, or that the job never reached.
        m.next_round_blocks = per_round;
        m.next_round_lacked =
            rep.verify_errors +
            (per_round - std::min(per_round, rep.verify_blocks));
      }
    }
    out->push_back(m);
  }
  return Status::Ok();
}

}  // namespace tierbench
