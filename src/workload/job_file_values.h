// The value parsers that the rows of the fio option table
// (workload/job_file_options.cc) share, and the option line they read:
// booleans (shared with the option groups of job_file_rate.cc,
// job_file_verify.cc and job_file_engine.cc), whole numbers, sizes (with the
// job's kb_base), block sizes, sizes or percentages, durations, per-direction
// lists and bssplit.
//
// Every parser reads its text (or the line's value) and returns the parsed
// value, or throws the option's ConfigError through TableOptionCtx::Fail
// (ParseBool(const OptionCtx&): through OptionCtx::Fail, without the note):
// "<file:line>: option '<name>': <why> (<expansion note>). Fix: <fix>" (the
// note only when a ${VAR} of the line was unset). Unlike OptionCtx
// (workload/job_file_options.h), Value() returns the value untrimmed.
// Internals of the job-file parser, as job_file_options.h.
#ifndef TIERBENCH_WORKLOAD_JOB_FILE_VALUES_H_
#define TIERBENCH_WORKLOAD_JOB_FILE_VALUES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "workload/job_file_options.h"
#include "workload/job_spec.h"

namespace tierbench {

// The option a table row is applying: its line plus the canonical name for
// messages.
struct TableOptionCtx {
  const OptionLine& line;
  std::string_view name;
  JobDraft* draft;
  std::vector<std::string>* notices;

  [[noreturn]] void Fail(const std::string& why, const std::string& fix) const {
    ThrowOptionError(line.where, line.name,
                     line.expansion_note.empty()
                         ? why
                         : why + " (" + line.expansion_note + ")",
                     fix);
  }
  std::string Value() const {
    if (!line.value)
      Fail("needs a value",
           std::string("write ") + std::string(name) + "=<value>");
    return std::string(*line.value);
  }
};

// fio's boolean words: "1", "true", "yes", "on" are true and "0", "false",
// "no", "off" false, in any case and with surrounding whitespace ignored;
// nullopt for any other text. Also the words of job_file_engine.cc's
// set-or-number options.
std::optional<bool> FioBool(std::string_view text);

// fio's boolean options: a bare option means 1, else the value as FioBool().
// Any other value fails through the context's Fail (so a TableOptionCtx adds
// its expansion note, an OptionCtx does not): "'<value, trimmed and
// lowercased>' is not a boolean", fix "write <name>=1 or <name>=0". The one
// boolean parser of the option table and the option groups
// (job_file_rate.cc, job_file_verify.cc).
bool ParseBool(const TableOptionCtx& c);
bool ParseBool(const OptionCtx& c);

// A whole number (decimal or 0x hex) in [min, max].
uint64_t ParseUint(const TableOptionCtx& c, const std::string& text,
                   uint64_t min, uint64_t max);
// The trimmed value as a whole number in [min, max].
uint32_t ParseU32(const TableOptionCtx& c, uint32_t min, uint32_t max);

// A size with fio's units ("4k", "1M"), in the draft's kb_base.
uint64_t ParseBytes(const TableOptionCtx& c, const std::string& text);
// A size above 0 and at most 256 MiB (one IO buffer).
uint64_t ParseBlockSize(const TableOptionCtx& c, const std::string& text);

// "1G" or "20%". allow_zero: offset=0 is valid, size=0 is not.
SizeSpec ParseSizeOrPercent(const TableOptionCtx& c, bool allow_zero);

// The trimmed value as a duration; a bare number is in `default_unit_ns`.
uint64_t ParseDurationNs(const TableOptionCtx& c, uint64_t default_unit_ns);
// `text` as a duration, the same with the fix of a range ("1-5").
uint64_t DurationNs(const TableOptionCtx& c, const std::string& text,
                    uint64_t default_unit_ns);

// "r", "r,w" or "r,w,t" (fio: read, write, trim; trim is unused here). One
// value applies to both directions; an empty slot leaves that one alone.
// Returns {read, write}.
std::vector<std::string> PerDir(const TableOptionCtx& c);

// One direction of bssplit: "4k/28:16k/10:64k/" (a blank weight shares the
// remainder equally; the integer-division remainder goes to the first blanks).
// At most 64 entries whose weights add up to 100.
std::vector<std::pair<uint64_t, uint32_t>> ParseSplit(const TableOptionCtx& c,
                                                      const std::string& text);

}  // namespace tierbench

#endif  // TIERBENCH_WORKLOAD_JOB_FILE_VALUES_H_
