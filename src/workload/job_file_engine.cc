// io_uring engine options of the job-file parser (see the header).
#include "workload/job_file_engine.h"

#include <charconv>
#include <climits>
#include <optional>

#include "util/strings.h"
#include "workload/job_file_values.h"

namespace tierbench {
namespace {

// fio's check_int(): a whole number, decimal or 0x hex, possibly negative.
bool ParseInt(const std::string& text, long long* out) {
  std::string_view v = text;
  bool negative = false;
  if (!v.empty() && v[0] == '-') {
    negative = true;
    v.remove_prefix(1);
  }
  int base = 10;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    v.remove_prefix(2);
    base = 16;
  }
  long long n = 0;
  const auto [ptr, ec] =
      std::from_chars(v.data(), v.data() + v.size(), n, base);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    return false;
  *out = negative ? -n : n;
  return true;
}

// FIO_OPT_STR_SET: the bare name sets it; a value is a number (non-zero
// sets) or one of fio's boolean words.
bool ParseSet(const OptionCtx& c) {
  if (!c.line.value) return true;
  const std::string v = Lower(TrimmedCopy(*c.line.value));
  if (const std::optional<bool> b = FioBool(v)) return *b;  // 0 and 1 too
  long long n = 0;
  if (!ParseInt(v, &n)) {
    c.Fail("'" + v + "' is not a number or boolean",
           std::string("write ") + c.name + " (or " + c.name + "=1), or " +
               c.name + "=0");
  }
  return n != 0;
}

int ParseIntIn(const OptionCtx& c, long long min, long long max) {
  const std::string v = c.Value();
  long long n = 0;
  if (!ParseInt(v, &n) || n < min || n > max) {
    c.Fail("'" + v + "' is not a whole number from " + std::to_string(min) +
               " to " + std::to_string(max),
           "use a plain number");
  }
  return static_cast<int>(n);
}

struct EngineOptionDef {
  const char* name;
  void (*apply)(const OptionCtx& c);
};

const EngineOptionDef kEngineOptions[] = {
    {"fixedbufs",
     [](const OptionCtx& c) { c.draft->spec.uring.fixedbufs = ParseSet(c); }},
    {"registerfiles",
     [](const OptionCtx& c) {
       c.draft->spec.uring.registerfiles = ParseSet(c);
     }},
    {"sqthread_poll",
     [](const OptionCtx& c) {
       c.draft->spec.uring.sqthread_poll = ParseSet(c);
     }},
    {"sqthread_poll_cpu",
     [](const OptionCtx& c) {
       c.draft->spec.uring.sqthread_poll_cpu = ParseIntIn(c, 0, INT_MAX);
     }},
    {"hipri",
     [](const OptionCtx& c) { c.draft->spec.uring.hipri = ParseSet(c); }},
    {"nonvectored",
     [](const OptionCtx& c) {
       // fio: -1 probes, 0 is vectored, anything else non-vectored.
       const int v = ParseIntIn(c, INT_MIN, INT_MAX);
       c.draft->spec.uring.nonvectored = v == -1 ? -1 : v != 0 ? 1 : 0;
     }},
};

std::string WhereSet(const JobDraft& d, const char* option) {
  auto it = d.where.find(option);
  return it != d.where.end() ? it->second : d.spec.origin;
}

}  // namespace

bool ApplyEngineOption(const OptionLine& line, JobDraft* draft,
                       std::vector<std::string>* /*notices*/) {
  for (const EngineOptionDef& def : kEngineOptions) {
    if (line.name != def.name) continue;
    def.apply(OptionCtx{line, def.name, draft});
    draft->where[def.name] = line.where;
    return true;
  }
  return false;
}

void FinalizeEngineOptions(JobDraft* d, std::vector<std::string>* notices) {
  const JobSpec& s = d->spec;
  if (s.ioengine != "io_uring") {
    for (const EngineOptionDef& def : kEngineOptions) {
      if (d->where.count(def.name) == 0) continue;
      ThrowOptionError(
          WhereSet(*d, def.name), def.name,
          "is an io_uring engine option in tierbench, but job '" + s.name +
              "' uses ioengine=" + s.ioengine,
          std::string("set ioengine=io_uring, or remove ") + def.name + "=");
    }
    return;
  }
  if (s.uring.hipri && !s.direct) {
    ThrowOptionError(WhereSet(*d, "hipri"), "hipri",
                     "polled completions (hipri) work only with O_DIRECT IO",
                     "add direct=1, or remove hipri");
  }
  if (d->where.count("sqthread_poll_cpu") != 0 && !s.uring.sqthread_poll) {
    notices->push_back(WhereSet(*d, "sqthread_poll_cpu") +
                       ": option 'sqthread_poll_cpu' applies only with "
                       "sqthread_poll (as in fio); ignored");
  }
}

}  // namespace tierbench
