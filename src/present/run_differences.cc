#include "present/run_differences.h"

#include <map>

namespace tierbench {
namespace {

using nlohmann::json;

const char kAbsent[] = "\xe2\x80\x94";  // "—"

// The top-level keys compared, in report order.
const char* const kCompared[] = {"hostname",     "kernel", "cpu",
                                 "version",      "labels", "options",
                                 "tool_versions"};

void Flatten(const json& j, const std::string& prefix,
             std::map<std::string, std::string>* out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      Flatten(it.value(), prefix + "." + it.key(), out);
    }
    return;
  }
  (*out)[prefix] = j.is_string() ? j.get<std::string>()
                   : j.is_null() ? std::string("null")
                                 : j.dump();
}

}  // namespace

std::vector<RunDifference> DiffManifests(
    const std::vector<const json*>& manifests) {
  std::vector<RunDifference> out;
  for (const char* top : kCompared) {
    std::vector<std::map<std::string, std::string>> flat(manifests.size());
    std::map<std::string, bool> keys;  // ordered union
    for (size_t i = 0; i < manifests.size(); ++i) {
      const json& m = *manifests[i];
      if (m.is_object() && m.contains(top)) Flatten(m[top], top, &flat[i]);
      for (const auto& kv : flat[i]) keys[kv.first] = true;
    }
    for (const auto& k : keys) {
      RunDifference d{k.first, {}};
      for (const auto& f : flat) {
        auto it = f.find(k.first);
        d.values.push_back(it == f.end() ? kAbsent : it->second);
      }
      bool same = true;
      for (const std::string& v : d.values) same = same && v == d.values[0];
      if (!same) out.push_back(std::move(d));
    }
  }
  return out;
}

std::string DifferenceLabel(const std::string& key) {
  const std::string labels = "labels.";
  if (key.compare(0, labels.size(), labels) == 0) {
    return key.substr(labels.size());
  }
  const std::string options = "options.";
  if (key.compare(0, options.size(), options) == 0) {
    return "option " + key.substr(options.size());
  }
  std::string out = key;
  for (char& c : out) {
    if (c == '.') c = ' ';
  }
  return out;
}

}  // namespace tierbench
