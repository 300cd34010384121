// Lab tests: `tierbench compare` on REAL kernel bcache inside the QEMU guest
// (tierbench lab, which also builds the dm-cache and dm-writecache stacks). One
// guest run per test; the assertions read the runs.csv it brings back and check
// that the cache modes behave as bcache's code says they must (reference-notes
// §3.4), with deliberately large ratios.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

TEST(LabCompare, RealBcacheModesBehaveAsDocumented) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  // writeback right before none: its dirty data must be drained in between.
  // Sizes: the wiki stream must read more than sequential_cutoff (4 MiB) at
  // the HDD's ~0.6 MB/s before bcache bypasses it, hence 8 s + 1 s ramp; a
  // 16 MiB region keeps writeback's dirty data dense (at most 16 MiB,
  // written back in merged runs), so its drain takes seconds, not minutes.
  // --stats-lag 16: bcache folds its counters every 13.6 s, and every fold
  // must be seen before the lag (below).
  std::vector<std::string> args = {
      // The cold protocol, as documented (the default warms until steady).
      kUndilated, "--cache-state", "cold", "--modes", Mode("hdd"),
      Mode("writethrough"), Mode("writeback"), Mode("none"), "--workloads",
      Workload("randwrite-4k"), Workload("wiki-4k-qd32"), "--runtime", "8",
      "--ramp-time", "1", "--size", "16M", "--stats-lag", "16", "--results",
      dir.path(), "--run-id", "lab-compare",
      // Before the cells: 4 MiB of checked data across every bcache mode.
      kVerifyArg,
      // The time to clean at bcache's own pace (the lab's default flushes),
      // which issue 12's checks below are about.
      "--compare-arg=--drain-after", "--compare-arg=policy"};
  TIERBENCH_RUN_LAB(args, 0);
  std::vector<CsvRow> rows = ReadCsv(dir.path() + "/lab-compare/runs.csv");
  ASSERT_FALSE(rows.empty()) << output;
  ExpectVerified(dir.path() + "/lab-compare", {"bcache"});

  // Every bcache row reads back the mode it asked for.
  int bcache_rows = 0;
  for (const CsvRow& r : rows) {
    if (Get(r, "layer") != "bcache") continue;
    ++bcache_rows;
    EXPECT_EQ(Get(r, "cache_mode_readback"), Get(r, "mode"))
        << "workload " << Get(r, "workload");
    EXPECT_EQ(Get(r, "verify_blocks"), "1024");
    EXPECT_EQ(Get(r, "verify_errors"), "0");
  }
  EXPECT_EQ(bcache_rows, 6);  // 3 bcache modes x 2 single-direction workloads
  // Every bcache cell read its counters at bcache's first fold after the IO
  // stop, never at --stats-lag (16 s): its folds come every 13.6 s. The
  // wiki reads and none's bypassed writes are counted, so those folds move
  // stats_total. Writethrough's and writeback's random writes are not; their
  // fold shows as the decay of stats_five_minute, which holds the verify's
  // reads. Seen within 13.6 s plus the timer's slack and one poll (1 s
  // apart during a drain).
  double first_counters_s = 16;
  for (const CsvRow& r : rows) {
    if (Get(r, "layer") != "bcache") continue;
    const double s = Num(r, "counters_after_s");
    EXPECT_LE(s, 15.3) << Get(r, "mode") << "/" << Get(r, "workload");
    first_counters_s = std::min(first_counters_s, s);
  }
  EXPECT_LT(first_counters_s, 13.0);

  const CsvRow* hdd = Find(rows, "hdd", "randwrite-4k", "write");
  const CsvRow* wt = Find(rows, "writethrough", "randwrite-4k", "write");
  const CsvRow* wb = Find(rows, "writeback", "randwrite-4k", "write");
  const CsvRow* none = Find(rows, "none", "randwrite-4k", "write");
  ASSERT_TRUE(hdd && wt && wb && none) << output;
  double hdd_iops = Num(*hdd, "iops"), wt_iops = Num(*wt, "iops");
  double wb_iops = Num(*wb, "iops"), none_iops = Num(*none, "iops");
  // Writeback absorbs random writes at cache speed (lab.md: 28x the HDD).
  EXPECT_GE(wb_iops, 5 * none_iops)
      << "writeback " << wb_iops << " none " << none_iops;
  // Writethrough writes complete on the HDD: the HDD's speed.
  EXPECT_GE(wt_iops, 0.5 * hdd_iops)
      << "writethrough " << wt_iops << " hdd " << hdd_iops;
  EXPECT_LE(wt_iops, 2.0 * hdd_iops)
      << "writethrough " << wt_iops << " hdd " << hdd_iops;

  // Dirty data after the writeback write cell, drained before the next cell.
  EXPECT_GT(Num(*wb, "dirty_after_bytes"), 0);
  bool after_wb = false;
  for (const CsvRow& r : rows) {
    if (after_wb && Get(r, "layer") == "bcache") {
      EXPECT_EQ(Num(r, "dirty_before_bytes"), 0)
          << "cell after writeback: " << Get(r, "mode") << "/"
          << Get(r, "workload");
      break;
    }
    after_wb = &r == wb;
  }

  // Issue 12: the time to clean is timed from the IO stop. Dirty data the
  // counters saw counters_after_s after the IO stop means a drain at least
  // that long; and the drain is no shorter than the last dirty reading of
  // series.csv implies (t_s counts from the measured window's start; the IO
  // stopped at --runtime, 8 s; 0.5 s for the workload's teardown).
  const double ttc = Num(*wb, "drain_after_s");
  const double counters_after = Num(*wb, "counters_after_s");
  EXPECT_GT(counters_after, 0);
  EXPECT_GE(ttc, counters_after)
      << "dirty " << counters_after << " s after the IO stop, yet drained in "
      << ttc;
  double last_dirty_t = -1;
  for (const CsvRow& r : ReadCsv(dir.path() + "/lab-compare/series.csv")) {
    if (Get(r, "mode") == "writeback" && Get(r, "workload") == "randwrite-4k" &&
        Get(r, "repetition") == "1" && Get(r, "phase") == "drain" &&
        Num(r, "dirty_bytes") > 0) {
      last_dirty_t = std::max(last_dirty_t, Num(r, "t_s"));
    }
  }
  EXPECT_GE(ttc + 0.5, last_dirty_t - 8.0) << "last dirty at " << last_dirty_t;
  // Sustained: IOs over runtime + time to clean (time to clean rounded to
  // 0.1 s in runs.csv), below the burst.
  const double runtime_s = Num(*wb, "runtime_ms") / 1000;
  EXPECT_NEAR(Num(*wb, "iops_sustained"), Num(*wb, "ios") / (runtime_s + ttc),
              0.01 * Num(*wb, "iops_sustained"));
  EXPECT_LT(Num(*wb, "iops_sustained"), wb_iops);
  EXPECT_EQ(Get(*hdd, "iops_sustained"), Get(*hdd, "iops"));

  // The wiki job of seed 001 is a sequential read: in the caching modes
  // bcache bypasses it past sequential_cutoff, and `warnings` says so. In
  // none everything bypasses by design (no cutoff warning is due there):
  // its counters must show the bypass.
  for (const char* mode : {"writethrough", "writeback"}) {
    const CsvRow* wiki = Find(rows, mode, "wiki-4k-qd32", "read");
    ASSERT_NE(wiki, nullptr) << mode;
    EXPECT_NE(Get(*wiki, "warnings").find("sequential_cutoff"),
              std::string::npos)
        << mode << ": warnings '" << Get(*wiki, "warnings") << "'";
  }
  const CsvRow* none_wiki = Find(rows, "none", "wiki-4k-qd32", "read");
  ASSERT_NE(none_wiki, nullptr);
  EXPECT_GT(Num(*none_wiki, "bypassed_bytes"), 0);
  EXPECT_EQ(Num(*none_wiki, "read_hits"), 0);

  // What each mode costs the SSD (results/README.md, issue 30 item 4), on
  // the read-only wiki stream of a cold cache: writethrough and writeback
  // insert the read misses of the stream's first sequential_cutoff (4 MiB)
  // before bcache bypasses it, so the SSD is written though the application
  // wrote nothing (no ssd_write_per_app_write then). none inserts no data
  // (its reads bypass by design, read_hits 0 above), but its SSD is not
  // strictly unwritten: bcache writes a dirtied btree leaf 30 s after it
  // was dirtied (btree.c bch_btree_leaf_dirty), and the cell before it
  // (none on randwrite-4k) dirtied leaves with its invalidations, about 25 s
  // before this cell's window. So none's SSD bytes per application byte are
  // metadata only: under a tenth of what either caching mode inserted.
  double caching_min = std::numeric_limits<double>::infinity();
  for (const char* mode : {"writethrough", "writeback"}) {
    const CsvRow* wiki = Find(rows, mode, "wiki-4k-qd32", "read");
    ASSERT_NE(wiki, nullptr) << mode;
    EXPECT_GT(Num(*wiki, "ssd_write_bytes"), 0) << mode;
    const double per_byte = Num(*wiki, "ssd_write_per_app_byte");
    EXPECT_GT(per_byte, 0) << mode;
    caching_min = std::min(caching_min, per_byte);
    EXPECT_EQ(Get(*wiki, "ssd_write_per_app_write"), "") << mode;
  }
  EXPECT_LT(10 * Num(*none_wiki, "ssd_write_per_app_byte"), caching_min)
      << "none wrote " << Get(*none_wiki, "ssd_write_bytes")
      << " B to the SSD on a read-only stream";
  // It kept nothing off the HDD: every byte read came from it.
  EXPECT_LE(Num(*none_wiki, "hdd_bytes_saved"), 0);
  for (const CsvRow* w : {wt, wb}) {
    EXPECT_GT(Num(*w, "ssd_write_per_app_write"), 0) << Get(*w, "mode");
  }
  // Without --ssd-tbw no life is projected.
  EXPECT_EQ(Get(*wb, "ssd_life_days"), "");

  // Compare leaves the stack as it found it: attached, original knobs.
  const std::string lab = dir.path() + "/lab-compare/lab/";
  EXPECT_EQ(ReadText(lab + "state-after.txt"), "clean\n");
  EXPECT_EQ(ReadText(lab + "knobs-after.txt"),
            ReadText(lab + "knobs-before.txt"));
}

