// The lvmcache layer (cache/dm/lvmcache_layer.h) against the kernel-emulating
// FakeDmControl, a fake sysfs tree with one LVM cached LV (tbvg-main, dm
// uuid "LVM-...") and a fake lvm tool runner that behaves like lvchange/lvs:
// it keeps LVM's metadata (mode, policy, settings), flushes dirty blocks
// before leaving writeback and reloads the dm table from that metadata.
// Every table change must come from the (fake) lvm tools: the layer itself
// never reloads.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cache/dm/lvmcache_layer.h"
#include "cache/mode_spec.h"
#include "cache/registry/layer_kinds.h"
#include "cache/registry/layer_registry.h"
#include "orchestrate/compare_runner.h"
#include "report/reporters.h"
#include "support/compare_scratch.h"
#include "support/fake_dm.h"
#include "util/errors.h"
#include "util/interrupt.h"

namespace tierbench {
namespace {
namespace fs = std::filesystem;

void LvmWrite(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

constexpr char kStat[] = "10 0 80 5 20 0 160 9 0 14 14 0 0 0 0 0 0";
constexpr char kLv[] = "tbvg-main";
// What lvconvert --type cache --cachevol gave in the lab (lab.md): 64 KiB
// chunks, metadata2, LVM's default writethrough, policy mq.
constexpr char kLvmTable[] =
    "252:0 252:1 252:2 128 2 metadata2 writethrough "
    "mq 0";
constexpr char kLvmStatus[] =
    "8 88/4096 128 167/4096 314 471 1043 2718 0 165 0 2 metadata2 "
    "writethrough 2 migration_threshold 2048 smq 0 rw -";

// LVM's side: its metadata and the lvchange/lvs behaviour on top of the fake
// kernel.
class FakeLvm {
 public:
  explicit FakeLvm(std::shared_ptr<FakeDmControl> dm) : dm_(std::move(dm)) {}

  LvmToolResult Run(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& a : argv) line += (line.empty() ? "" : " ") + a;
    calls.push_back(line);
    if (!fail_next.empty() && argv[0] == "lvchange") {
      LvmToolResult r{5, fail_next};
      fail_next.clear();
      return r;
    }
    if (argv.back() != "tbvg/main") {
      return {5, "  Failed to find logical volume \"" + argv.back() + "\"\n"};
    }
    if (argv[0] == "lvs") {
      std::string settings;
      for (const auto& [k, v] : this->settings) {
        settings += (settings.empty() ? "" : ",") + k + "=" + v;
      }
      return {0, "  WARNING: no udev, scanning /dev.\n  LVM2_CACHE_MODE='" +
                     mode + "' LVM2_CACHE_POLICY='" + policy +
                     "' LVM2_CACHE_SETTINGS='" + settings + "'\n"};
    }
    if (argv[0] != "lvchange") return {3, "unknown command"};
    // Without --yes lvchange asks before writeback on a cachevol; no tty.
    if (argv[1] != "--yes") return {5, "Continue using writeback?[n]"};
    for (size_t i = 2; i + 1 < argv.size(); i += 2) {
      if (argv[i] == "--cachemode") {
        mode = argv[i + 1];
      } else if (argv[i] == "--cachepolicy") {
        policy = argv[i + 1];
      } else if (argv[i] == "--cachesettings") {
        std::istringstream in(argv[i + 1]);
        std::string kv;
        while (in >> kv) {
          const size_t eq = kv.find('=');
          if (kv.substr(eq + 1) == "default") {
            settings.erase(kv.substr(0, eq));
          } else {
            settings[kv.substr(0, eq)] = kv.substr(eq + 1);
          }
        }
      } else {
        return {3, "unknown option " + argv[i]};
      }
    }
    // Leaving writeback: lvchange flushes with the cleaner first.
    std::vector<DmTarget> st;
    EXPECT_TRUE(dm_->GetStatus(kLv, &st).ok());
    DmCacheStatus s;
    EXPECT_TRUE(ParseDmCacheStatus(st[0].params, &s).ok());
    if (mode != "writeback" && s.dirty > 0) {
      s.dirty = 0;
      dm_->SetStatusParams(kLv, s.FormatParams());
    }
    std::vector<DmTarget> table;
    EXPECT_TRUE(dm_->GetTable(kLv, &table).ok());
    DmCacheTable t;
    EXPECT_TRUE(ParseDmCacheTable(table[0].params, &t).ok());
    t.SetIoMode(mode);
    t.policy = policy;
    t.policy_args.assign(settings.begin(), settings.end());
    table[0].params = t.FormatParams();
    ++reloads;
    Status r = dm_->Reload(kLv, table);
    return {r.ok() ? 0 : 5, r.ok() ? "" : r.message()};
  }

  std::string mode = "writethrough";
  std::string policy = "mq";
  std::map<std::string, std::string> settings;
  std::vector<std::string> calls;
  int reloads = 0;
  std::string fail_next;  // output of a failing next lvchange

 private:
  std::shared_ptr<FakeDmControl> dm_;
};

// A /sys with tbvg-main (dm-7) over dm-0 (cmeta), dm-1 (cdata), dm-2
// (corig).
class FakeLvmTree {
 public:
  FakeLvmTree() {
    char tmpl[] = "/tmp/tierbench-lvm-XXXXXX";
    root_ = ::mkdtemp(tmpl);
    for (int n : {0, 1, 2, 7}) {
      const std::string name = "dm-" + std::to_string(n);
      const std::string dir = "sys/devices/virtual/block/" + name;
      LvmWrite(root_ + "/" + dir + "/stat", kStat);
      fs::create_directories(root_ + "/" + dir + "/slaves");
      fs::create_directories(root_ + "/sys/block");
      fs::create_symlink("../../" + dir, root_ + "/sys/block/" + name);
      fs::create_directories(root_ + "/sys/class/block");
      fs::create_symlink("../../../" + dir, root_ + "/sys/class/block/" + name);
      fs::create_directories(root_ + "/sys/dev/block");
      fs::create_symlink("../../../" + dir,
                         root_ + "/sys/dev/block/252:" + std::to_string(n));
    }
    for (const char* s : {"dm-0", "dm-1", "dm-2"}) {
      fs::create_symlink(std::string("../../") + s,
                         root_ + "/sys/devices/virtual/block/dm-7/slaves/" + s);
    }
    LvmWrite(root_ + "/sys/devices/virtual/block/dm-7/dm/name", kLv);
    LvmWrite(
        root_ + "/sys/devices/virtual/block/dm-7/dm/uuid",
        "LVM-Xz1cgVG2KPl4sCqSVddYwaW9kYsXWc0Hk2BU7E1vtRXJ3rEXOh6ArAQ2GT4k");
    LvmWrite(root_ + "/dev/mapper/tbvg-main", "");
    dm_ = std::make_shared<FakeDmControl>();
    dm_->AddDevice(kLv, 252, 7, DmTarget{0, 1044480, "cache", kLvmTable},
                   kLvmStatus);
    lvm_ = std::make_shared<FakeLvm>(dm_);
  }
  ~FakeLvmTree() { fs::remove_all(root_); }

