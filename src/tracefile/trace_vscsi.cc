// CloudPhysics vscsi traces (VMware vscsiStats; the SHARDS paper's traces,
// tracefile/trace_reader.h). Layout, from libCacheSim's reader
// (libCacheSim/traceReader/customizedReader/vscsi.h, "created by
// CloudPhysics"): little-endian records of one of two versions,
//   version 1, 32 bytes: u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver,
//                        u64 lbn, u64 ts
//   version 2, 40 bytes: u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG,
//                        u64 lbn, u64 ts, u64 rt
// the version in ver's high byte (ver >> 8). As libCacheSim, the version is
// told from the first two records (2 in the version 2 place, else 1 in the
// version 1 place); tierbench then checks it in every record, so a file
// that is not vscsi is refused rather than misread.
//
// Fields: lbn in 512-byte sectors (offset = lbn * 512), len in bytes (what
// libCacheSim takes as the request's size and its scripts/traceConv/
// cloudphysics.py splits into 4 KiB blocks; the cache_dataset README's "in
// sectors" is not what the readers do), ts in microseconds. Direction from
// the SCSI operation code in cmd (T10's op-num list), as cloudphysics.py
// classifies it: reads READ(6/10/12/16) 0x08 0x28 0xa8 0x88 and 0x2d;
// writes WRITE(6/10/12/16) 0x0a 0x2a 0xaa 0x8a, WRITE AND VERIFY 0x2e 0xae
// 0x8e and 0x3f 0x9a 0x9c (0x0a and 0x2e are not in cloudphysics.py's list,
// which errs on them; T10 names them writes). SYNCHRONIZE CACHE(10/16)
// 0x35 0x91 is a flush (length 0, kTraceFlush), UNMAP 0x42 a discard
// (length 0). Every other command (TEST UNIT READY, INQUIRY, READ
// CAPACITY, ...) moves no data and is skipped; cloudphysics.py's skipping
// of lbn 0 ("control operations") is not followed, as reads and writes of
// sector 0 are requests. One volume: the file's name. Records out of time
// order are sorted (stable) and `reordered` set.
#include <algorithm>
#include <string>

#include "tracefile/trace_parse.h"
#include "util/errors.h"

