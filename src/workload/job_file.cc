// fio job-file parsing: lines and sections here, the option table in
// job_file_options.cc. Jobs are collected as drafts (spec + where each value
// came from), then command-line overrides are applied and every job is
// validated, so errors point at the line that set the offending value.
#include "workload/job_file.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "util/errors.h"
#include "util/strings.h"
#include "util/units.h"
#include "workload/job_file_engine.h"
#include "workload/job_file_options.h"
#include "workload/job_file_rate.h"
#include "workload/job_file_subst.h"
#include "workload/job_file_verify.h"

namespace tierbench {

namespace {

constexpr uint64_t kSectorBytes = 512;
constexpr int kMaxIncludeDepth = 16;

// Cuts a trailing comment: '#' or ';' preceded by blank space.
std::string_view StripTrailingComment(std::string_view s) {
  for (size_t i = 1; i < s.size(); ++i) {
    if ((s[i] == '#' || s[i] == ';') &&
        std::isspace(static_cast<unsigned char>(s[i - 1]))) {
      return Trim(s.substr(0, i));
    }
  }
  return s;
}

// Parses job files into drafts; keeps [global] state per file and counts
// reporting groups across files.
class JobFileParser {
 public:
  explicit JobFileParser(Workload* out) : out_(out) {}

  void ParseText(std::string_view text, const std::string& origin) {
    FileState state;  // each file starts from fio's defaults
    ParseLines(text, origin, 0, &state);
    if (state.in_job) AddJob(std::move(state.job), &state.first_job_of_file);
    if (state.first_job_of_file) {
      throw ConfigError(
          origin +
          ": no job sections, so nothing to run (fio needs at least one "
          "[job] besides [global]). Fix: add a section such as [job1]");
    }
  }

  std::vector<JobDraft>& drafts() { return drafts_; }

 private:
  // Parsing state of one top-level file (its includes share it).
  struct FileState {
    JobDraft global;
    JobDraft job;
    JobDraft* current = nullptr;
    bool in_job = false;
    bool first_job_of_file = true;
  };

  // Parses the lines of `text`; depth > 0 for included files, which may not
  // open sections (as fio: "No new sections in included files").
  void ParseLines(std::string_view text, const std::string& origin, int depth,
                  FileState* st) {
    int line_number = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = Trim(text.substr(pos, end - pos));
      pos = end + 1;
      ++line_number;
      if (line.empty() || line[0] == '#' || line[0] == ';') continue;
      line = StripTrailingComment(line);
      const std::string where = origin + ":" + std::to_string(line_number);
      if (line[0] == '[') {
        if (depth > 0) {
          throw ConfigError(where +
                            ": a section header in an included file (fio "
                            "allows none). Fix: move [" +
                            std::string(Trim(line.substr(1))) +
                            " into the including file");
        }
        StartSection(line, where, st);
        continue;
      }
      if (IsInclude(line)) {
        Include(line, where, origin, depth, st);
        continue;
      }
      const ExpandedLine expanded = ExpandLine(line);
      OptionLine option;
      option.where = where;
      option.expansion_note = expanded.note;
      const std::string_view text_line = expanded.text;
      const size_t eq = text_line.find('=');
      option.name = Trim(text_line.substr(0, eq));
      if (eq != std::string_view::npos)
        option.value = Trim(text_line.substr(eq + 1));
      if (st->current == nullptr) {
        ThrowOptionError(where, option.name, "is outside any section",
                         "put it under [global] or a [job] section");
      }
      ApplyJobOption(option, st->current, &out_->notices);
    }
  }

  void StartSection(std::string_view line, const std::string& where,
                    FileState* st) {
    if (st->in_job) AddJob(std::move(st->job), &st->first_job_of_file);
    st->in_job = false;
    const std::string name = SectionName(line, where);
    if (name == "global") {
      st->current = &st->global;
    } else {
      st->job = st->global;
      st->job.spec.name = name;
      st->job.spec.origin = where;
      st->current = &st->job;
      st->in_job = true;
    }
    st->current->section_rwmixread.reset();
    st->current->section_rwmixwrite.reset();
  }

  static bool IsInclude(std::string_view line) {
    constexpr std::string_view kInclude = "include";
    return line.size() > kInclude.size() &&
           line.substr(0, kInclude.size()) == kInclude &&
           std::isspace(static_cast<unsigned char>(line[kInclude.size()]));
  }

