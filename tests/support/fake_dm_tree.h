// FakeDmTree: a /sys (and /dev/mapper) with the lab's two dm stacks over a
// FakeDmControl, for unit tests of the dm layers and of compares on them:
// tb-dmcache (dm-5) over dm-0 (meta), dm-1 (cache data) and dm-2 (origin),
// tb-wc (dm-6) over dm-3 (origin) and dm-4 (cache), each dm-N at 252:N; the
// minor numbers match the tables of tests/support/fake_dm.h.
// /dev/mapper/tb-dmcache and /dev/mapper/tb-wc are 1 MiB regular files a
// workload can run on. The tree lives in a fresh directory under /tmp, removed
// on destruction. Header-only test helper; not thread-safe.
#ifndef TIERBENCH_TESTS_SUPPORT_FAKE_DM_TREE_H_
#define TIERBENCH_TESTS_SUPPORT_FAKE_DM_TREE_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cache/dm/dm_status.h"
#include "support/fake_dm.h"
#include "util/sysfs.h"

namespace tierbench {

// Every dm-N's block-layer counters (sys/block/dm-N/stat).
inline constexpr char kFakeDmBlockStat[] =
    "10 0 80 5 20 0 160 9 0 14 14 0 0 0 0 0 0";

class FakeDmTree {
 public:
  FakeDmTree() {
    char tmpl[] = "/tmp/tierbench-dm-XXXXXX";
    root_ = ::mkdtemp(tmpl);
    for (int n = 0; n <= 6; ++n) AddDm(n);
    WriteFile(root_ + "/sys/devices/virtual/block/dm-5/dm/name",
              "tb-dmcache\n");
    WriteFile(root_ + "/sys/devices/virtual/block/dm-6/dm/name", "tb-wc\n");
    for (const char* s : {"dm-0", "dm-1", "dm-2"}) Slave("dm-5", s);
    for (const char* s : {"dm-3", "dm-4"}) Slave("dm-6", s);
    WriteFile(root_ + "/proc/sys/vm/drop_caches", "");
    std::filesystem::create_directories(root_ + "/dev/mapper");
    for (const char* d : {"tb-dmcache", "tb-wc"}) {
      const std::string path = root_ + "/dev/mapper/" + d;
      WriteFile(path, "");
      std::filesystem::resize_file(path, 1 << 20);
    }
    dm_ = std::make_shared<FakeDmControl>();
    dm_->AddCacheDevice("tb-dmcache", 5);
    dm_->AddWritecacheDevice("tb-wc", 6);
  }
  ~FakeDmTree() { std::filesystem::remove_all(root_); }

  const std::string& root() const { return root_; }
  Sysfs sysfs() const { return Sysfs(root_); }
  std::shared_ptr<FakeDmControl> dm() const { return dm_; }
  std::string Dev(const std::string& name) const {
    return root_ + "/dev/mapper/" + name;
  }
  // Edits the status line of tb-dmcache.
  void EditCacheStatus(const std::function<void(DmCacheStatus*)>& edit) {
    std::vector<DmTarget> st;
    ASSERT_TRUE(dm_->GetStatus("tb-dmcache", &st).ok());
    DmCacheStatus s;
    ASSERT_TRUE(ParseDmCacheStatus(st[0].params, &s).ok());
    edit(&s);
    dm_->SetStatusParams("tb-dmcache", s.FormatParams());
  }
  void EditWritecacheStatus(
      const std::function<void(DmWritecacheStatus*)>& edit) {
    std::vector<DmTarget> st;
    ASSERT_TRUE(dm_->GetStatus("tb-wc", &st).ok());
    DmWritecacheStatus s;
    ASSERT_TRUE(ParseDmWritecacheStatus(st[0].params, &s).ok());
    edit(&s);
    dm_->SetStatusParams("tb-wc", s.FormatParams());
  }
  std::string LiveParams(const std::string& name) const {
    std::vector<DmTarget> t;
    EXPECT_TRUE(dm_->GetTable(name, &t).ok());
    return t.empty() ? "" : t[0].params;
  }

 private:
  static void WriteFile(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(
        std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
  }
  void AddDm(int n) {
    const std::string name = "dm-" + std::to_string(n);
    const std::string dir = "sys/devices/virtual/block/" + name;
    WriteFile(root_ + "/" + dir + "/stat", kFakeDmBlockStat);
    std::filesystem::create_directories(root_ + "/" + dir + "/slaves");
    std::filesystem::create_directories(root_ + "/sys/block");
    std::filesystem::create_symlink("../../" + dir,
                                    root_ + "/sys/block/" + name);
    std::filesystem::create_directories(root_ + "/sys/class/block");
    std::filesystem::create_symlink("../../../" + dir,
                                    root_ + "/sys/class/block/" + name);
    std::filesystem::create_directories(root_ + "/sys/dev/block");
    std::filesystem::create_symlink(
        "../../../" + dir, root_ + "/sys/dev/block/252:" + std::to_string(n));
  }
  void Slave(const std::string& of, const std::string& slave) {
    std::filesystem::create_symlink(
        "../../" + slave,
        root_ + "/sys/devices/virtual/block/" + of + "/slaves/" + slave);
  }

  std::string root_;
  std::shared_ptr<FakeDmControl> dm_;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_FAKE_DM_TREE_H_
