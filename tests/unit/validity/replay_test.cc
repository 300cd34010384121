// The validity of a real lab run, judged again from the kernel text it
// recorded (tests/unit/data/lab-kernel/demo-evidence.jsonl: the
// evidence.jsonl of `./scripts/demo` on the lab's Debian 6.1 kernel). Each
// cell's /proc/stat "cpu" lines and block stat lines at its window's ends
// are written into a scratch tree that plays "/", HostSampler reads them
// as it read the real files, and the host rules (cpu-bound, cpu-steal,
// in-flight, other-io) must find what the run recorded. A second pass adds
// IO the cell did not do to a disk's end line: the other-io rule must
// fire (the replay can fail).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "orchestrate/host_sampler.h"
#include "util/sysfs.h"
#include "validity/measurement_rules.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kHostRules = {"cpu", "cpu-bound", "cpu-steal",
                                          "in-flight", "other-io"};

std::vector<nlohmann::json> Records() {
  std::ifstream in(std::string(TIERBENCH_SOURCE_DIR) +
                   "/tests/unit/data/lab-kernel/demo-evidence.jsonl");
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

// "vda4" -> "vda"; "" for a whole disk or a stack device.
std::string ParentDisk(const std::string& dev) {
  if (dev.rfind("vd", 0) != 0) return "";
  const size_t digits = dev.find_first_of("0123456789");
  return digits == std::string::npos ? "" : dev.substr(0, digits);
}

void WriteFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text << "\n";
}

