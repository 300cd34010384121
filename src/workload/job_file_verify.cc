// Verify options of the job-file parser (see the header).
#include "workload/job_file_verify.h"

#include <cctype>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <numeric>

#include "util/errors.h"
#include "util/strings.h"
#include "util/units.h"
#include "workload/job_file_values.h"
#include "workload/verify_block.h"

namespace tierbench {
namespace {

constexpr size_t kMaxPatternBytes = 512;  // fio's MAX_PATTERN_SIZE

using VerifyCtx = OptionCtx;

uint64_t Bytes(const VerifyCtx& c, uint64_t min, uint64_t max) {
  uint64_t v = 0;
  const std::string text = c.Value();
  const Status s = ParseSize(text, c.draft->spec.kb_base, &v);
  if (!s.ok()) c.Fail(s.message(), "use a number of bytes such as 512 or 4k");
  if (v < min || v > max) {
    c.Fail(std::to_string(v) + " is out of range",
           "use a value from " + std::to_string(min) + " to " +
               std::to_string(max));
  }
  return v;
}

uint64_t Whole(const VerifyCtx& c, uint64_t min, uint64_t max) {
  const std::string text = c.Value();
  uint64_t v = 0;
  const auto [ptr, ec] =
      std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      v < min || v > max) {
    c.Fail("'" + text + "' is not a whole number from " + std::to_string(min) +
               " to " + std::to_string(max),
           "use a plain number");
  }
  return v;
}

void ParseType(const VerifyCtx& c) {
  static const std::pair<const char*, VerifyType> kTypes[] = {
      {"0", VerifyType::kNone},        {"md5", VerifyType::kMd5},
      {"crc32c", VerifyType::kCrc32c}, {"crc32c-intel", VerifyType::kCrc32c},
      {"meta", VerifyType::kMeta},     {"pattern", VerifyType::kPatternNoHdr},
      {"null", VerifyType::kNull}};
  static const char* const kFioOnly[] = {
      "crc64",  "crc32",    "crc16",    "crc7",     "sha1",     "sha256",
      "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash"};
  const std::string v = Lower(c.Value());
  for (const auto& [text, type] : kTypes) {
    if (v == text) {
      c.draft->spec.verify.type = type;
      return;
    }
  }
  for (const char* other : kFioOnly) {
    if (v == other) {
      c.Fail("fio's verify=" + v + " is not implemented by tierbench",
             "use verify=crc32c (or md5, meta, pattern)");
    }
  }
  if (v == "none" || v == "off") {
    c.Fail("'" + v + "' is not a verify type (fio spells no verification 0)",
           "write verify=0");
  }
  c.Fail("'" + v + "' is not a verify type",
         "use verify=crc32c, crc32c-intel, md5, meta, pattern, null or 0");
}

void ParsePattern(const VerifyCtx& c) {
  VerifySpec& v = c.draft->spec.verify;
  std::string why;
  if (!ParseVerifyPattern(c.Value(), &v.pattern, &v.pattern_offsets, &why)) {
    c.Fail(why,
           "write numbers (0xff, 1024), \"strings\" and %o, e.g. "
           "verify_pattern=0xdeadbeef or verify_pattern=%o\"abc\"");
  }
  // fio's str_verify_pattern_cb(): a pattern alone means verify=pattern
  // with headers (VERIFY_PATTERN); a verify= given earlier stays.
  if (c.draft->where.count("verify") == 0) v.type = VerifyType::kPattern;
}

void ParseContinueOnError(const VerifyCtx& c) {
  const std::string v = Lower(c.Value());
  if (v == "none" || v == "0") {
    c.draft->spec.verify.continue_on_error = false;
  } else if (v == "verify") {
    c.draft->spec.verify.continue_on_error = true;
  } else {
    c.Fail("'" + v +
               "' is not supported; tierbench stops a job at its first "
               "IO error",
           "use continue_on_error=none or verify");
  }
}

constexpr const char* kVerifyIgnored[][2] = {
    {"verify_dump", "dumps of bad blocks are not written"},
    {"verify_async", "tierbench verifies inline in the job thread"},
    {"verify_async_cpus", "tierbench verifies inline in the job thread"},
    {"verify_state_save", "tierbench keeps no verify state files"},
    {"verify_state_load", "tierbench keeps no verify state files"},
    {"experimental_verify", "the write log is always used"},
    {"verifysort", "is deprecated in fio"},
    {"verifysort_nr", "is deprecated in fio"},
};

// The smallest block size of a direction.
uint64_t MinBs(const JobSpec& s, int dir) { return s.bs[dir].min; }
uint64_t MaxBs(const JobSpec& s, int dir) { return s.bs[dir].max; }

std::string Where(const JobDraft& d, const std::string& option) {
  auto it = d.where.find(option);
  return it != d.where.end() ? it->second : d.spec.origin;
}

}  // namespace

