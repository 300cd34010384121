// The supported fio options, one table row each (fio's options.c idea):
// canonical name, aliases, and the handler that parses the value into the
// draft. Output-only options have their own table with the reason they are
// ignored.
#include "workload/job_file_options.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include "tracefile/trace_reader.h"
#include "util/errors.h"
#include "util/strings.h"
#include "util/units.h"
#include "workload/job_file_cpu.h"
#include "workload/job_file_engine.h"
#include "workload/job_file_rate.h"
#include "workload/job_file_values.h"
#include "workload/job_file_verify.h"

namespace tierbench {
namespace {

// The option a table row is applying (workload/job_file_values.h).
using Ctx = TableOptionCtx;

// rwmixread / rwmixwrite: setting one sets the other (fio); both in one
// section must agree.
void SetRwmix(const Ctx& c, bool is_read, uint32_t value) {
  JobDraft* d = c.draft;
  (is_read ? d->section_rwmixread : d->section_rwmixwrite) = value;
  if (d->section_rwmixread && d->section_rwmixwrite &&
      *d->section_rwmixread + *d->section_rwmixwrite != 100) {
    c.Fail("rwmixread=" + std::to_string(*d->section_rwmixread) +
               " and rwmixwrite=" + std::to_string(*d->section_rwmixwrite) +
               " do not add up to 100",
           "give only one of rwmixread/rwmixwrite, or make them add up to 100");
  }
  d->spec.rwmixread = is_read ? value : 100 - value;
  d->where["rwmixread"] = c.line.where;
}

// file_service_type=roundrobin|sequential|random[:N] (fio's str_fst_cb; the
// skewed zipf/pareto/normal choices are refused).
void ParseFileService(const Ctx& c) {
  const std::string v = TrimmedCopy(c.Value());
  const size_t colon = v.find(':');
  const std::string kind = Lower(TrimmedCopy(v.substr(0, colon)));
  JobSpec& s = c.draft->spec;
  if (kind == "roundrobin") {
    s.file_service = FileService::kRoundRobin;
  } else if (kind == "sequential") {
    s.file_service = FileService::kSequential;
  } else if (kind == "random") {
    s.file_service = FileService::kRandom;
  } else {
    c.Fail("'" + kind + "' is not a supported file service type",
           "use roundrobin, sequential or random (optionally :N)");
  }
  s.file_service_nr =
      colon == std::string::npos
          ? 1
          : static_cast<uint32_t>(
                ParseUint(c, TrimmedCopy(v.substr(colon + 1)), 1, UINT32_MAX));
}

// Parses the value of one option into the draft; throws via Ctx::Fail.
using Handler = std::function<void(const Ctx&)>;

struct OptionDef {
  const char* name;
  std::vector<const char*> aliases;
  Handler apply;
};

const std::vector<OptionDef>& Options() {
  static const std::vector<OptionDef> kOptions = {
      {"name",
       {},
       [](const Ctx& c) {
         c.draft->spec.name = TrimmedCopy(c.Value());
         if (c.draft->spec.name.empty())
           c.Fail("the name is empty", "write name=<job name>");
       }},
      // fio separates several files with ':'; tierbench runs one file per
      // job, so only an escaped '\:' may appear in the path.
      {"filename",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         std::string out;
         for (size_t i = 0; i < v.size(); ++i) {
           if (v[i] == '\\' && i + 1 < v.size() && v[i + 1] == ':') {
             out += ':';
             ++i;
           } else if (v[i] == ':') {
             c.Fail("several files per job ('" + v + "') are not supported",
                    "give each target its own job, or escape a ':' in the path "
                    "as '\\:'");
           } else {
             out += v[i];
           }
         }
         if (out.empty())
           c.Fail("the file name is empty", "write filename=<device or file>");
         c.draft->spec.filename = out;
       }},
      {"directory",
       {},
       [](const Ctx& c) {
         c.draft->directory = TrimmedCopy(c.Value());
         if (c.draft->directory.empty())
           c.Fail("the directory is empty", "write directory=<dir>");
       }},
      {"nrfiles",
       {"nr_files"},
       [](const Ctx& c) { c.draft->spec.nrfiles = ParseU32(c, 1, 65536); }},
      {"filesize",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         const size_t dash = v.find('-');
         const uint64_t lo = ParseBytes(c, TrimmedCopy(v.substr(0, dash)));
         const uint64_t hi =
             dash == std::string::npos
                 ? lo
                 : ParseBytes(c, TrimmedCopy(v.substr(dash + 1)));
         if (lo == 0)
           c.Fail("file size must be greater than 0", "use e.g. 64M");
         if (hi < lo)
           c.Fail("the minimum is larger than the maximum",
                  "write filesize=min-max, e.g. 16M-64M");
         c.draft->spec.filesize_min = lo;
         c.draft->spec.filesize_max = hi;
       }},
      {"openfiles",
       {},
       [](const Ctx& c) { c.draft->spec.openfiles = ParseU32(c, 1, 65536); }},
      {"file_service_type", {}, [](const Ctx& c) { ParseFileService(c); }},
      {"rw",
       {"readwrite"},
       [](const Ctx& c) {
         static const std::pair<const char*, RwPattern> kPatterns[] = {
             {"read", RwPattern::kRead},
             {"write", RwPattern::kWrite},
             {"randread", RwPattern::kRandRead},
             {"randwrite", RwPattern::kRandWrite},
             {"rw", RwPattern::kReadWrite},
             {"readwrite", RwPattern::kReadWrite},
             {"randrw", RwPattern::kRandReadWrite}};
         const std::string v = TrimmedCopy(c.Value());
         for (const auto& [text, pattern] : kPatterns) {
           if (v == text) {
             c.draft->spec.rw = pattern;
             return;
           }
         }
         c.Fail(
             "'" + v + "' is not a supported IO pattern",
             "use read, write, randread, randwrite, rw (readwrite) or randrw");
       }},
      {"rwmixread",
       {},
       [](const Ctx& c) { SetRwmix(c, true, ParseU32(c, 0, 100)); }},
      {"rwmixwrite",
       {},
       [](const Ctx& c) { SetRwmix(c, false, ParseU32(c, 0, 100)); }},
      {"percentage_random",
       {},
       [](const Ctx& c) {
         const std::vector<std::string> v = PerDir(c);
         const uint64_t r = ParseUint(c, v[0], 0, 100);
         if (!v[1].empty() && ParseUint(c, v[1], 0, 100) != r) {
           c.Fail("different read and write percentages are not supported",
                  "give one percentage for both directions");
         }
         c.draft->spec.percentage_random = static_cast<uint32_t>(r);
       }},
      {"bs",
       {"blocksize"},
       [](const Ctx& c) {
         const std::vector<std::string> v = PerDir(c);
         for (int d = 0; d < kNumDirs; ++d) {
           if (v[d].empty()) continue;
           c.draft->spec.bs[d].min = c.draft->spec.bs[d].max =
               ParseBlockSize(c, v[d]);
         }
       }},
      {"blocksize_range",
       {"bsrange"},
       [](const Ctx& c) {
         const std::vector<std::string> v = PerDir(c);
         for (int d = 0; d < kNumDirs; ++d) {
           if (v[d].empty()) continue;
           const size_t dash = v[d].find_first_of("-:");
           if (dash == std::string::npos) {
             c.Fail("'" + v[d] + "' is not a range",
                    "write min-max, e.g. 4k-64k");
           }
           const uint64_t lo = ParseBlockSize(
               c, TrimmedCopy(std::string_view(v[d]).substr(0, dash)));
           const uint64_t hi = ParseBlockSize(
               c, TrimmedCopy(std::string_view(v[d]).substr(dash + 1)));
           if (lo > hi)
             c.Fail("the minimum is larger than the maximum", "write min-max");
           c.draft->spec.bs[d].min = lo;
           c.draft->spec.bs[d].max = hi;
         }
         c.draft->where["bs"] = c.line.where;
       }},
      {"bssplit",
       {},
       [](const Ctx& c) {
         const std::vector<std::string> v = PerDir(c);
         for (int d = 0; d < kNumDirs; ++d) {
           if (v[d].empty()) continue;
           c.draft->spec.bs[d].split = ParseSplit(c, v[d]);
         }
         c.draft->where["bs"] = c.line.where;
       }},
      {"blockalign",
       {"ba"},
       [](const Ctx& c) {
         const std::vector<std::string> v = PerDir(c);
         for (int d = 0; d < kNumDirs; ++d) {
           if (!v[d].empty()) c.draft->spec.blockalign[d] = ParseBytes(c, v[d]);
         }
       }},
      {"iodepth",
       {},
       [](const Ctx& c) { c.draft->spec.iodepth = ParseU32(c, 1, 65536); }},
      {"iodepth_batch_submit",
       {"iodepth_batch"},
       [](const Ctx& c) {
         c.draft->spec.iodepth_batch_submit = ParseU32(c, 0, 65536);
       }},
      {"iodepth_batch_complete_min",
       {"iodepth_batch_complete"},
       [](const Ctx& c) {
         c.draft->spec.iodepth_batch_complete_min = ParseU32(c, 0, 65536);
       }},
      {"iodepth_batch_complete_max",
       {},
       [](const Ctx& c) {
         c.draft->spec.iodepth_batch_complete_max = ParseU32(c, 0, 65536);
       }},
      {"numjobs",
       {},
       [](const Ctx& c) { c.draft->spec.numjobs = ParseU32(c, 1, 4096); }},
      {"direct", {}, [](const Ctx& c) { c.draft->spec.direct = ParseBool(c); }},
      {"buffered",
       {},
       [](const Ctx& c) {
         c.draft->spec.direct = !ParseBool(c);
         c.draft->where["direct"] = c.line.where;
       }},
      {"ioengine",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         if (v == "libaio" || v == "io_uring" || v == "psync" || v == "null") {
           c.draft->spec.ioengine = v;
         } else if (v == "sync") {
           c.draft->spec.ioengine = "psync";
           c.notices->push_back(
               c.line.where +
               ": option 'ioengine': 'sync' (lseek + read/write) runs as psync "
               "(pread/pwrite); the IO pattern is the same");
         } else {
           c.Fail("engine '" + v + "' is not supported by tierbench",
                  "use ioengine=libaio, io_uring, psync or null");
         }
       }},
      {"size",
       {},
       [](const Ctx& c) { c.draft->spec.size = ParseSizeOrPercent(c, false); }},
      {"offset",
       {},
       [](const Ctx& c) {
         c.draft->spec.offset = ParseSizeOrPercent(c, true);
       }},
      {"runtime",
       {"timeout"},
       [](const Ctx& c) {
         c.draft->spec.runtime_ns = ParseDurationNs(c, kNsPerSec);
       }},
      {"time_based",
       {},
       [](const Ctx& c) { c.draft->spec.time_based = ParseBool(c); }},
      {"ramp_time",
       {},
       [](const Ctx& c) {
         c.draft->spec.ramp_time_ns = ParseDurationNs(c, kNsPerSec);
       }},
      {"loops",
       {},
       [](const Ctx& c) { c.draft->spec.loops = ParseU32(c, 1, UINT32_MAX); }},
      {"startdelay",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         const size_t dash = v.find('-');
         c.draft->spec.startdelay_ns =
             DurationNs(c, v.substr(0, dash), kNsPerSec);
         c.draft->spec.startdelay_max_ns =
             dash == std::string::npos
                 ? 0
                 : DurationNs(c, v.substr(dash + 1), kNsPerSec);
         if (dash != std::string::npos &&
             c.draft->spec.startdelay_max_ns < c.draft->spec.startdelay_ns) {
           c.Fail("the range's start is after its end",
                  "write startdelay=low-high, e.g. 1-5");
         }
       }},
      {"io_size",
       {"io_limit"},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         if (!v.empty() && v.back() == '%')
           c.Fail("a percentage is not supported here",
                  "give io_size in bytes, e.g. io_size=4G");
         c.draft->spec.io_size = ParseBytes(c, v);
       }},
      {"number_ios",
       {},
       [](const Ctx& c) {
         c.draft->spec.number_ios =
             ParseUint(c, TrimmedCopy(c.Value()), 0, UINT64_MAX);
       }},
      {"kb_base",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         if (v != "1024" && v != "1000")
           c.Fail("'" + v + "' is not a kb_base", "use kb_base=1024 or 1000");
         c.draft->spec.kb_base = v == "1000" ? 1000 : 1024;
       }},
      {"fsync",
       {},
       [](const Ctx& c) {
         c.draft->spec.fsync_blocks = ParseU32(c, 0, UINT32_MAX);
       }},
      {"fdatasync",
       {},
       [](const Ctx& c) {
         c.draft->spec.fdatasync_blocks = ParseU32(c, 0, UINT32_MAX);
       }},
      {"end_fsync",
       {},
       [](const Ctx& c) { c.draft->spec.end_fsync = ParseBool(c); }},
      {"allow_mounted_write",
       {},
       [](const Ctx& c) { c.draft->spec.allow_mounted_write = ParseBool(c); }},
      {"norandommap",
       {},
       [](const Ctx& c) { c.draft->spec.norandommap = ParseBool(c); }},
      {"random_distribution",
       {},
       [](const Ctx& c) {
         std::string why, fix;
         if (!ParseDistributionSpec(
                 c.Value(), &c.draft->spec.random_distribution, &why, &fix)) {
           c.Fail(why, fix);
         }
       }},
      {"random_generator",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         if (v != "tausworthe" && v != "tausworthe64" && v != "lfsr") {
           c.Fail("'" + v + "' is not a random generator",
                  "use tausworthe, tausworthe64 or lfsr");
         }
         c.notices->push_back(
             c.line.where +
             ": option 'random_generator': tierbench draws "
             "with its own generator (xoshiro256**), so '" +
             v +
             "' is not used; the offsets follow the same rules (lfsr's "
             "each-block-once is what the random map already gives)");
       }},
      {"randrepeat",
       {},
       [](const Ctx& c) { c.draft->spec.randrepeat = ParseBool(c); }},
      {"randseed",
       {},
       [](const Ctx& c) {
         c.draft->spec.randseed =
             ParseUint(c, TrimmedCopy(c.Value()), 0, UINT64_MAX);
         c.draft->spec.randseed_set = true;
       }},
      {"group_reporting",
       {},
       [](const Ctx& c) { c.draft->spec.group_reporting = ParseBool(c); }},
      {"stonewall",
       {"wait_for_previous"},
       [](const Ctx& c) { c.draft->spec.stonewall = ParseBool(c); }},
      {"thinktime",
       {},
       [](const Ctx& c) {
         c.draft->spec.thinktime_ns = ParseDurationNs(c, kNsPerUs);
       }},
      {"rate_iops",
       {},
       [](const Ctx& c) {
         const std::vector<std::string> v = PerDir(c);
         for (int d = 0; d < kNumDirs; ++d) {
           if (!v[d].empty())
             c.draft->spec.rate_iops[d] = ParseUint(c, v[d], 0, 100000000);
         }
       }},
      // Trace replay and recording (tracefile/iolog.h, replay_source.h).
      {"read_iolog",
       {},
       [](const Ctx& c) {
         const std::string v = TrimmedCopy(c.Value());
         if (v.empty())
           c.Fail("the trace path is empty", "write read_iolog=<iolog file>");
         if (v.find(':') != std::string::npos) {
           c.Fail("one trace per clone ('" + v + "') is not supported",
                  "give each trace its own job");
         }
         c.draft->spec.read_iolog = v;
       }},
      {"write_iolog",
       {},
       [](const Ctx& c) {
         c.draft->spec.write_iolog = TrimmedCopy(c.Value());
         if (c.draft->spec.write_iolog.empty())
           c.Fail("the iolog path is empty", "write write_iolog=<file>");
       }},
      {"replay_no_stall",
       {},
       [](const Ctx& c) { c.draft->spec.replay_no_stall = ParseBool(c); }},
      {"replay_time_scale",
       {},
       [](const Ctx& c) {
         c.draft->spec.replay_time_scale = ParseU32(c, 1, UINT32_MAX);
       }},
      {"replay_format",
       {},
       [](const Ctx& c) {
         const std::string v = Lower(TrimmedCopy(c.Value()));
         if (!TraceFormatOfWord(v)) {
           c.Fail("'" + v + "' is not a trace format",
                  "write "
                  "replay_format=auto|iolog|blkparse|msr|cbs|alibaba|blktrace|"
                  "vscsi|oracle "
                  "(auto detects it from the content)");
         }
         c.draft->spec.replay_format = v;
       }},
      {"replay_volume",
       {},
       [](const Ctx& c) {
         c.draft->spec.replay_volume = TrimmedCopy(c.Value());
         if (c.draft->spec.replay_volume.empty()) {
           c.Fail("the volume is empty",
                  "write replay_volume=<volume of the trace> (tierbench "
                  "trace-stats lists them)");
         }
       }},
      {"replay_scale",
       {},
       [](const Ctx& c) {
         c.draft->spec.replay_scale =
             ParseUint(c, TrimmedCopy(c.Value()), 1, UINT32_MAX);
       }},
      {"replay_align",
       {},
       [](const Ctx& c) {
         const uint64_t v = ParseBytes(c, TrimmedCopy(c.Value()));
         if (v == 0 || (v & (v - 1)) != 0) {
           c.Fail("replay_align=" + TrimmedCopy(c.Value()) +
                      " is not a power of 2",
                  "write a power of 2, e.g. replay_align=4k");
         }
         c.draft->spec.replay_align = v;
       }},
      {"replay_wrap",
       {},
       [](const Ctx& c) { c.draft->spec.replay_wrap = ParseBool(c); }},
      {"replay_redirect",
       {},
       [](const Ctx& c) {
         c.draft->replay_redirect = TrimmedCopy(c.Value());
         if (c.draft->replay_redirect.empty()) {
           c.Fail("the target is empty",
                  "write replay_redirect=<device or file>");
         }
       }},
  };
  return kOptions;
}

