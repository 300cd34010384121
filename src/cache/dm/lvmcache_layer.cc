#include "cache/dm/lvmcache_layer.h"

#include <sstream>

#include "util/errors.h"
#include "util/interrupt.h"
#include "util/subprocess.h"

namespace tierbench {
namespace {

// The value of NAME='...' in a --nameprefixes line; false when absent.
bool PrefixedValue(const std::string& line, const std::string& name,
                   std::string* value) {
  const std::string key = name + "='";
  size_t at = line.find(key);
  while (at != std::string::npos && at > 0 && line[at - 1] != ' ' &&
         line[at - 1] != '\t') {
    at = line.find(key, at + 1);
  }
  if (at == std::string::npos) return false;
  const size_t begin = at + key.size();
  const size_t end = line.find('\'', begin);
  if (end == std::string::npos) return false;
  *value = line.substr(begin, end - begin);
  return true;
}

std::string JoinArgs(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    const bool quote = a.empty() || a.find(' ') != std::string::npos;
    out += (out.empty() ? "" : " ") + (quote ? "'" + a + "'" : a);
  }
  return out;
}

std::string OneLine(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    out += (out.empty() ? "" : " | ") + line.substr(b);
  }
  if (out.size() > 400) out = out.substr(0, 400) + "...";
  return out.empty() ? "(no output)" : out;
}

}  // namespace

LvmRunner DefaultLvmRunner() {
  return [](const std::vector<std::string>& argv) {
    const std::string lvm =
        FindExecutable({"/usr/sbin/lvm", "/sbin/lvm", "/usr/bin/lvm"});
    if (lvm.empty()) {
      throw SysError(
          "the lvm tools are missing (no /usr/sbin/lvm). Fix: apt-get "
          "install lvm2");
    }
    std::vector<std::string> full = {lvm};
    full.insert(full.end(), argv.begin(), argv.end());
    const ProcessOutcome o = RunProcess(full);
    return LvmToolResult{o.exit_code, o.output};
  };
}

std::string LvmCacheConfig::ToString() const {
  std::string s = "mode=" + mode + " policy=" + policy + " settings=";
  bool first = true;
  for (const auto& [k, v] : settings) {
    s += (first ? "" : ",") + k + "=" + v;
    first = false;
  }
  return s;
}

Status ParseLvsCacheConfig(const std::string& output, LvmCacheConfig* out) {
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    LvmCacheConfig c;
    std::string settings;
    if (!PrefixedValue(line, "LVM2_CACHE_MODE", &c.mode) ||
        !PrefixedValue(line, "LVM2_CACHE_POLICY", &c.policy) ||
        !PrefixedValue(line, "LVM2_CACHE_SETTINGS", &settings)) {
      continue;
    }
    std::istringstream items(settings);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (item.empty()) continue;
      const size_t eq = item.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::InvalidArgument("lvs cache_settings item '" + item +
                                       "' is not KEY=VALUE in '" + line + "'");
      }
      c.settings[item.substr(0, eq)] = item.substr(eq + 1);
    }
    *out = std::move(c);
    return Status::Ok();
  }
  return Status::InvalidArgument(
      "no LVM2_CACHE_MODE/LVM2_CACHE_POLICY/LVM2_CACHE_SETTINGS line in the "
      "lvs output: " +
      OneLine(output));
}

std::string VgLvFromDmName(const std::string& dm_name) {
  // The separator is the first '-' that is not part of a "--" pair.
  for (size_t i = 0; i < dm_name.size(); ++i) {
    if (dm_name[i] != '-') continue;
    if (i + 1 < dm_name.size() && dm_name[i + 1] == '-') {
      ++i;
      continue;
    }
    auto undouble = [](std::string s) {
      for (size_t p = s.find("--"); p != std::string::npos;
           p = s.find("--", p + 1)) {
        s.erase(p, 1);
      }
      return s;
    };
    const std::string vg = undouble(dm_name.substr(0, i));
    const std::string lv = undouble(dm_name.substr(i + 1));
    if (vg.empty() || lv.empty()) return "";
    return vg + "/" + lv;
  }
  return "";
}

LvmcacheLayer::LvmcacheLayer(Sysfs sysfs, std::shared_ptr<DmControl> dm,
                             std::string device, LvmRunner runner)
    : DmCacheLayer(std::move(sysfs), std::move(dm), std::move(device),
                   kLvmcacheLayerName),
      runner_(runner ? std::move(runner) : DefaultLvmRunner()),
      vg_lv_(VgLvFromDmName(dev_.dm_name())) {
  if (vg_lv_.empty()) {
    throw SysError("cannot tell the VG/LV of LVM device " + dev_.dm_name() +
                   " (" + dev_.device() +
                   "): its dm name is not VG-LV. Fix: give the cached LV as "
                   "/dev/VG/LV");
  }
}