bool ParseVerifyPattern(std::string_view text, std::vector<uint8_t>* bytes,
                        std::vector<uint32_t>* offsets, std::string* why) {
  bytes->clear();
  offsets->clear();
  const std::string in(text);
  size_t i = 0;
  if (in.empty()) {
    *why = "the pattern is empty";
    return false;
  }
  auto is_hex = [](char ch) {
    return std::isxdigit(static_cast<unsigned char>(ch)) != 0;
  };
  while (i < in.size()) {
    const char ch = in[i];
    if (ch == '"') {
      const size_t end = in.find('"', i + 1);
      if (end == std::string::npos) {
        *why = "a \"string\" is not closed";
        return false;
      }
      if (end == i + 1) {
        *why = "an empty \"\" string";
        return false;
      }
      bytes->insert(bytes->end(), in.begin() + static_cast<long>(i) + 1,
                    in.begin() + static_cast<long>(end));
      i = end + 1;
    } else if (ch == '%') {
      if (in.compare(i, 2, "%o") != 0) {
        *why =
            "'" + in.substr(i, 2) + "' is not a format (only %o, the offset)";
        return false;
      }
      offsets->push_back(static_cast<uint32_t>(bytes->size()));
      bytes->insert(bytes->end(), 8, 0);
      i += 2;
    } else if (ch == '\'') {
      *why = "a pattern from a 'file' is not supported by tierbench";
      return false;
    } else if (ch == '0' && i + 2 < in.size() &&
               (in[i + 1] == 'x' || in[i + 1] == 'X') && is_hex(in[i + 2])) {
      size_t end = i + 2;
      while (end < in.size() && is_hex(in[end])) ++end;
      // fio's look-back: "0xff0x14" is ff then 0x14.
      if (end < in.size() && (in[end] == 'x' || in[end] == 'X') &&
          in[end - 1] == '0' && end - 1 > i + 2) {
        --end;
      }
      std::string digits = in.substr(i + 2, end - i - 2);
      if (digits.size() % 2 == 1) digits.insert(digits.begin(), '0');
      for (size_t k = 0; k < digits.size(); k += 2) {
        bytes->push_back(static_cast<uint8_t>(
            std::strtoul(digits.substr(k, 2).c_str(), nullptr, 16)));
      }
      i = end;
    } else {
      // Decimal in [INT_MIN, INT_MAX], up to a following "0x" (fio looks
      // ahead for it), stored as the bytes of its unsigned value.
      size_t limit = in.size();
      for (size_t k = i + 1; k + 1 < in.size(); ++k) {
        if (in[k] == '0' && (in[k + 1] == 'x' || in[k + 1] == 'X')) {
          limit = k;
          break;
        }
      }
      const std::string part = in.substr(i, limit - i);
      char* end = nullptr;
      errno = 0;
      const long v = std::strtol(part.c_str(), &end, 10);
      if (end == part.c_str() || errno != 0 || v > INT_MAX || v < INT_MIN) {
        *why = "'" + in.substr(i) + "' is not a number, \"string\" or %o";
        return false;
      }
      if (v == 0) {
        bytes->push_back(0);
      } else {
        for (uint32_t u = static_cast<uint32_t>(v); u != 0; u >>= 8)
          bytes->push_back(static_cast<uint8_t>(u & 0xFF));
      }
      i += static_cast<size_t>(end - part.c_str());
    }
    if (bytes->size() > kMaxPatternBytes) {
      *why = "the pattern is longer than 512 bytes (fio's limit)";
      return false;
    }
  }
  return true;
}

bool ApplyVerifyOption(const OptionLine& line, JobDraft* draft,
                       std::vector<std::string>* notices) {
  static const char* const kNames[] = {
      "verify",           "do_verify",      "verify_only",
      "verify_fatal",     "verify_backlog", "verify_backlog_batch",
      "verify_interval",  "verify_offset",  "verify_pattern",
      "continue_on_error"};
  const char* name = nullptr;
  for (const char* n : kNames) {
    if (line.name == n) name = n;
  }
  if (name == nullptr) {
    for (const auto& ignored : kVerifyIgnored) {
      if (line.name != ignored[0]) continue;
      notices->push_back(line.where + ": option '" + std::string(line.name) +
                         "': " + ignored[1] + "; ignored");
      return true;
    }
    return false;
  }
  const VerifyCtx c{line, name, draft};
  VerifySpec& v = draft->spec.verify;
  const std::string n = name;
  if (n == "verify") {
    ParseType(c);
  } else if (n == "do_verify") {
    v.do_verify = ParseBool(c);
  } else if (n == "verify_only") {
    v.verify_only = ParseBool(c);
  } else if (n == "verify_fatal") {
    v.fatal = ParseBool(c);
  } else if (n == "verify_backlog") {
    v.backlog = Whole(c, 0, UINT32_MAX);
  } else if (n == "verify_backlog_batch") {
    v.backlog_batch = Whole(c, 0, UINT32_MAX);
  } else if (n == "verify_interval") {
    // fio: minval 2 * sizeof(struct verify_header).
    v.interval =
        static_cast<uint32_t>(Bytes(c, 2 * kVerifyHeaderBytes, 256ULL << 20));
  } else if (n == "verify_offset") {
    v.offset =
        static_cast<uint32_t>(Bytes(c, kVerifyHeaderBytes, 256ULL << 20));
  } else if (n == "verify_pattern") {
    ParsePattern(c);
  } else {
    ParseContinueOnError(c);
  }
  draft->where[n] = line.where;
  return true;
}

