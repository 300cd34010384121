// Tests of fio's everyday options in the job-file parser: default file names
// (nrfiles, filesize, openfiles, file_service_type), include and ${VAR}
// expansion, loops, startdelay, io_size, number_ios, kb_base, fsync,
// fdatasync, end_fsync and allow_mounted_write; each with its bad input; and
// fio's boolean words, the same for every option that takes them.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/job_text.h"
#include "util/errors.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/job_files.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kJoKiB = 1024;
constexpr uint64_t kJoMiB = 1024 * kJoKiB;

Workload JoParse(const std::string& text) { return ParseJobTextForTest(text); }
std::string JoErrorOf(const std::string& text) { return JobTextError(text); }

TEST(JobOptionsTest, DefaultFilesPerCloneAndFileNumber) {
  const Workload w = JoParse("[test]\nsize=8M\nnrfiles=4\nnumjobs=2\n");
  const JobSpec& j = w.jobs.at(0);
  EXPECT_EQ(j.filename, "");
  EXPECT_EQ(j.nrfiles, 4u);
  const std::vector<JobFilePlan> c1 = PlanJobFiles(j, 1);
  ASSERT_EQ(c1.size(), 4u);
  EXPECT_EQ(c1[0].path, "test.1.0");
  EXPECT_EQ(c1[3].path, "test.1.3");
  for (const JobFilePlan& p : c1) {
    EXPECT_TRUE(p.default_name);
    EXPECT_EQ(p.file_bytes, 2 * kJoMiB);  // size / nrfiles
    EXPECT_EQ(p.pattern_spec.size.bytes, 2 * kJoMiB);
  }
  EXPECT_EQ(ParseJobText("[a]\nnr_files=3\nsize=3M\n", "t", {}).jobs[0].nrfiles,
            3u);
}

TEST(JobOptionsTest, FilesizeRangeAndOffset) {
  const Workload w =
      JoParse("[t]\nnrfiles=8\nfilesize=1M-4M\noffset=64k\nbs=4k\n");
  const std::vector<JobFilePlan> plans = PlanJobFiles(w.jobs[0], 0);
  ASSERT_EQ(plans.size(), 8u);
  bool differ = false;
  for (const JobFilePlan& p : plans) {
    const uint64_t bytes = p.pattern_spec.size.bytes;
    EXPECT_GE(bytes, kJoMiB);
    EXPECT_LE(bytes, 4 * kJoMiB);
    EXPECT_EQ(bytes % (4 * kJoKiB), 0u);
    EXPECT_EQ(p.file_bytes, 64 * kJoKiB + bytes);  // laid out to offset + size
    differ = differ || bytes != plans[0].pattern_spec.size.bytes;
  }
  EXPECT_TRUE(differ);
  // The same draw every time (the clone's seed).
  EXPECT_EQ(PlanJobFiles(w.jobs[0], 0)[5].file_bytes, plans[5].file_bytes);
  const JobSpec fixed = JoParse("[t]\nfilesize=3M\nnrfiles=2\n").jobs[0];
  EXPECT_EQ(PlanJobFiles(fixed, 0)[1].file_bytes, 3 * kJoMiB);
}

TEST(JobOptionsTest, NullEngineNeedsOnlyASize) {
  const Workload w = JoParse("[n]\nioengine=null\nsize=1G\n");
  const std::vector<JobFilePlan> plans = PlanJobFiles(w.jobs[0], 0);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].path, "");
  EXPECT_EQ(plans[0].file_bytes, 1024 * kJoMiB);
  const std::string msg = JoErrorOf("[n]\nioengine=null\n");
  EXPECT_NE(msg.find("t.fio:1: option 'size': job 'n' has no filename=, so "
                     "ioengine=null need"),
            std::string::npos)
      << msg;
  EXPECT_NE(JoErrorOf("[n]\nsize=50%\n").find("a percentage of nothing"),
            std::string::npos);
}

