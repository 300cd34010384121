// The procfs parsers and readers a DB cell records its evidence with
// (db/process_cpu.h), on lines recorded from a real machine's /proc (kernel
// 6.18, USER_HZ 100) and on a fake /proc tree.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "db/process_cpu.h"
#include "util/sysfs.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

// A PostgreSQL 15 postmaster (parent: init, after pg_ctl daemonized it)
// whose startup process had been reaped: cutime 2, cstime 3.
constexpr char kPostmaster[] =
    "9445 (postgres) S 1 9445 9445 0 -1 4194304 2308 1610 0 0 3 2 2 3 20 0 1 "
    "0 132151 97705984 5937 18446744073709551615 93905292013568 "
    "93905297426857 140730676998512 0 0 0 0 24129536 84487 1 0 0 17 0 0 0 0 "
    "0 0 93905299892400 93905300109706 93905568956416 140730677000380 "
    "140730677000438 140730677000438 140730677002196 0\n";

// comm "x) y (z" (written to /proc/self/comm): spaces and both parentheses.
constexpr char kCommWithParens[] =
    "9225 (x) y (z) S 9223 9223 7490 0 -1 4194304 185 0 0 0 0 0 0 0 20 0 1 0 "
    "129571 4464640 801 18446744073709551615 94333569650688 94333570440093 "
    "140731133897072 0 0 0 65536 4 65538 1 0 0 17 0 0 0 0 0 0 94333570673392 "
    "94333570721636 94334187352064 140731133905303 140731133905369 "
    "140731133905369 140731133906922 0";

// comm "a b) (c" (prctl PR_SET_NAME) with every CPU time non-zero.
constexpr char kBusy[] =
    "9228 (a b) (c) R 9223 9223 7490 0 -1 4194304 2891 6505 11 2 4 11 15 18 "
    "20 0 1 0 129578 17149952 3462 18446744073709551615 94483477147648 "
    "94483477147989 140720740830960 0 0 0 0 16781312 2 0 0 0 17 1 0 0 0 0 0 "
    "94483477159344 94483477159960 94483995893760 140720740837232 "
    "140720740837390 140720740837390 140720740839375 0";

// A kernel thread (parent kthreadd, idle state 'I').
constexpr char kKworker[] =
    "10 (kworker/0:0H-kblockd) I 2 0 0 0 -1 69238880 0 0 0 0 0 2 0 0 0 -20 1 "
    "0 20 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0";

constexpr char kMeminfo[] =
    "MemTotal:       24683756 kB\n"
    "MemFree:        21679836 kB\n"
    "MemAvailable:   21882436 kB\n"
    "Buffers:            2984 kB\n"
    "Cached:           554232 kB\n";

TEST(ProcStatTest, ParsesAPostmasterLine) {
  ProcStat st;
  ASSERT_TRUE(ParseProcStat(kPostmaster, &st).ok());
  EXPECT_EQ(st.pid, 9445);
  EXPECT_EQ(st.comm, "postgres");
  EXPECT_EQ(st.state, 'S');
  EXPECT_EQ(st.ppid, 1);
  EXPECT_EQ(st.utime, 3u);
  EXPECT_EQ(st.stime, 2u);
  EXPECT_EQ(st.cutime, 2u);
  EXPECT_EQ(st.cstime, 3u);
}

TEST(ProcStatTest, CommRunsToTheLastParenthesis) {
  ProcStat st;
  ASSERT_TRUE(ParseProcStat(kCommWithParens, &st).ok());
  EXPECT_EQ(st.pid, 9225);
  EXPECT_EQ(st.comm, "x) y (z");
  EXPECT_EQ(st.state, 'S');
  EXPECT_EQ(st.ppid, 9223);
  EXPECT_EQ(st.utime + st.stime + st.cutime + st.cstime, 0u);

  ASSERT_TRUE(ParseProcStat(kBusy, &st).ok());
  EXPECT_EQ(st.comm, "a b) (c");
  EXPECT_EQ(st.state, 'R');
  EXPECT_EQ(st.ppid, 9223);
  // minflt 2891, cminflt 6505, majflt 11, cmajflt 2 come first: not times.
  EXPECT_EQ(st.utime, 4u);
  EXPECT_EQ(st.stime, 11u);
  EXPECT_EQ(st.cutime, 15u);
  EXPECT_EQ(st.cstime, 18u);

  ASSERT_TRUE(ParseProcStat(kKworker, &st).ok());
  EXPECT_EQ(st.comm, "kworker/0:0H-kblockd");
  EXPECT_EQ(st.state, 'I');
  EXPECT_EQ(st.ppid, 2);
  EXPECT_EQ(st.stime, 2u);
}

TEST(ProcStatTest, RejectsWhatIsNotAStatLine) {
  ProcStat st;
  st.pid = 77;
  for (const char* bad : {
           "",
           "9445 postgres S 1 2 3",                   // no parentheses
           "9445 (postgres S 1 9445",                 // no ')'
           "9445 (postgres) S 1 9445 9445 0 -1 4 5",  // too few fields
           "x (postgres) S 1 9445 9445 0 -1 4194304 2308 1610 0 0 3 2 2 3",
           "9445 (postgres) SS 1 9445 9445 0 -1 4194304 2308 1610 0 0 3 2 2 3",
           "9445 (postgres) S 1 9445 9445 0 -1 4194304 2308 1610 0 0 3 x 2 3",
           "9445 (postgres) S 1 9445 9445 0 -1 4194304 2308 1610 0 0 3 2 -2 3",
       }) {
    Status s = ParseProcStat(bad, &st);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("stat"), std::string::npos) << s.message();
  }
  EXPECT_EQ(st.pid, 77);  // untouched on error
  Status s = ParseProcStat(
      "9445 (postgres) S 1 9445 9445 0 -1 4194304 2308 1610 0 0 3 x 2 3", &st);
  EXPECT_NE(s.message().find("field 15"), std::string::npos) << s.message();
}

