// The dm-log-writes log reader and replayer (io/write_log.h) on logs built
// here byte by byte in the kernel's layout, replayed into temporary files.
// The lab's power-cut test replays a log the real kernel target wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "io/write_log.h"
#include "support/write_log_builder.h"

namespace tierbench {
namespace {

using testing::LogBuilder;
using testing::PutLe;

// A temporary file holding `content`, removed at scope end.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    char name[] = "/tmp/tierbench-write-log-XXXXXX";
    fd_ = ::mkstemp(name);
    path_ = name;
    if (fd_ >= 0 && !content.empty()) {
      EXPECT_EQ(::pwrite(fd_, content.data(), content.size(), 0),
                static_cast<ssize_t>(content.size()));
    }
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }
  std::string Read() const {
    std::string out;
    char buf[4096];
    for (off_t off = 0;;) {
      const ssize_t n = ::pread(fd_, buf, sizeof(buf), off);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
      off += n;
    }
    return out;
  }

 private:
  int fd_ = -1;
  std::string path_;
};

Status Read(const std::string& log_bytes, WriteLog* log) {
  TempFile f(log_bytes);
  return ReadWriteLog(f.fd(), log_bytes.size(), log);
}

TEST(WriteLogTest, ReadsEntriesMarksAndTheDevicesEnd) {
  const std::string bytes = LogBuilder(512)
                                .Write(8, 2, 'a')
                                .Flush()
                                .Mark("r0")
                                .Discard(100, 4)
                                .Write(0, 1, 'b', kWriteLogFua)
                                .Mark("r1")
                                .Bytes();
  WriteLog log;
  ASSERT_TRUE(Read(bytes, &log).ok());
  EXPECT_EQ(log.sectorsize, 512u);
  ASSERT_EQ(log.entries.size(), 6u);
  EXPECT_EQ(log.entries[0].sector, 8u);
  EXPECT_EQ(log.entries[0].nr_sectors, 2u);
  EXPECT_EQ(log.entries[0].data_offset, 1024u);  // after super and header
  EXPECT_EQ(log.entries[2].mark, "r0");
  EXPECT_EQ(log.entries[3].flags, kWriteLogDiscard);
  EXPECT_EQ(log.entries[5].mark, "r1");
  EXPECT_EQ(log.device_end, 104u * 512);  // the discard reaches furthest
  uint64_t at = 0;
  ASSERT_TRUE(FindWriteLogMark(log, "r1", &at).ok());
  EXPECT_EQ(at, 5u);
  Status missing = FindWriteLogMark(log, "r9", &at);
  EXPECT_EQ(missing.code(), Status::Code::kNotFound);
  EXPECT_NE(missing.message().find("its marks: r0, r1"), std::string::npos)
      << missing.message();
  const std::string text = DescribeWriteLog(log);
  EXPECT_NE(text.find("mark r0 (entry 2)\nmark r1 (entry 5)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("6 entries (sectorsize 512): 2 writes (1.50KiB), 1 "
                      "flushes, 1 FUA, 1 discards, 2 marks"),
            std::string::npos)
      << text;
}

// Up to a mark: the writes before it and none after; later writes to the
// same sectors win when replayed further.
TEST(WriteLogTest, ReplaysUpToAMarkAndNoFurther) {
  const std::string bytes = LogBuilder(512)
                                .Write(0, 2, 'a')
                                .Flush()
                                .Mark("r0")
                                .Write(1, 1, 'b')
                                .Write(3, 1, 'c')
                                .Mark("r1")
                                .Discard(0, 1)
                                .Bytes();
  TempFile log_file(bytes);
  WriteLog log;
  ASSERT_TRUE(ReadWriteLog(log_file.fd(), bytes.size(), &log).ok());
  const std::string zeros(4 * 512, '\0');

  TempFile at_r0(zeros);
  uint64_t end = 0;
  ASSERT_TRUE(FindWriteLogMark(log, "r0", &end).ok());
  WriteLogReplay r;
  ASSERT_TRUE(
      ReplayWriteLog(log, log_file.fd(), end, at_r0.fd(), zeros.size(), &r)
          .ok());
  EXPECT_EQ(at_r0.Read(), std::string(1024, 'a') + std::string(1024, '\0'));
  EXPECT_EQ(r.entries, 3u);
  EXPECT_EQ(r.writes, 1u);
  EXPECT_EQ(r.bytes, 1024u);
  EXPECT_EQ(r.flushes, 1u);
  EXPECT_EQ(r.marks, 1u);

  TempFile at_r1(zeros);
  ASSERT_TRUE(FindWriteLogMark(log, "r1", &end).ok());
  ASSERT_TRUE(
      ReplayWriteLog(log, log_file.fd(), end, at_r1.fd(), zeros.size(), &r)
          .ok());
  EXPECT_EQ(at_r1.Read(), std::string(512, 'a') + std::string(512, 'b') +
                              std::string(512, '\0') + std::string(512, 'c'));

  // The whole log: the discard zeroes sector 0.
  TempFile all(zeros);
  ASSERT_TRUE(
      ReplayWriteLog(log, log_file.fd(), UINT64_MAX, all.fd(), zeros.size(), &r)
          .ok());
  EXPECT_EQ(all.Read(), std::string(512, '\0') + std::string(512, 'b') +
                            std::string(512, '\0') + std::string(512, 'c'));
  EXPECT_EQ(r.entries, 7u);
  EXPECT_EQ(r.discards, 1u);
}