  // fio's include: the name as given (relative to the working directory)
  // when it exists, else relative to the including file's directory.
  void Include(std::string_view line, const std::string& where,
               const std::string& origin, int depth, FileState* st) {
    const std::string name(
        Trim(line.substr(std::string_view("include").size())));
    if (st->current == nullptr) {
      throw ConfigError(where + ": include " + name +
                        " is outside any section. Fix: put it under [global] "
                        "or a [job] section");
    }
    if (depth >= kMaxIncludeDepth) {
      throw ConfigError(where + ": include " + name + " nests more than " +
                        std::to_string(kMaxIncludeDepth) +
                        " levels deep (an include loop?). Fix: remove the "
                        "loop");
    }
    std::string path = name;
    const size_t slash = origin.rfind('/');
    if (access(path.c_str(), F_OK) != 0 && slash != std::string::npos &&
        name[0] != '/') {
      path = origin.substr(0, slash + 1) + name;
    }
    std::ifstream in(path);
    if (!in) {
      throw ConfigError(where + ": cannot read the included file " + path +
                        " (" + std::strerror(errno) +
                        "). Fix: check the name after include (relative to "
                        "the working directory or to " +
                        origin + ")");
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    ParseLines(buffer.str(), path, depth + 1, st);
  }

  static std::string SectionName(std::string_view line,
                                 const std::string& where) {
    if (line.back() != ']') {
      throw ConfigError(where + ": section header '" + std::string(line) +
                        "' has no closing ']'. Fix: write [jobname]");
    }
    const std::string name(Trim(line.substr(1, line.size() - 2)));
    if (name.empty()) {
      throw ConfigError(
          where +
          ": empty section name '[]'. Fix: write [global] or [jobname]");
    }
    return name;
  }

  // Assigns the reporting group (fio: stonewall starts a new group when the
  // current one has jobs; each file after the first starts one as well).
  void AddJob(JobDraft job, bool* first_job_of_file) {
    const bool new_file = *first_job_of_file && !drafts_.empty();
    if ((job.spec.stonewall && jobs_in_group_ > 0) || new_file) {
      ++group_id_;
      jobs_in_group_ = 0;
    }
    job.spec.group_id = group_id_;
    ++jobs_in_group_;
    *first_job_of_file = false;
    drafts_.push_back(std::move(job));
  }

  Workload* out_;
  std::vector<JobDraft> drafts_;
  int group_id_ = 0;
  int jobs_in_group_ = 0;
};

std::string WhereOf(const JobDraft& d, const std::string& option) {
  auto it = d.where.find(option);
  return it != d.where.end() ? it->second : d.spec.origin;
}

void ApplyOverrides(const JobOverrides& o, JobDraft* d) {
  JobSpec& s = d->spec;
  const std::string cli = "command line";
  if (o.runtime_ns) {
    s.runtime_ns = *o.runtime_ns;
    d->where["runtime"] = cli + " (--runtime)";
  }
  if (o.ramp_time_ns) s.ramp_time_ns = *o.ramp_time_ns;
  if (o.size) {
    s.size = *o.size;
    d->where["size"] = cli + " (--size)";
  }
  if (o.offset) {
    s.offset = *o.offset;
    d->where["offset"] = cli + " (--offset)";
  }
  if (o.filename) {
    s.filename = *o.filename;
    d->directory.clear();
    d->where["filename"] = cli + " (--filename)";
  }
  if (o.randseed) {
    s.randseed = *o.randseed;
    s.randseed_set = true;
  }
  if (o.time_based) {
    s.time_based = *o.time_based;
    d->where["time_based"] = cli + " (--time-based)";
  }
}

// The job's files: filename= (relative names under directory=), else fio's
// default names <directory>/<jobname>.<clone>.<filenum>, which need a size;
// ioengine=null needs no file at all, only a size.
void ResolveTarget(JobDraft* d) {
  JobSpec& s = d->spec;
  s.directory = d->directory;
  if (!s.filename.empty()) {
    if (!s.directory.empty() && s.filename[0] != '/')
      s.filename = s.directory + "/" + s.filename;
    return;
  }
  const bool sized = (s.size.set && !s.size.is_percent) || s.filesize_min > 0;
  if (!sized) {
    const bool null_engine = s.ioengine == "null";
    ThrowOptionError(
        WhereOf(*d, "size"), "size",
        "job '" + s.name + "' has no filename=, so " +
            (null_engine ? std::string("ioengine=null")
                         : "its files " + s.name + ".<clone>.<n>") +
            " need an absolute size" +
            (s.size.is_percent ? " (a percentage of nothing)" : ""),
        "add size=<bytes> (e.g. size=1G) or filename=<device or file>, or "
        "pass --filename / --size");
  }
  if (s.openfiles != 0 && s.openfiles < s.nrfiles) {
    ThrowOptionError(WhereOf(*d, "openfiles"), "openfiles",
                     "fewer open files (" + std::to_string(s.openfiles) +
                         ") than nrfiles (" + std::to_string(s.nrfiles) +
                         ") is not supported; tierbench keeps all open",
                     "remove openfiles= or make it at least nrfiles");
  }
}

// read_iolog: the target is replay_redirect=, or a command-line filename
// (which redirects the replay the same way); otherwise the trace's own file,
// which the runner reads from the trace, and filename= is ignored as in fio.
// fio's read_iolog also overrides write_iolog. Returns false when the target
// comes from the trace.
bool ResolveReplayTarget(JobDraft* d, std::vector<std::string>* notices) {
  JobSpec& s = d->spec;
  if (s.read_iolog.empty()) return true;
  if (!s.write_iolog.empty()) {
    notices->push_back(WhereOf(*d, "write_iolog") +
                       ": option 'write_iolog': read_iolog overrides "
                       "write_iolog (as in fio); ignored");
    s.write_iolog.clear();
  }
  if (WhereOf(*d, "filename").rfind("command line", 0) == 0) {
    s.replay_redirected = true;
    return true;
  }
  if (!d->replay_redirect.empty()) {
    s.filename = d->replay_redirect;
    d->directory.clear();
    s.replay_redirected = true;
    return true;
  }
  if (!s.filename.empty() || !d->directory.empty()) {
    notices->push_back(
        WhereOf(*d, "filename") + ": job '" + s.name +
        "': filename=/directory= is ignored with read_iolog; the trace "
        "names its target (as in fio). Use replay_redirect= to replay it "
        "onto another device or file");
  }
  s.filename.clear();
  return false;
}

void CheckSizeSpec(const JobDraft& d, const char* option, const SizeSpec& size,
                   bool allow_zero) {
  if (!size.set) return;
  if (size.is_percent) {
    const bool ok = allow_zero ? size.percent >= 0 && size.percent < 100
                               : size.percent > 0 && size.percent <= 100;
    if (!ok) {
      ThrowOptionError(
          WhereOf(d, option), option, "percentage out of range",
          allow_zero ? "use 0% to below 100%" : "use above 0% up to 100%");
    }
  } else if (!allow_zero && size.bytes == 0) {
    ThrowOptionError(WhereOf(d, option), option, "size must be greater than 0",
                     "use e.g. 1G or 50%");
  }
}

void CheckDirectAlignment(const JobDraft& d, int dir) {
  const JobSpec& s = d.spec;
  const BlockSizeSpec& bs = s.bs[dir];
  const std::string fix = "use multiples of 512 bytes (e.g. 4k) with direct=1";
  std::vector<uint64_t> sizes = {bs.min, bs.max};
  for (const auto& entry : bs.split) sizes.push_back(entry.first);
  for (uint64_t size : sizes) {
    if (size % kSectorBytes != 0) {
      ThrowOptionError(WhereOf(d, "bs"), "bs",
                       std::string(IoDirName(static_cast<IoDir>(dir))) +
                           " block size " + std::to_string(size) +
                           " is not a multiple of 512 but direct=1",
                       fix);
    }
  }
  if (s.blockalign[dir] % kSectorBytes != 0) {
    ThrowOptionError(WhereOf(d, "blockalign"), "blockalign",
                     "alignment " + std::to_string(s.blockalign[dir]) +
                         " is not a multiple of 512 but direct=1",
                     fix);
  }
  if (s.offset.set && !s.offset.is_percent &&
      s.offset.bytes % kSectorBytes != 0) {
    ThrowOptionError(WhereOf(d, "offset"), "offset",
                     "offset " + std::to_string(s.offset.bytes) +
                         " is not a multiple of 512 but direct=1",
                     fix);
  }
}

// Resolves what depends on the whole job and checks the rules fio checks.
void FinalizeJob(JobDraft* d, std::vector<std::string>* notices) {
  JobSpec& s = d->spec;
  if (ResolveReplayTarget(d, notices)) ResolveTarget(d);
  if (!s.write_iolog.empty() && s.numjobs > 1) {
    ThrowOptionError(WhereOf(*d, "write_iolog"), "write_iolog",
                     "job '" + s.name +
                         "' has numjobs=" + std::to_string(s.numjobs) +
                         " clones, whose lines would interleave in one file",
                     "use numjobs=1, or one job per iolog");
  }
  for (int dir = 0; dir < kNumDirs; ++dir) {
    BlockSizeSpec& bs = s.bs[dir];
    if (!bs.split.empty()) {  // min/max describe the split too
      bs.min = bs.max = bs.split[0].first;
      for (const auto& entry : bs.split) {
        bs.min = std::min(bs.min, entry.first);
        bs.max = std::max(bs.max, entry.first);
      }
    }
    const bool used = dir == 0 ? PatternReads(s.rw) : PatternWrites(s.rw);
    if (used && s.direct) CheckDirectAlignment(*d, dir);
  }
  // fio: iodepth_batch_submit 0 (or above iodepth) means iodepth.
  if (s.iodepth_batch_submit == 0 || s.iodepth_batch_submit > s.iodepth) {
    s.iodepth_batch_submit = s.iodepth;
  }
  if (s.iodepth_batch_complete_min > s.iodepth)
    s.iodepth_batch_complete_min = s.iodepth;
  if (s.iodepth_batch_complete_max > s.iodepth)
    s.iodepth_batch_complete_max = s.iodepth;
  if (s.iodepth_batch_complete_max != 0 &&
      s.iodepth_batch_complete_max < s.iodepth_batch_complete_min) {
    ThrowOptionError(
        WhereOf(*d, "iodepth_batch_complete_max"), "iodepth_batch_complete_max",
        "is below iodepth_batch_complete_min (" +
            std::to_string(s.iodepth_batch_complete_min) + ")",
        "make iodepth_batch_complete_max >= iodepth_batch_complete_min");
  }
  CheckSizeSpec(*d, "size", s.size, false);
  CheckSizeSpec(*d, "offset", s.offset, true);
  if (s.time_based && s.runtime_ns == 0) {
    ThrowOptionError(WhereOf(*d, "time_based"), "time_based",
                     "set without runtime, so job '" + s.name +
                         "' would run forever (as in fio)",
                     "add runtime=<seconds> or pass --runtime");
  }
  FinalizeRateOptions(d, notices);
  FinalizeEngineOptions(d, notices);
  FinalizeVerifyOptions(d, notices);
}

Workload Finish(JobFileParser& parser, Workload out,
                const JobOverrides& overrides) {
  std::map<std::string, std::string> iologs;  // write_iolog path -> job
  for (JobDraft& d : parser.drafts()) {
    ApplyOverrides(overrides, &d);
    FinalizeJob(&d, &out.notices);
    const std::string& iolog = d.spec.write_iolog;
    if (!iolog.empty() && !iologs.emplace(iolog, d.spec.name).second) {
      ThrowOptionError(WhereOf(d, "write_iolog"), "write_iolog",
                       "job '" + d.spec.name + "' writes the same iolog as " +
                           "job '" + iologs[iolog] + "' (" + iolog + ")",
                       "give each job its own write_iolog file");
    }
    out.jobs.push_back(std::move(d.spec));
  }
  CheckSteadyStateGroups(out.jobs);
  return out;
}

}  // namespace

Workload ParseJobText(std::string_view text, const std::string& origin,
                      const JobOverrides& overrides) {
  Workload out;
  out.paths.push_back(origin);
  JobFileParser parser(&out);
  parser.ParseText(text, origin);
  return Finish(parser, std::move(out), overrides);
}

Workload ParseJobFiles(const std::vector<std::string>& paths,
                       const JobOverrides& overrides) {
  if (paths.empty()) {
    throw ConfigError("No job file given. Fix: name at least one fio job file");
  }
  Workload out;
  out.paths = paths;
  JobFileParser parser(&out);
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) {
      throw ConfigError("Cannot read job file. Path: " + path + "; SysErr: " +
                        std::strerror(errno) + ". Fix: check the path");
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    parser.ParseText(buffer.str(), path);
  }
  return Finish(parser, std::move(out), overrides);
}

}  // namespace tierbench