std::string LvmcacheLayer::RunLvm(const std::vector<std::string>& argv) const {
  const LvmToolResult r = runner_(argv);
  if (r.exit_code != 0) {
    throw SysError("lvm command failed (exit " + std::to_string(r.exit_code) +
                   "): " + JoinArgs(argv) + ": " + OneLine(r.output));
  }
  return r.output;
}

LvmCacheConfig LvmcacheLayer::LvsConfig() const {
  const std::vector<std::string> argv = {
      "lvs",
      "--noheadings",
      "--nameprefixes",
      "-o",
      "cache_mode,cache_policy,cache_settings",
      vg_lv_};
  LvmCacheConfig c;
  Status s = ParseLvsCacheConfig(RunLvm(argv), &c);
  if (!s.ok()) throw SysError::From("cannot read " + JoinArgs(argv), s);
  return c;
}

nlohmann::json LvmcacheLayer::DescribeJson() const {
  nlohmann::json j = DmCacheLayer::DescribeJson();
  j["lv"] = vg_lv_;
  try {
    j["lvs"] = LvsConfig().ToString();
  } catch (const std::exception&) {
    j["lvs"] = nullptr;
  }
  return j;
}

std::string LvmcacheLayer::CheckUsable(
    const std::vector<const ModeSpec*>& modes, bool cold_or_warm) const {
  std::string why = DmCacheLayer::CheckUsable(modes, cold_or_warm);
  if (!why.empty()) return why;
  try {
    LvsConfig();
  } catch (const std::exception& e) {
    return std::string("lvmcache ") + vg_lv_ +
           " cannot be controlled through the lvm tools: " + e.what();
  }
  return "";
}

void LvmcacheLayer::CaptureOriginal() {
  lvm_original_ = LvsConfig();
  // The table as it was, for the record only: it is never reloaded.
  original_ = dev_.Target(kDmCacheTargetType);
}

nlohmann::json LvmcacheLayer::OriginalJson() const {
  if (!lvm_original_) return nullptr;
  nlohmann::json j = DmCacheLayer::OriginalJson();
  j["lvs"] = lvm_original_->ToString();
  j["lvm"] = {{"mode", lvm_original_->mode},
              {"policy", lvm_original_->policy},
              {"settings", lvm_original_->settings}};
  return j;
}

void LvmcacheLayer::LoadOriginal(const nlohmann::json& original) {
  DmCacheLayer::LoadOriginal(original);
  LvmCacheConfig c;
  try {
    const nlohmann::json& lvm = original.at("lvm");
    c.mode = lvm.at("mode").get<std::string>();
    c.policy = lvm.at("policy").get<std::string>();
    c.settings = lvm.at("settings").get<std::map<std::string, std::string>>();
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(
        std::string("not an lvmcache original (lvm: mode, policy, "
                    "settings): ") +
        e.what());
  }
  lvm_original_ = c;
}

RestoreReport LvmcacheLayer::RestoreOriginal() noexcept {
  RestoreReport report;
  if (!lvm_original_) return report;
  try {
    const LvmCacheConfig now = LvsConfig();
    const LvmCacheConfig& orig = *lvm_original_;
    if (now.mode == orig.mode && now.policy == orig.policy &&
        now.settings == orig.settings) {
      return report;
    }
    std::vector<std::string> argv = {"lvchange", "--yes", "--cachemode",
                                     orig.mode};
    if (!orig.policy.empty()) {
      argv.push_back("--cachepolicy");
      argv.push_back(orig.policy);
    }
    std::string settings;
    for (const auto& [k, v] : orig.settings) {
      settings += (settings.empty() ? "" : " ") + k + "=" + v;
    }
    for (const auto& [k, v] : now.settings) {
      if (orig.settings.count(k) == 0) {
        settings += (settings.empty() ? "" : " ") + k + "=default";
      }
    }
    if (!settings.empty()) {
      argv.push_back("--cachesettings");
      argv.push_back(settings);
    }
    argv.push_back(vg_lv_);
    // The read-back decides: lvchange has been seen to exit non-zero after
    // "Logical volume ... changed" when it resets a setting to default.
    std::string error;
    try {
      RunLvm(argv);
    } catch (const SysError& e) {
      error = e.what();
    }
    const LvmCacheConfig after = LvsConfig();
    if (after.mode != orig.mode || after.policy != orig.policy ||
        after.settings != orig.settings) {
      report.failures.push_back(
          (error.empty() ? "" : error + "; ") + "lvs reads back '" +
          after.ToString() + "', not the original '" + orig.ToString() + "'");
    }
  } catch (const std::exception& e) {
    report.failures.push_back(e.what());
  }
  return report;
}