TEST(WriteLogTest, ReplaysA4KiBSectorLog) {
  const std::string bytes =
      LogBuilder(4096).Write(1, 1, 'x', kWriteLogFua).Mark("m").Bytes();
  TempFile log_file(bytes);
  WriteLog log;
  ASSERT_TRUE(ReadWriteLog(log_file.fd(), bytes.size(), &log).ok());
  EXPECT_EQ(log.entries[0].data_offset, 8192u);
  TempFile target(std::string(8192, '\0'));
  WriteLogReplay r;
  ASSERT_TRUE(
      ReplayWriteLog(log, log_file.fd(), 1, target.fd(), 8192, &r).ok());
  EXPECT_EQ(target.Read(), std::string(4096, '\0') + std::string(4096, 'x'));
  EXPECT_EQ(r.fua, 1u);
}

// The super's count bounds what is read: entries past it (not yet counted
// when the log was copied) are not replayed.
TEST(WriteLogTest, ReadsOnlyTheEntriesTheSuperCounts) {
  const std::string bytes =
      LogBuilder(512).Write(0, 1, 'a').Mark("r0").Write(0, 1, 'z').Bytes(2);
  WriteLog log;
  ASSERT_TRUE(Read(bytes, &log).ok());
  EXPECT_EQ(log.entries.size(), 2u);
}

TEST(WriteLogTest, RefusesLogsThatAreNotOrAreCut) {
  struct Case {
    std::string bytes;
    std::string named;
  };
  std::string bad_magic = LogBuilder(512).Mark("r0").Bytes();
  bad_magic[0] = 'X';
  std::string bad_version = LogBuilder(512).Bytes();
  PutLe(&bad_version, 8, 2, 8);
  std::string bad_sector = LogBuilder(512).Bytes();
  PutLe(&bad_sector, 24, 1000, 4);
  const std::string whole = LogBuilder(512).Write(0, 4, 'a').Bytes();
  std::string long_mark = LogBuilder(512).Mark("r0").Bytes();
  PutLe(&long_mark, 512 + 24, 600, 8);
  const Case cases[] = {
      {std::string(100, '\0'), "less than its 512-byte super"},
      {bad_magic, "not a dm-log-writes log: magic 0x6a7366777368"},
      {bad_version, "version 2, not 1"},
      {bad_sector, "sectorsize 1000"},
      {whole.substr(0, whole.size() - 512), "the data of log entry 0"},
      {LogBuilder(512).Mark("r0").Bytes(1000), "counts 1,000 entries"},
      {LogBuilder(512).Mark("r0").Bytes(2), "log entry 1 of 2 starts"},
      {long_mark, "a mark of 600 bytes"},
  };
  for (const Case& c : cases) {
    WriteLog log;
    Status s = Read(c.bytes, &log);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << c.named;
    EXPECT_NE(s.message().find(c.named), std::string::npos) << s.message();
  }
}

// A target smaller than the logged device is refused before any byte of it
// changes.
TEST(WriteLogTest, RefusesASmallTargetBeforeWriting) {
  const std::string bytes =
      LogBuilder(512).Write(0, 1, 'a').Write(7, 1, 'b').Bytes();
  TempFile log_file(bytes);
  WriteLog log;
  ASSERT_TRUE(ReadWriteLog(log_file.fd(), bytes.size(), &log).ok());
  TempFile target(std::string(2048, '\0'));
  WriteLogReplay r;
  Status s =
      ReplayWriteLog(log, log_file.fd(), UINT64_MAX, target.fd(), 2048, &r);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("log entry 1 writes bytes 3584..4096, past the "
                             "end of the 2048-byte target"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(target.Read(), std::string(2048, '\0'));
}

}  // namespace
}  // namespace tierbench
