// The blktrace binary reader (tracefile/trace_blktrace.cc) on records
// written here after the kernel's include/uapi/linux/blktrace_api.h (fio's
// copy: axboe/fio blktrace_api.h): struct blk_io_trace, 48 bytes {u32
// magic 0x65617400 | 7, u32 sequence, u64 time ns, u64 sector, u32 bytes,
// u32 action, u32 pid, u32 device, u32 cpu, u16 error, u16 pdu_len} + pdu;
// the action's low 16 bits __BLK_TA_* (QUEUE 1, ISSUE 7, COMPLETE 8; bit 8
// the cgroup flag), high 16 bits BLK_TC_* (READ 1<<0, WRITE 1<<1, FLUSH
// 1<<2, PC 1<<9, NOTIFY 1<<10, DISCARD 1<<13, FUA 1<<15); dev_t MAJ << 20 |
// MIN. Every field converted, both byte orders, a per-CPU set of 3 CPU
// files merged by time, bad records named by file, record and byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tracefile/trace_reader.h"
#include "util/errors.h"

namespace tierbench {
namespace {

constexpr uint32_t kBtTcRead = 1 << 0;
constexpr uint32_t kBtTcWrite = 1 << 1;
constexpr uint32_t kBtTcFlush = 1 << 2;
constexpr uint32_t kBtTcSync = 1 << 3;
constexpr uint32_t kBtTcQueue = 1 << 4;
constexpr uint32_t kBtTcIssue = 1 << 6;
constexpr uint32_t kBtTcComplete = 1 << 7;
constexpr uint32_t kBtTcFs = 1 << 8;
constexpr uint32_t kBtTcPc = 1 << 9;
constexpr uint32_t kBtTcNotify = 1 << 10;
constexpr uint32_t kBtTcDiscard = 1 << 13;
constexpr uint32_t kBtTcFua = 1 << 15;

// BLK_TA_QUEUE, BLK_TA_ISSUE, BLK_TA_COMPLETE, BLK_TN_MESSAGE with the
// request's categories.
uint32_t BtQueue(uint32_t cats) { return 1 | (kBtTcQueue | cats) << 16; }
uint32_t BtIssue(uint32_t cats) { return 7 | (kBtTcIssue | cats) << 16; }
uint32_t BtComplete(uint32_t cats) { return 8 | (kBtTcComplete | cats) << 16; }
constexpr uint32_t kBtMessage = 2 | kBtTcNotify << 16;

uint32_t BtDev(uint32_t major, uint32_t minor) { return major << 20 | minor; }

struct BtEvent {
  uint64_t time = 0;
  uint64_t sector = 0;
  uint32_t bytes = 0;
  uint32_t action = 0;
  uint32_t device = BtDev(8, 16);
  uint32_t cpu = 0;
  std::string pdu;
  uint32_t magic = 0x65617407;
};

BtEvent Bt(uint64_t time, uint64_t sector, uint32_t bytes, uint32_t action,
           uint32_t device = BtDev(8, 16), uint32_t cpu = 0,
           std::string pdu = "") {
  BtEvent e;
  e.time = time;
  e.sector = sector;
  e.bytes = bytes;
  e.action = action;
  e.device = device;
  e.cpu = cpu;
  e.pdu = std::move(pdu);
  return e;
}

void BtPut(std::string* out, uint64_t v, int n, bool big) {
  for (int i = 0; i < n; ++i) {
    const int shift = 8 * (big ? n - 1 - i : i);
    out->push_back(static_cast<char>(v >> shift & 0xff));
  }
}

std::string BtRecords(const std::vector<BtEvent>& events, bool big) {
  std::string out;
  uint32_t sequence = 0;
  for (const BtEvent& e : events) {
    BtPut(&out, e.magic, 4, big);
    BtPut(&out, ++sequence, 4, big);
    BtPut(&out, e.time, 8, big);
    BtPut(&out, e.sector, 8, big);
    BtPut(&out, e.bytes, 4, big);
    BtPut(&out, e.action, 4, big);
    BtPut(&out, 4242, 4, big);  // pid
    BtPut(&out, e.device, 4, big);
    BtPut(&out, e.cpu, 4, big);
    BtPut(&out, 0, 2, big);  // error
    BtPut(&out, e.pdu.size(), 2, big);
    out += e.pdu;
  }
  return out;
}

// Records 1-9; the ISSUE ones are records 3, 4, 5, 6 and 9.
std::vector<BtEvent> BtMixedEvents() {
  return {
      Bt(100, 10, 4096, BtQueue(kBtTcWrite | kBtTcFs)),
      Bt(50, 0, 0, kBtMessage, BtDev(8, 16), 0, "hello"),
      Bt(200, 10, 4096, BtIssue(kBtTcWrite | kBtTcSync | kBtTcFua | kBtTcFs)),
      Bt(300, 2048, 8192, BtIssue(kBtTcRead | kBtTcFs)),
      Bt(400, 0, 0, BtIssue(kBtTcWrite | kBtTcFlush | kBtTcFs)),
      Bt(500, 4096, 1 << 20, BtIssue(kBtTcWrite | kBtTcDiscard | kBtTcFs)),
      Bt(550, 0, 512, BtIssue(kBtTcRead | kBtTcPc), BtDev(8, 16), 0, "cdb"),
      Bt(600, 10, 4096, BtComplete(kBtTcWrite | kBtTcFs)),
      // An ISSUE with the cgroup flag (bit 8) and its 8-byte cgroup id.
      Bt(700, 7, 512, BtIssue(kBtTcRead | kBtTcFs) | 1 << 8, BtDev(8, 16), 0,
         std::string(8, '\x01')),
  };
}

// The ConfigError message of `parse`, or "" when it reads.
template <typename F>
std::string BtError(F&& parse) {
  try {
    parse();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(BlktraceTest, IssueEventsEveryFieldInBothByteOrders) {
  for (const bool big : {false, true}) {
    SCOPED_TRACE(big ? "big endian" : "little endian");
    const std::string data = BtRecords(BtMixedEvents(), big);
    EXPECT_EQ(DetectTraceFormat(data), TraceFormat::kBlktrace);
    const ParsedTrace t = ParseTrace(data, "b.bin", TraceFormat::kBlktrace);
    EXPECT_EQ(t.volumes, std::vector<std::string>{"8,16"});
    EXPECT_FALSE(t.reordered);
    ASSERT_EQ(t.records.size(), 5u);
    const TraceRecord& fua = t.records[0];
    EXPECT_EQ(fua.line, 3u);
    EXPECT_EQ(fua.time_ns, 200u);
    EXPECT_EQ(fua.offset_bytes, 10u * 512);
    EXPECT_EQ(fua.length_bytes, 4096u);
    EXPECT_TRUE(fua.is_write);
    EXPECT_EQ(fua.flags, kTraceFua);
    const TraceRecord& read = t.records[1];
    EXPECT_EQ(read.line, 4u);
    EXPECT_EQ(read.time_ns, 300u);
    EXPECT_EQ(read.offset_bytes, 2048u * 512);
    EXPECT_EQ(read.length_bytes, 8192u);
    EXPECT_FALSE(read.is_write);
    EXPECT_EQ(read.flags, 0);
    const TraceRecord& flush = t.records[2];
    EXPECT_EQ(flush.line, 5u);
    EXPECT_EQ(flush.length_bytes, 0u);
    EXPECT_EQ(flush.flags, kTraceFlush);
    const TraceRecord& discard = t.records[3];
    EXPECT_EQ(discard.line, 6u);
    EXPECT_EQ(discard.offset_bytes, 4096u * 512);
    EXPECT_EQ(discard.length_bytes, 0u);
    EXPECT_EQ(discard.flags, 0);
    const TraceRecord& cgroup = t.records[4];
    EXPECT_EQ(cgroup.line, 9u);
    EXPECT_EQ(cgroup.time_ns, 700u);
    EXPECT_EQ(cgroup.offset_bytes, 7u * 512);
    EXPECT_EQ(cgroup.length_bytes, 512u);

    const LoadedTrace l = ReadTraceText(data, "b.bin", {});
    EXPECT_EQ(l.format, TraceFormat::kBlktrace);
    EXPECT_EQ(l.Description(), "blktrace binary (detected), volume 8,16");
    EXPECT_EQ(l.log.ios[0], 2u);
    EXPECT_EQ(l.log.ios[1], 1u);
  }
}

TEST(BlktraceTest, CompleteEventsWhenNoIssue) {
  const std::string data = BtRecords(
      {
          Bt(100, 8, 4096, BtQueue(kBtTcRead | kBtTcFs), BtDev(253, 1)),
          Bt(150, 8, 4096, BtComplete(kBtTcRead | kBtTcFs), BtDev(253, 1)),
          Bt(160, 64, 512, BtComplete(kBtTcWrite | kBtTcFs), BtDev(253, 1)),
      },
      false);
  const ParsedTrace t = ParseTrace(data, "c.bin", TraceFormat::kBlktrace);
  EXPECT_EQ(t.volumes, std::vector<std::string>{"253,1"});
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0].line, 2u);
  EXPECT_EQ(t.records[0].time_ns, 150u);
  EXPECT_FALSE(t.records[0].is_write);
  EXPECT_EQ(t.records[1].offset_bytes, 64u * 512);
  EXPECT_TRUE(t.records[1].is_write);
}

TEST(BlktraceTest, PerCpuFilesMergedByTime) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "blktrace_per_cpu_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto issue = [](uint64_t time, uint64_t sector, uint32_t cpu) {
    return Bt(time, sector, 4096, BtIssue(kBtTcRead | kBtTcFs), BtDev(8, 0),
              cpu);
  };
  // Sector = the event's place in time order; t 40 on CPUs 0 and 2: CPU 0
  // first.
  const std::vector<std::vector<BtEvent>> cpus = {
      {issue(10, 1, 0), issue(40, 4, 0), issue(70, 7, 0)},
      {issue(20, 2, 1), issue(50, 6, 1)},
      {issue(30, 3, 2), issue(40, 5, 2), issue(80, 8, 2)},
  };
  for (size_t c = 0; c < cpus.size(); ++c) {
    std::ofstream(dir / ("sda.blktrace." + std::to_string(c)), std::ios::binary)
        << BtRecords(cpus[c], c == 1);  // CPU 1 recorded big endian
  }
  std::ofstream(dir / "sda.blktrace.3", std::ios::binary);  // an idle CPU
  for (const char* name : {"sda.blktrace.1", "sda"}) {
    SCOPED_TRACE(name);
    const LoadedTrace l = LoadTrace((dir / name).string(), {});
    EXPECT_EQ(l.format, TraceFormat::kBlktrace);
    EXPECT_FALSE(l.reordered);
    EXPECT_EQ(l.Description(), "blktrace binary (detected), volume 8,0");
    ASSERT_EQ(l.log.entries.size(), 8u);
    for (size_t i = 0; i < 8; ++i) {
      EXPECT_EQ(l.log.entries[i].offset, (i + 1) * 512) << i;
    }
    EXPECT_EQ(l.log.entries[7].time_us, 0u);  // 70 ns after the first
    EXPECT_EQ(l.log.entries[4].line, 2u);     // CPU 2's second record
  }
  // A bad record names its CPU file.
  std::ofstream(dir / "sda.blktrace.2", std::ios::binary | std::ios::app)
      << std::string(20, '\0');
  const std::string e =
      BtError([&] { LoadTrace((dir / "sda.blktrace.0").string(), {}); });
  EXPECT_NE(e.find((dir / "sda.blktrace.2").string() +
                   ": record 4 (byte 144): a truncated record: 20 bytes left "
                   "where a blk_io_trace header takes 48. Fix: "),
            std::string::npos)
      << e;
  std::filesystem::remove_all(dir);
}

