// SplitLabRun (lab/lab_parts.h): the demo's cells over guests. Every cell
// lands in exactly one part, each part builds a stack, the DB cells of a
// layer stay together (one database load), and each part's
// --workload-modes name exactly its cells.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lab/lab_parts.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::string Src(const std::string& rel) {
  return std::string(TIERBENCH_SOURCE_DIR) + "/" + rel;
}

// What `tierbench lab --quick --full` hands the guest.
LabOptions QuickFull() {
  LabOptions o;
  for (const char* m : {"hdd", "ssd", "none", "writeback", "writethrough",
                        "writearound", "dm-cache-writeback", "dm-writecache"})
    o.mode_files.push_back(Src(std::string("modes/") + m + ".json"));
  for (const char* w : {"randread-zipf.fio", "randwrite-4k.fio",
                        "anandtech-mix.fio", "pgbench-tpcb-demo.json"})
    o.workload_files.push_back(Src(std::string("workloads/") + w));
  o.compare_args = {
      "--runtime",
      "5",
      "--drain-after",
      "flush",
      "--workload-modes",
      "randread-zipf=hdd,ssd,writeback,dm-cache-writeback,dm-writecache",
      "--workload-modes",
      "randwrite-4k=hdd,ssd,writeback,writethrough,dm-cache-writeback,"
      "dm-writecache",
      "--workload-modes",
      "anandtech-mix=hdd,ssd,writeback,dm-cache-writeback,dm-writecache",
      "--workload-modes",
      "pgbench-tpcb-demo=none,writethrough,writearound,writeback"};
  return o;
}

// (workload, mode) cells of a part, from its --workload-modes.
std::set<std::pair<std::string, std::string>> CellsOf(const LabOptions& o) {
  std::set<std::pair<std::string, std::string>> cells;
  for (size_t i = 0; i + 1 < o.compare_args.size(); ++i) {
    if (o.compare_args[i] != "--workload-modes") continue;
    const std::string v = o.compare_args[i + 1];
    const std::string w = v.substr(0, v.find('='));
    std::string rest = v.substr(v.find('=') + 1);
    size_t start = 0;
    while (start <= rest.size()) {
      const size_t end = rest.find(',', start);
      cells.insert({w, rest.substr(start, end - start)});
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return cells;
}

// Every cell once, every part with a stack, the raw baselines in one part,
// the other compare arguments unchanged: for any number of guests.
TEST(LabPartsTest, EveryCellOnceInAPartWithAStack) {
  for (int guests = 2; guests <= 8; ++guests) {
    SCOPED_TRACE(guests);
    const std::vector<LabPart> parts = SplitLabRun(QuickFull(), guests);
    ASSERT_GE(parts.size(), 2u);
    ASSERT_LE(parts.size(), static_cast<size_t>(guests));
    std::map<std::pair<std::string, std::string>, int> seen;
    int raw_parts = 0;
    for (const LabPart& p : parts) {
      SCOPED_TRACE(p.name);
      EXPECT_FALSE(p.options.layers.empty());
      const auto cells = CellsOf(p.options);
      EXPECT_EQ(static_cast<int>(cells.size()), p.cells);
      bool raw = false;
      std::set<std::string> modes;
      for (const auto& c : cells) {
        ++seen[c];
        raw |= c.second == "hdd" || c.second == "ssd";
        modes.insert(c.second);
      }
      raw_parts += raw;
      // Mode files: exactly the modes its cells name.
      EXPECT_EQ(p.options.mode_files.size(), modes.size());
      ASSERT_GE(p.options.compare_args.size(), 4u);
      EXPECT_EQ(std::vector<std::string>(p.options.compare_args.begin(),
                                         p.options.compare_args.begin() + 4),
                (std::vector<std::string>{"--runtime", "5", "--drain-after",
                                          "flush"}));
    }
    EXPECT_EQ(raw_parts, 1);
    // 5 + 6 + 5 fio cells and 4 DB cells, each once.
    EXPECT_EQ(seen.size(), 20u);
    for (const auto& [cell, n] : seen)
      EXPECT_EQ(n, 1) << cell.first << " " << cell.second;
  }
}

// The demo's four guests: bcache's DB cells (300 s of 686, more than a
// fourth) are cut in two, each half in a guest of its own with bcache only;
// bcache's fio cells take the raw baselines; dm-cache and dm-writecache
// share the fourth.
TEST(LabPartsTest, TheDemoOverFourGuests) {
  const std::vector<LabPart> parts = SplitLabRun(QuickFull(), 4);
  ASSERT_EQ(parts.size(), 4u);
  std::map<std::string, std::set<std::pair<std::string, std::string>>> by;
  std::string names;
  for (const LabPart& p : parts) {
    by[p.name] = CellsOf(p.options);
    names += p.name + " ";
  }
  SCOPED_TRACE(names);
  using Cells = std::set<std::pair<std::string, std::string>>;
  const std::string db = "pgbench-tpcb-demo";
  EXPECT_EQ(by["p1-bcache-db1"], (Cells{{db, "none"}, {db, "writethrough"}}));
  EXPECT_EQ(by["p2-bcache-db2"],
            (Cells{{db, "writeback"}, {db, "writearound"}}));
  ASSERT_EQ(by.count("p3-dm-cache+dm-writecache"), 1u);
  ASSERT_EQ(by.count("p4-bcache+raw"), 1u);
  for (const LabPart& p : parts) {
    // The guests without DB cells yield the CPU to those with them.
    EXPECT_EQ(p.options.qemu_nice,
              p.name.find("-db") == std::string::npos ? 5 : 0)
        << p.name;
    if (p.name.find("-db") == std::string::npos) continue;
    EXPECT_EQ(p.options.layers, std::vector<std::string>{"bcache"});
    EXPECT_EQ(
        p.options.workload_files,
        std::vector<std::string>{Src("workloads/pgbench-tpcb-demo.json")});
  }
}

TEST(LabPartsTest, OneGuestIsTheRunItself) {
  const LabOptions o = QuickFull();
  const std::vector<LabPart> parts = SplitLabRun(o, 1);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].options.compare_args, o.compare_args);
  EXPECT_EQ(parts[0].options.mode_files, o.mode_files);
}

