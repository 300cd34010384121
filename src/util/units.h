// Parsing and formatting of sizes and durations, with fio's meaning.
//
// Sizes (ParseSize): a non-negative integer or decimal, optionally followed by
// a unit. As in fio with its default kb_base=1024 ("compatibility mode"):
//   k K kb KB      -> 1024        ki KiB Ki kib   -> 1000
//   m M mb MB      -> 1024^2      mi MiB ...      -> 1000^2
//   g G gb GB      -> 1024^3      gi GiB ...      -> 1000^3
//   t T tb TB      -> 1024^4      ti TiB ...      -> 1000^4
//   p P pb PB      -> 1024^5
//   b B (or none)  -> 1
// (fio documents this inversion for kb_base=1024; tierbench follows it so job
// files mean what they mean to fio.) The result must be a whole number of
// bytes and fit in 64 bits.
//
// Durations (ParseDuration): a number with an optional unit us/usec, ms/msec,
// s/sec, m/min, h, d; without a unit the caller's default unit applies (fio:
// seconds for runtime and ramp_time, microseconds for thinktime).
//
// All functions are pure and thread-safe.
#ifndef TIERBENCH_UTIL_UNITS_H_
#define TIERBENCH_UTIL_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"

namespace tierbench {

inline constexpr uint64_t kNsPerUs = 1000;
inline constexpr uint64_t kNsPerMs = 1000 * 1000;
inline constexpr uint64_t kNsPerSec = 1000 * 1000 * 1000;

// Parses `text` as a size in bytes. On success stores it in *out and returns
// OK; otherwise returns InvalidArgument with a message that quotes the text.
Status ParseSize(std::string_view text, uint64_t* out);
// The same with fio's kb_base: 1024 as above; 1000 swaps the meanings (k, kb
// -> 1000; ki, KiB -> 1024), as IEC 80000-13 / SI. Other kb_base values are
// treated as 1024 (the parser refuses them).
Status ParseSize(std::string_view text, uint32_t kb_base, uint64_t* out);

// Parses `text` as a duration; `default_unit_ns` applies to bare numbers.
Status ParseDuration(std::string_view text, uint64_t default_unit_ns,
                     uint64_t* out_ns);

// Formats bytes with binary units as fio prints them: "4096B", "4KiB",
// "1.50MiB", "134GiB" (at most three significant digits past the unit step).
std::string FormatBytes(uint64_t bytes);

// Formats a rate in bytes per second as fio's "BW=" value, e.g. "1138MiB/s".
std::string FormatBandwidth(double bytes_per_sec);

// Formats nanoseconds with a unit chosen for readability: "812ns", "12.3us",
// "4.56ms", "1.20s".
std::string FormatDuration(uint64_t ns);

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_UNITS_H_