TEST(BlktraceTest, BadRecordsNameFileRecordAndFix) {
  const std::string good = BtRecords(BtMixedEvents(), false);
  // Header cut short: record 10 at byte good.size().
  std::string e = BtError([&] {
    ParseTrace(good + std::string(30, '\0'), "b.bin", TraceFormat::kBlktrace);
  });
  EXPECT_NE(e.find("b.bin: record 10 (byte " + std::to_string(good.size()) +
                   "): a truncated record: 30 bytes left where a "
                   "blk_io_trace header takes 48. Fix: pass blktrace's "
                   "per-CPU files"),
            std::string::npos)
      << e;
  // Payload cut short: the last record's 8-byte cgroup id loses 3 bytes.
  e = BtError([&] {
    ParseTrace(good.substr(0, good.size() - 3), "b.bin",
               TraceFormat::kBlktrace);
  });
  EXPECT_NE(e.find("b.bin: record 9 (byte " + std::to_string(good.size() - 56) +
                   "): a truncated record: its payload (pdu_len 8) runs past "
                   "the end of the file"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find(". Fix: "), std::string::npos) << e;
  // Bad magic in record 2.
  std::vector<BtEvent> events = BtMixedEvents();
  events[1].magic = 0x12345607;
  e = BtError([&] { ReadTraceText(BtRecords(events, false), "b.bin", {}); });
  EXPECT_NE(e.find("b.bin: record 2 (byte 48): bad magic 0x12345607 where a "
                   "blk_io_trace record holds 0x656174"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find(". Fix: "), std::string::npos) << e;
  // Version 8 (struct blk_io_trace2).
  events = BtMixedEvents();
  events[0].magic = 0x65617408;
  e = BtError([&] { ReadTraceText(BtRecords(events, true), "b.bin", {}); });
  EXPECT_NE(e.find("b.bin: record 1 (byte 0): blktrace version 8 (struct "
                   "blk_io_trace2) where tierbench reads version 7 (struct "
                   "blk_io_trace). Fix: read the trace with a blkparse"),
            std::string::npos)
      << e;
  // Only queue events: nothing to profile.
  e = BtError([&] {
    ParseTrace(BtRecords({Bt(1, 2, 512, BtQueue(kBtTcRead))}, false), "q.bin",
               TraceFormat::kBlktrace);
  });
  EXPECT_NE(e.find("q.bin: an empty blktrace binary trace (no requests). "
                   "Fix: a blktrace trace needs ISSUE (D) or COMPLETE (C)"),
            std::string::npos)
      << e;
}

TEST(BlktraceTest, UnsortedFileIsSortedAndSaysSo) {
  const std::string data = BtRecords(
      {
          Bt(300, 3, 512, BtIssue(kBtTcRead | kBtTcFs)),
          Bt(100, 1, 512, BtIssue(kBtTcRead | kBtTcFs)),
      },
      false);
  const LoadedTrace l = ReadTraceText(data, "u.bin", {});
  EXPECT_TRUE(l.reordered);
  ASSERT_EQ(l.log.entries.size(), 2u);
  EXPECT_EQ(l.log.entries[0].offset, 512u);
  EXPECT_EQ(l.log.entries[0].line, 2u);
}

}  // namespace
}  // namespace tierbench