TEST(JobOptionsTest, FileServiceTypes) {
  struct Case {
    const char* value;
    FileService service;
    uint32_t nr;
  };
  const Case cases[] = {{"roundrobin", FileService::kRoundRobin, 1},
                        {"sequential", FileService::kSequential, 1},
                        {"random", FileService::kRandom, 1},
                        {"random:8", FileService::kRandom, 8},
                        {"roundrobin:3", FileService::kRoundRobin, 3}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.value);
    const JobSpec j = JoParse(std::string("[t]\nsize=1M\nfile_service_type=") +
                              c.value + "\n")
                          .jobs[0];
    EXPECT_EQ(j.file_service, c.service);
    EXPECT_EQ(j.file_service_nr, c.nr);
  }
  EXPECT_EQ(JoParse("[t]\nsize=1M\n").jobs[0].file_service,
            FileService::kRoundRobin);  // fio's default
}

TEST(JobOptionsTest, RunControlValues) {
  const JobSpec j = JoParse(
                        "[t]\nfilename=f\nloops=3\nstartdelay=2\n"
                        "io_size=64M\nnumber_ios=1000\nfsync=32\n"
                        "fdatasync=8\nend_fsync=1\nallow_mounted_write=1\n"
                        "openfiles=1\n")
                        .jobs[0];
  EXPECT_EQ(j.loops, 3u);
  EXPECT_EQ(j.startdelay_ns, 2 * kNsPerSec);  // seconds by default
  EXPECT_EQ(j.startdelay_max_ns, 0u);
  EXPECT_EQ(j.io_size, 64 * kJoMiB);
  EXPECT_EQ(j.number_ios, 1000u);
  EXPECT_EQ(j.fsync_blocks, 32u);
  EXPECT_EQ(j.fdatasync_blocks, 8u);
  EXPECT_TRUE(j.end_fsync);
  EXPECT_TRUE(j.allow_mounted_write);
  const JobSpec r = JoParse("[t]\nfilename=f\nstartdelay=500ms-3s\n").jobs[0];
  EXPECT_EQ(r.startdelay_ns, 500 * kNsPerMs);
  EXPECT_EQ(r.startdelay_max_ns, 3 * kNsPerSec);
  EXPECT_EQ(JoParse("[t]\nfilename=f\nio_limit=1G\n").jobs[0].io_size,
            1024 * kJoMiB);
  const JobSpec d = JoParse("[t]\nfilename=f\n").jobs[0];  // fio's defaults
  EXPECT_EQ(d.loops, 1u);
  EXPECT_EQ(d.kb_base, 1024u);
  EXPECT_EQ(d.io_size, 0u);
  EXPECT_FALSE(d.end_fsync);
  EXPECT_FALSE(d.allow_mounted_write);
}

TEST(JobOptionsTest, KbBaseSwapsThePrefixes) {
  const JobSpec def =
      JoParse("[t]\nfilename=f\nsize=1k\noffset=1KiB\n").jobs[0];
  EXPECT_EQ(def.size.bytes, 1024u);
  EXPECT_EQ(def.offset.bytes, 1000u);
  const JobSpec si =
      JoParse(
          "[global]\nkb_base=1000\n[t]\nfilename=f\nsize=1k\noffset=1KiB\n"
          "bs=4KiB\n")
          .jobs[0];
  EXPECT_EQ(si.kb_base, 1000u);
  EXPECT_EQ(si.size.bytes, 1000u);
  EXPECT_EQ(si.offset.bytes, 1024u);
  EXPECT_EQ(si.bs[0].min, 4096u);
}