// Options accepted and ignored, with the reason given in the notice.
struct IgnoredOption {
  const char* name;
  const char* reason;
};

constexpr const char* kOutputOnly = "only affects fio's output";
const IgnoredOption kIgnored[] = {
    {"gtod_reduce", kOutputOnly},
    {"disable_lat", kOutputOnly},
    {"disable_clat", kOutputOnly},
    {"disable_slat", kOutputOnly},
    {"disable_bw_measurement", kOutputOnly},
    {"disable_bw", kOutputOnly},
    {"clat_percentiles", kOutputOnly},
    {"lat_percentiles", kOutputOnly},
    {"slat_percentiles", kOutputOnly},
    {"percentile_list", kOutputOnly},
    {"write_bw_log", kOutputOnly},
    {"write_iops_log", kOutputOnly},
    {"write_lat_log", kOutputOnly},
    {"write_hist_log", kOutputOnly},
    {"log_avg_msec", kOutputOnly},
    {"log_hist_msec", kOutputOnly},
    {"log_max_value", kOutputOnly},
    {"log_offset", kOutputOnly},
    {"per_job_logs", kOutputOnly},
    {"bwavgtime", kOutputOnly},
    {"iopsavgtime", kOutputOnly},
    {"unified_rw_reporting", kOutputOnly},
    {"significant_figures", kOutputOnly},
    {"eta", kOutputOnly},
    {"eta_newline", kOutputOnly},
    {"status-interval", kOutputOnly},
    {"description", "is a text for fio's output"},
    {"thread", "is implied: tierbench always runs clones as threads"},
    {"invalidate",
     "is not applied: tierbench does not drop the page cache per job (direct=1 "
     "bypasses it)"},
};

}  // namespace

