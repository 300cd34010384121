// verify= in the job-file parser (fio's names, defaults, interval rules and
// one-line errors) and in the runner on a regular file: write + verify
// phase, verify_backlog, verify_only after damage behind the job's back,
// verify_fatal / continue_on_error=verify, and a read job that checks.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/errors.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

JobSpec Parse(const std::string& text) {
  return ParseJobText(text, "t.fio", JobOverrides{}).jobs.at(0);
}

std::string ParseError(const std::string& text) {
  try {
    ParseJobText(text, "t.fio", JobOverrides{});
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(VerifyOptionsTest, NamesAndDefaultsAsFio) {
  const JobSpec plain = Parse("[a]\nfilename=/tmp/x\n");
  EXPECT_FALSE(plain.verify.enabled());
  EXPECT_TRUE(plain.verify.do_verify);
  EXPECT_FALSE(plain.verify.fatal);

  JobSpec s =
      Parse("[a]\nfilename=/tmp/x\nrw=randwrite\nverify=crc32c-intel\n");
  EXPECT_EQ(s.verify.type, VerifyType::kCrc32c);
  EXPECT_EQ(s.verify.interval, 4096u);  // the write block size
  s = Parse(
      "[a]\nfilename=/tmp/x\nrw=write\nbs=4k,16k\nverify=md5\n"
      "verify_backlog=16\nverify_fatal=1\ndo_verify=0\n");
  EXPECT_EQ(s.verify.type, VerifyType::kMd5);
  EXPECT_EQ(s.verify.interval, 16384u);
  EXPECT_EQ(s.verify.backlog, 16u);
  EXPECT_TRUE(s.verify.fatal);
  EXPECT_FALSE(s.verify.do_verify);
  // fio's fixup_options(): a range takes its minimum; an interval above the
  // write size is clipped; one that does not divide it becomes the gcd.
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nrw=write\nbsrange=4k-64k\nverify=meta"
                  "\n")
                .verify.interval,
            4096u);
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nrw=write\nbs=8k\nverify=crc32c\n"
                  "verify_interval=1m\n")
                .verify.interval,
            8192u);
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nrw=write\nbs=8k\nverify=crc32c\n"
                  "verify_interval=3k\n")
                .verify.interval,
            8192u);
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nrw=write\nbs=8k\nverify=crc32c\n"
                  "verify_interval=1k\n")
                .verify.interval,
            1024u);
  // verify_pattern alone means a header + pattern check (VERIFY_PATTERN);
  // verify=pattern has no header.
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nverify_pattern=0xff\n").verify.type,
            VerifyType::kPattern);
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nverify=pattern\nverify_pattern=0xff\n")
                .verify.type,
            VerifyType::kPatternNoHdr);
  EXPECT_EQ(Parse("[a]\nfilename=/tmp/x\nverify=md5\nverify_pattern=0xff\n")
                .verify.type,
            VerifyType::kMd5);
  EXPECT_EQ(
      Parse("[global]\nverify=crc32c\n[a]\nfilename=/tmp/x\n").verify.type,
      VerifyType::kCrc32c);
}