TEST(JobOptionsTest, BadValuesNameFileLineAndOption) {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"[t]\nsize=1M\nnrfiles=0\n", "t.fio:3: option 'nrfiles': 0 is out"},
      {"[t]\nsize=1M\nfilesize=4M-1M\n",
       "t.fio:3: option 'filesize': the minimum is larger"},
      {"[t]\nfilesize=0\n", "t.fio:2: option 'filesize': file size must be"},
      {"[t]\nsize=4M\nnrfiles=4\nopenfiles=2\n",
       "t.fio:4: option 'openfiles': fewer open files (2) than nrfiles (4)"},
      {"[t]\nsize=1M\nfile_service_type=zipf:1.2\n",
       "t.fio:3: option 'file_service_type': 'zipf' is not a supported"},
      {"[t]\nsize=1M\nfile_service_type=random:0\n",
       "t.fio:3: option 'file_service_type': 0 is out of range"},
      {"[t]\nfilename=f\nloops=0\n", "t.fio:3: option 'loops': 0 is out"},
      {"[t]\nfilename=f\nstartdelay=soon\n",
       "t.fio:3: option 'startdelay': 'soon' is not a duration"},
      {"[t]\nfilename=f\nstartdelay=5-1\n",
       "t.fio:3: option 'startdelay': the range's start is after its end"},
      {"[t]\nfilename=f\nio_size=50%\n",
       "t.fio:3: option 'io_size': a percentage is not supported"},
      {"[t]\nfilename=f\nnumber_ios=many\n",
       "t.fio:3: option 'number_ios': 'many' is not a whole number"},
      {"[t]\nfilename=f\nkb_base=512\n",
       "t.fio:3: option 'kb_base': '512' is not a kb_base"},
      {"[t]\nfilename=f\nfsync=-1\n", "t.fio:3: option 'fsync': '-1' is not"},
      {"[t]\nfilename=f\nfdatasync=x\n",
       "t.fio:3: option 'fdatasync': 'x' is not"},
      {"[t]\nfilename=f\nend_fsync=maybe\n",
       "t.fio:3: option 'end_fsync': 'maybe' is not a boolean"},
      {"[t]\nfilename=f\nallow_mounted_write=2\n",
       "t.fio:3: option 'allow_mounted_write': '2' is not a boolean"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string msg = JoErrorOf(c.text);
    EXPECT_EQ(msg.rfind(c.expect, 0), 0u) << msg;
    EXPECT_NE(msg.find("Fix: "), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

// fio's boolean words mean the same for an option of the table (end_fsync),
// of the rate and verify groups, and for io_uring's set-or-number options;
// a bad value fails with the same message whichever parses it.
TEST(JobOptionsTest, BooleanWordsAreTheSameForEveryOption) {
  const auto parse = [](const std::string& v) {
    return JoParse("[t]\nfilename=f\nioengine=io_uring\nend_fsync=" + v +
                   "\nrate_ignore_thinktime=" + v + "\nverify_fatal=" + v +
                   "\nfixedbufs=" + v + "\n")
        .jobs.at(0);
  };
  for (const char* word : {"1", "true", "Yes", "ON"}) {
    SCOPED_TRACE(word);
    const JobSpec j = parse(word);
    EXPECT_TRUE(j.end_fsync);
    EXPECT_TRUE(j.rate_ignore_thinktime);
    EXPECT_TRUE(j.verify.fatal);
    EXPECT_TRUE(j.uring.fixedbufs);
  }
  for (const char* word : {"0", "False", "no", "off"}) {
    SCOPED_TRACE(word);
    const JobSpec j = parse(word);
    EXPECT_FALSE(j.end_fsync);
    EXPECT_FALSE(j.rate_ignore_thinktime);
    EXPECT_FALSE(j.verify.fatal);
    EXPECT_FALSE(j.uring.fixedbufs);
  }
  for (const char* name : {"end_fsync", "rate_ignore_thinktime", "do_verify"}) {
    SCOPED_TRACE(name);
    const std::string n(name);
    EXPECT_EQ(JoErrorOf("[t]\nfilename=f\n" + n + "=Maybe\n"),
              "t.fio:3: option '" + n + "': 'maybe' is not a boolean. Fix: " +
                  "write " + n + "=1 or " + n + "=0");
  }
}

// Include files and environment variables need real files and variables.
class JobIncludeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tb-include-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "sub");
  }
  void TearDown() override {
    fs::remove_all(dir_);
    unsetenv("TB_TEST_SIZE");
    unsetenv("TB_TEST_EMPTY");
  }
  std::string Write(const std::string& rel, const std::string& text) {
    const fs::path p = dir_ / rel;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST_F(JobIncludeTest, IncludeIsRelativeToTheIncludingFile) {
  Write("sub/glob.fio", "bs=16k\ninclude more.fio\n");
  Write("sub/more.fio", "iodepth=8\n");
  Write("sub/job.fio", "ioengine=null\n");
  const std::string main =
      Write("sub/main.fio",
            "[global]\nfilename=/dev/null\ninclude glob.fio\n[a]\ninclude "
            "job.fio\n[b]\n");
  const Workload w = ParseJobFiles({main}, {});
  ASSERT_EQ(w.jobs.size(), 2u);
  // [global]'s include applies to every job; [a]'s only to [a].
  EXPECT_EQ(w.jobs[0].bs[0].min, 16 * kJoKiB);
  EXPECT_EQ(w.jobs[1].bs[0].min, 16 * kJoKiB);
  EXPECT_EQ(w.jobs[1].iodepth, 8u);  // nested include
  EXPECT_EQ(w.jobs[0].ioengine, "null");
  EXPECT_EQ(w.jobs[1].ioengine, "psync");
}

TEST_F(JobIncludeTest, IncludeErrorsNameTheIncludedFileAndLine) {
  Write("bad.fio", "bs=4k\nbs=huge\n");
  Write("section.fio", "[x]\n");
  Write("loop.fio", "include loop.fio\n");
  struct Case {
    const char* main;
    std::string expect;
  };
  const Case cases[] = {
      {"[a]\nfilename=f\ninclude bad.fio\n",
       (dir_ / "bad.fio").string() + ":2: option 'bs'"},
      {"[a]\nfilename=f\ninclude section.fio\n",
       (dir_ / "section.fio").string() + ":1: a section header in an included"},
      {"[a]\nfilename=f\ninclude missing.fio\n",
       (dir_ / "main.fio").string() + ":3: cannot read the included file"},
      {"[a]\nfilename=f\ninclude loop.fio\n", "nests more than 16 levels"},
      {"include bad.fio\n[a]\n", (dir_ / "main.fio").string() + ":1: include"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.main);
    const std::string main = Write("main.fio", c.main);
    try {
      ParseJobFiles({main}, {});
      ADD_FAILURE() << "no error";
    } catch (const ConfigError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(c.expect), std::string::npos) << msg;
      EXPECT_NE(msg.find("Fix: "), std::string::npos) << msg;
    }
  }
}