// A tree that plays "/" for one cell: proc/stat and, per device,
// sys/class/block/<dev> linking to its directory under sys/devices (a
// partition inside its disk's, with a "partition" file, as sysfs has it).
class ReplayTree {
 public:
  ReplayTree(const std::string& root, const nlohmann::json& rec)
      : root_(root), rec_(rec) {
    fs::remove_all(root_);
    for (const auto& [dev, lines] : rec_["stat"].items()) {
      const std::string parent = ParentDisk(dev);
      const std::string rel = "sys/devices/virtual/block/" +
                              (parent.empty() ? dev : parent + "/" + dev);
      fs::create_directories(root_ + "/" + rel);
      if (!parent.empty()) WriteFile(root_ + "/" + rel + "/partition", "1");
      fs::create_directories(root_ + "/sys/class/block");
      fs::create_symlink("../../" + rel.substr(4),
                         root_ + "/sys/class/block/" + dev);
      dirs_[dev] = root_ + "/" + rel;
    }
    Write(0);
  }
  ~ReplayTree() { fs::remove_all(root_); }
  // Writes the text read at the window's start (0) or end (1).
  void Write(int end) {
    WriteFile(root_ + "/proc/stat", rec_["proc_stat"][end].get<std::string>());
    for (const auto& [dev, dir] : dirs_) {
      WriteFile(dir + "/stat", rec_["stat"][dev][end].get<std::string>());
    }
  }
  // Adds `ios` reads that no partition did to `disk`'s end line.
  void AddOtherReads(const std::string& disk, uint64_t ios) {
    std::istringstream fields(rec_["stat"][disk][1].get<std::string>());
    std::vector<uint64_t> v;
    uint64_t x = 0;
    while (fields >> x) v.push_back(x);
    ASSERT_GE(v.size(), 11u);
    v[0] += ios;
    std::string line;
    for (uint64_t f : v) line += " " + std::to_string(f);
    rec_["stat"][disk][1] = line;
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
  nlohmann::json rec_;
  std::map<std::string, std::string> dirs_;
};

// The cell's devices: its target, the partitions under it, their disks.
void Devices(const nlohmann::json& rec, std::string* target,
             std::vector<std::string>* members, std::set<std::string>* disks) {
  *target = rec["target"].get<std::string>();
  for (const auto& [dev, lines] : rec["stat"].items()) {
    const std::string parent = ParentDisk(dev);
    if (!parent.empty()) {
      if (rec["layer"] != "raw") members->push_back(dev);
      disks->insert(parent);
    }
  }
}

std::set<std::string> HostRulesOf(const std::vector<Finding>& findings) {
  std::set<std::string> out;
  for (const Finding& f : findings) {
    if (kHostRules.count(f.rule))
      out.insert(f.rule + ":" + SeverityName(f.severity));
  }
  return out;
}

std::set<std::string> RecordedHostRules(const std::string& rules) {
  std::set<std::string> out;
  std::istringstream in(rules);
  std::string r;
  while (std::getline(in, r, ';')) {
    if (kHostRules.count(r.substr(0, r.find(':')))) out.insert(r);
  }
  return out;
}

CellRole RoleOf(const nlohmann::json& rec) {
  if (rec["mode"] == "hdd") return CellRole::kRawHdd;
  if (rec["mode"] == "ssd") return CellRole::kRawSsd;
  return CellRole::kCache;
}

HostEvidence Replay(ReplayTree* tree, const nlohmann::json& rec) {
  std::string target;
  std::vector<std::string> members;
  std::set<std::string> disks;
  Devices(rec, &target, &members, &disks);
  const Sysfs os(tree->root());
  HostSampler sampler(os, target, members, false);
  sampler.Begin();
  tree->Write(1);
  sampler.End();
  return sampler.Evidence();
}

TEST(ValidityReplayTest, TheRecordedKernelTextGivesTheRecordedVerdict) {
  const std::vector<nlohmann::json> records = Records();
  ASSERT_EQ(records.size(), 11u);  // the demo's cells
  const std::string scratch = (fs::temp_directory_path() /
                               ("tierbench-replay-" + std::to_string(getpid())))
                                  .string();
  int cache_cells = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const nlohmann::json& rec = records[i];
    SCOPED_TRACE(rec["mode"].get<std::string>() + "/" +
                 rec["workload"].get<std::string>());
    ReplayTree tree(scratch + "/" + std::to_string(i), rec);
    const HostEvidence e = Replay(&tree, rec);
    // What the text says: the guest's two CPUs, every disk sampled.
    EXPECT_TRUE(e.cpu_unknown_why.empty()) << e.cpu_unknown_why;
    EXPECT_EQ(e.cpus, 2);
    EXPECT_GE(e.cpu_busy_pct, 0);
    EXPECT_LE(e.cpu_busy_pct, 100);
    EXPECT_TRUE(e.disks_unknown_why.empty()) << e.disks_unknown_why;
    std::string target;
    std::vector<std::string> members;
    std::set<std::string> disks;
    Devices(rec, &target, &members, &disks);
    EXPECT_EQ(e.disks.size(), disks.size());
    // The cell did IO on its disks (not on each: writeback's random
    // writes stayed on the SSD, dm-writecache's reads on the HDD).
    uint64_t cell_ios = 0;
    for (const DiskActivity& d : e.disks) cell_ios += d.cell_ios;
    EXPECT_GT(cell_ios, 0u);
    if (rec["layer"] != "raw") ++cache_cells;
    // The host rules find what the run recorded.
    const std::vector<Finding> found =
        MeasurementFindings(RunResult{}, {}, e, RoleOf(rec));
    EXPECT_EQ(HostRulesOf(found),
              RecordedHostRules(rec["finding_rules"].get<std::string>()));
  }
  EXPECT_EQ(cache_cells, 7);

  // The same text with 500 reads on the HDD that no cell partition did:
  // other IO, the cell invalid.
  ReplayTree tree(scratch + "/other", records[0]);
  tree.AddOtherReads("vda", 500);
  const HostEvidence e = Replay(&tree, records[0]);
  const std::set<std::string> rules =
      HostRulesOf(MeasurementFindings(RunResult{}, {}, e, CellRole::kRawHdd));
  EXPECT_EQ(rules.count("other-io:invalid"), 1u);
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace tierbench