TEST(VerifyOptionsTest, BadValuesNameFileLineOptionAndFix) {
  EXPECT_EQ(ParseError("[a]\nfilename=/tmp/x\nverify=sha256\n"),
            "t.fio:3: option 'verify': fio's verify=sha256 is not implemented "
            "by tierbench. Fix: use verify=crc32c (or md5, meta, pattern)");
  EXPECT_EQ(ParseError("[a]\nfilename=/tmp/x\nverify=none\n"),
            "t.fio:3: option 'verify': 'none' is not a verify type (fio spells "
            "no verification 0). Fix: write verify=0");
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nverify=crc33\n")
                .find("t.fio:3: option 'verify': 'crc33' is not a verify type"),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nverify=crc32c\nverify_interval="
                       "40\n")
                .find("t.fio:4: option 'verify_interval': 40 is out of range"),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nbs=512\nverify=crc32c\n"
                       "verify_offset=480\n")
                .find("t.fio:5: option 'verify_offset'"),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nverify=pattern\n")
                .find("verify=pattern needs verify_pattern="),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nverify_pattern=\"abc\n")
                .find("t.fio:3: option 'verify_pattern': a \"string\" is not "
                      "closed"),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nrw=write\nverify_only\n")
                .find("t.fio:4: option 'verify_only': job 'a' has no verify="),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\nverify=md5\nverify_only\n"
                       "time_based\nruntime=5\n")
                .find("option 'verify_only': fio's verify_only does not "
                      "support time_based"),
            std::string::npos);
  EXPECT_NE(ParseError("[a]\nfilename=/tmp/x\ncontinue_on_error=all\n")
                .find("option 'continue_on_error'"),
            std::string::npos);
  // fio's warnings become notices.
  const Workload w = ParseJobText(
      "[a]\nfilename=/tmp/x\nrw=randwrite\nbsrange=4k-8k\nnorandommap\n"
      "verify=crc32c\nverify_dump=1\n",
      "t.fio", {});
  bool limited = false, dump = false;
  for (const std::string& n : w.notices) {
    limited = limited || n.find("verify limited") != std::string::npos;
    dump = dump || n.find("'verify_dump'") != std::string::npos;
  }
  EXPECT_TRUE(limited);
  EXPECT_TRUE(dump);
  auto shared = [](const std::string& text) {
    for (const std::string& n : ParseJobText(text, "t.fio", {}).notices) {
      if (n.find("multiple writers") != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(
      shared("[a]\nfilename=/tmp/x\nrw=write\nnumjobs=2\nverify=crc32c\n"));
  EXPECT_FALSE(shared("[a]\nsize=1M\nrw=write\nnumjobs=2\nverify=crc32c\n"));
}

class VerifyRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = fs::temp_directory_path() /
            ("tb-verify-" + std::to_string(::getpid()) + ".img");
    std::ofstream(path_, std::ios::binary) << std::string(1 << 20, '\0');
  }
  void TearDown() override { fs::remove(path_); }

  RunResult Run(const std::string& body) {
    Workload w = ParseJobText(
        "[j]\nfilename=" + path_.string() + "\nsize=1M\nbs=4k\n" + body,
        "t.fio", JobOverrides{});
    RunOptions options;
    options.progress = false;
    options.report_verify_failures = true;
    return RunWorkload(w, options);
  }
  void Damage(uint64_t offset) {
    const int fd = ::open(path_.c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    char byte = 0;
    ASSERT_EQ(::pread(fd, &byte, 1, static_cast<off_t>(offset)), 1);
    byte = static_cast<char>(byte ^ 0x5a);
    ASSERT_EQ(::pwrite(fd, &byte, 1, static_cast<off_t>(offset)), 1);
    ::close(fd);
  }

  fs::path path_;
};

TEST_F(VerifyRunTest, WriteThenVerifyPhaseReadsEveryBlockBack) {
  const RunResult r = Run("rw=randwrite\nverify=crc32c\n");
  const JobResult& j = r.jobs.at(0);
  EXPECT_TRUE(j.error.empty()) << j.error;
  EXPECT_EQ(j.verify_errors, 0u);
  EXPECT_EQ(j.verify_blocks, 256u);
  EXPECT_EQ(j.dir[1].ios, 256u);
  EXPECT_EQ(j.dir[0].ios, 256u);  // fio counts the verify reads as reads
  // do_verify=0: no read phase.
  const JobResult w = Run("rw=write\nverify=md5\ndo_verify=0\n").jobs.at(0);
  EXPECT_EQ(w.dir[0].ios, 0u);
  EXPECT_EQ(w.verify_blocks, 0u);
}

TEST_F(VerifyRunTest, BacklogVerifiesDuringTheWrites) {
  const JobResult j =
      Run("rw=write\nverify=crc32c\nverify_backlog=8\ndo_verify=1\n")
          .jobs.at(0);
  EXPECT_TRUE(j.error.empty()) << j.error;
  EXPECT_EQ(j.verify_blocks, 256u);
  EXPECT_EQ(j.dir[0].ios, 256u);
}

TEST_F(VerifyRunTest, RepeatedAndOverlappingWritesVerifyClean) {
  const char* const kBodies[] = {
      "rw=randwrite\nrandom_distribution=zipf:1.2\n",
      "rw=randwrite\nbsrange=4k-16k\n",
      "rw=randwrite\nbssplit=4k/50:8k/50\nnorandommap\n",
      "rw=randwrite\npercentage_random=50\n",
      "rw=randrw\nverify_backlog=4\nverify_backlog_batch=2\n",
      "rw=write\nloops=2\nverify_interval=1k\nverify=md5\n",
      "rw=randwrite\nioengine=libaio\niodepth=8\nverify_offset=100\n",
      "rw=write\nverify=meta\nverify_pattern=0xaa555aa5%o\n",
      "rw=randwrite\nverify=pattern\nverify_pattern=\"tierbench\"\n",
  };
  for (const char* body : kBodies) {
    SCOPED_TRACE(body);
    const JobResult j = Run(std::string("verify=crc32c\n") + body).jobs.at(0);
    EXPECT_TRUE(j.error.empty()) << j.error;
    EXPECT_EQ(j.verify_errors, 0u);
    EXPECT_GT(j.verify_blocks, 0u);
  }
}

TEST_F(VerifyRunTest, VerifyOnlyFindsDamageAtItsOffset) {
  ASSERT_TRUE(Run("rw=randwrite\nverify=crc32c\n").jobs.at(0).error.empty());
  EXPECT_EQ(Run("rw=randwrite\nverify=crc32c\nverify_only\n")
                .jobs.at(0)
                .verify_errors,
            0u);
  Damage(40960 + 1000);  // block 10, payload
  Damage(204800);        // block 50, magic
  testing::internal::CaptureStderr();
  const JobResult j =
      Run("rw=randwrite\nverify=crc32c\nverify_only\ncontinue_on_error=verify"
          "\n")
          .jobs.at(0);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(j.verify_errors, 2u);
  EXPECT_EQ(j.dir[1].ios, 0u);  // verify_only writes nothing
  EXPECT_NE(j.error.find("err=84 (EILSEQ)"), std::string::npos) << j.error;
  EXPECT_NE(err.find("crc32c: verify failed at file " + path_.string() +
                     " offset 40960, length 4096 (requested block: "
                     "offset=40960, length=4096)"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("verify: bad magic header"), std::string::npos) << err;
  EXPECT_NE(err.find("offset 204800, length 4096"), std::string::npos);
  // Without continue_on_error the job stops at the first bad block.
  testing::internal::CaptureStderr();
  const JobResult first =
      Run("rw=write\nverify=crc32c\nverify_only\n").jobs.at(0);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(first.verify_errors, 1u);
  EXPECT_NE(first.error.find("offset 40960"), std::string::npos);
  // verify_fatal stops the job even with continue_on_error=verify.
  testing::internal::CaptureStderr();
  const JobResult fatal =
      Run("rw=write\nverify=crc32c\nverify_only\ncontinue_on_error=verify\n"
          "verify_fatal=1\n")
          .jobs.at(0);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(fatal.verify_errors, 1u);
  EXPECT_FALSE(fatal.error.empty());
  // A read job with verify= checks what it reads.
  testing::internal::CaptureStderr();
  const JobResult reader = Run("rw=read\nverify=crc32c\n").jobs.at(0);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(reader.verify_errors, 1u);
  // Without report_verify_failures the runner throws, as for IO errors.
  Workload w = ParseJobText(
      "[j]\nfilename=" + path_.string() + "\nsize=1M\nrw=read\nverify=crc32c\n",
      "t.fio", JobOverrides{});
  RunOptions options;
  options.progress = false;
  testing::internal::CaptureStderr();
  EXPECT_THROW(RunWorkload(w, options), RunError);
  testing::internal::GetCapturedStderr();
}

}  // namespace
}  // namespace tierbench