TEST(ProcStatTest, MemTotalInBytes) {
  int64_t bytes = 0;
  ASSERT_TRUE(ParseMemTotal(kMeminfo, &bytes).ok());
  EXPECT_EQ(bytes, 24683756ll * 1024);
  // Not the first line: found all the same.
  ASSERT_TRUE(ParseMemTotal("MemFree: 1 kB\nMemTotal: 2048 kB", &bytes).ok());
  EXPECT_EQ(bytes, 2048 * 1024);
  for (const char* bad :
       {"", "MemFree:        21679836 kB\n", "MemTotal:       24683756\n",
        "MemTotal:       24683756 MB\n", "MemTotal:       x kB\n",
        "MemTotal:       0 kB\n", "XMemTotal:      24683756 kB\n"}) {
    bytes = 5;
    EXPECT_FALSE(ParseMemTotal(bad, &bytes).ok()) << bad;
    EXPECT_EQ(bytes, 5) << bad;
  }
}

// A fake /proc: meminfo, a postmaster 500 with children 501 and 502, an
// unrelated process 600 (a child of 501, not of the postmaster) and a
// directory that is not a pid.
class ProcTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() /
             ("tierbench-proc-stat-" + std::to_string(::getpid())))
                .string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/proc/self");
  }
  void TearDown() override { fs::remove_all(root_); }

  void Put(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << text;
  }
  // A stat line like the kernel's, with the given parent and times.
  void PutStat(int pid, int ppid, int utime, int stime, int cutime = 0,
               int cstime = 0) {
    Put("proc/" + std::to_string(pid) + "/stat",
        std::to_string(pid) + " (postgres) S " + std::to_string(ppid) +
            " 9445 9445 0 -1 4194304 2308 1610 0 0 " + std::to_string(utime) +
            " " + std::to_string(stime) + " " + std::to_string(cutime) + " " +
            std::to_string(cstime) + " 20 0 1 0 132151 97705984 5937\n");
  }

  std::string root_;
};

TEST_F(ProcTreeTest, MemTotalThroughTheRoot) {
  const Sysfs os(root_);
  EXPECT_EQ(ReadMemTotalBytes(os), -1);  // missing: unknown, not 0
  Put("proc/meminfo", "MemFree: 1 kB\n");
  EXPECT_EQ(ReadMemTotalBytes(os), -1);
  Put("proc/meminfo", kMeminfo);
  EXPECT_EQ(ReadMemTotalBytes(os), 24683756ll * 1024);
}

TEST_F(ProcTreeTest, FamilyCpuIsTheParentItsReapedAndItsLiveChildren) {
  const Sysfs os(root_);
  uint64_t ticks = 0;
  EXPECT_EQ(ReadProcessFamilyCpuTicks(os, 500, &ticks).code(),
            Status::Code::kNotFound);
  PutStat(500, 1, 3, 2, 2, 3);    // 10
  PutStat(501, 500, 100, 50);     // 150: a backend
  PutStat(502, 500, 7, 1, 1, 1);  // 10: a child with a reaped child
  PutStat(600, 501, 1000, 1000);  // not the postmaster's child
  PutStat(700, 1, 5000, 5000);    // unrelated
  Put("proc/self/stat", "x");     // not a pid: skipped
  ASSERT_TRUE(ReadProcessFamilyCpuTicks(os, 500, &ticks).ok());
  EXPECT_EQ(ticks, 170u);

  // Backend 501 ends and is reaped: its 150 ticks move to the postmaster's
  // cutime/cstime, the family's total does not drop.
  fs::remove_all(root_ + "/proc/501");
  PutStat(500, 1, 3, 2, 2 + 100, 3 + 50);
  ASSERT_TRUE(ReadProcessFamilyCpuTicks(os, 500, &ticks).ok());
  EXPECT_EQ(ticks, 170u);

  Put("proc/500/stat", "garbage");
  EXPECT_EQ(ReadProcessFamilyCpuTicks(os, 500, &ticks).code(),
            Status::Code::kInvalidArgument);
}

TEST(ProcStatTest, RealProcessFamily) {
  // This test process and its (no) children: a real reading works and grows.
  uint64_t first = 0;
  uint64_t second = 0;
  const Sysfs os;
  ASSERT_TRUE(ReadProcessFamilyCpuTicks(os, getpid(), &first).ok());
  volatile uint64_t spin = 0;
  const int64_t hz = ClockTicksPerSecond();
  EXPECT_GT(hz, 0);
  for (int round = 0; round < 1000 && second <= first; ++round) {
    for (int i = 0; i < 1000000; ++i) spin = spin + 1;
    ASSERT_TRUE(ReadProcessFamilyCpuTicks(os, getpid(), &second).ok());
  }
  EXPECT_GT(second, first);
  EXPECT_GT(ReadMemTotalBytes(os), 0);
}

}  // namespace
}  // namespace tierbench