  Host Env() const {
    std::shared_ptr<FakeLvm> lvm = lvm_;
    return HostOn(Sysfs(root_), dm_,
                  [lvm](const auto& a) { return lvm->Run(a); });
  }
  std::string Dev() const { return root_ + "/dev/mapper/tbvg-main"; }
  const std::string& root() const { return root_; }
  std::unique_ptr<LvmcacheLayer> Open() const {
    const Host env = Env();
    return std::make_unique<LvmcacheLayer>(env.sysfs, env.dm, Dev(), env.lvm);
  }
  FakeDmControl& dm() { return *dm_; }
  FakeLvm& lvm() { return *lvm_; }
  std::string LiveParams() const {
    std::vector<DmTarget> t;
    EXPECT_TRUE(dm_->GetTable(kLv, &t).ok());
    return t.empty() ? "" : t[0].params;
  }
  void EditStatus(const std::function<void(DmCacheStatus*)>& edit) {
    std::vector<DmTarget> st;
    ASSERT_TRUE(dm_->GetStatus(kLv, &st).ok());
    DmCacheStatus s;
    ASSERT_TRUE(ParseDmCacheStatus(st[0].params, &s).ok());
    edit(&s);
    dm_->SetStatusParams(kLv, s.FormatParams());
  }
  // Every table reload came from the fake lvm tools.
  void ExpectOnlyLvmReloaded() const {
    const auto& calls = dm_->calls();
    const auto n = std::count_if(calls.begin(), calls.end(), [](auto& c) {
      return c.rfind("reload ", 0) == 0;
    });
    EXPECT_EQ(n, lvm_->reloads);
  }