void ThrowOptionError(const std::string& where, std::string_view option,
                      const std::string& why, const std::string& fix) {
  throw ConfigError(where + ": option '" + std::string(option) + "': " + why +
                    ". Fix: " + fix);
}

void ApplyJobOption(const OptionLine& line, JobDraft* draft,
                    std::vector<std::string>* notices) {
  for (const OptionDef& def : Options()) {
    bool match = line.name == def.name;
    for (const char* alias : def.aliases) match = match || line.name == alias;
    if (!match) continue;
    const Ctx ctx{line, def.name, draft, notices};
    def.apply(ctx);
    draft->where[def.name] = line.where;
    return;
  }
  if (ApplyRateOption(line, draft, notices)) return;
  if (ApplyEngineOption(line, draft, notices)) return;
  if (ApplyVerifyOption(line, draft, notices)) return;
  if (ApplyCpuOption(line, draft)) return;
  for (const IgnoredOption& ignored : kIgnored) {
    if (line.name != ignored.name) continue;
    notices->push_back(line.where + ": option '" + std::string(line.name) +
                       "' " + ignored.reason + "; ignored");
    return;
  }
  ThrowOptionError(
      line.where, line.name, "unknown or unsupported option",
      "remove it or check its spelling; man tierbench-jobfile lists the "
      "supported fio options");
}

}  // namespace tierbench
