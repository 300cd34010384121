// blkparse's default text output (tracefile/trace_reader.h). Layout, from
// blkparse(1) ("DEFAULT OUTPUT": the header "%D %2c %8s %5T.%9t %5p %2a
// %3d " and, for a request with data, "%S + %n [%C]"):
//   MAJ,MIN CPU SEQUENCE SECONDS.NANOSECONDS PID ACTION RWBS SECTOR + COUNT
//   [PROCESS]
// e.g. "  8,0    3        1     0.000000000  4162  Q  WS 1234 + 8 [proc]".
// SECTOR and COUNT are 512-byte sectors. RWBS holds R (read), W (write), D
// (discard), F (flush), S (sync), M (meta), A (ahead), N (no data).
//
// Each request appears several times (Q queued, G get, I inserted, D
// issued, C completed, ...): only the ISSUE (D) events are taken, the
// request as the device saw it, after merges; a trace without D events
// (blktrace -a complete) is read from its COMPLETE (C) events. A D or C
// event with neither R nor W (a discard, a flush without data) is kept
// with length 0 (counted apart). RWBS flags (blkparse's fill_rwbs()): 'F'
// before the direction letter is a preflush (kTraceFlush), after it FUA
// (kTraceFua); a flush without data prints no "SECTOR + COUNT" ("D  FN
// [proc]") and is kept as a length-0 kTraceFlush record. Other events
// without "SECTOR + COUNT" (pc requests, messages) are skipped. The summary
// blkparse prints at the end
// ("CPU0 (8,0):", "Total (8,0):", ...) ends the events. blkparse sorts its
// output by time; an unsorted trace is sorted and ParsedTrace::reordered
// set.
#include <algorithm>
#include <cctype>
#include <string>

#include "tracefile/trace_parse.h"
#include "util/errors.h"
#include "util/strings.h"

