// Tests of the fio job-file parser (workload/job_file.h): the shipped
// workloads, fio's syntax and scoping, errors with file:line and option
// name, notices for ignored options, and command-line overrides.
#include "workload/job_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/errors.h"
#include "util/units.h"
#include "workload/job_files.h"

namespace tierbench {
namespace {

constexpr uint64_t kJfKiB = 1024;
constexpr uint64_t kJfMiB = 1024 * kJfKiB;
constexpr uint64_t kGiB = 1024 * kJfMiB;

Workload JfParse(const std::string& text, const JobOverrides& o = {}) {
  return ParseJobText(text, "t.fio", o);
}

// The message of the ConfigError that parsing `text` throws ("" if none).
std::string JfErrorOf(const std::string& text, const JobOverrides& o = {}) {
  try {
    JfParse(text, o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string Workloads(const std::string& name) {
  return std::string(TIERBENCH_SOURCE_DIR) + "/workloads/" + name;
}

struct ShippedCase {
  const char* file;
  size_t jobs;
  RwPattern rw;     // of the first job
  uint64_t bs_min;  // read bs of the first job
  uint64_t bs_max;
  uint32_t iodepth;
  uint32_t numjobs;
  uint64_t size;  // 0: unset
  uint64_t runtime_s;
  bool time_based;
  bool norandommap;
  const char* name;  // of the first job
};

TEST(JobFileTest, ShippedWorkloadsParseWithTheSeedsValues) {
  const ShippedCase cases[] = {
      {"anandtech-mix.fio", 5, RwPattern::kReadWrite, 16 * kJfKiB, 16 * kJfKiB,
       2, 1, kGiB, 0, false, true, "sequential-16k"},
      {"wiki-4k-qd32.fio", 1, RwPattern::kRead, 4 * kJfKiB, 4 * kJfKiB, 32, 1,
       8 * kGiB, 0, false, true, "test"},
      {"seq-read-256k.fio", 1, RwPattern::kRead, 256 * kJfKiB, 256 * kJfKiB, 64,
       4, kGiB, 120, true, false, "job1"},
      {"seq-read-1m.fio", 1, RwPattern::kRead, kJfMiB, kJfMiB, 64, 4, kGiB, 120,
       true, false, "job1"},
      {"rand-read-4k-latency.fio", 1, RwPattern::kRandRead, 4 * kJfKiB,
       4 * kJfKiB, 1, 1, 0, 120, true, false, "job1"},
      {"rand-read-256k.fio", 1, RwPattern::kRandRead, 256 * kJfKiB,
       256 * kJfKiB, 64, 4, 0, 120, true, false, "job1"},
      {"rand-rw-256k.fio", 1, RwPattern::kRandReadWrite, 256 * kJfKiB,
       256 * kJfKiB, 64, 4, kGiB, 120, true, false, "job1"},
      {"rand-rw-4k-latency.fio", 1, RwPattern::kRandReadWrite, 4 * kJfKiB,
       4 * kJfKiB, 1, 1, 0, 120, true, false, "job1"},
      {"seq-write-256k.fio", 1, RwPattern::kWrite, 256 * kJfKiB, 256 * kJfKiB,
       64, 4, kGiB, 120, true, false, "job1"},
      {"randread-4k.fio", 1, RwPattern::kRandRead, 4 * kJfKiB, 4 * kJfKiB, 4, 1,
       0, 30, true, false, "randread-4k"},
      {"randwrite-4k.fio", 1, RwPattern::kRandWrite, 4 * kJfKiB, 4 * kJfKiB, 4,
       1, 0, 30, true, false, "randwrite-4k"},
      {"randread-zipf.fio", 1, RwPattern::kRandRead, 4 * kJfKiB, 4 * kJfKiB, 32,
       1, 0, 30, true, false, "randread-zipf"},
      {"randwrite-zipf.fio", 1, RwPattern::kRandWrite, 4 * kJfKiB, 4 * kJfKiB,
       32, 1, 0, 30, true, false, "randwrite-zipf"},
  };
  for (const ShippedCase& c : cases) {
    SCOPED_TRACE(c.file);
    const Workload w = ParseJobFiles({Workloads(c.file)}, {});
    ASSERT_EQ(w.jobs.size(), c.jobs);
    const JobSpec& j = w.jobs[0];
    EXPECT_EQ(j.name, c.name);
    EXPECT_EQ(j.filename, "/dev/bcache0");
    EXPECT_EQ(j.rw, c.rw);
    EXPECT_EQ(j.bs[0].min, c.bs_min);
    EXPECT_EQ(j.bs[0].max, c.bs_max);
    EXPECT_EQ(j.iodepth, c.iodepth);
    EXPECT_EQ(j.numjobs, c.numjobs);
    EXPECT_EQ(j.size.set, c.size != 0);
    if (c.size != 0) {
      EXPECT_EQ(j.size.bytes, c.size);
    }
    EXPECT_EQ(j.runtime_ns, c.runtime_s * kNsPerSec);
    EXPECT_EQ(j.time_based, c.time_based);
    EXPECT_EQ(j.norandommap, c.norandommap);
    EXPECT_EQ(j.ioengine, "libaio");
    EXPECT_TRUE(j.direct);
    EXPECT_TRUE(j.randrepeat);
    // Shipped files must run short in CI.
    JobOverrides o;
    o.runtime_ns = kNsPerSec;
    o.size = SizeSpec{true, false, 8 * kJfMiB, 0};
    o.filename = "/tmp/x";
    const Workload shortened = ParseJobFiles({Workloads(c.file)}, o);
    for (const JobSpec& s : shortened.jobs) {
      EXPECT_EQ(s.filename, "/tmp/x");
      EXPECT_EQ(s.size.bytes, 8 * kJfMiB);
      EXPECT_EQ(s.runtime_ns, kNsPerSec);
    }
  }
}

TEST(JobFileTest, AnandtechMixHasTheSeedsJobs) {
  const Workload w = ParseJobFiles({Workloads("anandtech-mix.fio")}, {});
  struct Expect {
    const char* name;
    RwPattern rw;
    uint64_t min, max;
    uint32_t numjobs;
    uint64_t size;
  };
  const Expect expect[] = {
      {"sequential-16k", RwPattern::kReadWrite, 16 * kJfKiB, 16 * kJfKiB, 1,
       kGiB},
      {"sequential-32k", RwPattern::kReadWrite, 32 * kJfKiB, 32 * kJfKiB, 1,
       kGiB},
      {"sequential-randk", RwPattern::kReadWrite, 64 * kJfKiB, 4096 * kJfKiB, 1,
       kGiB},
      {"random-4k", RwPattern::kRandReadWrite, 4 * kJfKiB, 4 * kJfKiB, 3, kGiB},
      {"random-randk", RwPattern::kRandReadWrite, 32 * kJfKiB, 256 * kJfKiB, 2,
       2 * kGiB},
  };
  ASSERT_EQ(w.jobs.size(), std::size(expect));
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const JobSpec& j = w.jobs[i];
    SCOPED_TRACE(j.name);
    EXPECT_EQ(j.name, expect[i].name);
    EXPECT_EQ(j.rw, expect[i].rw);
    EXPECT_EQ(j.bs[1].min, expect[i].min);
    EXPECT_EQ(j.bs[1].max, expect[i].max);
    EXPECT_EQ(j.numjobs, expect[i].numjobs);
    EXPECT_EQ(j.size.bytes, expect[i].size);
    EXPECT_EQ(j.rwmixread, 60u);
    EXPECT_EQ(j.iodepth, 2u);
    EXPECT_EQ(j.blockalign[0], 4 * kJfKiB);
    EXPECT_TRUE(j.group_reporting);
    EXPECT_EQ(j.group_id, 0);
  }
  // gtod_reduce in [global] is reported once.
  ASSERT_EQ(w.notices.size(), 1u);
  EXPECT_NE(w.notices[0].find("anandtech-mix.fio:"), std::string::npos);
  EXPECT_NE(
      w.notices[0].find("'gtod_reduce' only affects fio's output; ignored"),
      std::string::npos);
}

TEST(JobFileTest, FioDefaults) {
  const Workload w = JfParse("[j]\nfilename=/dev/x\n");
  ASSERT_EQ(w.jobs.size(), 1u);
  const JobSpec& j = w.jobs[0];
  EXPECT_EQ(j.rw, RwPattern::kRead);
  EXPECT_EQ(j.bs[0].min, 4096u);
  EXPECT_EQ(j.bs[1].max, 4096u);
  EXPECT_EQ(j.iodepth, 1u);
  EXPECT_EQ(j.iodepth_batch_submit, 1u);
  EXPECT_EQ(j.ioengine, "psync");
  EXPECT_TRUE(j.randrepeat);
  EXPECT_EQ(j.rwmixread, 50u);
  EXPECT_EQ(j.numjobs, 1u);
  EXPECT_FALSE(j.direct);
  EXPECT_FALSE(j.size.set);
  EXPECT_EQ(j.origin, "t.fio:1");
  EXPECT_TRUE(w.notices.empty());
}

TEST(JobFileTest, GlobalScopingAndNames) {
  const Workload w = JfParse(
      "; comment\n"
      "[global]\n"
      "name=ignored-by-sections\n"
      "bs=8k\n"
      "filename=/dev/a\n"
      "[one]\n"
      "bs=16k\n"
      "[global]\n"
      "iodepth=8\n"
      "[two]\n"
      "name=renamed\n"
      "filename=/dev/b\n");
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.jobs[0].name,
            "one");  // fio: the section name wins over [global] name=
  EXPECT_EQ(w.jobs[0].bs[0].min, 16 * kJfKiB);
  EXPECT_EQ(w.jobs[0].iodepth, 1u);  // the later [global] does not reach back
  EXPECT_EQ(w.jobs[0].filename, "/dev/a");
  EXPECT_EQ(w.jobs[1].name, "renamed");
  EXPECT_EQ(w.jobs[1].bs[0].min, 8 * kJfKiB);
  EXPECT_EQ(w.jobs[1].iodepth, 8u);
  EXPECT_EQ(w.jobs[1].filename, "/dev/b");
  EXPECT_EQ(w.jobs[1].origin, "t.fio:10");
}

TEST(JobFileTest, OptionValues) {
  const Workload w = JfParse(
      "[j]\n"
      "filename=/dev/x\n"
      "readwrite=randrw\n"
      "rwmixwrite=30\n"
      "percentage_random=58\n"
      "bs=4k,16k\n"
      "ba=8k\n"
      "iodepth=16\n"
      "iodepth_batch=0\n"
      "iodepth_batch_complete=2\n"
      "iodepth_batch_complete_max=8\n"
      "ioengine=null\n"
      "size=25%\n"
      "offset=1M\n"
      "runtime=2m\n"
      "time_based=1\n"
      "ramp_time=500ms\n"
      "norandommap=0\n"
      "randrepeat=0\n"
      "randseed=0x10\n"
      "thinktime=250\n"
      "rate_iops=100,50\n"
      "direct=true\n");
  const JobSpec& j = w.jobs.at(0);
  EXPECT_EQ(j.rw, RwPattern::kRandReadWrite);
  EXPECT_EQ(j.rwmixread, 70u);
  EXPECT_EQ(j.percentage_random, 58u);
  EXPECT_EQ(j.bs[0].min, 4 * kJfKiB);
  EXPECT_EQ(j.bs[1].min, 16 * kJfKiB);
  EXPECT_EQ(j.blockalign[0], 8 * kJfKiB);
  EXPECT_EQ(j.blockalign[1], 8 * kJfKiB);
  EXPECT_EQ(j.iodepth_batch_submit, 16u);  // 0 means iodepth
  EXPECT_EQ(j.iodepth_batch_complete_min, 2u);
  EXPECT_EQ(j.iodepth_batch_complete_max, 8u);
  EXPECT_EQ(j.ioengine, "null");
  EXPECT_TRUE(j.size.is_percent);
  EXPECT_DOUBLE_EQ(j.size.percent, 25.0);
  EXPECT_EQ(j.offset.bytes, kJfMiB);
  EXPECT_EQ(j.runtime_ns, 120 * kNsPerSec);
  EXPECT_TRUE(j.time_based);
  EXPECT_EQ(j.ramp_time_ns, 500 * kNsPerMs);
  EXPECT_FALSE(j.norandommap);
  EXPECT_FALSE(j.randrepeat);
  EXPECT_TRUE(j.randseed_set);
  EXPECT_EQ(j.randseed, 16u);
  EXPECT_EQ(j.thinktime_ns, 250 * kNsPerUs);  // fio: microseconds by default
  EXPECT_EQ(j.rate_iops[0], 100u);
  EXPECT_EQ(j.rate_iops[1], 50u);
  EXPECT_TRUE(j.direct);
}

TEST(JobFileTest, BlockSizeForms) {
  struct Case {
    const char* option;
    uint64_t rmin, rmax, wmin, wmax;
    std::vector<std::pair<uint64_t, uint32_t>> rsplit, wsplit;
  };
  const Case cases[] = {
      {"bs=64k", 64 * kJfKiB, 64 * kJfKiB, 64 * kJfKiB, 64 * kJfKiB, {}, {}},
      {"bs=,8k", 4 * kJfKiB, 4 * kJfKiB, 8 * kJfKiB, 8 * kJfKiB, {}, {}},
      {"bsrange=4k-64k",
       4 * kJfKiB,
       64 * kJfKiB,
       4 * kJfKiB,
       64 * kJfKiB,
       {},
       {}},
      {"blocksize_range=1k-4k,2k-8k",
       kJfKiB,
       4 * kJfKiB,
       2 * kJfKiB,
       8 * kJfKiB,
       {},
       {}},
      {"bssplit=4k/28:16k/10:32k/10:64k/52",
       4 * kJfKiB,
       64 * kJfKiB,
       4 * kJfKiB,
       64 * kJfKiB,
       {{4 * kJfKiB, 28},
        {16 * kJfKiB, 10},
        {32 * kJfKiB, 10},
        {64 * kJfKiB, 52}},
       {{4 * kJfKiB, 28},
        {16 * kJfKiB, 10},
        {32 * kJfKiB, 10},
        {64 * kJfKiB, 52}}},
      // Blank weights share the remainder (34 + 33 + 33).
      {"bssplit=4k/:8k/:16k/",
       4 * kJfKiB,
       16 * kJfKiB,
       4 * kJfKiB,
       16 * kJfKiB,
       {{4 * kJfKiB, 34}, {8 * kJfKiB, 33}, {16 * kJfKiB, 33}},
       {{4 * kJfKiB, 34}, {8 * kJfKiB, 33}, {16 * kJfKiB, 33}}},
      {"bssplit=2k/50:4k/50,4k/90:8k",
       2 * kJfKiB,
       4 * kJfKiB,
       4 * kJfKiB,
       8 * kJfKiB,
       {{2 * kJfKiB, 50}, {4 * kJfKiB, 50}},
       {{4 * kJfKiB, 90}, {8 * kJfKiB, 10}}},
      {"bssplit=128k",
       128 * kJfKiB,
       128 * kJfKiB,
       128 * kJfKiB,
       128 * kJfKiB,
       {{128 * kJfKiB, 100}},
       {{128 * kJfKiB, 100}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.option);
    const JobSpec j =
        JfParse(std::string("[j]\nfilename=f\n") + c.option + "\n").jobs.at(0);
    EXPECT_EQ(j.bs[0].min, c.rmin);
    EXPECT_EQ(j.bs[0].max, c.rmax);
    EXPECT_EQ(j.bs[1].min, c.wmin);
    EXPECT_EQ(j.bs[1].max, c.wmax);
    EXPECT_EQ(j.bs[0].split, c.rsplit);
    EXPECT_EQ(j.bs[1].split, c.wsplit);
  }
}

TEST(JobFileTest, CommentsAndBareBooleans) {
  const Workload w = JfParse(
      "# leading comment\n"
      "[global]\n"
      "  ; indented comment\n"
      "iodepth=2   # Group total\n"
      "rwmixread=60 ; trailing\n"
      "group_reporting\n"
      "norandommap\n"
      "time_based\n"
      "runtime=10\r\n"
      "\n"
      "[j]   # a job\n"
      "filename=/dev/x#not-a-comment\n"
      "stonewall\n");
  const JobSpec& j = w.jobs.at(0);
  EXPECT_EQ(j.name, "j");
  EXPECT_EQ(j.iodepth, 2u);
  EXPECT_EQ(j.rwmixread, 60u);
  EXPECT_TRUE(j.group_reporting);
  EXPECT_TRUE(j.norandommap);
  EXPECT_TRUE(j.time_based);
  EXPECT_TRUE(j.stonewall);
  EXPECT_EQ(j.filename, "/dev/x#not-a-comment");
}

TEST(JobFileTest, StonewallAndFilesCountGroups) {
  const Workload w = JfParse(
      "[global]\nfilename=f\n"
      "[a]\nstonewall\n"  // first job: no earlier job to wait for, group 0
      "[b]\n"
      "[c]\nwait_for_previous\n"
      "[d]\n"
      "[e]\nstonewall=1\n");
  std::vector<int> groups;
  for (const JobSpec& j : w.jobs) groups.push_back(j.group_id);
  EXPECT_EQ(groups, (std::vector<int>{0, 0, 1, 1, 2}));

  const std::string a = testing::TempDir() + "/parser_a.fio";
  const std::string b = testing::TempDir() + "/parser_b.fio";
  for (const std::string& p : {a, b}) {
    FILE* f = std::fopen(p.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("[x]\nfilename=f\n[y]\nfilename=f\n", f);
    std::fclose(f);
  }
  const Workload two = ParseJobFiles({a, b}, {});
  groups.clear();
  for (const JobSpec& j : two.jobs) groups.push_back(j.group_id);
  EXPECT_EQ(groups, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(two.jobs[2].origin, b + ":1");
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(JobFileTest, DirectoryGivesFiosFileName) {
  const Workload w = JfParse(
      "[global]\ndirectory=/var/lib/pg\nsize=1M\n"
      "[seq]\n"
      "[rand]\nnumjobs=3\n"
      "[named]\nfilename=data.bin\n");
  // Without filename= each clone gets fio's <name>.<clone>.<filenum>.
  EXPECT_EQ(w.jobs[0].filename, "");
  EXPECT_EQ(w.jobs[0].directory, "/var/lib/pg");
  EXPECT_EQ(DefaultFileName(w.jobs[0], 0, 0), "/var/lib/pg/seq.0.0");
  EXPECT_EQ(DefaultFileName(w.jobs[1], 2, 0), "/var/lib/pg/rand.2.0");
  EXPECT_EQ(w.jobs[2].filename, "/var/lib/pg/data.bin");
  EXPECT_TRUE(w.notices.empty());
}

TEST(JobFileTest, NoticesForIgnoredOptions) {
  const Workload w = JfParse(
      "[global]\ngtod_reduce=1\nwrite_bw_log=x\n"
      "[j]\nfilename=f\nioengine=sync\nthread\ninvalidate=1\nclat_percentiles="
      "0\n");
  const std::vector<std::string> expected = {
      "t.fio:2: option 'gtod_reduce' only affects fio's output; ignored",
      "t.fio:3: option 'write_bw_log' only affects fio's output; ignored",
      "t.fio:6: option 'ioengine': 'sync' (lseek + read/write) runs as psync "
      "(pread/pwrite); the "
      "IO pattern is the same",
      "t.fio:7: option 'thread' is implied: tierbench always runs clones as "
      "threads; ignored",
      "t.fio:8: option 'invalidate' is not applied: tierbench does not drop "
      "the page cache per "
      "job (direct=1 bypasses it); ignored",
      "t.fio:9: option 'clat_percentiles' only affects fio's output; ignored",
  };
  EXPECT_EQ(w.notices, expected);
  EXPECT_EQ(w.jobs.at(0).ioengine, "psync");
}

TEST(JobFileTest, OverridesReplaceFileValues) {
  JobOverrides o;
  o.runtime_ns = 3 * kNsPerSec;
  o.ramp_time_ns = kNsPerSec;
  o.size = SizeSpec{true, false, 64 * kJfMiB, 0};
  o.offset = SizeSpec{true, true, 0, 10};
  o.filename = "/dev/loop7";
  o.randseed = 42;
  const JobSpec j = JfParse(
                        "[global]\ndirectory=/d\n"
                        "[j]\nruntime=60\nsize=1G\noffset=4k\nramp_time=5\n",
                        o)
                        .jobs.at(0);
  EXPECT_EQ(j.runtime_ns, 3 * kNsPerSec);
  EXPECT_EQ(j.ramp_time_ns, kNsPerSec);
  EXPECT_EQ(j.size.bytes, 64 * kJfMiB);
  EXPECT_TRUE(j.offset.is_percent);
  EXPECT_DOUBLE_EQ(j.offset.percent, 10.0);
  EXPECT_EQ(j.filename, "/dev/loop7");  // --filename beats directory=
  EXPECT_TRUE(j.randseed_set);
  EXPECT_EQ(j.randseed, 42u);

  // An override can also satisfy a rule: time_based needs a runtime.
  JobOverrides runtime;
  runtime.runtime_ns = kNsPerSec;
  EXPECT_EQ(JfErrorOf("[j]\nfilename=f\ntime_based\n", runtime), "");
  // --time-based makes a size-bound job run for its runtime.
  JobOverrides timed;
  timed.runtime_ns = 5 * kNsPerSec;
  timed.time_based = true;
  const JobSpec sized = JfParse("[j]\nfilename=f\nsize=4m\n", timed).jobs.at(0);
  EXPECT_TRUE(sized.time_based);
  EXPECT_EQ(sized.runtime_ns, 5 * kNsPerSec);
  EXPECT_FALSE(
      JfParse("[j]\nfilename=f\nsize=4m\n", runtime).jobs.at(0).time_based);
  // And --filename gives a target to jobs without one.
  JobOverrides file;
  file.filename = "/dev/sdz";
  EXPECT_EQ(JfParse("[j]\n", file).jobs.at(0).filename, "/dev/sdz");
}

struct ErrorCase {
  const char* text;
  const char* where;   // "t.fio:N"
  const char* option;  // "option 'x'" or other expected fragment
  const char* detail;  // further fragment
};

TEST(JobFileTest, ErrorsNameFileLineAndOption) {
  const ErrorCase cases[] = {
      {"[j]\nfilename=f\nfoo=1\n", "t.fio:3", "option 'foo'", "unknown"},
      {"[j]\nfilename=f\nsize=12q\n", "t.fio:3", "option 'size'",
       "unknown size unit"},
      {"[j]\nfilename=f\nsize=0\n", "t.fio:3", "option 'size'",
       "greater than 0"},
      {"[j]\nfilename=f\nsize=150%\n", "t.fio:3", "option 'size'",
       "percentage"},
      {"[j]\nfilename=f\nbs=0\n", "t.fio:3", "option 'bs'", "greater than 0"},
      {"[j]\nfilename=f\nbs=1g\n", "t.fio:3", "option 'bs'", "maximum"},
      {"[j]\nfilename=f\nbssplit=4k/50:8k/40\n", "t.fio:3", "option 'bssplit'",
       "add up to 90%"},
      {"[j]\nfilename=f\nbssplit=4k/80:8k/40\n", "t.fio:3", "option 'bssplit'",
       "more than 100%"},
      {"[j]\nfilename=f\nbssplit=4k/x\n", "t.fio:3", "option 'bssplit'",
       "not a whole number"},
      {"[j]\nfilename=f\nbsrange=64k-4k\n", "t.fio:3", "option 'bsrange'",
       "larger than"},
      {"[j]\nfilename=f\ntime_based\n", "t.fio:3", "option 'time_based'",
       "run forever"},
      {"[global]\ntime_based\n[j]\nfilename=f\n", "t.fio:2",
       "option 'time_based'", "job 'j'"},
      {"[global]\nbs=4k\n\n[lonely]\nrw=read\n", "t.fio:4",
       "job 'lonely' has no filename=", "--filename"},
      {"[j]\nfilename=f\nrw=trim\n", "t.fio:3", "option 'rw'", "'trim'"},
      {"[j]\nfilename=f\nreadwrite=randrw:4\n", "t.fio:3", "option 'readwrite'",
       "randrw:4"},
      {"[j]\nfilename=f\niodepth=0\n", "t.fio:3", "option 'iodepth'",
       "out of range"},
      {"[j]\nfilename=f\nnumjobs=0\n", "t.fio:3", "option 'numjobs'",
       "out of range"},
      {"[j]\nfilename=f\nrwmixread=101\n", "t.fio:3", "option 'rwmixread'",
       "out of range"},
      {"[j]\nfilename=f\nrwmixread=70\nrwmixwrite=40\n", "t.fio:4",
       "option 'rwmixwrite'", "do not add up to 100"},
      {"[j]\nfilename=f\npercentage_random=120\n", "t.fio:3",
       "option 'percentage_random'", "out of range"},
      {"[j]\nfilename=f\ndirect=1\nbs=1000\n", "t.fio:4", "option 'bs'",
       "multiple of 512"},
      {"[j]\nfilename=f\ndirect=1\nbssplit=4k/50:6000/50\n", "t.fio:4",
       "option 'bs'", "multiple of 512"},
      {"[j]\nfilename=f\ndirect=1\nba=100\n", "t.fio:4", "option 'blockalign'",
       "multiple of 512"},
      {"[j]\nfilename=f\ndirect=1\noffset=1000\n", "t.fio:4", "option 'offset'",
       "multiple of 512"},
      {"[j]\nfilename=f\ndirect=maybe\n", "t.fio:3", "option 'direct'",
       "not a boolean"},
      {"[j]\nfilename=f\nioengine=posixaio\n", "t.fio:3", "option 'ioengine'",
       "not supported"},
      {"[j]\nfilename=f\nruntime=fast\n", "t.fio:3", "option 'runtime'",
       "not a duration"},
      {"[j]\nfilename=a:b\n", "t.fio:2", "option 'filename'", "several files"},
      {"[j]\nfilename=f\nbs\n", "t.fio:3", "option 'bs'", "needs a value"},
      {"[j]\nfilename=f\niodepth=4\niodepth_batch_complete_min=4\n"
       "iodepth_batch_complete_max=2\n",
       "t.fio:5", "option 'iodepth_batch_complete_max'", "below"},
      {"bs=4k\n[j]\n", "t.fio:1", "option 'bs'", "outside any section"},
      {"[j\nfilename=f\n", "t.fio:1", "section header", "closing ']'"},
      {"[global]\nbs=4k\n", "t.fio", "no job sections", "[job1]"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string msg = JfErrorOf(c.text);
    ASSERT_FALSE(msg.empty()) << "no error";
    EXPECT_EQ(msg.rfind(std::string(c.where) + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.option), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.detail), std::string::npos) << msg;
    EXPECT_NE(msg.find("Fix: "), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(JobFileTest, OverrideErrorsNameTheCommandLine) {
  JobOverrides o;
  o.size = SizeSpec{true, false, 0, 0};
  const std::string msg = JfErrorOf("[j]\nfilename=f\n", o);
  EXPECT_NE(msg.find("command line (--size): option 'size'"), std::string::npos)
      << msg;
}

TEST(JobFileTest, MissingFileIsAConfigError) {
  try {
    ParseJobFiles({"/nonexistent/job.fio"}, {});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/job.fio"),
              std::string::npos);
    EXPECT_EQ(e.exit_code(), kExitConfig);
  }
}

TEST(JobFileTest, RwPatternNamesAreFios) {
  EXPECT_STREQ(RwPatternName(RwPattern::kRead), "read");
  EXPECT_STREQ(RwPatternName(RwPattern::kWrite), "write");
  EXPECT_STREQ(RwPatternName(RwPattern::kRandRead), "randread");
  EXPECT_STREQ(RwPatternName(RwPattern::kRandWrite), "randwrite");
  EXPECT_STREQ(RwPatternName(RwPattern::kReadWrite), "rw");
  EXPECT_STREQ(RwPatternName(RwPattern::kRandReadWrite), "randrw");
}

}  // namespace
}  // namespace tierbench