void LvmcacheLayer::SwitchTo(
    const std::string& mode, const std::string& policy,
    const std::vector<std::pair<std::string, std::string>>& policy_args,
    std::vector<std::string>* notes) {
  std::vector<std::string> argv = {"lvchange", "--yes", "--cachemode", mode};
  if (!policy.empty()) {
    argv.push_back("--cachepolicy");
    argv.push_back(policy);
  }
  std::string settings;
  for (const auto& [k, v] : policy_args) {
    settings += (settings.empty() ? "" : " ") + k + "=" + v;
  }
  if (!settings.empty()) {
    argv.push_back("--cachesettings");
    argv.push_back(settings);
  }
  argv.push_back(vg_lv_);
  const uint64_t dirty = ReadStatus().dirty;
  RunLvm(argv);
  if (notes != nullptr && dirty > 0 && mode != "writeback") {
    notes->push_back("lvchange wrote " + std::to_string(dirty) +
                     " dirty blocks back (cleaner policy) before leaving "
                     "writeback");
  }
}

void LvmcacheLayer::LvchangeMode(const std::string& mode,
                                 const std::string& why) {
  if (ReadTable().IoMode() == mode) return;
  try {
    RunLvm({"lvchange", "--yes", "--cachemode", mode, vg_lv_});
  } catch (const SysError& e) {
    throw SysError(std::string(e.what()) + " (" + why + ")");
  }
}

LayerReadback LvmcacheLayer::ReadBack() const {
  LayerReadback rb = DmCacheLayer::ReadBack();
  const LvmCacheConfig lvs = LvsConfig();
  // LVM loads "mq" for smq when it cannot confirm the kernel's smq module
  // (no modprobe, e.g. the lab guest); since Linux 4.6 the kernel's "mq" is
  // smq under its old name. The policy LVM was told is the one to report.
  if (rb.settings["policy"] == "mq" && lvs.policy == "smq") {
    rb.settings["table_policy"] = "mq";
    rb.settings["policy"] = "smq";
  }
  auto mismatch = [&](const std::string& what, const std::string& table,
                      const std::string& lvm) {
    throw SysError("lvmcache " + vg_lv_ + ": the live dm table says " + what +
                   " '" + table + "' but lvs says '" + lvm +
                   "' (LVM's metadata and the kernel disagree). Table: " +
                   dev_.TableText() + "; Fix: `lvchange --refresh " + vg_lv_ +
                   "`");
  };
  if (rb.cache_mode != lvs.mode) mismatch("mode", rb.cache_mode, lvs.mode);
  const auto policy = rb.settings.find("policy");
  const std::string table_policy =
      policy == rb.settings.end() ? "" : policy->second;
  if (table_policy != lvs.policy) mismatch("policy", table_policy, lvs.policy);
  for (const auto& [k, v] : lvs.settings) {
    const auto it = rb.settings.find(k);
    const std::string have = it == rb.settings.end() ? "(missing)" : it->second;
    if (have != v) mismatch(k, have, v);
  }
  return rb;
}

void LvmcacheLayer::MakeCold(double timeout_s) {
  double waited = 0;
  tierbench::Status s = WaitClean(timeout_s, {}, &waited);
  if (s.code() == tierbench::Status::Code::kBusy && Interrupted()) {
    throw InterruptedError("interrupted while draining " + dev_.dm_name(),
                           InterruptSignal());
  }
  // lvchange writes back whatever is still dirty before passthrough.
  LvchangeMode("passthrough",
               "passthrough to invalidate the cache (cold cache)");
  const DmCacheStatus st = ReadStatus();
  if (st.cache_used > 0) {
    dev_.Message("invalidate_cblocks 0-" + std::to_string(st.cache_total));
  }
  const DmCacheStatus after = ReadStatus();
  if (after.cache_used > 0) {
    throw SysError("lvmcache " + vg_lv_ + " still holds " +
                   std::to_string(after.cache_used) +
                   " cache blocks after invalidate_cblocks: the cache is not "
                   "cold. Status: " +
                   dev_.StatusOf(kDmCacheTargetType).params);
  }
}

bool LvmcacheLayer::BeginWarm(std::string* /*why_not*/) {
  // Reads promote in writethrough (passthrough would bypass the policy).
  if (ReadTable().IoMode() == "passthrough") {
    LvchangeMode("writethrough", "writethrough for the warm-up reads");
  }
  return true;
}

}  // namespace tierbench