 private:
  std::string root_;
  std::shared_ptr<FakeDmControl> dm_;
  std::shared_ptr<FakeLvm> lvm_;
};

ModeSpec Mode(const std::string& mode,
              std::vector<std::pair<std::string, std::string>> knobs = {
                  {"policy", "smq"}, {"migration_threshold", "2048"}}) {
  ModeSpec m;
  m.name = "lvmcache-" + mode;
  m.layer = "lvmcache";
  m.cache_mode = mode;
  m.knobs = std::move(knobs);
  return m;
}

TEST(LvmcacheTest, NamesAndLvsOutputParse) {
  EXPECT_EQ(VgLvFromDmName("tbvg-main"), "tbvg/main");
  EXPECT_EQ(VgLvFromDmName("my--vg-my--lv"), "my-vg/my-lv");
  EXPECT_EQ(VgLvFromDmName("nodash"), "");
  EXPECT_EQ(VgLvFromDmName("-lv"), "");
  LvmCacheConfig c;
  ASSERT_TRUE(ParseLvsCacheConfig(
                  "  File descriptor 3 leaked on lvm invocation.\n"
                  "  LVM2_CACHE_MODE='writeback' LVM2_CACHE_POLICY='smq' "
                  "LVM2_CACHE_SETTINGS='migration_threshold=4096,a=1'\n",
                  &c)
                  .ok());
  EXPECT_EQ(c.mode, "writeback");
  EXPECT_EQ(c.policy, "smq");
  EXPECT_EQ(c.settings, (std::map<std::string, std::string>{
                            {"a", "1"}, {"migration_threshold", "4096"}}));
  EXPECT_FALSE(ParseLvsCacheConfig("  Volume group not found\n", &c).ok());
}

TEST(LvmcacheTest, DetectsAnLvmCachedVolume) {
  FakeLvmTree tree;
  std::unique_ptr<CacheLayer> layer = OpenCacheStack(tree.Env(), tree.Dev());
  EXPECT_EQ(layer->layer(), "lvmcache");
  auto* lvm = dynamic_cast<LvmcacheLayer*>(layer.get());
  ASSERT_NE(lvm, nullptr);
  EXPECT_EQ(lvm->vg_lv(), "tbvg/main");
  const StackInfo info = layer->Describe();
  EXPECT_EQ(info.layer, "lvmcache");
  EXPECT_EQ(info.origin, "dm-2");
  EXPECT_EQ(info.cache_block_bytes, 64 * 1024);
  EXPECT_EQ(info.cache_bytes, 4096LL * 64 * 1024);  // 256 MiB
  EXPECT_EQ(layer->CheckUsable({}, false), "");
  // The same target without an LVM uuid is plain dm-cache.
  LvmWrite(tree.root() + "/sys/devices/virtual/block/dm-7/dm/uuid", "");
  EXPECT_EQ(OpenCacheStack(tree.Env(), tree.Dev())->layer(), "dm-cache");
  ASSERT_NE(FindLayerKind("lvmcache"), nullptr);
  EXPECT_EQ(FindLayerKind("lvmcache")->modes, FindLayerKind("dm-cache")->modes);
}

TEST(LvmcacheTest, SwitchesModesWithLvchangeAndReadsBackTheTable) {
  FakeLvmTree tree;
  auto layer = tree.Open();
  std::vector<std::string> notes;
  LayerReadback rb = layer->ApplyMode(Mode("writeback"), &notes);
  EXPECT_EQ(rb.cache_mode, "writeback");
  EXPECT_EQ(rb.settings["policy"], "smq");
  EXPECT_EQ(rb.settings["migration_threshold"], "2048");
  EXPECT_EQ(rb.settings["features"], "metadata2,writeback");
  EXPECT_EQ(tree.lvm().calls.back(),
            "lvs --noheadings --nameprefixes -o "
            "cache_mode,cache_policy,cache_settings "
            "tbvg/main");
  EXPECT_NE(std::find(tree.lvm().calls.begin(), tree.lvm().calls.end(),
                      "lvchange --yes --cachemode writeback --cachepolicy smq "
                      "--cachesettings migration_threshold=2048 tbvg/main"),
            tree.lvm().calls.end());
  EXPECT_EQ(tree.LiveParams(),
            "252:0 252:1 252:2 128 2 metadata2 writeback smq 2 "
            "migration_threshold 2048");
  // Dirty blocks: passthrough is lvchange's business (it flushes).
  tree.EditStatus([](DmCacheStatus* s) { s->dirty = 40; });
  rb = layer->ApplyMode(Mode("passthrough", {{"migration_threshold", "4096"}}),
                        &notes);
  EXPECT_EQ(rb.cache_mode, "passthrough");
  EXPECT_EQ(rb.settings["migration_threshold"], "4096");
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes.back().find("40 dirty blocks"), std::string::npos);
  tree.ExpectOnlyLvmReloaded();
  EXPECT_GE(tree.lvm().reloads, 2);
}

TEST(LvmcacheTest, TheKernelsMqAliasAgreesWithLvmsSmq) {
  FakeLvmTree tree;
  auto layer = tree.Open();
  tree.lvm().policy = "smq";  // LVM was told smq, loaded mq (lab guest)
  const LayerReadback rb = layer->ReadBack();
  EXPECT_EQ(rb.settings.at("policy"), "smq");
  EXPECT_EQ(rb.settings.at("table_policy"), "mq");
}

TEST(LvmcacheTest, ATableThatDisagreesWithLvsIsASysError) {
  FakeLvmTree tree;
  auto layer = tree.Open();
  tree.lvm().mode = "writeback";  // metadata changed, table not reloaded
  try {
    layer->ReadBack();
    FAIL() << "mismatch accepted";
  } catch (const SysError& e) {
    EXPECT_NE(std::string(e.what()).find("lvs says 'writeback'"),
              std::string::npos)
        << e.what();
  }
}

TEST(LvmcacheTest, CapturesAndRestoresLvmsModePolicyAndSettings) {
  FakeLvmTree tree;
  auto layer = tree.Open();
  const std::string original = tree.LiveParams();
  layer->CaptureOriginal();
  EXPECT_EQ(layer->OriginalJson()["lvs"],
            "mode=writethrough policy=mq settings=");
  layer->ApplyMode(Mode("writeback"), nullptr);
  layer->MakeCold(0.01);
  ASSERT_NE(tree.LiveParams(), original);
  tree.lvm().calls.clear();
  const RestoreReport r = layer->RestoreOriginal();
  EXPECT_TRUE(r.ok()) << (r.failures.empty() ? "" : r.failures[0]);
  EXPECT_NE(
      std::find(tree.lvm().calls.begin(), tree.lvm().calls.end(),
                "lvchange --yes --cachemode writethrough --cachepolicy mq "
                "--cachesettings migration_threshold=default tbvg/main"),
      tree.lvm().calls.end());
  EXPECT_EQ(tree.LiveParams(), original);
  EXPECT_TRUE(tree.lvm().settings.empty());
  tree.ExpectOnlyLvmReloaded();
  // Nothing changed: no lvchange at all.
  tree.lvm().calls.clear();
  EXPECT_TRUE(layer->RestoreOriginal().ok());
  EXPECT_EQ(tree.lvm().calls.size(), 1u);  // the lvs
}

TEST(LvmcacheTest, ColdIsPassthroughThroughLvmThenInvalidateMessage) {
  FakeLvmTree tree;
  auto layer = tree.Open();
  layer->set_sleep([](double) {});
  layer->ApplyMode(Mode("writeback"), nullptr);
  tree.EditStatus([](DmCacheStatus* s) {
    s->cache_used = 3000;
    s->dirty = 12;
  });
  tree.dm().ClearCalls();
  tree.lvm().calls.clear();
  tree.lvm().reloads = 0;
  layer->MakeCold(0.01);
  EXPECT_EQ(tree.lvm().calls.front(),
            "lvchange --yes --cachemode passthrough tbvg/main");
  const auto& calls = tree.dm().calls();
  EXPECT_NE(std::find(calls.begin(), calls.end(),
                      "message tbvg-main 0 invalidate_cblocks 0-4096"),
            calls.end());
  EXPECT_EQ(layer->TakeCounters().extra.at("cache_used_blocks"), 0);
  tree.ExpectOnlyLvmReloaded();
  // The cell's mode follows.
  EXPECT_EQ(layer->ApplyMode(Mode("writeback"), nullptr).cache_mode,
            "writeback");
}

TEST(LvmcacheTest, AFailingLvchangeIsOneLineNamingTheCommand) {
  FakeLvmTree tree;
  auto layer = tree.Open();
  tree.lvm().fail_next =
      "  Unable to change cache mode: tbvg/main is busy.\n"
      "  Cannot change cache mode of tbvg/main.\n";
  try {
    layer->ApplyMode(Mode("writeback"), nullptr);
    FAIL() << "failing lvchange accepted";
  } catch (const SysError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(
        what.find("lvchange --yes --cachemode writeback --cachepolicy smq "
                  "--cachesettings migration_threshold=2048 tbvg/main"),
        std::string::npos)
        << what;
    EXPECT_NE(what.find("exit 5"), std::string::npos) << what;
    EXPECT_NE(what.find("Unable to change cache mode: tbvg/main is busy."),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(tree.LiveParams(), kLvmTable);
}

// A whole compare over an lvmcache stack (IO for real on the LV's file,
// kernel and lvm tools emulated): every switch goes through lvchange, the
// rows carry the layer, and LVM's original mode and policy come back.
TEST(LvmcacheTest, CompareRunsLvmcacheModesAndRestoresTheLv) {
  ResetInterruptForTest();
  FakeLvmTree tree;
  fs::resize_file(tree.Dev(), 1 << 20);
  LvmWrite(tree.root() + "/proc/sys/vm/drop_caches", "");
  const CompareScratch scratch(tree.root());
  const std::string dir = scratch.dir();
  CompareOptions o = scratch.Options(
      {tree.Dev()},
      {scratch.Mode("lvm-wb",
                    "\"layer\": \"lvmcache\", \"cache_mode\": "
                    "\"writeback\", \"knobs\": {\"policy\": \"smq\"}"),
       scratch.Mode("lvm-pt",
                    "\"layer\": \"lvmcache\", \"cache_mode\": "
                    "\"passthrough\", \"knobs\": {\"policy\": \"smq\"}")},
      "lvm");
  CompareHooks hooks;
  Host host = tree.Env();
  host.sleep = [&tree](double) {
    tree.EditStatus([](DmCacheStatus* s) { s->dirty = 0; });
  };
  std::ostringstream out;
  const CompareSummary summary =
      CompareRunner(o, host, hooks).Run(MakeCompareReporters(out));
  EXPECT_EQ(summary.finished_cells, 3u);
  EXPECT_EQ(summary.failed_cells, 0u);
  EXPECT_TRUE(summary.restore_ok);
  // LVM's own view is back as it was, and tierbench never reloaded a table
  // itself.
  EXPECT_EQ(tree.lvm().mode, "writethrough");
  EXPECT_EQ(tree.lvm().policy, "mq");
  tree.ExpectOnlyLvmReloaded();
  std::ifstream in(dir + "/results/lvm/runs.csv");
  std::stringstream runs;
  runs << in.rdbuf();
  EXPECT_NE(runs.str().find(",lvm-wb,lvmcache,writeback,"), std::string::npos)
      << runs.str();
  EXPECT_NE(runs.str().find(",lvm-pt,lvmcache,passthrough,"),
            std::string::npos);
}

}  // namespace
}  // namespace tierbench
