// Pitfall 23 of PitfallTable() (validity/rule_table.h: make-bcache's
// minimums and leftover superblocks, prevented by the lab's bucket size
// and by refusing devices that carry a signature). The lab's bucket size
// (LabOptions, scripts/loop-stack, and the superblocks the lab's guest
// made, tests/unit/data/lab-kernel/*-stack.txt) is checked against
// make-bcache's minimum of 128 buckets and the kernel's (a power of two,
// at least a 4 KiB page); the real make-bcache (bcache-tools, which
// scripts/install-deps installs) then runs the lab's recorded command on
// scratch files: its superblocks are what the device guard's probe
// (DetectSignature, libblkid) finds and the guard refuses. Without
// make-bcache the second half skips (fails under CI=true, ci_skip.h). The
// meta-test is in tests/unit/validity/pitfalls_test.cc.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "io/device_guard.h"
#include "lab/lab_runner.h"
#include "support/ci_skip.h"
#include "unit/validity/pitfalls_replay.h"
#include "util/subprocess.h"
#include "util/units.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

using pitfalls::LabText;
using pitfalls::RepoPath;

constexpr uint64_t kSector = 512;
constexpr uint64_t kMinBuckets = 128;  // make-bcache: "need 128"
constexpr uint64_t kPageBytes = 4096;  // the kernel's smallest bucket

std::string ReadRepoFile(const std::string& rel) {
  std::ifstream in(RepoPath(rel));
  EXPECT_TRUE(in.good()) << rel;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The number after `key` (followed by blanks) in `text`; -1 if none.
int64_t Field(const std::string& text, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(key + "[ \t]+([0-9]+)"))) {
    ADD_FAILURE() << "no '" << key << "' in:\n" << text;
    return -1;
  }
  return std::stoll(m[1].str());
}

// The words of the line after "# " that starts with `command`.
std::vector<std::string> RecordedCommand(const std::string& text,
                                         const std::string& command) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# " + command + " ", 0) != 0) continue;
    std::istringstream words(line.substr(2));
    std::vector<std::string> out;
    for (std::string w; words >> w;) out.push_back(w);
    return out;
  }
  ADD_FAILURE() << "no '# " << command << "' line";
  return {};
}

// A scratch directory, removed at the end.
class SuperblockScratchDir {
 public:
  SuperblockScratchDir() {
    char tmpl[] = "/tmp/tierbench-pitfall-sb-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
  }
  ~SuperblockScratchDir() { fs::remove_all(dir_); }
  // A file of `bytes` zeros (sparse), replacing any earlier one.
  std::string Zeroed(const std::string& name, uint64_t bytes) const {
    const std::string path = dir_ + "/" + name;
    fs::remove(path);
    std::ofstream(path).close();
    fs::resize_file(path, bytes);
    return path;
  }

 private:
  std::string dir_;
};

// `words` with each `from` replaced by `to`, without the words `drop`;
// words[0] becomes `tool`.
std::vector<std::string> Edited(
    std::vector<std::string> words, const std::string& tool,
    const std::vector<std::pair<std::string, std::string>>& replace,
    const std::vector<std::string>& drop) {
  std::vector<std::string> out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i == 0) {
      out.push_back(tool);
      continue;
    }
    bool dropped = false;
    for (const std::string& d : drop) {
      if (words[i] == d) {
        dropped = true;
        if (d == "--bucket") ++i;  // and its value
      }
    }
    if (dropped) continue;
    for (const auto& [from, to] : replace) {
      if (words[i] == from) words[i] = to;
    }
    out.push_back(words[i]);
  }
  return out;
}