namespace tierbench {
namespace {

constexpr size_t kVscsiV1Size = 32;
constexpr size_t kVscsiV2Size = 40;
constexpr size_t kVscsiV1Ver = 14;  // offset of ver in a version 1 record
constexpr size_t kVscsiV2Ver = 2;

constexpr const char* kVscsiFix =
    "pass a whole CloudPhysics vscsi trace (version 1: 32-byte records, "
    "version 2: 40-byte records), as libCacheSim's vscsi reader reads";

// The version a record at `p` of version `v`'s layout claims.
unsigned VscsiVersionAt(std::string_view data, size_t record, unsigned v) {
  const size_t size = v == 1 ? kVscsiV1Size : kVscsiV2Size;
  const size_t at = record * size + (v == 1 ? kVscsiV1Ver : kVscsiV2Ver);
  return TraceLoad16(data.data() + at, false) >> 8;
}

// 1 or 2 when the first min(2, records) records (at least one) of that
// layout claim it (version 2 first, as libCacheSim), else 0.
unsigned VscsiVersion(std::string_view data, size_t check) {
  for (const unsigned v : {2u, 1u}) {
    const size_t size = v == 1 ? kVscsiV1Size : kVscsiV2Size;
    const size_t n = std::min(check, data.size() / size);
    if (n == 0) continue;
    bool all = true;
    for (size_t i = 0; i < n && all; ++i) {
      all = VscsiVersionAt(data, i, v) == v;
    }
    if (all) return v;
  }
  return 0;
}

enum class VscsiKind { kRead, kWrite, kFlush, kDiscard, kOther };

VscsiKind VscsiKindOf(uint16_t cmd) {
  switch (cmd) {
    case 0x08:
    case 0x28:
    case 0xa8:
    case 0x88:
    case 0x2d:
      return VscsiKind::kRead;
    case 0x0a:
    case 0x2a:
    case 0xaa:
    case 0x8a:
    case 0x2e:
    case 0xae:
    case 0x8e:
    case 0x3f:
    case 0x9a:
    case 0x9c:
      return VscsiKind::kWrite;
    case 0x35:
    case 0x91:
      return VscsiKind::kFlush;
    case 0x42:
      return VscsiKind::kDiscard;
    default:
      return VscsiKind::kOther;
  }
}

}  // namespace

ParsedTrace ParseVscsiTrace(std::string_view data, const std::string& path) {
  const unsigned version = VscsiVersion(data, 2);
  if (version == 0) {
    TraceRecordFail(path, 1, 0,
                    "neither a version 1 nor a version 2 vscsi record (the "
                    "version byte, ver >> 8, of the first records)",
                    kVscsiFix);
  }
  const size_t size = version == 1 ? kVscsiV1Size : kVscsiV2Size;
  TraceBuilder b(path, TraceFormat::kVscsi, /*monotonic=*/false);
  const std::string volume = TraceFileVolume(path);
  uint64_t record = 0;
  for (size_t pos = 0; pos < data.size(); pos += size) {
    ++record;
    if (data.size() - pos < size) {
      TraceRecordFail(
          path, record, pos,
          "a truncated record: " + std::to_string(data.size() - pos) +
              " bytes left where a version " + std::to_string(version) +
              " record takes " + std::to_string(size),
          kVscsiFix);
    }
    const char* r = data.data() + pos;
    const unsigned ver =
        TraceLoad16(r + (version == 1 ? kVscsiV1Ver : kVscsiV2Ver), false) >> 8;
    if (ver != version) {
      TraceRecordFail(path, record, pos,
                      "version " + std::to_string(ver) +
                          " in a trace of version " + std::to_string(version) +
                          " records",
                      kVscsiFix);
    }
    const uint16_t cmd = TraceLoad16(r + (version == 1 ? 12 : 0), false);
    const uint32_t len = TraceLoad32(r + (version == 1 ? 4 : 8), false);
    const uint64_t lbn = TraceLoad64(r + 16, false);
    const uint64_t ts_us = TraceLoad64(r + 24, false);
    const VscsiKind kind = VscsiKindOf(cmd);
    if (kind == VscsiKind::kOther) continue;
    uint64_t offset = 0, time_ns = 0;
    if (!TraceMulU64(lbn, 512, &offset)) {
      TraceRecordFail(
          path, record, pos,
          "lbn " + std::to_string(lbn) + " does not fit in 64 bits in bytes",
          kVscsiFix);
    }
    if (!TraceMulU64(ts_us, 1000, &time_ns)) {
      TraceRecordFail(path, record, pos,
                      "timestamp " + std::to_string(ts_us) +
                          " us does not fit in 64 bits in ns",
                      kVscsiFix);
    }
    const bool data_moved =
        kind == VscsiKind::kRead || kind == VscsiKind::kWrite;
    const uint64_t length = data_moved ? len : 0;
    TraceCheckRecord(path, record, pos, offset, length, kVscsiFix);
    const uint32_t line =
        record > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(record);
    b.Add(line, time_ns, offset, length, kind == VscsiKind::kWrite, volume,
          kind == VscsiKind::kFlush ? kTraceFlush : 0);
  }
  ParsedTrace trace = b.Finish("a vscsi trace needs READ or WRITE commands; " +
                               std::string(kVscsiFix));
  trace.reordered = TraceSortByTime(&trace.records, 0, trace.records.size());
  return trace;
}

bool LooksLikeVscsi(std::string_view head) {
  // Two whole records at least, as libCacheSim; it tests the version of
  // two, up to 16 make a chance match of another binary file unlikely.
  if (!TraceLooksBinary(head)) return false;
  const unsigned v = VscsiVersion(head, 16);
  return v != 0 && head.size() >= 2 * (v == 1 ? kVscsiV1Size : kVscsiV2Size);
}

}  // namespace tierbench
