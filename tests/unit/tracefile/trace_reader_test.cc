// The block trace readers (tracefile/trace_reader.h) on small traces written
// here after each format's published layout:
//  - MSR Cambridge: the README of the MSR Cambridge traces (SNIA IOTTA):
//    Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime; filetime
//    ticks of 100 ns, bytes;
//  - Tencent CBS: the README of the Tencent block traces (SNIA IOTTA):
//    Timestamp,Offset,Size,IOType,VolumeID; seconds, 512-byte sectors,
//    0 read / 1 write;
//  - Alibaba: the alibaba/block-traces README (libCacheSim's traceConv
//    parse_alibaba): device_id,opcode,offset,length,timestamp; R/W, bytes,
//    microseconds;
//  - blkparse: blkparse(1) "DEFAULT OUTPUT": MAJ,MIN CPU SEQ SECS.NSECS PID
//    ACTION RWBS SECTOR + COUNT [PROC].
// Records parsed, detection from content, volume selection, bad input with
// its line number.
#include "tracefile/trace_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "util/errors.h"

namespace tierbench {
namespace {

// The ConfigError message of reading `text`, or "" when it reads.
std::string TraceReaderError(const std::string& text,
                             TraceReadOptions options = {}) {
  try {
    ReadTraceText(text, "t.csv", options);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kTraceReaderMsr =
    "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
    "128166372003061629,hm,0,Read,383468544,32768,1370\n"
    "128166372003183623,hm,0,Write,3216015360,4096,2103\n"
    "128166372013061629,hm,0,Read,0,8192,98\n";

TEST(TraceReaderTest, MsrRecordsInBytesAndFiletime) {
  const ParsedTrace t = ParseTrace(kTraceReaderMsr, "m.csv", TraceFormat::kMsr);
  ASSERT_EQ(t.records.size(), 3u);
  EXPECT_EQ(t.volumes, std::vector<std::string>{"hm_0"});
  EXPECT_EQ(t.records[0].offset_bytes, 383468544u);
  EXPECT_EQ(t.records[0].length_bytes, 32768u);
  EXPECT_FALSE(t.records[0].is_write);
  EXPECT_TRUE(t.records[1].is_write);
  EXPECT_EQ(t.records[0].time_ns, 128166372003061629ULL * 100);
  EXPECT_EQ(t.records[2].line, 4u);

  const LoadedTrace l = ReadTraceText(kTraceReaderMsr, "m.csv", {});
  EXPECT_EQ(l.format, TraceFormat::kMsr);
  EXPECT_TRUE(l.detected);
  EXPECT_EQ(l.Description(), "MSR Cambridge CSV (detected), volume hm_0");
  ASSERT_EQ(l.log.entries.size(), 3u);
  // 1 s later in 100 ns ticks: 10^7 ticks = 10^6 us.
  EXPECT_EQ(l.log.entries[2].time_us, 1'000'000u);
  EXPECT_EQ(l.log.ios[0], 2u);
  EXPECT_EQ(l.log.ios[1], 1u);
  EXPECT_EQ(l.log.extent, 3216015360u + 4096);
}

TEST(TraceReaderTest, CbsRecordsInSectorsAndSeconds) {
  const std::string text =
      "1538323200,1024,8,0,1063\n"
      "1538323200,2048,16,1,1063\n"
      "1538323202,0,1,1,1063\n";
  const LoadedTrace l = ReadTraceText(text, "c.csv", {});
  EXPECT_EQ(l.format, TraceFormat::kCbs);
  EXPECT_EQ(l.volume, "1063");
  ASSERT_EQ(l.log.entries.size(), 3u);
  EXPECT_EQ(l.log.entries[0].offset, 1024u * 512);
  EXPECT_EQ(l.log.entries[0].length, 8u * 512);
  EXPECT_EQ(l.log.entries[0].action, IoLogAction::kRead);
  EXPECT_EQ(l.log.entries[1].action, IoLogAction::kWrite);
  EXPECT_EQ(l.log.entries[2].time_us, 2'000'000u);
}

TEST(TraceReaderTest, AlibabaRecordsInBytesAndMicroseconds) {
  const std::string text =
      "device_id,opcode,offset,length,timestamp\n"
      "0,R,126703644672,4096,1577808000000335\n"
      "0,W,1059553280,16384,1577808000000600\n";
  const LoadedTrace l = ReadTraceText(text, "a.csv", {});
  EXPECT_EQ(l.format, TraceFormat::kAlibaba);
  ASSERT_EQ(l.log.entries.size(), 2u);
  EXPECT_EQ(l.log.entries[0].offset, 126703644672u);
  EXPECT_EQ(l.log.entries[1].length, 16384u);
  EXPECT_EQ(l.log.entries[1].action, IoLogAction::kWrite);
  EXPECT_EQ(l.log.entries[1].time_us, 265u);
}

constexpr const char* kTraceReaderBlkparse =
    "  8,0    3        1     0.000000000  4162  Q  WS 1234 + 8 [fio]\n"
    "  8,0    3        2     0.000001200  4162  G  WS 1234 + 8 [fio]\n"
    "  8,0    3        3     0.000002500  4162  D  WS 1234 + 8 [fio]\n"
    "  8,0    1        1     0.000100000  4163  D   R 4096 + 16 [fio]\n"
    "  8,0    3        4     0.000200000     0  C  WS 1234 + 8 [0]\n"
    "  8,0    2        1     0.000400000  4164  D  FN 0 + 0 [kworker]\n"
    "  8,0    1        2     0.000500000     0  m   N cfq4163 insert\n"
    "CPU1 (8,0):\n"
    " Reads Queued:           0,        0KiB\n";

TEST(TraceReaderTest, BlkparseTakesIssueEventsInSectors) {
  const LoadedTrace l = ReadTraceText(kTraceReaderBlkparse, "b.txt", {});
  EXPECT_EQ(l.format, TraceFormat::kBlkparse);
  EXPECT_EQ(l.volume, "8,0");
  ASSERT_EQ(l.log.entries.size(), 3u);  // the three D events
  EXPECT_EQ(l.log.entries[0].action, IoLogAction::kWrite);
  EXPECT_EQ(l.log.entries[0].offset, 1234u * 512);
  EXPECT_EQ(l.log.entries[0].length, 8u * 512);
  EXPECT_EQ(l.log.entries[0].line, 3u);
  EXPECT_EQ(l.log.entries[1].action, IoLogAction::kRead);
  EXPECT_EQ(l.log.entries[1].time_us, 97u);                // 100 us - 2.5 us
  EXPECT_EQ(l.log.entries[2].action, IoLogAction::kSync);  // the flush
  EXPECT_EQ(l.log.syncs, 1u);
  EXPECT_EQ(l.log.skipped, 0u);
  EXPECT_FALSE(l.reordered);
}

// blkparse's fill_rwbs(): 'F' before the direction is a preflush, after it
// FUA; a flush without data prints no SECTOR + COUNT (blkparse_fmt.c prints
// "%S + %n" only for a request with bytes).
TEST(TraceReaderTest, BlkparseFlushesAndFuaFromRwbs) {
  const std::string text =
      "  8,0    0        1     0.000000000  100  D  FN [kworker/0:1H]\n"
      "  8,0    0        2     0.000010000  100  D FWS 16 + 8 [jbd2]\n"
      "  8,0    0        3     0.000020000  100  D WFS 24 + 8 [jbd2]\n"
      "  8,0    0        4     0.000030000  100  D FWFS 32 + 8 [jbd2]\n"
      "  8,0    0        5     0.000040000  100  D   D 64 + 8 [fstrim]\n"
      "  8,0    0        6     0.000050000  100  D  FN\n"
      "  8,0    0        7     0.000060000  100  C  FN [0]\n"
      "  8,0    0        8     0.000070000  100  D  WS [unknown]\n";
  const ParsedTrace t = ParseTrace(text, "b.txt", TraceFormat::kBlkparse);
  ASSERT_EQ(t.records.size(), 6u);  // not the C event nor the bare WS
  EXPECT_EQ(t.records[0].flags, kTraceFlush);
  EXPECT_EQ(t.records[0].length_bytes, 0u);
  EXPECT_EQ(t.records[1].flags, kTraceFlush);
  EXPECT_EQ(t.records[1].length_bytes, 8u * 512);
  EXPECT_EQ(t.records[2].flags, kTraceFua);
  EXPECT_EQ(t.records[3].flags, kTraceFlush | kTraceFua);
  EXPECT_EQ(t.records[4].flags, 0);
  EXPECT_EQ(t.records[5].flags, kTraceFlush);
  EXPECT_EQ(t.records[5].line, 6u);

  const LoadedTrace l = ReadTraceText(text, "b.txt", {});
  std::vector<IoLogAction> actions;
  std::vector<bool> fua;
  for (const IoLogEntry& e : l.log.entries) {
    actions.push_back(e.action);
    fua.push_back(e.fua);
  }
  using A = IoLogAction;
  // A preflush is a sync before its write; the discard is skipped.
  EXPECT_EQ(actions,
            (std::vector<A>{A::kSync, A::kSync, A::kWrite, A::kWrite, A::kSync,
                            A::kWrite, A::kSkipped, A::kSync}));
  EXPECT_EQ(fua, (std::vector<bool>{false, false, false, true, false, true,
                                    false, false}));
  EXPECT_EQ(l.log.syncs, 4u);
  EXPECT_EQ(l.log.fua_writes, 2u);
  EXPECT_EQ(l.log.skipped, 1u);
  EXPECT_EQ(l.log.ios[1], 3u);
  EXPECT_EQ(l.log.entries[1].time_us, 10u);  // the preflush at its write's
}

TEST(TraceReaderTest, BlkparseWithoutIssueEventsUsesCompletions) {
  const std::string text =
      "  8,16   0        1     0.000000000  4162  Q   R 8 + 8 [fio]\n"
      "  8,16   0        2     0.000300000     0  C   R 8 + 8 [0]\n";
  const LoadedTrace l = ReadTraceText(text, "b.txt", {});
  ASSERT_EQ(l.log.entries.size(), 1u);
  EXPECT_EQ(l.log.entries[0].line, 2u);
}

TEST(TraceReaderTest, BlkparseOutOfOrderIsSortedAndSaysSo) {
  const std::string text =
      "  8,0    1        1     0.000200000  4163  D   R 64 + 8 [fio]\n"
      "  8,0    0        1     0.000100000  4162  D   W 8 + 8 [fio]\n";
  const LoadedTrace l = ReadTraceText(text, "b.txt", {});
  EXPECT_TRUE(l.reordered);
  ASSERT_EQ(l.log.entries.size(), 2u);
  EXPECT_EQ(l.log.entries[0].action, IoLogAction::kWrite);
  EXPECT_NE(l.Description().find("sorted by time"), std::string::npos);
}

TEST(TraceReaderTest, DetectsFromContentNotName) {
  EXPECT_EQ(DetectTraceFormat("fio version 2 iolog\n"), TraceFormat::kIoLog);
  EXPECT_EQ(DetectTraceFormat(kTraceReaderMsr), TraceFormat::kMsr);
  EXPECT_EQ(DetectTraceFormat("\n1,2,3,1,7\n"), TraceFormat::kCbs);
  EXPECT_EQ(DetectTraceFormat("7,W,0,4096,12\n"), TraceFormat::kAlibaba);
  EXPECT_EQ(DetectTraceFormat(kTraceReaderBlkparse), TraceFormat::kBlkparse);
  EXPECT_EQ(DetectTraceFormat("hello world\n"), TraceFormat::kAuto);
  // An iolog in a file named .csv is read as an iolog.
  const std::string path =
      (std::filesystem::temp_directory_path() / "trace_reader_iolog.csv")
          .string();
  std::ofstream(path) << "fio version 3 iolog\n0 d add\n5 d read 0 4096\n";
  const LoadedTrace l = LoadTrace(path, {});
  std::filesystem::remove(path);
  EXPECT_EQ(l.format, TraceFormat::kIoLog);
  EXPECT_EQ(l.Description(), "fio iolog v3");
  EXPECT_EQ(l.log.ios[0], 1u);
}

TEST(TraceReaderTest, MultiVolumeNeedsVolume) {
  const std::string text = "1,0,8,0,11\n1,8,8,1,12\n2,16,8,0,11\n3,0,8,0,13\n";
  const std::string e = TraceReaderError(text);
  EXPECT_NE(
      e.find("t.csv: the Tencent CBS CSV trace holds 3 volumes: 11 12 13. "
             "Fix: profile one with --volume V"),
      std::string::npos)
      << e;
  const LoadedTrace l =
      ReadTraceText(text, "t.csv", {TraceFormat::kAuto, "11"});
  EXPECT_EQ(l.log.entries.size(), 2u);
  EXPECT_EQ(l.log.entries[1].offset, 16u * 512);
  const std::string missing =
      TraceReaderError(text, {TraceFormat::kAuto, "99"});
  EXPECT_NE(missing.find("--volume 99 is not in the trace (its volumes: 11 "
                         "12 13)"),
            std::string::npos)
      << missing;
  EXPECT_NE(TraceReaderError("fio version 2 iolog\n", {TraceFormat::kAuto, "x"})
                .find("--volume x given for a fio iolog"),
            std::string::npos);
}

TEST(TraceReaderTest, BadInputNamesTheLine) {
  struct Case {
    std::string text;
    TraceFormat format;
    std::string want;
  } cases[] = {
      {"1,0,8,0,11\n1,0,8,11\n", TraceFormat::kAuto,
       "t.csv:2: a line of 4 columns where Tencent CBS CSV has 5. Fix: each "
       "line is Timestamp,Offset,Size,IOType,VolumeID"},
      {"1,0,8,0,11\n1,x,8,0,11\n", TraceFormat::kAuto,
       "t.csv:2: Offset 'x' is not a whole number. Fix:"},
      {"5,0,8,0,11\n4,0,8,0,11\n", TraceFormat::kAuto,
       "t.csv:2: the timestamp goes backwards"},
      {"1,0,8,2,11\n", TraceFormat::kCbs, "t.csv:1: IOType 2 is neither"},
      {"1,h,0,Read,0,512,1\n2,h,0,Erase,0,512,1\n", TraceFormat::kMsr,
       "t.csv:2: Type 'Erase' is neither Read nor Write"},
      {"0,R,0,4096,5\n0,X,0,4096,6\n", TraceFormat::kAlibaba,
       "t.csv:2: opcode 'X' is neither R nor W"},
      {"0,R,0,536870912,5\n", TraceFormat::kAlibaba,
       "t.csv:1: a request of 536870912 bytes, over the 256 MiB"},
      {"  8,0 0 1 0.5 1 D R 8 + 8 [a]\nhello\n", TraceFormat::kAuto,
       "t.csv:2: 'hello' is not a device MAJ,MIN"},
      {"  8,0 0 1 0.x 1 D R 8 + 8 [a]\n", TraceFormat::kBlkparse,
       "t.csv:1: time '0.x' is not SECONDS.NANOSECONDS"},
      {"  8,0 0 1 0.5 1 Q R 8 + 8 [a]\n", TraceFormat::kAuto,
       "t.csv: an empty blkparse text trace (no requests). Fix: a blkparse "
       "trace needs ISSUE (D) or COMPLETE (C) events"},
      {"Timestamp,Offset,Size,IOType,VolumeID\n", TraceFormat::kAuto,
       "t.csv: an empty Tencent CBS CSV trace"},
      {"\n\n", TraceFormat::kAuto, "t.csv: an empty trace (no lines)"},
      {"hello,world\n", TraceFormat::kAuto,
       "cannot tell the trace's format from its content (tried fio iolog, "
       "MSR Cambridge CSV, Tencent CBS CSV, Alibaba block CSV, blkparse "
       "text, blktrace binary, CloudPhysics vscsi, libCacheSim "
       "oracleGeneral). Fix: pass --format"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string e = TraceReaderError(c.text, {c.format, ""});
    EXPECT_NE(e.find(c.want), std::string::npos) << e;
    EXPECT_NE(e.find("Fix: "), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(TraceReaderTest, FormatWords) {
  for (TraceFormat f :
       {TraceFormat::kAuto, TraceFormat::kIoLog, TraceFormat::kBlkparse,
        TraceFormat::kMsr, TraceFormat::kCbs, TraceFormat::kAlibaba,
        TraceFormat::kBlktrace, TraceFormat::kVscsi, TraceFormat::kOracle}) {
    EXPECT_EQ(TraceFormatOfWord(TraceFormatWord(f)), f);
  }
  EXPECT_EQ(TraceFormatWord(TraceFormat::kBlktrace), "blktrace");
  EXPECT_EQ(TraceFormatWord(TraceFormat::kVscsi), "vscsi");
  EXPECT_EQ(TraceFormatWord(TraceFormat::kOracle), "oracle");
  EXPECT_EQ(TraceFormatOfWord("csv"), std::nullopt);
}

}  // namespace
}  // namespace tierbench