// SIGKILL: compare cannot restore anything itself. Its restore state file
// makes the next compare refuse (exit 4, naming `tierbench restore`), and
// `tierbench restore` puts every layer back (lab/lab_runner.h).
TEST(LabCompare, KilledCompareIsRestoredByTierbenchRestore) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  // The guest sends SIGKILL once compare changed a knob or dm table
  // (mid-run), then compares every line with what it was before.
  std::vector<std::string> args = {
      kUndilated,
      // restore and read-back, not figures: cold
      "--cache-state", "cold", "--interrupt-compare", "--interrupt-signal",
      "KILL", "--modes", Mode("writeback"), "--workloads",
      Workload("randwrite-4k"), "--runtime", "30", "--size", "256M",
      "--results", dir.path(), "--run-id", "lab-interrupt",
      // The compare's boot after a kernel hang (lab/lab_workspace.h): its
      // handshake talks to the new QEMU, and the kill and restore below
      // happen in that second boot.
      kHangSetupOnce};
  TIERBENCH_RUN_LAB(args, 0);
  std::string lab = dir.path() + "/lab-interrupt/lab/";
  ExpectBootedAgainAfterTheHang(output, lab);
  EXPECT_EQ(ReadText(lab + "compare-exit-code"), "137\n");
  EXPECT_EQ(ReadText(lab + "compare-again-exit-code"), "4\n");
  EXPECT_NE(ReadText(lab + "compare-again.log").find("tierbench restore"),
            std::string::npos)
      << ReadText(lab + "compare-again.log");
  EXPECT_EQ(ReadText(lab + "restore-exit-code"), "0\n")
      << ReadText(lab + "restore.log");
  std::string before = ReadText(lab + "knobs-before.txt");
  ASSERT_NE(before.find("cache_mode=[writethrough]"), std::string::npos)
      << before;
  // Every layer's stack is in the snapshot: the dm stacks as their live
  // tables, which hold mode and policy (lab/lab_runner.h).
  EXPECT_NE(before.find("\ndm:tb-dmcache=0 "), std::string::npos) << before;
  EXPECT_NE(before.find(" 64 1 writethrough smq 0"), std::string::npos)
      << before;
  EXPECT_NE(before.find("\ndm:tb-writecache=0 "), std::string::npos) << before;
  // Mid-run compare had changed a knob (the guest waits for the first
  // changed line, which may be a knob set before cache_mode: ci-run8 caught
  // one under load)...
  EXPECT_NE(ReadText(lab + "knobs-during.txt"), before);
  // ...the kill, 2 s later, left the mode switched (else restore proves
  // nothing)...
  EXPECT_NE(ReadText(lab + "knobs-killed.txt").find("[writeback]"),
            std::string::npos)
      << ReadText(lab + "knobs-killed.txt");
  // ...and after `tierbench restore` every knob is back, with the cache
  // attached (dirty data the killed writeback cell left is written back
  // later).
  EXPECT_EQ(ReadText(lab + "knobs-after.txt"), before);
  const std::string state = ReadText(lab + "state-after.txt");
  EXPECT_TRUE(state == "clean\n" || state == "dirty\n") << state;
  const std::string dm = ReadText(lab + "dm-status-after.txt");
  EXPECT_NE(dm.find("tb-dmcache: 0 "), std::string::npos) << dm;
  EXPECT_NE(dm.find("tb-writecache: 0 "), std::string::npos) << dm;
}

