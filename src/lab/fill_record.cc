#include "lab/fill_record.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cache/bcache/bcache_values.h"
#include "cache/dm/dm_status.h"
#include "lab/lab_layers.h"

namespace tierbench {
namespace {

using nlohmann::json;

// Seconds in the first seconds' level, and how long a fall must last.
constexpr size_t kLevelSeconds = 3;
constexpr size_t kSustainSeconds = 3;
// bcache's CUTOFF_WRITEBACK_SYNC (drivers/md/bcache/writeback.h), the
// default of its bch_cutoff_writeback_sync module parameter.
constexpr double kBcacheCutoffWritebackSync = 70;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Status Number(const PowerCutRecord& r, const std::string& layer,
              const std::string& key, double* out) {
  const std::string* v = FindRecordLine(r, layer, key);
  if (v == nullptr) {
    return Status::InvalidArgument("no " + layer + "." + key + " line");
  }
  char* end = nullptr;
  *out = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end != '\0' || *out < 0) {
    return Status::InvalidArgument(layer + "." + key + " '" + *v +
                                   "' is not a number");
  }
  return Status::Ok();
}

// The dirty bytes of one raw reading of `layer` (bcache's dirty_data; a dm
// status line, with the layer's table for dm-writecache's block size).
Status DirtyOf(const std::string& layer, const std::string& raw,
               const std::string& table, uint64_t* bytes) {
  PowerCutRecord r;
  if (layer == kLabLayerBcache) {
    r[layer + ".dirty"] = raw;
  } else {
    r[layer + ".status"] = raw;
    r[layer + ".table"] = table;
  }
  std::string text;
  return PowerCutDirtyAtCut(layer, r, bytes, &text);
}

}  // namespace

void FindCliff(FillLayer* l) {
  std::vector<double> w, p99;
  for (const FillSecond& s : l->seconds) {
    if (s.drain) break;
    w.push_back(s.write_iops ? static_cast<double>(*s.write_iops) : 0.0);
    p99.push_back(s.p99_us.value_or(0));
  }
  for (const FillSecond& s : l->seconds) {
    if (s.dirty_bytes &&
        (!l->peak_dirty_bytes || *s.dirty_bytes > *l->peak_dirty_bytes)) {
      l->peak_dirty_bytes = s.dirty_bytes;
    }
  }
  if (w.size() < 2) return;
  const size_t level_end = std::min(w.size(), 1 + kLevelSeconds);
  const double level =
      Median(std::vector<double>(w.begin() + 1, w.begin() + level_end));
  size_t c = 0;
  for (size_t i = 1; i + kSustainSeconds <= w.size() && c == 0; ++i) {
    bool sustained = true;
    for (size_t j = i; j < i + kSustainSeconds; ++j) {
      sustained = sustained && w[j] < level / 2;
    }
    if (sustained) c = i;
  }
  if (c == 0) return;
  l->cliff = true;
  // Before: the median of the seconds before the first one below half (the
  // last of them may be partly after the cliff); after: the mean of the
  // seconds after it.
  const double before = Median(std::vector<double>(w.begin(), w.begin() + c));
  std::vector<double> p99_before;
  for (size_t i = 0; i < c; ++i) {
    if (p99[i] > 0) p99_before.push_back(p99[i]);
  }
  double after = 0;
  for (size_t i = c + 1; i < w.size(); ++i) after += w[i];
  after =
      c + 1 < w.size() ? after / static_cast<double>(w.size() - c - 1) : w[c];
  l->iops_before = before;
  l->iops_at_cliff = w[c];
  l->iops_after = after;
  if (!p99_before.empty()) l->p99_before_us = Median(p99_before);
  // The worst second's p99 from the cliff on (the writes that wait for
  // room land in the seconds right after it).
  double worst = 0;
  for (size_t i = c - 1; i < std::min(w.size(), c + kSustainSeconds); ++i) {
    worst = std::max(worst, p99[i]);
  }
  if (worst > 0) l->p99_at_cliff_us = worst;
  // The time to it: each second up to the first one below half counts by
  // the share of it spent at the rate before (its IOPS between the rates
  // after and before), so a cliff inside a second is timed within it.
  double t = 0;
  for (size_t i = 0; i <= c; ++i) {
    t += before > after
             ? std::clamp((w[i] - after) / (before - after), 0.0, 1.0)
             : 1.0;
  }
  l->time_to_cliff_s = t;
  const size_t at = std::min(static_cast<size_t>(t), w.size() - 1);
  l->dirty_at_cliff_bytes = l->seconds[at].dirty_bytes;
  if (l->limit_bytes && before > 0) {
    l->predicted_time_to_cliff_s =
        static_cast<double>(*l->limit_bytes) / (before * 4096.0);
  }
  // The recovery (only after a cliff: the dirty data was at the limit).
  if (l->limit_bytes) {
    for (const FillSecond& s : l->seconds) {
      if (!s.drain || !s.dirty_bytes) continue;
      if (*s.dirty_bytes * 2 <= *l->limit_bytes) {
        l->time_to_recover_s = s.t_s + 1 - static_cast<double>(w.size());
        break;
      }
    }
  }
}