void FinalizeVerifyOptions(JobDraft* draft, std::vector<std::string>* notices) {
  JobSpec& s = draft->spec;
  VerifySpec& v = s.verify;
  if (!v.enabled()) {
    if (v.verify_only) {
      ThrowOptionError(
          Where(*draft, "verify_only"), "verify_only",
          "job '" + s.name +
              "' has no verify=, so there is nothing to verify "
              "(fio would do no IO at all)",
          "add verify=crc32c (the type the data was written with)");
    }
    return;
  }
  const bool writes = PatternWrites(s.rw);
  const bool reads = PatternReads(s.rw);
  if (v.verify_only && s.time_based) {
    ThrowOptionError(
        Where(*draft, "verify_only"), "verify_only",
        "fio's verify_only does not support time_based jobs",
        "remove time_based (and runtime) from the verify_only job");
  }
  // fio's fixup_options(): the interval divides every write block size.
  const uint64_t wmin = MinBs(s, 1), wmax = MaxBs(s, 1);
  uint64_t interval = v.interval;
  if (wmax != wmin && interval == 0) interval = wmin;
  if (interval > wmin) {
    interval = wmin;
  } else if (reads && interval > MinBs(s, 0)) {
    interval = MinBs(s, 0);
  }
  if (interval == 0 || wmin % interval != 0 || wmax % interval != 0)
    interval = std::gcd(wmin, wmax);
  v.interval = static_cast<uint32_t>(interval);
  const uint32_t hs = VerifyHeaderSize(v.type);
  const std::string what =
      draft->where.count("verify_interval") ? "verify_interval" : "bs";
  if (hs > 0 && v.interval <= hs) {
    ThrowOptionError(Where(*draft, what), what,
                     "verify interval " + std::to_string(v.interval) +
                         " bytes leaves no room after the " +
                         std::to_string(hs) + "-byte verify header",
                     "use blocks (or verify_interval) of at least 512 bytes");
  }
  if (v.offset != 0 && v.offset + hs > v.interval) {
    ThrowOptionError(Where(*draft, "verify_offset"), "verify_offset",
                     "verify_offset=" + std::to_string(v.offset) +
                         " plus the " + std::to_string(hs) +
                         "-byte header runs past the verify interval (" +
                         std::to_string(v.interval) + " bytes)",
                     "use verify_offset <= " +
                         std::to_string(v.interval > hs ? v.interval - hs : 0));
  }
  if ((v.type == VerifyType::kPattern || v.type == VerifyType::kPatternNoHdr) &&
      v.pattern.empty()) {
    ThrowOptionError(Where(*draft, "verify"), "verify",
                     "verify=pattern needs verify_pattern=",
                     "add verify_pattern=<pattern>, e.g. 0xdeadbeef");
  }
  const std::string where = Where(*draft, "verify");
  if (v.backlog > 0 && !writes) {
    notices->push_back(Where(*draft, "verify_backlog") +
                       ": option 'verify_backlog': job '" + s.name +
                       "' does not write, so it has no effect (as in fio)");
  }
  if (s.norandommap && (wmin != wmax || !s.bs[1].split.empty())) {
    notices->push_back(where +
                       ": option 'verify': fio: norandommap given for "
                       "variable block sizes, verify limited");
  }
  if (s.norandommap && writes && PatternIsRandom(s.rw) && s.iodepth > 1) {
    notices->push_back(
        where +
        ": option 'verify': with norandommap and iodepth > 1 two "
        "writes in flight may hit one block and fail verification; "
        "fio's HOWTO advises against it");
  }
  // fio warns when clones share a file (default files are per clone).
  if (writes && v.do_verify && s.numjobs > 1 && !s.filename.empty()) {
    notices->push_back(where +
                       ": option 'verify': fio: multiple writers may "
                       "overwrite blocks that belong to other jobs. "
                       "This can cause verification failures.");
  }
  if (writes && v.do_verify && s.time_based && s.runtime_ns > 0 && !reads &&
      v.backlog == 0) {
    notices->push_back(where +
                       ": option 'verify': fio: verification read "
                       "phase will never start because write phase "
                       "uses all of runtime");
  }
}

}  // namespace tierbench