// Pitfall 23. Prevented: the lab's bucket size; signatures refused.
// Minimums: the lab's --bucket default (LabOptions: 64k), the bucket of
// scripts/loop-stack's make-bcache and of the make-bcache the lab's guest
// ran (pgbench-stack.txt, demo-stack.txt: "--bucket 64k", superblocks of
// bucket_size 128 sectors and 4096 buckets on the 524288-sector cache) are
// one power of two of at least a page, and the smallest cache
// scripts/loop-stack accepts (64 MiB) holds 1024 >= 128 of them. With
// make-bcache: the recorded command on 64 MiB scratch files makes 1024
// buckets; make-bcache's default bucket (the command without --bucket
// 64k) on a 32 MiB cache is refused ("Not enough buckets: 64, need 128").
// Leftover superblocks: both files then carry a "bcache superblock" for
// the guard's probe (a zeroed file carries none); make-bcache refuses
// them without --wipe-bcache ("Already a bcache device") and, as Debian
// 12's bcache-tools 1.0.8 does, with it; zeroed again, the recorded
// command succeeds.
TEST(ValidityPitfallsTest, Row23MakeBcacheMinimumsAndLeftoverSuperblocks) {
  uint64_t bucket = 0;
  const std::string lab_bucket = LabOptions{}.bucket;
  ASSERT_TRUE(ParseSize(lab_bucket, &bucket).ok()) << lab_bucket;
  EXPECT_EQ(bucket, 65536u);
  EXPECT_EQ(bucket & (bucket - 1), 0u) << "not a power of two";
  EXPECT_GE(bucket, kPageBytes);
  const std::string loop_stack = ReadRepoFile("scripts/loop-stack");
  EXPECT_NE(loop_stack.find("make-bcache --bucket " + lab_bucket + " "),
            std::string::npos);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      loop_stack, m,
      std::regex(R"(\[ "\$cache" -ge \$\(\(([0-9]+) \* mib\)\) \])")));
  const uint64_t min_cache = std::stoull(m[1].str()) << 20;
  EXPECT_EQ(min_cache, 64u << 20);
  EXPECT_GE(min_cache / bucket, kMinBuckets);
  for (const char* file : {"pgbench-stack.txt", "demo-stack.txt"}) {
    SCOPED_TRACE(file);
    const std::string stack = LabText(file);
    const std::vector<std::string> cmd = RecordedCommand(stack, "make-bcache");
    ASSERT_GE(cmd.size(), 3u);
    EXPECT_EQ(cmd[1], "--bucket");
    EXPECT_EQ(cmd[2], lab_bucket);
    EXPECT_EQ(static_cast<uint64_t>(Field(stack, "bucket_size:")) * kSector,
              bucket);
    EXPECT_EQ(
        static_cast<uint64_t>(Field(stack, "dev.sectors_per_bucket")) * kSector,
        bucket);
    const int64_t buckets = Field(stack, "nbuckets:");
    EXPECT_EQ(buckets, Field(stack, "dev.cache.total_sectors") /
                           Field(stack, "dev.sectors_per_bucket"));
    EXPECT_GE(static_cast<uint64_t>(buckets), kMinBuckets);
  }

  const std::string tool = FindExecutable(
      {"/usr/sbin/make-bcache", "/sbin/make-bcache", "/usr/bin/make-bcache"});
  if (tool.empty()) {
    TIERBENCH_SKIP_OR_FAIL_IN_CI("make-bcache missing (bcache-tools)");
  }
  const std::vector<std::string> lab_cmd =
      RecordedCommand(LabText("pgbench-stack.txt"), "make-bcache");
  SuperblockScratchDir dir;
  const std::string backing = dir.Zeroed("vda1", 64u << 20);
  const std::string cache = dir.Zeroed("vdb1", min_cache);
  std::string sig = "unset";
  ASSERT_TRUE(DetectSignature(cache, &sig).ok());
  EXPECT_EQ(sig, "");
  const std::vector<std::pair<std::string, std::string>> scratch = {
      {"/dev/vda1", backing}, {"/dev/vdb1", cache}};
  ProcessOutcome made = RunProcess(Edited(lab_cmd, tool, scratch, {}));
  ASSERT_EQ(made.exit_code, 0) << made.output;
  EXPECT_EQ(Field(made.output, "nbuckets:"),
            static_cast<int64_t>(min_cache / bucket));
  EXPECT_EQ(Field(made.output, "bucket_size:") * kSector, bucket);
  for (const std::string& dev : {backing, cache}) {
    ASSERT_TRUE(DetectSignature(dev, &sig).ok());
    EXPECT_EQ(sig, "bcache superblock") << dev;
  }

  // Leftovers: refused without --wipe-bcache; bcache-tools 1.0.8 refuses
  // its own superblock with it too ("already has a non-bcache superblock,
  // remove it using wipefs"), a tool that wipes it may succeed. Either
  // way no device is left without a signature the guard sees.
  const ProcessOutcome leftover =
      RunProcess(Edited(lab_cmd, tool, scratch, {"--wipe-bcache"}));
  EXPECT_NE(leftover.exit_code, 0) << leftover.output;
  EXPECT_NE(leftover.output.find("Already a bcache device"), std::string::npos)
      << leftover.output;
  made = RunProcess(Edited(lab_cmd, tool, scratch, {}));
  if (made.exit_code != 0) {
    EXPECT_NE(made.output.find("wipefs"), std::string::npos) << made.output;
  }
  for (const std::string& dev : {backing, cache}) {
    ASSERT_TRUE(DetectSignature(dev, &sig).ok());
    EXPECT_EQ(sig, "bcache superblock") << dev;
  }
  // Zeroed (what wipefs -a, the guard's fix, leaves): accepted again.
  dir.Zeroed("vda1", 64u << 20);
  dir.Zeroed("vdb1", min_cache);
  made = RunProcess(Edited(lab_cmd, tool, scratch, {}));
  EXPECT_EQ(made.exit_code, 0) << made.output;

  const std::string small = dir.Zeroed("vdb1", 32u << 20);
  const ProcessOutcome refused = RunProcess(Edited(
      lab_cmd, tool,
      {{"/dev/vda1", dir.Zeroed("vda1", 64u << 20)}, {"/dev/vdb1", small}},
      {"--bucket"}));
  EXPECT_NE(refused.exit_code, 0) << refused.output;
  EXPECT_NE(refused.output.find("Not enough buckets: 64, need 128"),
            std::string::npos)
      << refused.output;
  ASSERT_TRUE(DetectSignature(small, &sig).ok());
  EXPECT_EQ(sig, "");
}

}  // namespace
}  // namespace tierbench