// Seed 001's finding (pgbench: writeback 2.5x the other modes, those
// alike) on real bcache, in the dilated lab (lab/lab_dilation.h): the lab's
// default disks (HDD 150 IOPS, SSD 20000) divided by the guest's CPU
// slowdown, capped at F = 4 (auto), so commits wait on the HDD as they
// would on this host with a real HDD. Undilated, PostgreSQL in the TCG
// guest is CPU-bound and every mode measured the emulator (hdd 64, ssd 47,
// writeback 109, none 104 tps).
//
// Seed 001's database lived in RAM (150 MB on 8 GB, pgbench run right after
// its load): the device saw the write path. pgbench-tpcb.json (the page
// cache emptied after the load) measured another question at F = 4:
// writeback 21.5, none 13.3 tps (1.62x), because every transaction's
// account read missed the cold cache (the load's sequential writes
// bypassed it) and went to the HDD in both modes. pgbench-tpcb-in-ram.json
// reads the database into the page cache first, as seed 001 had it:
// writeback 83, none 40 tps (2.08x; none drifted from 53 to 26 tps over
// its window, flagged), then 94.2 vs 41.2 (2.29x), then 67.1 vs 39.3
// (1.71x): that run's writeback sent 69% of its IO past the cache, flagged
// "sequential_cutoff = 4.0M: this cell measured the HDD". The WAL is one
// sequential stream; past 4 MiB bcache bypasses it, which costs a real HDD
// little (it streams sequential writes) but costs the lab's HDD, an IOPS
// throttle with no seek model, as much as random IO, so how much of the
// window's WAL went past the cache decides the figure: 1.71x to 2.29x in
// three runs, then 2.33x (98 vs 42).
// The bound is seed 001's 2x (issue 27). Writeback is CPU-bound in the
// guest (flagged, a floor), so its figure follows the CPU the host leaves
// it: after the warm-up fix 1.88x with a compiler running beside the test,
// 2.64x in a CI run, and, with one database load for the four modes,
// 5.4x (173 vs 32 tps, 2026-12-04) on a quiet host.
// With the cutoff off (modes/writeback-nocutoff.json) writeback did 106
// tps, 2.58x (seed 001: 2.5x), but the load's 65 MB, cached too, did not
// drain within the 60 s before the run, so that cell was rightly invalid.
// Since the drains that prepare a cell flush (CacheLayer::Flush), the
// load's dirty data drains in seconds, and the lab flushes after a cell
// by default too: the test runs with the lab's defaults only.
// The workload uses prepared statements: writeback's cell is bound by the
// emulated CPU, and with simple queries it did 91 tps against none's 46
// (1.96x) in a CI run whose guest was 30x slower than the host
// (2026-12-04); 94 tps prepared, not CPU-bound, beside a compile.
// The four modes share one database load (db/db_session.h): none's cell
// loads it, the others restart on it; each starts cold, then its warm-up.
// Seed 001's other half: the modes that commit on the HDD (none,
// writethrough, writearound) are within noise of each other: their 95 %
// intervals, batch means of the per-second tps, overlap pairwise.
// The lab's own options only (issue 27): the drain after writeback's
// cell, the last, flushes its dirty data to the lab's 38-IOPS HDD to the
// end. With pgbench-tpcb-in-ram (10 s warm-up, 15 s measured) the test
// then took 450 s of the suite's 1,189 (CI, 2026-12-04; 4.9x, writeback
// 190 tps against none's 39), so it runs the demo's workload, the one
// README's verdict shows: the same database and clients, prepared
// statements, 5 s warm-up, 10 s measured.
TEST(LabCompare, PgbenchWritebackBeatsNone) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::vector<std::string> args = {
      "--dilation=auto",
      "--layers",
      "bcache",
      "--modes",
      Mode("none"),
      Mode("writethrough"),
      Mode("writearound"),
      Mode("writeback"),
      "--workloads",
      kSource + "/workloads/pgbench-tpcb-demo.json",
      "--results",
      dir.path(),
      "--run-id",
      "lab-db"};
  TIERBENCH_RUN_LAB(args, 0);
  // The factor is in the manifest, and the limits in force are the lab's
  // defaults divided by it (a lab that did not dilate fails here).
  double dilation = 0;
  ExpectDilatedLimits(dir.path() + "/lab-db", 150, 120000000, 20000, 0,
                      &dilation);
  ASSERT_FALSE(HasFatalFailure()) << output;
  EXPECT_EQ(ManifestLabels(dir.path() + "/lab-db")["lab.dilation_mode"],
            "auto");
  ::testing::Test::RecordProperty("dilation", std::to_string(dilation));
  std::cout << "lab dilation " << dilation << std::endl;
  std::vector<CsvRow> rows = ReadCsv(dir.path() + "/lab-db/runs.csv");
  std::map<std::string, const CsvRow*> cell;
  for (const CsvRow& r : rows) {
    if (Get(r, "workload") != "pgbench-tpcb-demo") continue;
    EXPECT_EQ(Get(r, "cache_mode_readback"), Get(r, "mode"));
    // Every pgbench cell is valid: device-bound, the load drained, the
    // server restarted, the database bigger than shared_buffers.
    EXPECT_EQ(Get(r, "valid"), "yes")
        << Get(r, "mode") << ": " << Get(r, "invalid_reasons");
    cell.emplace(Get(r, "mode"), &r);
  }
  ASSERT_EQ(cell.size(), 4u) << output;
  // One load for the stack: the first mode's cell made the database, the
  // others ran on it.
  EXPECT_EQ(Get(*cell["none"], "db_reused"), "0");
  for (const char* m : {"writethrough", "writearound", "writeback"}) {
    EXPECT_EQ(Get(*cell[m], "db_reused"), "1") << m;
  }
  std::map<std::string, double> tps;
  for (const auto& [mode, r] : cell) {
    ASSERT_TRUE(Has(*r, "iops")) << mode;
    tps[mode] = Num(*r, "iops");
    ASSERT_GT(tps[mode], 0) << mode;
  }
  ::testing::Test::RecordProperty(
      "writeback_over_none", std::to_string(tps["writeback"] / tps["none"]));
  // Writeback commits on the SSD, none on the HDD (seed 001: 2.5x).
  EXPECT_GE(tps["writeback"], 2.0 * tps["none"])
      << "writeback " << tps["writeback"] << " tps, none " << tps["none"]
      << " tps";
  // Writeback left dirty data, and the drain was timed to its end.
  EXPECT_GT(Num(*cell["writeback"], "dirty_after_bytes"), 0);
  EXPECT_GT(Num(*cell["writeback"], "drain_after_s"), 0);
  // The drain ended: the sustained rate (empty after a timed-out drain) is
  // known, and below the rate of the run, whose writes it paid back.
  ASSERT_TRUE(Has(*cell["writeback"], "iops_sustained"));
  EXPECT_LT(Num(*cell["writeback"], "iops_sustained"), tps["writeback"]);
  // none and writethrough: intervals of the per-second tps overlap.
  std::map<std::string, std::vector<double>> per_second;
  for (const CsvRow& r : ReadCsv(dir.path() + "/lab-db/series.csv")) {
    if (Get(r, "phase") != "measure") continue;
    ASSERT_TRUE(Has(r, "write_iops")) << Get(r, "mode");
    per_second[Get(r, "mode")].push_back(Num(r, "write_iops"));
  }
  const auto interval = [&per_second](const std::string& mode) {
    const std::vector<double>& v = per_second[mode];
    constexpr size_t kBatches = 5;
    EXPECT_GE(v.size(), kBatches) << mode;
    const size_t per = std::max<size_t>(1, v.size() / kBatches);
    std::vector<double> means;
    for (size_t b = 0; b < kBatches && (b + 1) * per <= v.size(); ++b) {
      double sum = 0;
      for (size_t i = b * per; i < (b + 1) * per; ++i) sum += v[i];
      means.push_back(sum / static_cast<double>(per));
    }
    const double n = static_cast<double>(means.size());
    double mean = 0;
    for (double m : means) mean += m;
    mean /= n;
    double ss = 0;
    for (double m : means) ss += (m - mean) * (m - mean);
    // t(0.975, 4): five batches (the lab tests do not link
    // tierbench_core's stats/confidence.h).
    constexpr double kT975Df4 = 2.776;
    EXPECT_EQ(means.size(), kBatches) << mode;
    const double half = kT975Df4 * std::sqrt(ss / (n - 1) / n);
    return std::pair<double, double>{mean - half, mean + half};
  };
  std::map<std::string, std::pair<double, double>> ci;
  for (const char* m : {"none", "writethrough", "writearound"}) {
    ci[m] = interval(m);
  }
  std::cout << "pgbench-tpcb-demo tps:";
  for (const auto& [m, c] : ci) {
    std::cout << " " << m << " " << tps[m] << " [" << c.first << ", "
              << c.second << "],";
  }
  std::cout << " writeback " << tps["writeback"] << " ("
            << tps["writeback"] / tps["none"] << "x none)" << std::endl;
  for (const auto& [a, ca] : ci) {
    for (const auto& [b, cb] : ci) {
      if (a >= b) continue;
      EXPECT_TRUE(ca.first <= cb.second && cb.first <= ca.second)
          << a << " [" << ca.first << ", " << ca.second << "] tps, " << b
          << " [" << cb.first << ", " << cb.second << "] tps";
    }
  }
}

