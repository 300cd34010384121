// CPU affinity options of the job-file parser (see the header).
#include "workload/job_file_cpu.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

#include "util/errors.h"
#include "util/strings.h"

namespace tierbench {
namespace {

// `v` when the machine has it (fio: "CPU 9 too large (max=1)").
long CheckCpu(const OptionCtx& c, long v, long max) {
  if (v >= max) {
    c.Fail("CPU " + std::to_string(v) +
               " too large (max=" + std::to_string(max - 1) + ")",
           "use CPUs from 0 to " + std::to_string(max - 1) + " (this machine)");
  }
  return v;
}

long Number(const OptionCtx& c, std::string_view text, long max) {
  long v = 0;
  const auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      v < 0) {
    c.Fail("'" + std::string(text) + "' is not a CPU number",
           "list CPUs from 0 as in 0,5,8-15");
  }
  return CheckCpu(c, v, max);
}

void SetCpus(const OptionCtx& c, std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  if (cpus.empty()) c.Fail("no CPU given", "list CPUs from 0 as in 0,5,8-15");
  c.draft->spec.cpus = std::move(cpus);
}

void CpusAllowed(const OptionCtx& c, long max) {
  const std::string v = c.Value();
  std::vector<std::string> items = SplitTrimmed(v, ',');
  if (items.size() > 1 && items.back().empty()) items.pop_back();  // fio: "4,"
  std::vector<int> cpus;
  for (const std::string& item : items) {
    if (item.empty()) {
      c.Fail("an empty item in '" + v + "'", "list CPUs as in 0,5,8-15");
    }
    const size_t dash = item.find('-');
    const long lo = Number(c, std::string_view(item).substr(0, dash), max);
    const long hi =
        dash == std::string::npos
            ? lo
            : Number(c, std::string_view(item).substr(dash + 1), max);
    if (hi < lo) {
      c.Fail("the range '" + item + "' runs backwards",
             "write the lower CPU first, as in 8-15");
    }
    for (long cpu = lo; cpu <= hi; ++cpu) cpus.push_back(static_cast<int>(cpu));
  }
  SetCpus(c, std::move(cpus));
}

void CpuMask(const OptionCtx& c, long max) {
  const std::string v = c.Value();
  uint64_t mask = 0;
  const bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  const char* first = v.data() + (hex ? 2 : 0);
  const auto [ptr, ec] =
      std::from_chars(first, v.data() + v.size(), mask, hex ? 16 : 10);
  if (ec != std::errc() || ptr != v.data() + v.size() || mask == 0) {
    c.Fail("'" + v + "' is not a CPU mask",
           "give a positive bit mask, e.g. 34 (CPUs 1 and 5) or 0x3");
  }
  std::vector<int> cpus;
  for (int bit = 0; bit < 64; ++bit) {
    if ((mask >> bit) & 1) {
      cpus.push_back(static_cast<int>(CheckCpu(c, bit, max)));
    }
  }
  SetCpus(c, std::move(cpus));
}

}  // namespace

bool ApplyCpuOption(const OptionLine& line, JobDraft* draft,
                    long configured_cpus) {
  const long max = std::max(1L, configured_cpus);
  if (line.name == "cpus_allowed") {
    CpusAllowed(OptionCtx{line, "cpus_allowed", draft}, max);
  } else if (line.name == "cpumask") {
    CpuMask(OptionCtx{line, "cpumask", draft}, max);
  } else if (line.name == "cpus_allowed_policy") {
    const OptionCtx c{line, "cpus_allowed_policy", draft};
    const std::string v = Lower(c.Value());
    if (v != "shared" && v != "split") {
      c.Fail("'" + v + "' is not a policy", "use shared or split");
    }
    draft->spec.cpus_split = v == "split";
  } else {
    return false;
  }
  // cpumask and cpus_allowed set the same thing: the later one counts.
  draft->where[line.name == "cpus_allowed_policy" ? "cpus_allowed_policy"
                                                  : "cpus_allowed"] =
      line.where;
  return true;
}

bool ApplyCpuOption(const OptionLine& line, JobDraft* draft) {
  if (line.name != "cpus_allowed" && line.name != "cpumask" &&
      line.name != "cpus_allowed_policy") {
    return false;
  }
  return ApplyCpuOption(line, draft, sysconf(_SC_NPROCESSORS_CONF));
}

std::vector<int> CloneCpus(const JobSpec& spec, uint32_t thread_number) {
  if (spec.cpus.empty() || !spec.cpus_split) return spec.cpus;
  return {spec.cpus[thread_number % spec.cpus.size()]};
}

void CheckCpusAvailable(const JobSpec& spec) {
  if (spec.cpus.empty()) return;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return;
  std::vector<int> usable, missing;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) usable.push_back(cpu);
  }
  for (int cpu : spec.cpus) {
    if (!CPU_ISSET(cpu, &allowed)) missing.push_back(cpu);
  }
  if (missing.empty() ||
      (!spec.cpus_split && missing.size() < spec.cpus.size())) {
    return;
  }
  throw ConfigError(
      (spec.origin.empty() ? std::string() : spec.origin + ": ") + "job '" +
      spec.name + "': cpus_allowed " + CpuListText(spec.cpus) +
      (spec.cpus_split ? " (split)" : "") + ": CPU " + CpuListText(missing) +
      " is not available to this process (it may use " + CpuListText(usable) +
      "). Fix: choose CPUs from " + CpuListText(usable));
}

Status PinCurrentThread(const std::vector<int>& cpus) {
  if (cpus.empty()) return Status::Ok();
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus) CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    return Status::FromErrno("sched_setaffinity to CPUs " + CpuListText(cpus),
                             errno);
  }
  return Status::Ok();
}

std::string CpuListText(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(cpus[i]);
    if (j > i) out += "-" + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace tierbench