TEST(LabPartsTest, MoreGuestsThanUnitsGiveOnePerUnit) {
  const std::vector<LabPart> parts = SplitLabRun(QuickFull(), 8);
  // bcache's DB cells one mode each (each above 686 / 8), bcache, dm-cache,
  // dm-writecache; the raw unit joins one.
  EXPECT_EQ(parts.size(), 7u);
}

TEST(LabPartsTest, AnUnknownWorkloadInWorkloadModesIsRefused) {
  LabOptions o = QuickFull();
  o.compare_args.insert(o.compare_args.end(),
                        {"--workload-modes", "nosuch=hdd"});
  try {
    SplitLabRun(o, 3);
    FAIL() << "split a run with an unknown --workload-modes workload";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("nosuch"), std::string::npos)
        << e.what();
  }
}

// compare's own checks of --workload-modes, before any guest boots: a
// workload named twice, an empty list, a mode not loaded; both spellings.
TEST(LabPartsTest, BadWorkloadModesAreRefused) {
  const struct {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {
      {{"--workload-modes", "randread-zipf=hdd"}, "twice"},
      {{"--workload-modes=anandtech-mix=ssd", "--workload-modes",
        "anandtech-mix=hdd"},
       "twice"},
      {{"--workload-modes=nosuch=hdd"}, "unknown workload"},
  };
  for (const auto& c : cases) {
    LabOptions o = QuickFull();
    o.compare_args.insert(o.compare_args.end(), c.args.begin(), c.args.end());
    try {
      SplitLabRun(o, 4);
      ADD_FAILURE() << "split with " << c.args.back();
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos)
          << e.what();
    }
  }
  LabOptions empty = QuickFull();
  empty.compare_args = {"--workload-modes", "randread-zipf="};
  EXPECT_THROW(SplitLabRun(empty, 4), ConfigError);
  LabOptions unknown_mode = QuickFull();
  unknown_mode.compare_args = {"--workload-modes",
                               "randread-zipf=hdd,dm-nosuch"};
  try {
    SplitLabRun(unknown_mode, 4);
    ADD_FAILURE() << "split with an unknown mode";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("dm-nosuch"), std::string::npos)
        << e.what();
  }
}

// Cut again and again (8 guests), every DB half keeps a name of its own.
TEST(LabPartsTest, PartNamesAreDistinct) {
  for (int guests = 2; guests <= 8; ++guests) {
    std::set<std::string> names;
    for (const LabPart& p : SplitLabRun(QuickFull(), guests))
      EXPECT_TRUE(names.insert(p.name).second) << p.name << " " << guests;
  }
}

}  // namespace
}  // namespace tierbench