TEST_F(JobIncludeTest, EnvironmentVariablesExpandAsFio) {
  setenv("TB_TEST_SIZE", "64m", 1);
  setenv("TB_TEST_EMPTY", "", 1);
  const JobSpec j =
      JoParse(
          "[t]\nfilename=/tmp/${TB_TEST_SIZE}.dat\nsize=${TB_TEST_SIZE}\n"
          "bs=$pagesize\nname=$TB_TEST_SIZE\n")
          .jobs[0];
  EXPECT_EQ(j.size.bytes, 64 * kJoMiB);
  EXPECT_EQ(j.filename, "/tmp/64m.dat");
  EXPECT_EQ(j.bs[0].min, static_cast<uint64_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_EQ(j.name, "$TB_TEST_SIZE");  // only ${...} is expanded, as fio
  // An unset or empty variable becomes "", and the error says so.
  const std::string unset =
      JoErrorOf("[t]\nfilename=f\nsize=${TB_TEST_NOPE}\n");
  EXPECT_EQ(unset.rfind("t.fio:3: option 'size': ", 0), 0u) << unset;
  EXPECT_NE(unset.find("${TB_TEST_NOPE} is unset"), std::string::npos) << unset;
  const std::string unset_bool =
      JoErrorOf("[t]\nfilename=f\nend_fsync=${TB_TEST_NOPE}\n");
  EXPECT_EQ(unset_bool,
            "t.fio:3: option 'end_fsync': '' is not a boolean "
            "(${TB_TEST_NOPE} is unset). Fix: write end_fsync=1 or "
            "end_fsync=0");
  const std::string empty =
      JoErrorOf("[t]\nfilename=f\niodepth=${TB_TEST_EMPTY}\n");
  EXPECT_NE(empty.find("${TB_TEST_EMPTY} is empty"), std::string::npos)
      << empty;
}

}  // namespace
}  // namespace tierbench