// --dilation and --accel: a bad value is one line naming the option and the
// fix, exit 2, before any guest is built or anything is written (no QEMU
// needed).
TEST(LabCli, BadDilationOrAccelIsRefusedBeforeAnythingIsWritten) {
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::string results = dir.path() + "/results";
  struct Case {
    std::vector<std::string> args;
    std::string named;
  } cases[] = {
      {{"--dilation", "0.5"}, "Bad value for --dilation. Value: 0.5"},
      {{"--dilation", "1001"}, "Bad value for --dilation. Value: 1001"},
      {{"--dilation", "fast"}, "Bad value for --dilation. Value: fast"},
      {{"--accel", "xen"}, "Bad value for --accel. Value: xen"},
      {{"--kvm", "--accel", "tcg"}, "--kvm contradicts --accel tcg"},
      {{"--full", "--layers", "bcache"}, "--full adds to the demo run"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {
        "--workloads", kSource + "/workloads/pgbench-tpcb.json",
        "--results",   results,
        "--run-id",    "refused"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string output;
    const int rc = RunLab(args, &output);
    SCOPED_TRACE(c.args[0] + " " + c.args[1]);
    EXPECT_EQ(rc, 2) << output;
    EXPECT_NE(output.find(c.named), std::string::npos) << output;
    EXPECT_NE(output.find("Fix:"), std::string::npos) << output;
    EXPECT_EQ(output.find('\n'), output.size() - 1) << output;
    EXPECT_FALSE(std::filesystem::exists(results)) << output;
  }
}

}  // namespace
}  // namespace tierbench::labtest
