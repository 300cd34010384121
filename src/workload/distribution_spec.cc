#include "workload/distribution_spec.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "util/strings.h"
#include "util/units.h"

namespace tierbench {
namespace {

constexpr double kDefaultZipfTheta = 1.1;      // fio's FIO_DEF_ZIPF
constexpr double kDefaultParetoH = 0.2;        // fio's FIO_DEF_PARETO
constexpr size_t kMaxZones = 256;              // fio's ZONESPLIT_MAX
constexpr uint64_t kMissingSize = UINT64_MAX;  // zoned: size to be shared out

// Thrown inside this file only; ParseDistributionSpec turns it into its
// (why, fix) result.
struct Failure {
  std::string why;
  std::string fix;
};

double ParseFloat(const std::string& text, const char* what,
                  const std::string& fix) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw Failure{
        "the " + std::string(what) + " '" + text + "' is not a number", fix};
  return v;
}

uint64_t ParseWhole(const std::string& text, const std::string& what) {
  uint64_t v = 0;
  const auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    throw Failure{what + " '" + text + "' is not a whole number",
                  "write zones as access%/size, e.g. zoned:60/10:40/90"};
  return v;
}

// One direction's zone list, "A/S:A/S..." (fio's zone_split_ddir).
std::vector<DistributionZone> ParseZones(const std::string& list,
                                         bool absolute) {
  const char* const example =
      absolute ? "zoned_abs:60/20G:40/100G" : "zoned:60/10:30/20:10/70";
  std::vector<DistributionZone> zones;
  for (const std::string& entry : SplitTrimmed(list, ':')) {
    if (entry.empty()) break;  // fio stops at the first empty entry
    if (zones.size() == kMaxZones)
      throw Failure{"more than 256 zones", "use at most 256 zones"};
    DistributionZone zone;
    const size_t slash = entry.find('/');
    const std::string access = TrimmedCopy(entry.substr(0, slash));
    zone.access_percent = static_cast<uint32_t>(
        std::min<uint64_t>(ParseWhole(access, "access percentage"), 1000));
    if (zone.access_percent > 100)
      throw Failure{
          "access percentage " + access + " is above 100",
          std::string("write zones as access%/size, e.g. ") + example};
    const std::string size =
        slash == std::string::npos ? "" : TrimmedCopy(entry.substr(slash + 1));
    if (absolute) {
      if (!size.empty()) {
        const Status s = ParseSize(size, &zone.size);
        if (!s.ok()) throw Failure{s.message(), std::string("e.g. ") + example};
      }
    } else {
      std::string digits = size;
      if (!digits.empty() && digits.back() == '%') digits.pop_back();
      const uint64_t p = size.empty() ? 0 : ParseWhole(digits, "zone size");
      zone.size = p == 0 ? kMissingSize : std::min<uint64_t>(p, 100);
    }
    zones.push_back(zone);
  }
  if (zones.empty()) return zones;

  uint32_t access = 0;
  uint64_t sized = 0;
  uint64_t missing = 0;
  for (const DistributionZone& z : zones) {
    access += z.access_percent;
    if (absolute) continue;
    if (z.size == kMissingSize) {
      ++missing;
    } else {
      sized += z.size;
    }
  }
  if (access > 100 || sized > 100) {
    throw Failure{std::string(access > 100 ? "access" : "size") +
                      " percentages add up to more than 100",
                  std::string("make the ") +
                      (access > 100 ? "access" : "size") +
                      " percentages add up to 100, e.g. " + example};
  }
  if (access < 100) {
    throw Failure{
        "access percentages add up to " + std::to_string(access) + ", not 100",
        std::string("make them add up to 100, e.g. ") + example};
  }
  // fio's zone_split_ddir: a lone zone without a size counts as if the
  // sizes were complete, so it gets 0% (and is refused below).
  if (missing == 1 && zones.size() == 1) sized = 100;
  for (DistributionZone& z : zones) {
    if (z.size == kMissingSize) z.size = (100 - sized) / missing;
  }
  for (size_t i = 0; i < zones.size(); ++i) {
    if (zones[i].access_percent > 0 && zones[i].size == 0) {
      throw Failure{"zone " + std::to_string(i + 1) + " gets " +
                        std::to_string(zones[i].access_percent) +
                        "% of the accesses but no room (fio would send them "
                        "all to one block)",
                    std::string("give every zone a size, e.g. ") + example};
    }
  }
  return zones;
}

void ParseZoned(std::string_view rest, bool absolute, DistributionSpec* out) {
  const std::vector<std::string> lists = SplitTrimmed(rest, ',');
  if (lists.size() > 3) {
    throw Failure{"more than 3 comma-separated zone lists",
                  "give one list for both directions, or reads,writes"};
  }
  const std::vector<DistributionZone> read = ParseZones(lists[0], absolute);
  out->zones[static_cast<int>(IoDir::kRead)] = read;
  out->zones[static_cast<int>(IoDir::kWrite)] =
      lists.size() == 1 ? read : ParseZones(lists[1], absolute);
  if (lists.size() == 3) ParseZones(lists[2], absolute);  // trim: check only
  if (out->zones[0].empty() && out->zones[1].empty()) {
    throw Failure{"the zone list is empty",
                  absolute ? "e.g. zoned_abs:60/20G:40/100G"
                           : "e.g. zoned:60/10:30/20:10/70"};
  }
}

void Parse(std::string_view text, DistributionSpec* out) {
  const size_t colon = text.find(':');
  const std::string name = TrimmedCopy(text.substr(0, colon));
  const bool has_postfix = colon != std::string_view::npos;
  const std::string postfix =
      has_postfix ? TrimmedCopy(text.substr(colon + 1)) : "";
  if (name == "random") {
    if (has_postfix)
      throw Failure{"'random' takes no parameter", "write random"};
    out->kind = DistributionKind::kRandom;
    return;
  }
  if (name == "zoned" || name == "zoned_abs") {
    out->kind = name == "zoned" ? DistributionKind::kZoned
                                : DistributionKind::kZonedAbs;
    if (!has_postfix) {
      throw Failure{"'" + name + "' needs its zones",
                    name == "zoned" ? "e.g. zoned:60/10:30/20:10/70"
                                    : "e.g. zoned_abs:60/20G:40/100G"};
    }
    ParseZoned(postfix, name == "zoned_abs", out);
    return;
  }
  if (name == "zipf") {
    out->kind = DistributionKind::kZipf;
    out->value = kDefaultZipfTheta;
  } else if (name == "pareto") {
    out->kind = DistributionKind::kPareto;
    out->value = kDefaultParetoH;
  } else if (name == "normal") {
    out->kind = DistributionKind::kNormal;
    out->value = 0;
  } else if (name == "sequence") {
    throw Failure{
        "fio's sequence distribution (newer than fio 3.33) is not "
        "supported by tierbench",
        "use random, zipf, pareto, normal, zoned or zoned_abs"};
  } else if (name == "gauss") {
    throw Failure{"fio calls this distribution 'normal'",
                  "write random_distribution=normal[:dev[:center]]"};
  } else {
    throw Failure{"'" + name + "' is not a random distribution",
                  "use random, zipf:theta, pareto:h, normal:dev, zoned:... or "
                  "zoned_abs:..."};
  }
  const std::string form = name + "[:value[:center]], e.g. " +
                           (name == "zipf"     ? "zipf:1.2"
                            : name == "pareto" ? "pareto:0.9"
                                               : "normal:5");
  if (has_postfix) {
    const size_t c = postfix.find(':');
    out->value =
        ParseFloat(TrimmedCopy(postfix.substr(0, c)), "value", "write " + form);
    if (c != std::string::npos) {
      out->center = ParseFloat(TrimmedCopy(postfix.substr(c + 1)), "center",
                               "write " + form);
      if (out->center < 0 || out->center > 1) {
        throw Failure{"the center must lie between 0 and 1",
                      "write " + name +
                          ":<value>:<center> with 0 <= center "
                          "<= 1"};
      }
    }
  }
  switch (out->kind) {
    case DistributionKind::kZipf:
      if (out->value == 1.0)
        throw Failure{"zipf theta must be different from 1.0",
                      "use e.g. zipf:1.2 (or zipf:0.99)"};
      break;
    case DistributionKind::kPareto:
      if (out->value <= 0 || out->value >= 1)
        throw Failure{"pareto h must lie strictly between 0 and 1",
                      "use e.g. pareto:0.9"};
      break;
    default:  // normal
      if (out->value < 0 || out->value >= 100)
        throw Failure{"the normal deviation must lie in [0, 100)",
                      "use e.g. normal:5 (percent of the region's blocks)"};
      break;
  }
}

}  // namespace

const char* DistributionKindName(DistributionKind kind) {
  switch (kind) {
    case DistributionKind::kRandom:
      return "random";
    case DistributionKind::kZipf:
      return "zipf";
    case DistributionKind::kPareto:
      return "pareto";
    case DistributionKind::kNormal:
      return "normal";
    case DistributionKind::kZoned:
      return "zoned";
    case DistributionKind::kZonedAbs:
      return "zoned_abs";
  }
  return "?";
}

bool ParseDistributionSpec(std::string_view text, DistributionSpec* out,
                           std::string* why, std::string* fix) {
  DistributionSpec spec;
  spec.text = TrimmedCopy(text);
  try {
    Parse(spec.text, &spec);
  } catch (const Failure& f) {
    *why = f.why;
    *fix = f.fix;
    return false;
  }
  *out = std::move(spec);
  return true;
}

}  // namespace tierbench
