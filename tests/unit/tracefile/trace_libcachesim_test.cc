// The readers of the formats libCacheSim reads (tracefile/trace_vscsi.cc,
// trace_oracle.cc) on records written here after its readers' layouts:
//  - vscsi (libCacheSim/traceReader/customizedReader/vscsi.h): little-endian
//    version 1 records {u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64
//    lbn, u64 ts} (32 bytes) and version 2 {u16 cmd, u16 ver, u32 sn, u32
//    len, u32 nSG, u64 lbn, u64 ts, u64 rt} (40 bytes), version = ver >> 8;
//    lbn in 512-byte sectors, len in bytes, ts in us; SCSI op codes from
//    T10's list (READ(10) 0x28, WRITE(10) 0x2a, WRITE(16) 0x8a, SYNCHRONIZE
//    CACHE(10) 0x35, INQUIRY 0x12);
//  - oracleGeneral (customizedReader/oracle/oracleGeneralBin.h): 24-byte
//    records {u32 time s, u64 obj_id, u32 obj_size, i64 next_access_vtime},
//    obj_id a 4 KiB block (scripts/traceConv's conversion of block traces),
//    plain and zstd-compressed (libzstd, as cache_dataset ships them).
// Every field converted, detection, bad records named by file, record and
// byte with their fix.
#include <gtest/gtest.h>
#include <zstd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "tracefile/trace_reader.h"
#include "util/errors.h"

