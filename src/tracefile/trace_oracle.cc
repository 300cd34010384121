// libCacheSim's oracleGeneral binary traces (tracefile/trace_reader.h), the
// format cacheMon's cache_dataset publishes its block traces in (MSR,
// CloudPhysics, Tencent CBS, Alibaba, ... as .oracleGeneral.zst; the zstd
// frame is undone before the parser, tracefile/trace_reader.cc). Layout,
// from libCacheSim's reader (libCacheSim/traceReader/customizedReader/
// oracle/oracleGeneralBin.h) and the cache_dataset README: packed 24-byte
// little-endian records
//   u32 timestamp (s)  u64 obj_id  u32 obj_size (bytes)
//   i64 next_access_vtime (-1: never again; not used here)
//
// How block traces become objects (libCacheSim's scripts/traceConv/
// cloudphysics.py, msr.py, tencentBlock.py): each request is split into
// 4 KiB blocks, one record per block, obj_id = byte offset / 4096 (the
// Tencent volume's number times 100 TiB / 4096 added, so volumes do not
// collide), obj_size 4096. So here offset = obj_id * 4096 and length =
// obj_size; an obj_id whose offset passes 64 bits (a hashed object id of a
// key-value or CDN trace, not a block trace) is refused.
//
// The format has no direction: every record is a read. Nor has it a
// volume: one, the file's name. obj_size 0 is kept with length 0 (counted
// apart). Records out of time order are sorted (stable), `reordered` set.
//
// Detection (LooksLikeOracle) has no magic to go by: a binary file (a
// control byte in its first 64 KiB) whose size is a non-zero multiple of 24
// and whose first records (up to 64 KiB of them) all have 0 < obj_size <
// 256 MiB, timestamps that never go backwards and next_access_vtime >= -1.
// It runs after every other format failed. Limits: a file of another binary
// format can pass (a cut blktrace or vscsi file is told apart by their
// magic and version bytes first), and an oracleGeneral trace with a zero
// size or an unsorted timestamp early on is not detected: --format oracle
// reads both.
#include <algorithm>
#include <string>

#include "tracefile/trace_parse.h"
#include "util/errors.h"

namespace tierbench {
namespace {

constexpr size_t kOracleRecord = 24;
constexpr uint64_t kOracleBlock = 4096;
constexpr size_t kOracleDetectBytes = 64 * 1024;

constexpr const char* kOracleFix =
    "pass a whole libCacheSim oracleGeneral trace (24-byte records: u32 "
    "time, u64 obj_id, u32 obj_size, i64 next_access_vtime), as the "
    "cache_dataset's .oracleGeneral.zst files hold";

}  // namespace

ParsedTrace ParseOracleTrace(std::string_view data, const std::string& path) {
  if (data.size() % kOracleRecord != 0) {
    const uint64_t whole = data.size() / kOracleRecord;
    TraceRecordFail(
        path, whole + 1, whole * kOracleRecord,
        "a truncated record: the file holds " + std::to_string(data.size()) +
            " bytes, not a multiple of 24 (" +
            std::to_string(data.size() % kOracleRecord) + " bytes left over)",
        kOracleFix);
  }
  TraceBuilder b(path, TraceFormat::kOracle, /*monotonic=*/false);
  const std::string volume = TraceFileVolume(path);
  uint64_t record = 0;
  for (size_t pos = 0; pos < data.size(); pos += kOracleRecord) {
    ++record;
    const char* r = data.data() + pos;
    const uint64_t seconds = TraceLoad32(r, false);
    const uint64_t obj_id = TraceLoad64(r + 4, false);
    const uint64_t size = TraceLoad32(r + 12, false);
    uint64_t offset = 0;
    if (!TraceMulU64(obj_id, kOracleBlock, &offset)) {
      TraceRecordFail(path, record, pos,
                      "obj_id " + std::to_string(obj_id) +
                          " as a 4 KiB block number does not fit in 64 bits "
                          "in bytes (a hashed object id, not a block trace)",
                      "profile a block trace (libCacheSim converts block "
                      "traces with obj_id = byte offset / 4096)");
    }
    TraceCheckRecord(path, record, pos, offset, size, kOracleFix);
    const uint32_t line =
        record > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(record);
    b.Add(line, seconds * 1'000'000'000ULL, offset, size, /*is_write=*/false,
          volume);
  }
  ParsedTrace trace = b.Finish(kOracleFix);
  trace.reordered = TraceSortByTime(&trace.records, 0, trace.records.size());
  return trace;
}

bool LooksLikeOracle(std::string_view data) {
  if (data.empty() || data.size() % kOracleRecord != 0) return false;
  const std::string_view head = data.substr(0, kOracleDetectBytes);
  if (!TraceLooksBinary(head)) return false;
  uint32_t last_time = 0;
  for (size_t pos = 0; pos + kOracleRecord <= head.size();
       pos += kOracleRecord) {
    const char* r = head.data() + pos;
    const uint32_t time = TraceLoad32(r, false);
    const uint32_t size = TraceLoad32(r + 12, false);
    const auto next = static_cast<int64_t>(TraceLoad64(r + 16, false));
    if (size == 0 || size >= kTraceMaxLength || time < last_time || next < -1) {
      return false;
    }
    last_time = time;
  }
  return true;
}

}  // namespace tierbench