Status FillLayerFromGuest(const std::string& layer,
                          const PowerCutRecord& record,
                          const std::string& job_json,
                          const std::string& dirty_text, uint64_t rate_iops,
                          FillLayer* out) {
  *out = FillLayer();
  out->layer = layer;
  out->rate_iops = rate_iops;
  const std::string* device = FindRecordLine(record, layer, "device");
  if (device == nullptr) {
    return Status::InvalidArgument("no " + layer + ".device line");
  }
  out->device = *device;
  double job_rc = 0, job_end_ms = 0, drain_end_ms = 0;
  Status s = Number(record, layer, "job_rc", &job_rc);
  if (s.ok()) s = Number(record, layer, "job_end_ms", &job_end_ms);
  if (s.ok()) s = Number(record, layer, "drain_end_ms", &drain_end_ms);
  if (!s.ok()) return s;
  if (job_rc != 0) {
    return Status::InvalidArgument(layer + "'s fill job failed (exit " +
                                   std::to_string(static_cast<int>(job_rc)) +
                                   ")");
  }
  const std::string* table_line = FindRecordLine(record, layer, "table");
  const std::string table = table_line ? *table_line : "";
  // The layer's dirty limit.
  if (layer == kLabLayerBcache) {
    double cache = 0, cutoff = kBcacheCutoffWritebackSync;
    s = Number(record, layer, "cache_bytes", &cache);
    if (!s.ok()) return s;
    // bch_cutoff_writeback_sync has no sysfs file on 6.1: the kernel's
    // default then, said as such.
    const bool shown =
        FindRecordLine(record, layer, "cutoff_writeback_sync") != nullptr;
    if (shown) s = Number(record, layer, "cutoff_writeback_sync", &cutoff);
    if (!s.ok()) return s;
    out->cache_bytes = static_cast<uint64_t>(cache);
    out->limit_bytes = static_cast<uint64_t>(cache * cutoff / 100);
    char words[128];
    std::snprintf(words, sizeof(words),
                  "%.0f %% of the cache in use (bch_cutoff_writeback_sync%s)",
                  cutoff, shown ? "" : ", the kernel's default: not readable");
    out->limit = words;
  } else if (layer == kLabLayerWritecache) {
    const std::string* before = FindRecordLine(record, layer, "status_before");
    std::string params, table_params;
    DmWritecacheStatus st;
    DmWritecacheTable t;
    if (before == nullptr || !DmParams(*before, "writecache", &params) ||
        !ParseDmWritecacheStatus(params, &st).ok() ||
        !DmParams(table, "writecache", &table_params) ||
        !ParseDmWritecacheTable(table_params, &t).ok()) {
      return Status::InvalidArgument(
          layer + ".status_before or .table is not dm-writecache's");
    }
    out->cache_bytes = st.total_blocks * t.block_size;
    out->limit_bytes = out->cache_bytes;
    out->limit = "the whole cache (writes wait for free blocks)";
  } else {
    double cache = 0;
    s = Number(record, layer, "cache_bytes", &cache);
    if (!s.ok()) return s;
    out->cache_bytes = static_cast<uint64_t>(cache);
    out->limit = "none (writes that miss go to the origin)";
  }
  // The job's per-second writes.
  const json j = json::parse(job_json, nullptr, false);
  if (!j.is_object() || !j.contains("jobs") || !j["jobs"].is_array() ||
      j["jobs"].size() != 1 || !j["jobs"][0].contains("write") ||
      !j["jobs"][0]["write"].contains("series")) {
    return Status::InvalidArgument("fill/" + layer +
                                   ".json is not a one-job report with a "
                                   "write series");
  }
  const json& write = j["jobs"][0]["write"];
  const json& series = write["series"];
  // The job's complete seconds: its own measured runtime (ms), not the
  // guest's clock around the process.
  if (!write.contains("runtime") || !write["runtime"].is_number() ||
      !series.is_array()) {
    return Status::InvalidArgument("fill/" + layer +
                                   ".json has no write runtime or series");
  }
  const size_t job_seconds =
      static_cast<size_t>(write["runtime"].get<double>() / 1000);
  for (size_t i = 0; i < series.size() && i < job_seconds; ++i) {
    const json& point = series[i];
    if (!point.is_object() || !point.contains("ios") ||
        !point["ios"].is_number_unsigned() ||
        (point.contains("p99_ns") && !point["p99_ns"].is_number())) {
      return Status::InvalidArgument(
          "fill/" + layer + ".json: write series second " + std::to_string(i) +
          " has no IO count (or a p99 that is no number)");
    }
    FillSecond sec;
    sec.t_s = static_cast<double>(i);
    sec.write_iops = point["ios"].get<uint64_t>();
    if (point.contains("p99_ns")) {
      sec.p99_us = point["p99_ns"].get<double>() / 1000;
    }
    out->seconds.push_back(sec);
  }
  if (out->seconds.empty()) {
    return Status::InvalidArgument("fill/" + layer +
                                   ".json has no complete second");
  }
  // The watch after the job, a second at a time.
  for (double t = static_cast<double>(out->seconds.size());
       t + 1 <= drain_end_ms / 1000; t += 1) {
    FillSecond sec;
    sec.t_s = t;
    sec.drain = true;
    out->seconds.push_back(sec);
  }
  // Dirty readings: each second gets the last one at or before its end.
  std::istringstream lines(dirty_text);
  std::vector<std::pair<double, uint64_t>> dirty;
  for (std::string line; std::getline(lines, line);) {
    const size_t sp = line.find(' ');
    if (sp == std::string::npos) continue;
    std::string raw = line.substr(sp + 1);
    while (!raw.empty() && raw.back() == ' ') raw.pop_back();
    uint64_t bytes = 0;
    if (raw.empty() || !DirtyOf(layer, raw, table, &bytes).ok()) continue;
    dirty.emplace_back(std::strtod(line.c_str(), nullptr) / 1000, bytes);
  }
  if (dirty.empty()) {
    return Status::InvalidArgument("fill/" + layer +
                                   "-dirty.txt has no dirty reading");
  }
  for (FillSecond& sec : out->seconds) {
    for (const auto& [t, bytes] : dirty) {
      if (t > sec.t_s + 1) break;
      sec.dirty_bytes = bytes;
    }
  }
  FindCliff(out);
  return Status::Ok();
}

std::string FillJobText(uint64_t region_bytes, uint64_t runtime_s,
                        uint64_t rate_iops) {
  return "; tierbench lab --scenario fill: 4k random writes past the "
         "cache's dirty limit\n[fill]\nioengine=libaio\ndirect=1\n"
         "rw=randwrite\nbs=4k\niodepth=32\nsize=" +
         std::to_string(region_bytes) +
         "\ntime_based=1\nruntime=" + std::to_string(runtime_s) +
         "\nrate_iops=" + std::to_string(rate_iops) + "\n";
}

}  // namespace tierbench
