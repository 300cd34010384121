// Rate and steady-state options of the job-file parser (see the header).
#include "workload/job_file_rate.h"

#include <charconv>
#include <cstdlib>

#include "util/errors.h"
#include "util/strings.h"
#include "util/units.h"
#include "workload/job_file_values.h"

namespace tierbench {
namespace {

using RateCtx = OptionCtx;

// "r", "r,w" or "r,w,t" (trim ignored); one value applies to both.
std::vector<std::string> PerDir(const RateCtx& c) {
  std::vector<std::string> parts;
  const std::string v = c.Value();
  size_t start = 0;
  while (true) {
    const size_t end = v.find(',', start);
    parts.push_back(
        TrimmedCopy(std::string_view(v).substr(start, end - start)));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (parts.size() > 3)
    c.Fail("more than three comma-separated values", "write read[,write]");
  if (parts.size() == 1) return {parts[0], parts[0]};
  parts.resize(2);
  return parts;
}

uint64_t Bytes(const RateCtx& c, const std::string& text) {
  uint64_t v = 0;
  const Status s = ParseSize(text, &v);
  if (!s.ok()) c.Fail(s.message(), "use bytes per second such as 500k or 1m");
  return v;
}

uint64_t Whole(const RateCtx& c, const std::string& text, uint64_t max) {
  uint64_t v = 0;
  const auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      v > max) {
    c.Fail(
        "'" + text + "' is not a whole number from 0 to " + std::to_string(max),
        "use a plain number");
  }
  return v;
}

uint64_t Duration(const RateCtx& c) {
  uint64_t ns = 0;
  const Status s = ParseDuration(c.Value(), kNsPerSec, &ns);
  if (!s.ok()) c.Fail(s.message(), "use e.g. 30 (seconds), 500ms or 2m");
  return ns;
}

// steadystate=<criterion>:<limit>[%] (fio's str_steadystate_cb).
void ParseSteadyState(const RateCtx& c) {
  const std::string v = c.Value();
  const size_t colon = v.find(':');
  const std::string crit = Lower(TrimmedCopy(v.substr(0, colon)));
  SteadyStateSpec& ss = c.draft->spec.steadystate;
  if (crit == "iops" || crit == "iops_slope") {
    ss.metric = SteadyStateMetric::kIops;
  } else if (crit == "bw" || crit == "bw_slope") {
    ss.metric = SteadyStateMetric::kBw;
  } else {
    c.Fail("'" + crit + "' is not a supported criterion",
           "use iops, iops_slope, bw or bw_slope, e.g. steadystate=iops:2%");
  }
  ss.slope = crit.size() > 6 && crit.compare(crit.size() - 6, 6, "_slope") == 0;
  if (colon == std::string::npos || TrimmedCopy(v.substr(colon + 1)).empty()) {
    c.Fail("the threshold must be specified in addition to the criterion",
           "write e.g. steadystate=" + crit + ":0.5%");
  }
  std::string limit = TrimmedCopy(v.substr(colon + 1));
  ss.percent = !limit.empty() && limit.back() == '%';
  if (ss.percent || ss.metric == SteadyStateMetric::kIops) {
    if (ss.percent) limit = TrimmedCopy(limit.substr(0, limit.size() - 1));
    char* end = nullptr;
    ss.limit = std::strtod(limit.c_str(), &end);
    if (limit.empty() || end != limit.c_str() + limit.size() || ss.limit < 0) {
      c.Fail("'" + limit + "' is not a non-negative number",
             "write e.g. steadystate=" + crit + ":2 or " + crit + ":0.5%");
    }
  } else {  // a bandwidth in bytes/s, with fio's size units
    ss.limit = static_cast<double>(Bytes(c, limit));
  }
}

using Apply = void (*)(const RateCtx&);

struct RateOptionDef {
  const char* name;
  const char* alias;
  Apply apply;
};

const RateOptionDef kRateOptions[] = {
    {"rate", nullptr,
     [](const RateCtx& c) {
       const std::vector<std::string> v = PerDir(c);
       for (int d = 0; d < kNumDirs; ++d) {
         if (!v[d].empty()) c.draft->spec.rate[d] = Bytes(c, v[d]);
       }
     }},
    {"rate_min", "ratemin",
     [](const RateCtx& c) {
       const std::vector<std::string> v = PerDir(c);
       for (int d = 0; d < kNumDirs; ++d) {
         if (!v[d].empty()) c.draft->spec.rate_min[d] = Bytes(c, v[d]);
       }
     }},
    {"rate_iops_min", nullptr,
     [](const RateCtx& c) {
       const std::vector<std::string> v = PerDir(c);
       for (int d = 0; d < kNumDirs; ++d) {
         if (!v[d].empty())
           c.draft->spec.rate_iops_min[d] = Whole(c, v[d], 100000000);
       }
     }},
    {"rate_process", nullptr,
     [](const RateCtx& c) {
       const std::string v = Lower(c.Value());
       if (v == "linear") {
         c.draft->spec.rate_process = RateProcess::kLinear;
       } else if (v == "poisson") {
         c.draft->spec.rate_process = RateProcess::kPoisson;
       } else {
         c.Fail("'" + v + "' is not a rate process",
                "use rate_process=linear or rate_process=poisson");
       }
     }},
    {"rate_cycle", "ratecycle",
     [](const RateCtx& c) {
       const uint64_t ms = Whole(c, c.Value(), 86400000);
       if (ms == 0) c.Fail("must be at least 1 (ms)", "e.g. rate_cycle=1000");
       c.draft->spec.rate_cycle_ns = ms * kNsPerMs;
     }},
    {"rate_ignore_thinktime", nullptr,
     [](const RateCtx& c) {
       c.draft->spec.rate_ignore_thinktime = ParseBool(c);
     }},
    {"steadystate", "ss", ParseSteadyState},
    {"steadystate_duration", "ss_dur",
     [](const RateCtx& c) { c.draft->spec.steadystate.dur_ns = Duration(c); }},
    {"steadystate_ramp_time", "ss_ramp",
     [](const RateCtx& c) { c.draft->spec.steadystate.ramp_ns = Duration(c); }},
};

std::string Where(const JobDraft& d, const std::string& option) {
  auto it = d.where.find(option);
  return it != d.where.end() ? it->second : d.spec.origin;
}

bool Any(const uint64_t (&v)[kNumDirs]) { return v[0] != 0 || v[1] != 0; }

}  // namespace

bool ApplyRateOption(const OptionLine& line, JobDraft* draft,
                     std::vector<std::string>* /*notices*/) {
  for (const RateOptionDef& def : kRateOptions) {
    if (line.name != def.name &&
        (def.alias == nullptr || line.name != def.alias))
      continue;
    def.apply(RateCtx{line, def.name, draft});
    draft->where[def.name] = line.where;
    return true;
  }
  return false;
}

void FinalizeRateOptions(JobDraft* d, std::vector<std::string>* notices) {
  const JobSpec& s = d->spec;
  if ((Any(s.rate) && Any(s.rate_iops)) ||
      (Any(s.rate_min) && Any(s.rate_iops_min))) {
    const char* opt =
        Any(s.rate) && Any(s.rate_iops) ? "rate_iops" : "rate_iops_min";
    ThrowOptionError(Where(*d, opt), opt,
                     "rate and rate_iops are mutually exclusive (fio refuses "
                     "this too)",
                     "cap by bandwidth (rate=, rate_min=) or by IOPS "
                     "(rate_iops=, rate_iops_min=), not both");
  }
  for (int dir = 0; dir < kNumDirs; ++dir) {
    const bool bytes_low = s.rate[dir] != 0 && s.rate[dir] < s.rate_min[dir];
    const bool iops_low =
        s.rate_iops[dir] != 0 && s.rate_iops[dir] < s.rate_iops_min[dir];
    if (bytes_low || iops_low) {
      const char* opt = bytes_low ? "rate_min" : "rate_iops_min";
      ThrowOptionError(Where(*d, opt), opt,
                       std::string("minimum rate exceeds rate for ") +
                           IoDirName(static_cast<IoDir>(dir)) +
                           " (fio refuses this too)",
                       std::string("make ") + opt + " at most " +
                           (bytes_low ? "rate" : "rate_iops"));
    }
    const bool used = dir == 0 ? PatternReads(s.rw) : PatternWrites(s.rw);
    const uint64_t bps =
        s.rate[dir] != 0 ? s.rate[dir] : s.rate_iops[dir] * s.bs[dir].min;
    if (used && bps != 0 && s.rate_process == RateProcess::kPoisson &&
        bps / std::max<uint64_t>(1, s.bs[dir].min) == 0) {
      ThrowOptionError(Where(*d, "rate"), "rate",
                       "rate=" + std::to_string(bps) +
                           " is below one block of " +
                           std::to_string(s.bs[dir].min) +
                           " bytes per second, so rate_process=poisson has no "
                           "IO rate",
                       "raise rate= to at least the smallest block size per "
                       "second");
    }
  }
  const SteadyStateSpec& ss = s.steadystate;
  if (ss.dur_ns != 0 && !ss.enabled()) {
    ThrowOptionError(Where(*d, "steadystate_duration"), "ss_dur",
                     "is shorter than one second (fio would silently turn "
                     "steady-state detection off)",
                     "use ss_dur of at least 1s, or drop it");
  }
  if (ss.enabled() && ss.slope && ss.intervals() < 2) {
    ThrowOptionError(Where(*d, "steadystate_duration"), "ss_dur",
                     "a slope needs at least 2 one-second samples",
                     "use ss_dur=2 or longer with " + ss.Describe());
  }
  if (!ss.enabled() && d->where.count("steadystate") != 0) {
    notices->push_back(Where(*d, "steadystate") +
                       ": option 'steadystate' has no effect without ss_dur= "
                       "(as in fio); ignored");
  }
}

void CheckSteadyStateGroups(const std::vector<JobSpec>& jobs) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    for (size_t k = 0; k < i; ++k) {
      if (jobs[k].group_id != jobs[i].group_id) continue;
      const SteadyStateSpec& a = jobs[k].steadystate;
      const SteadyStateSpec& b = jobs[i].steadystate;
      if (!a.enabled() && !b.enabled()) continue;
      if (a.enabled() && b.enabled() && a == b) continue;
      throw ConfigError(
          jobs[i].origin + ": job '" + jobs[i].name +
          "' rejected: steadystate options must be consistent within "
          "reporting groups (as in fio; job '" +
          jobs[k].name +
          "' of the same group differs). Fix: give the jobs the same "
          "steadystate=/ss_dur=/ss_ramp=, or add stonewall to start a new "
          "group");
    }
  }
}

}  // namespace tierbench