namespace tierbench {
namespace {

void LcsPut(std::string* out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out->push_back(static_cast<char>(v >> 8 * i));
}

struct VscsiRecord {
  uint16_t cmd = 0;
  uint64_t lbn = 0;
  uint32_t len = 0;
  uint64_t ts_us = 0;
};

std::string VscsiRecords(const std::vector<VscsiRecord>& records, int version) {
  std::string out;
  uint32_t sn = 0;
  for (const VscsiRecord& r : records) {
    const uint16_t ver = static_cast<uint16_t>(version << 8);
    if (version == 1) {
      LcsPut(&out, ++sn, 4);
      LcsPut(&out, r.len, 4);
      LcsPut(&out, 1, 4);  // nSG
      LcsPut(&out, r.cmd, 2);
      LcsPut(&out, ver, 2);
      LcsPut(&out, r.lbn, 8);
      LcsPut(&out, r.ts_us, 8);
    } else {
      LcsPut(&out, r.cmd, 2);
      LcsPut(&out, ver, 2);
      LcsPut(&out, ++sn, 4);
      LcsPut(&out, r.len, 4);
      LcsPut(&out, 1, 4);  // nSG
      LcsPut(&out, r.lbn, 8);
      LcsPut(&out, r.ts_us, 8);
      LcsPut(&out, 250, 8);  // rt
    }
  }
  return out;
}

const std::vector<VscsiRecord> kVscsiMixed = {
    {0x28, 100, 4096, 1000},  // READ(10)
    {0x2a, 8, 8192, 2000},    // WRITE(10)
    {0x12, 0, 36, 2500},      // INQUIRY: skipped
    {0x35, 0, 0, 3000},       // SYNCHRONIZE CACHE(10): a flush
    {0x8a, 0, 512, 4000},     // WRITE(16) of sector 0
};

std::string LcsOracle(
    const std::vector<std::tuple<uint32_t, uint64_t, uint32_t, int64_t>>& rs) {
  std::string out;
  for (const auto& [time, id, size, next] : rs) {
    LcsPut(&out, time, 4);
    LcsPut(&out, id, 8);
    LcsPut(&out, size, 4);
    LcsPut(&out, static_cast<uint64_t>(next), 8);
  }
  return out;
}

const std::string kOracleThree =
    LcsOracle({{10, 5, 4096, 2}, {10, 7, 4096, -1}, {12, 5, 8192, -1}});

template <typename F>
std::string LcsError(F&& parse) {
  try {
    parse();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(VscsiTest, BothVersionsEveryField) {
  for (const int version : {1, 2}) {
    SCOPED_TRACE(version);
    const std::string data = VscsiRecords(kVscsiMixed, version);
    EXPECT_EQ(DetectTraceFormat(data), TraceFormat::kVscsi);
    const ParsedTrace t = ParseTrace(data, "/x/w01.vscsi", TraceFormat::kVscsi);
    EXPECT_EQ(t.volumes, std::vector<std::string>{"w01.vscsi"});
    ASSERT_EQ(t.records.size(), 4u);
    EXPECT_EQ(t.records[0].line, 1u);
    EXPECT_EQ(t.records[0].time_ns, 1'000'000u);
    EXPECT_EQ(t.records[0].offset_bytes, 100u * 512);
    EXPECT_EQ(t.records[0].length_bytes, 4096u);
    EXPECT_FALSE(t.records[0].is_write);
    EXPECT_EQ(t.records[0].flags, 0);
    EXPECT_EQ(t.records[1].offset_bytes, 8u * 512);
    EXPECT_EQ(t.records[1].length_bytes, 8192u);
    EXPECT_TRUE(t.records[1].is_write);
    EXPECT_EQ(t.records[2].line, 4u);
    EXPECT_EQ(t.records[2].time_ns, 3'000'000u);
    EXPECT_EQ(t.records[2].length_bytes, 0u);
    EXPECT_EQ(t.records[2].flags, kTraceFlush);
    EXPECT_EQ(t.records[3].line, 5u);
    EXPECT_EQ(t.records[3].offset_bytes, 0u);
    EXPECT_EQ(t.records[3].length_bytes, 512u);
    EXPECT_TRUE(t.records[3].is_write);

    const LoadedTrace l = ReadTraceText(data, "/x/w01.vscsi", {});
    EXPECT_EQ(l.Description(),
              "CloudPhysics vscsi (detected), volume w01.vscsi");
    ASSERT_EQ(l.log.entries.size(), 4u);
    EXPECT_EQ(l.log.entries[3].time_us, 3000u);
  }
}

TEST(VscsiTest, BadRecordsNameFileRecordAndFix) {
  const std::string v2 = VscsiRecords(kVscsiMixed, 2);
  std::string e =
      LcsError([&] { ReadTraceText(v2 + "0123456789", "v.bin", {}); });
  EXPECT_NE(e.find("v.bin: record 6 (byte 200): a truncated record: 10 bytes "
                   "left where a version 2 record takes 40. Fix: pass a "
                   "whole CloudPhysics vscsi trace"),
            std::string::npos)
      << e;
  // Record 3 claims version 1 in a version 2 trace.
  std::string mixed = v2;
  mixed[2 * 40 + 3] = 1;
  e = LcsError([&] { ParseTrace(mixed, "v.bin", TraceFormat::kVscsi); });
  EXPECT_NE(e.find("v.bin: record 3 (byte 80): version 1 in a trace of "
                   "version 2 records. Fix: "),
            std::string::npos)
      << e;
  e = LcsError([&] { ParseTrace(kOracleThree, "o.bin", TraceFormat::kVscsi); });
  EXPECT_NE(e.find("o.bin: record 1 (byte 0): neither a version 1 nor a "
                   "version 2 vscsi record"),
            std::string::npos)
      << e;
}

TEST(OracleTest, RecordsAreReadsOfFourKiBBlocks) {
  EXPECT_EQ(DetectTraceFormat(kOracleThree), TraceFormat::kOracle);
  const ParsedTrace t = ParseTrace(kOracleThree, "o.bin", TraceFormat::kOracle);
  EXPECT_EQ(t.volumes, std::vector<std::string>{"o.bin"});
  ASSERT_EQ(t.records.size(), 3u);
  EXPECT_EQ(t.records[0].time_ns, 10'000'000'000u);
  EXPECT_EQ(t.records[0].offset_bytes, 5u * 4096);
  EXPECT_EQ(t.records[0].length_bytes, 4096u);
  EXPECT_EQ(t.records[1].offset_bytes, 7u * 4096);
  EXPECT_EQ(t.records[2].time_ns, 12'000'000'000u);
  EXPECT_EQ(t.records[2].length_bytes, 8192u);
  EXPECT_EQ(t.records[2].line, 3u);
  for (const TraceRecord& r : t.records) {
    EXPECT_FALSE(r.is_write);
    EXPECT_EQ(r.flags, 0);
  }
  const LoadedTrace l = ReadTraceText(kOracleThree, "o.bin", {});
  EXPECT_EQ(l.Description(),
            "libCacheSim oracleGeneral (detected), volume o.bin, every "
            "request a read (the format has no direction)");
  EXPECT_EQ(l.log.ios[0], 3u);
  EXPECT_EQ(l.log.ios[1], 0u);
  EXPECT_EQ(l.log.entries[2].time_us, 2'000'000u);
}

TEST(OracleTest, ZstdFileIsDecompressed) {
  std::string z(ZSTD_compressBound(kOracleThree.size()), '\0');
  const size_t n = ZSTD_compress(z.data(), z.size(), kOracleThree.data(),
                                 kOracleThree.size(), 3);
  ASSERT_FALSE(ZSTD_isError(n));
  z.resize(n);
  const std::string path = (std::filesystem::temp_directory_path() /
                            "trace_oracle_test.oracleGeneral.zst")
                               .string();
  std::ofstream(path, std::ios::binary) << z;
  const LoadedTrace l = LoadTrace(path, {});
  EXPECT_EQ(l.format, TraceFormat::kOracle);
  EXPECT_TRUE(l.detected);
  ASSERT_EQ(l.log.entries.size(), 3u);
  EXPECT_EQ(l.log.entries[1].offset, 7u * 4096);
  EXPECT_EQ(l.log.entries[2].length, 8192u);

  // Cut short, and corrupt.
  std::ofstream(path, std::ios::binary) << z.substr(0, z.size() - 4);
  std::string e = LcsError([&] { LoadTrace(path, {}); });
  EXPECT_NE(e.find(path + ": the zstd stream is cut short (its last frame "
                          "does not end). Fix: download the trace again"),
            std::string::npos)
      << e;
  std::string bad = z;
  for (size_t i = 6; i < bad.size(); ++i) bad[i] = static_cast<char>(0xff);
  std::ofstream(path, std::ios::binary) << bad;
  e = LcsError([&] { LoadTrace(path, {}); });
  EXPECT_NE(e.find(path + ": a corrupt zstd stream at byte "),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("Fix: download the trace again, or check it with zstd -t"),
            std::string::npos)
      << e;
  // Inflating past the cap.
  std::ofstream(path, std::ios::binary) << z;
  TraceReadOptions small;
  small.max_inflated_bytes = 48;
  e = LcsError([&] { LoadTrace(path, small); });
  EXPECT_NE(e.find(path + ": the zstd stream inflates past 48 bytes"),
            std::string::npos)
      << e;
  std::filesystem::remove(path);
}

TEST(OracleTest, BadRecordsAndDetectionLimits) {
  // Not a multiple of 24: not detected, refused when forced.
  const std::string cut = kOracleThree.substr(0, 70);
  EXPECT_EQ(DetectTraceFormat(cut), TraceFormat::kAuto);
  std::string e = LcsError([&] {
    ReadTraceText(cut, "o.bin", {TraceFormat::kOracle, ""});
  });
  EXPECT_NE(e.find("o.bin: record 3 (byte 48): a truncated record: the file "
                   "holds 70 bytes, not a multiple of 24 (22 bytes left "
                   "over). Fix: pass a whole libCacheSim oracleGeneral trace"),
            std::string::npos)
      << e;
  // A hashed object id: past 64 bits as a block number.
  e = LcsError([&] {
    ParseTrace(LcsOracle({{1, 1ULL << 60, 100, -1}}), "kv.bin",
               TraceFormat::kOracle);
  });
  EXPECT_NE(e.find("kv.bin: record 1 (byte 0): obj_id 1152921504606846976 "
                   "as a 4 KiB block number does not fit in 64 bits"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find(". Fix: profile a block trace"), std::string::npos) << e;
  // Zero sizes or time going backwards early on: not detected, read when
  // forced (sorted by time).
  const std::string back = LcsOracle({{20, 1, 4096, -1}, {10, 2, 4096, -1}});
  EXPECT_EQ(DetectTraceFormat(back), TraceFormat::kAuto);
  const LoadedTrace l =
      ReadTraceText(back, "b.bin", {TraceFormat::kOracle, ""});
  EXPECT_TRUE(l.reordered);
  EXPECT_EQ(l.log.entries[0].offset, 2u * 4096);
  EXPECT_EQ(DetectTraceFormat(LcsOracle({{1, 1, 0, -1}})), TraceFormat::kAuto);
  // Text of 24 bytes is not oracle, nor a text trace.
  EXPECT_EQ(DetectTraceFormat("abcdefghijklmnopqrstuvw\n"), TraceFormat::kAuto);
}

TEST(BinaryDetectionTest, TextFormatsStayText) {
  EXPECT_EQ(DetectTraceFormat("7,W,0,4096,12\n7,R,0,4096,13\n"),
            TraceFormat::kAlibaba);
  EXPECT_EQ(DetectTraceFormat("1538323200,1024,8,0,1063\n"), TraceFormat::kCbs);
  EXPECT_EQ(DetectTraceFormat("  8,0    3        1     0.000000000  4162  Q  "
                              "WS 1234 + 8 [proc]\n"),
            TraceFormat::kBlkparse);
  // vscsi's version byte without binary content is not vscsi.
  EXPECT_EQ(DetectTraceFormat(std::string(80, 'a')), TraceFormat::kAuto);
}

}  // namespace
}  // namespace tierbench
