// Lab tests of `tierbench lab --power-cut`: real bcache, dm-cache and
// dm-writecache hold dirty data when QEMU is killed (no guest shutdown); a
// second guest on the same disk images puts each stack back and reads every
// acknowledged write back through it (issue 11 item 2); then bcache's cache
// device is rebuilt from a dm-log-writes log up to each flushed mark and
// checked there (a disk's volatile cache lost at the mark). Plus the
// options it refuses, which need no guest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

TEST(LabPowerCut, PowerCutKeepsEveryAcknowledgedWriteOnEveryLayer) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::vector<std::string> args = {"--power-cut", "--results", dir.path(),
                                   "--run-id", "lab-power-cut"};
  TIERBENCH_RUN_LAB(args, 0);
  const std::string run = dir.path() + "/lab-power-cut/";
  std::vector<CsvRow> rows = ReadCsv(run + "power-cut.csv");
  ASSERT_EQ(rows.size(), 3u) << output;
  const char* layers[] = {"bcache", "dm-cache", "dm-writecache"};
  for (size_t i = 0; i < rows.size(); ++i) {
    const CsvRow& r = rows[i];
    SCOPED_TRACE(Get(r, "layer"));
    EXPECT_EQ(Get(r, "schema_version"), "1");
    EXPECT_EQ(Get(r, "layer"), layers[i]);
    // 16 MiB in 32 KiB blocks, every one acknowledged before the cut.
    const double written = Num(r, "blocks_written");
    EXPECT_EQ(written, 512);
    // The cut came while the cache held the data, and the bare origin
    // lacked it: the data survived in the cache alone.
    EXPECT_GT(Num(r, "dirty_bytes_at_cut"), 0);
    EXPECT_EQ(Num(r, "blocks_origin_lacked"), written);
    // Putting the stack back is a registration or a table load: it took
    // 80-640 ms under TCG; the guest itself gives bcache 10 s. (A missing
    // value fails in Num(); /proc/uptime's 10 ms steps allow a 0.)
    EXPECT_GE(Num(r, "recovery_ms"), 0);
    EXPECT_LT(Num(r, "recovery_ms"), 10000);
    // Every acknowledged write came back intact.
    EXPECT_EQ(Num(r, "blocks_checked"), written);
    EXPECT_EQ(Num(r, "mismatches"), 0);
    EXPECT_EQ(Get(r, "result"), "intact");
    EXPECT_NE(output.find("power cut: " + std::string(layers[i]) + " ("),
              std::string::npos)
        << output;
  }
  // QEMU was killed (the host's cut), not shut down: guest 1 never printed
  // its done line, and guest 2 found boot 1's files on the output disk.
  const std::string console1 = ReadText(run + "lab/console-1.log");
  EXPECT_NE(console1.find("@@LAB:cut"), std::string::npos);
  EXPECT_EQ(console1.find("@@LAB:done"), std::string::npos);
  EXPECT_NE(ReadText(run + "lab/boot-1/power-cut.txt").find("bcache.dirty="),
            std::string::npos);

  // The log replay: each layer's cache side rebuilt from its dm-log-writes
  // log up to each mark holds every round flushed before the mark (64
  // blocks of 32 KiB each) and none written after it.
  std::vector<CsvRow> marks = ReadCsv(run + "log-replay.csv");
  ASSERT_EQ(marks.size(), 12u) << output;
  double entries_before = 0;  // a double: a missing value is NaN (Num)
  for (size_t i = 0; i < marks.size(); ++i) {
    const CsvRow& m = marks[i];
    const size_t k = i % 4;
    SCOPED_TRACE(Get(m, "layer") + " " + Get(m, "mark"));
    EXPECT_EQ(Get(m, "schema_version"), "1");
    EXPECT_EQ(Get(m, "layer"), layers[i / 4]);
    EXPECT_EQ(Get(m, "mark"), "r" + std::to_string(k));
    // Each mark lies further into the log.
    const double entries = Num(m, "entries_replayed");
    if (k > 0) {
      EXPECT_GT(entries, entries_before);
    }
    entries_before = entries;
    EXPECT_FALSE(Get(m, "state_after_replay").empty());
    EXPECT_EQ(Num(m, "blocks_expected"), 64.0 * (k + 1));
    EXPECT_EQ(Num(m, "blocks_checked"), 64.0 * (k + 1));
    EXPECT_EQ(Num(m, "mismatches"), 0);
    // The round after the mark is missing: the replay stopped there.
    EXPECT_EQ(Num(m, "next_round_blocks"), k < 3 ? 64 : 0);
    EXPECT_EQ(Num(m, "next_round_lacked"), Num(m, "next_round_blocks"));
    EXPECT_EQ(Get(m, "result"), "intact");
    EXPECT_NE(output.find("log replay: " + Get(m, "layer") + " at mark r" +
                          std::to_string(k) + ": "),
              std::string::npos)
        << output;
  }
  // bcache found its dirty data in the replayed journal.
  EXPECT_EQ(Get(marks[1], "state_after_replay").rfind("dirty ", 0), 0u);
  // The logs were the kernel's: replay-log listed their marks.
  for (const char* layer : layers) {
    const std::string log =
        ReadText(run + "lab/log-replay/" + layer + "/log.txt");
    EXPECT_NE(log.find("mark r3 (entry "), std::string::npos) << log;
    EXPECT_NE(log.find("mark dm-log-writes-end (entry "), std::string::npos)
        << log;
  }
}

// Refused before any guest boots: one line naming the option and the fix.
TEST(LabPowerCut, RefusesCompareOptionsAndLvmcache) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  struct Case {
    std::vector<std::string> args;
    std::string named;
  } cases[] = {
      {{"--layers", "bcache,lvmcache"}, "'lvmcache' has no power cut"},
      {{"--layers", "lvmcache"}, "'lvmcache' has no power cut"},
      {{"--modes", Mode("writeback")}, "--power-cut does not take --modes"},
      {{"--workloads", Workload("randwrite-4k")},
       "--power-cut does not take --workloads"},
      {{"--quick"}, "--power-cut does not take --quick"},
      {{"--runtime", "3"}, "--power-cut does not take --runtime"},
      {{"--interrupt-compare"},
       "--power-cut does not take --interrupt-compare"},
      {{"--loop-stack"}, "--power-cut does not take --loop-stack"},
      // The power cut checks data, not speed: it runs undilated.
      {{"--dilation", "4"}, "--power-cut does not take --dilation"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"--power-cut", "--results", dir.path()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string output;
    const int rc = RunLab(args, &output);
    SCOPED_TRACE(c.args[0]);
    EXPECT_EQ(rc, 2) << output;
    EXPECT_NE(output.find(c.named), std::string::npos) << output;
    EXPECT_NE(output.find("Fix:"), std::string::npos) << output;
    // One line: no guest was built or booted.
    EXPECT_EQ(output.find("booting"), std::string::npos) << output;
    EXPECT_EQ(output.find('\n'), output.size() - 1) << output;
  }
}

}  // namespace
}  // namespace tierbench::labtest