namespace tierbench {
namespace {

bool BlkparseDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

bool BlkparseDevice(std::string_view s) {
  const size_t comma = s.find(',');
  return comma != std::string_view::npos &&
         BlkparseDigits(s.substr(0, comma)) &&
         BlkparseDigits(s.substr(comma + 1));
}

// "SECONDS.NANOSECONDS" (up to 9 digits after the point) in ns.
bool BlkparseTime(std::string_view s, uint64_t* ns) {
  const size_t dot = s.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view frac = s.substr(dot + 1);
  uint64_t secs = 0, sub = 0;
  if (!TraceParseU64(s.substr(0, dot), &secs) || !BlkparseDigits(frac) ||
      frac.size() > 9 || !TraceParseU64(frac, &sub)) {
    return false;
  }
  for (size_t i = frac.size(); i < 9; ++i) sub *= 10;
  uint64_t whole = 0;
  if (!TraceMulU64(secs, 1'000'000'000, &whole)) return false;
  if (whole > UINT64_MAX - sub) return false;
  *ns = whole + sub;
  return true;
}

bool BlkparseSummaryLine(std::string_view line) {
  for (std::string_view word :
       {"CPU", "Total", "Throughput", "Events", "Skips"}) {
    if (line.substr(0, word.size()) == word) return true;
  }
  return false;
}

// blkparse's fill_rwbs(): 'F' before the direction letter (R, W, D or N)
// is a preflush, 'F' after it forced unit access.
uint8_t BlkparseRwbsFlags(std::string_view rwbs) {
  const size_t dir = rwbs.find_first_of("RWDN");
  uint8_t flags = 0;
  for (size_t i = 0; i < rwbs.size(); ++i) {
    if (rwbs[i] != 'F') continue;
    flags |=
        (dir == std::string_view::npos || i < dir) ? kTraceFlush : kTraceFua;
  }
  return flags;
}

constexpr const char* kBlkparseFix =
    "pass blkparse's default output (blkparse -i TRACE), lines \"MAJ,MIN "
    "CPU SEQ SECS.NSECS PID ACTION RWBS SECTOR + COUNT [PROC]\"";

}  // namespace

ParsedTrace ParseBlkparseTrace(std::string_view text, const std::string& path) {
  // Issue (D) and complete (C) events apart; D wins when there are any.
  TraceBuilder issued(path, TraceFormat::kBlkparse, /*monotonic=*/false);
  TraceBuilder completed(path, TraceFormat::kBlkparse, /*monotonic=*/false);
  TraceLines lines(text);
  std::string_view line;
  uint32_t number = 0;
  while (lines.Next(&line, &number)) {
    line = Trim(line);
    if (line.empty()) continue;
    if (BlkparseSummaryLine(line)) break;
    const std::vector<std::string_view> f = TraceFields(line, ' ');
    if (!BlkparseDevice(f[0])) {
      TraceParseFail(path, number,
                     "'" + std::string(f[0]) +
                         "' is not a device MAJ,MIN: not a blkparse event",
                     kBlkparseFix);
    }
    if (f.size() < 7) {
      TraceParseFail(path, number,
                     "an event of " + std::to_string(f.size()) +
                         " fields where blkparse prints at least 7",
                     kBlkparseFix);
    }
    const std::string_view action = f[5];
    if (action != "D" && action != "C") continue;
    const std::string_view rwbs = f[6];
    const uint8_t flags = BlkparseRwbsFlags(rwbs);
    const bool is_write = rwbs.find('W') != std::string_view::npos;
    const bool is_read = rwbs.find('R') != std::string_view::npos;
    const bool has_sectors = f.size() >= 10 && f[8] == "+";
    // A flush without data prints no SECTOR + COUNT ("D  FN [proc]").
    const bool pure_flush = !has_sectors && !is_write && !is_read &&
                            (flags & kTraceFlush) != 0 &&
                            (f.size() == 7 || f[7].substr(0, 1) == "[");
    if (!has_sectors && !pure_flush) continue;  // pc requests, messages
    uint64_t time_ns = 0;
    if (!BlkparseTime(f[3], &time_ns)) {
      TraceParseFail(
          path, number,
          "time '" + std::string(f[3]) + "' is not SECONDS.NANOSECONDS",
          kBlkparseFix);
    }
    uint64_t offset = 0, length = 0;
    if (has_sectors) {
      uint64_t sector = 0, count = 0;
      if (!TraceParseU64(f[7], &sector) || !TraceParseU64(f[9], &count)) {
        TraceParseFail(path, number,
                       "'" + std::string(f[7]) + " + " + std::string(f[9]) +
                           "' is not SECTOR + COUNT in whole numbers",
                       kBlkparseFix);
      }
      if (!TraceMulU64(sector, 512, &offset) ||
          !TraceMulU64(count, 512, &length)) {
        TraceParseFail(path, number,
                       "sector " + std::string(f[7]) + " + " +
                           std::string(f[9]) + " does not fit in 64 bits",
                       kBlkparseFix);
      }
    }
    if (!is_write && !is_read) length = 0;  // discard, flush: not profiled
    (action == "D" ? issued : completed)
        .Add(number, time_ns, offset, length, is_write, f[0], flags);
  }
  TraceBuilder& used = issued.trace().records.empty() ? completed : issued;
  ParsedTrace trace = used.Finish(
      "a blkparse trace needs ISSUE (D) or COMPLETE (C) events with "
      "SECTOR + COUNT; " +
      std::string(kBlkparseFix));
  const auto by_time = [](const TraceRecord& a, const TraceRecord& b) {
    return a.time_ns < b.time_ns;
  };
  if (!std::is_sorted(trace.records.begin(), trace.records.end(), by_time)) {
    std::stable_sort(trace.records.begin(), trace.records.end(), by_time);
    trace.reordered = true;
  }
  return trace;
}

bool LooksLikeBlkparseLine(std::string_view line) {
  const std::vector<std::string_view> f = TraceFields(line, ' ');
  uint64_t ns = 0;
  return f.size() >= 7 && BlkparseDevice(f[0]) && BlkparseDigits(f[1]) &&
         BlkparseDigits(f[2]) && BlkparseTime(f[3], &ns);
}

}  // namespace tierbench
