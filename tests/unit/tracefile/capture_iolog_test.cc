// The fio iolog of a captured trace (tracefile/capture_iolog.h): reads and
// writes as read/write lines in us since the first request, flushes as sync
// lines (a preflush before its write), FUA writes as plain writes, discards
// left out; and the text read back by the iolog parser read_iolog= uses.
// The blkparse text follows blkparse(1) "DEFAULT OUTPUT" and blkparse's
// RWBS letters (blkparse_fmt.c fill_rwbs: F before the op is a preflush, F
// after it FUA, N no data).
#include "tracefile/capture_iolog.h"

#include <gtest/gtest.h>

#include <string>

#include "tracefile/iolog.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TraceRecord CaptureRecord(uint64_t time_ns, uint64_t offset, uint32_t length,
                          bool is_write, uint8_t flags = 0,
                          uint32_t volume = 0) {
  TraceRecord r;
  r.time_ns = time_ns;
  r.offset_bytes = offset;
  r.length_bytes = length;
  r.is_write = is_write;
  r.flags = flags;
  r.volume = volume;
  return r;
}

TEST(CaptureIoLogTest, RecordsBecomeLinesWithFlushesAsSync) {
  ParsedTrace trace;
  trace.format = TraceFormat::kBlkparse;
  trace.volumes = {"7,0", "7,1"};
  trace.records = {
      CaptureRecord(5'000'000'000, 8192, 4096, false),
      CaptureRecord(5'000'010'999, 0, 4096, true),
      CaptureRecord(5'000'011'000, 0, 4096, true, 0, /*volume=*/1),
      CaptureRecord(5'000'020'000, 0, 0, true, kTraceFlush),  // pure flush
      // A write with a preflush and FUA: sync first, then the write.
      CaptureRecord(5'000'030'000, 4096, 8192, true, kTraceFlush | kTraceFua),
      CaptureRecord(5'000'040'000, 65536, 0, false),  // a discard
  };
  const CaptureIoLog log = CaptureIoLogOf(trace, 0, "/dev/loop0");
  EXPECT_EQ(log.text,
            "fio version 3 iolog\n"
            "0 /dev/loop0 add\n"
            "0 /dev/loop0 open\n"
            "0 /dev/loop0 read 8192 4096\n"
            "10 /dev/loop0 write 0 4096\n"
            "20 /dev/loop0 sync 0 0\n"
            "30 /dev/loop0 sync 0 0\n"
            "30 /dev/loop0 write 4096 8192\n"
            "40 /dev/loop0 close\n");
  EXPECT_EQ(log.counts.reads, 1u);
  EXPECT_EQ(log.counts.writes, 2u);
  EXPECT_EQ(log.counts.read_bytes, 4096u);
  EXPECT_EQ(log.counts.write_bytes, 12288u);
  EXPECT_EQ(log.counts.syncs, 2u);
  EXPECT_EQ(log.counts.fua, 1u);
  EXPECT_EQ(log.counts.dropped, 1u);
  EXPECT_EQ(log.counts.span_us, 40u);
  // read_iolog= takes it: the two sync lines are replayed as flushes.
  const IoLog back = ParseIoLog(log.text, "cap.iolog");
  EXPECT_EQ(back.files, std::vector<std::string>{"/dev/loop0"});
  EXPECT_EQ(back.ios[0], 1u);
  EXPECT_EQ(back.ios[1], 2u);
  EXPECT_EQ(back.bytes[1], 12288u);
  EXPECT_EQ(back.syncs, 2u);
  EXPECT_EQ(back.skipped, 0u);
}

// blktrace of a partition reports sectors from the disk's start: the iolog
// counts from the partition's (its sysfs start x 512).
TEST(CaptureIoLogTest, APartitionsOffsetsCountFromItsStart) {
  ParsedTrace trace;
  trace.path = "sdb1.blkparse.txt";
  trace.volumes = {"8,17"};
  trace.records = {CaptureRecord(1000, 1048576 + 8192, 4096, false)};
  const CaptureIoLog log = CaptureIoLogOf(trace, 0, "/dev/sdb1", 1048576);
  EXPECT_NE(log.text.find("0 /dev/sdb1 read 8192 4096\n"), std::string::npos)
      << log.text;
  trace.records.push_back(CaptureRecord(2000, 4096, 4096, true));
  trace.records.back().line = 7;
  try {
    CaptureIoLogOf(trace, 0, "/dev/sdb1", 1048576);
    ADD_FAILURE() << "a request before the partition's start was taken";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("sdb1.blkparse.txt:7:"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("Fix: "), std::string::npos);
  }
}

TEST(CaptureIoLogTest, AVolumeWithoutRecordsIsAnEmptyLog) {
  ParsedTrace trace;
  trace.volumes = {"7,0", "7,1"};
  trace.records = {CaptureRecord(1000, 0, 512, false)};
  const CaptureIoLog log = CaptureIoLogOf(trace, 1, "/dev/loop1");
  EXPECT_EQ(log.text,
            "fio version 3 iolog\n0 /dev/loop1 add\n0 /dev/loop1 open\n"
            "0 /dev/loop1 close\n");
  EXPECT_EQ(log.counts.reads + log.counts.writes + log.counts.syncs, 0u);
}

// blkparse's text as capture gets it: Q/G/I/C events around each D, a
// pure flush (D FN, no sector), a preflush write (FWS), a FUA write (WFS),
// and the summary blkparse prints at the end.
constexpr const char* kCaptureBlkparse =
    "  7,0    1        1     0.000000000   812  Q   R 16 + 8 [tierbench]\n"
    "  7,0    1        2     0.000001000   812  G   R 16 + 8 [tierbench]\n"
    "  7,0    1        3     0.000002000   812  D   R 16 + 8 [tierbench]\n"
    "  7,0    1        4     0.000050000     0  C   R 16 + 8 [0]\n"
    "  7,0    1        5     0.000100000   812  Q  WS 24 + 8 [tierbench]\n"
    "  7,0    1        6     0.000102000   812  D  WS 24 + 8 [tierbench]\n"
    "  7,0    1        7     0.000150000     0  C  WS 24 + 8 [0]\n"
    "  7,0    1        8     0.000200000   812  Q FWS [tierbench]\n"
    "  7,0    1        9     0.000203000   812  D  FN [tierbench]\n"
    "  7,0    1       10     0.000250000     0  C  FN 0 [0]\n"
    "  7,0    0        1     0.000302000   812  D FWS 32 + 8 [tierbench]\n"
    "  7,0    0        2     0.000402000   812  D WFS 40 + 8 [tierbench]\n"
    "CPU0 (7,0):\n"
    " Reads Queued:           0,        0KiB\t Writes Queued:           "
    "2,        8KiB\n";

TEST(CaptureIoLogTest, BlkparseIssueEventsWithFlushesBecomeTheIolog) {
  const ParsedTrace trace =
      ParseTrace(kCaptureBlkparse, "cap.blkparse.txt", TraceFormat::kBlkparse);
  ASSERT_EQ(trace.volumes, std::vector<std::string>{"7,0"});
  const CaptureIoLog log = CaptureIoLogOf(trace, 0, "/dev/loop0");
  // Times in us since the first D (2 us): 0, 100, 201, 300, 400.
  EXPECT_EQ(log.text,
            "fio version 3 iolog\n"
            "0 /dev/loop0 add\n"
            "0 /dev/loop0 open\n"
            "0 /dev/loop0 read 8192 4096\n"
            "100 /dev/loop0 write 12288 4096\n"
            "201 /dev/loop0 sync 0 0\n"
            "300 /dev/loop0 sync 0 0\n"
            "300 /dev/loop0 write 16384 4096\n"
            "400 /dev/loop0 write 20480 4096\n"
            "400 /dev/loop0 close\n");
  EXPECT_EQ(log.counts.syncs, 2u);
  EXPECT_EQ(log.counts.fua, 1u);
}

}  // namespace
}  // namespace tierbench
