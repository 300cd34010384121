// Unit tests of the lab's QEMU command line, console protocol, knob
// comparison and lab.conf (lab/lab_qemu.h, lab/lab_runner.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "lab/lab_layers.h"
#include "lab/lab_qemu.h"
#include "lab/lab_runner.h"

namespace tierbench {
namespace {

LabMachine Machine() {
  LabMachine m;
  m.kernel = "/k/vmlinuz";
  m.initrd = "/k/initrd.gz";
  m.hdd = {"/t/hdd.img", 150, 120000000, true, false, ""};
  m.ssd = {"/s/ssd.img", 20000, 0, false, false, ""};
  m.input = {"/t/in.tar", 0, 0, false, true, ""};
  m.output = {"/t/out.img", 0, 0, false, false, ""};
  return m;
}

std::vector<std::string> Drives(const std::vector<std::string>& argv) {
  std::vector<std::string> drives;
  for (size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == "-drive") drives.push_back(argv[i + 1]);
  }
  return drives;
}

bool Has(const std::vector<std::string>& argv, const std::string& a,
         const std::string& b) {
  for (size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == a && argv[i + 1] == b) return true;
  }
  return false;
}

TEST(QemuArgv, DrivesInGuestOrderWithTheirThrottles) {
  std::vector<std::string> drives = Drives(QemuArgv(Machine()));
  ASSERT_EQ(drives.size(), 4u);
  EXPECT_EQ(drives[0],
            "file=/t/hdd.img,if=virtio,format=raw,cache=none,aio=native,"
            "throttling.iops-total=150,throttling.bps-total=120000000");
  EXPECT_EQ(drives[1],
            "file=/s/ssd.img,if=virtio,format=raw,cache=writeback,"
            "throttling.iops-total=20000");
  EXPECT_EQ(drives[2],
            "file=/t/in.tar,if=virtio,format=raw,cache=writeback,readonly=on");
  EXPECT_EQ(drives[3], "file=/t/out.img,if=virtio,format=raw,cache=writeback");
}

TEST(QemuArgv, DriveIdsQmpSocketAndProbeMachine) {
  LabMachine m = Machine();
  m.hdd.id = "hdd";
  m.ssd.id = "ssd";
  m.qmp_socket = "/t/qmp.sock";
  std::vector<std::string> argv = QemuArgv(m);
  EXPECT_TRUE(Has(argv, "-qmp", "unix:/t/qmp.sock,server=on,wait=off"));
  std::vector<std::string> drives = Drives(argv);
  ASSERT_EQ(drives.size(), 4u);
  EXPECT_EQ(drives[0].rfind("file=/t/hdd.img,if=virtio,format=raw,id=hdd,", 0),
            0u)
      << drives[0];
  EXPECT_EQ(drives[1].rfind("file=/s/ssd.img,if=virtio,format=raw,id=ssd,", 0),
            0u)
      << drives[1];
  EXPECT_EQ(drives[2].find("id="), std::string::npos) << drives[2];
  // A hot-pluggable disk: a drive without a bus and a device of its own
  // with an id device_del can name, after the four others (vde).
  LabDrive cache;
  cache.image = "/t/cache-bcache.img";
  cache.id = "cache-bcache";
  cache.iops_limit = 20000;
  m.hotplug.push_back(cache);
  argv = QemuArgv(m);
  drives = Drives(argv);
  ASSERT_EQ(drives.size(), 5u);
  EXPECT_EQ(
      drives[4].rfind(
          "file=/t/cache-bcache.img,if=none,format=raw,id=cache-bcache,", 0),
      0u)
      << drives[4];
  EXPECT_NE(drives[4].find("throttling.iops-total=20000"), std::string::npos);
  EXPECT_TRUE(
      Has(argv, "-device",
          "virtio-blk-pci,drive=cache-bcache,id=cache-bcache-dev,addr=0x10"));
  EXPECT_EQ(LabHotplugDeviceId("cache-bcache"), "cache-bcache-dev");
  // The KVM probe: no drives, no QMP, a marker on the kernel command line.
  LabMachine probe = Machine();
  probe.hdd = probe.ssd = probe.input = probe.output = LabDrive{};
  probe.extra_append = "tierbench.probe=1";
  probe.kvm = true;
  argv = QemuArgv(probe);
  EXPECT_TRUE(Drives(argv).empty());
  EXPECT_TRUE(std::find(argv.begin(), argv.end(), "-qmp") == argv.end());
  EXPECT_TRUE(Has(argv, "-append",
                  "console=ttyS0 quiet loglevel=3 panic=-1 tierbench.probe=1"));
  EXPECT_TRUE(Has(argv, "-accel", "kvm"));
}

TEST(QemuArgv, MachineSerialConsoleAndAccelerator) {
  LabMachine m = Machine();
  m.memory_mib = 1536;
  m.cpus = 2;
  std::vector<std::string> tcg = QemuArgv(m);
  EXPECT_EQ(tcg[0], "qemu-system-x86_64");
  EXPECT_TRUE(Has(tcg, "-m", "1536"));
  EXPECT_TRUE(Has(tcg, "-smp", "2"));
  EXPECT_TRUE(Has(tcg, "-serial", "stdio"));
  EXPECT_TRUE(Has(tcg, "-monitor", "none"));
  EXPECT_TRUE(Has(tcg, "-kernel", "/k/vmlinuz"));
  EXPECT_TRUE(Has(tcg, "-initrd", "/k/initrd.gz"));
  EXPECT_TRUE(std::count(tcg.begin(), tcg.end(), "-no-reboot"));
  EXPECT_FALSE(Has(tcg, "-accel", "kvm"));
  m.kvm = true;
  std::vector<std::string> kvm = QemuArgv(m);
  EXPECT_TRUE(Has(kvm, "-accel", "kvm"));
  EXPECT_TRUE(Has(kvm, "-cpu", "host"));
}

TEST(ParseLabConsoleLine, ClassifiesEveryKind) {
  using Kind = LabConsoleLine::Kind;
  struct Case {
    std::string line;
    Kind kind;
    std::string text;
    int code;
  } cases[] = {
      {"@@LAB:step making the bcache stack", Kind::kStep,
       "making the bcache stack", -1},
      {"@@LAB:out mode  workload  iops", Kind::kOut, "mode  workload  iops",
       -1},
      {"@@LAB:out ", Kind::kOut, "", -1},
      {"@@LAB:out", Kind::kOut, "", -1},
      {"@@LAB:fail bcache0 state is 'no cache'", Kind::kFail,
       "bcache0 state is 'no cache'", -1},
      {"@@LAB:done rc=0", Kind::kDone, "0", 0},
      {"@@LAB:done rc=130", Kind::kDone, "130", 130},
      {"\r@@LAB:done rc=3", Kind::kDone, "3", 3},
      {"@@LAB:done rc=x", Kind::kOther, "@@LAB:done rc=x", -1},
      {"@@LAB:cut", Kind::kCut, "", -1},
      {"\r@@LAB:cut", Kind::kCut, "", -1},
      {"@@LAB:cutting", Kind::kOther, "@@LAB:cutting", -1},
      {"@@LAB:bogus", Kind::kOther, "@@LAB:bogus", -1},
      {"@@LAB:calib ns=1743330050 memory_ns=1", Kind::kCalib,
       "ns=1743330050 memory_ns=1", -1},
      {"\r@@LAB:calib ns=5", Kind::kCalib, "ns=5", -1},
      {"@@LAB:calibrate", Kind::kOther, "@@LAB:calibrate", -1},
      {"@@LAB:hang registering the cache /dev/vdb1 did not return within 60 s",
       Kind::kHang,
       "registering the cache /dev/vdb1 did not return within 60 s", -1},
      {"@@LAB:hangs", Kind::kOther, "@@LAB:hangs", -1},
      {"@@LAB:unplug cache-bcache", Kind::kUnplug, "cache-bcache", -1},
      // The host's answer, should the console echo it: not a guest line.
      {"@@HOST:labels lab.dilation=2.00", Kind::kOther,
       "@@HOST:labels lab.dilation=2.00", -1},
      {"[   15.52] reboot: Power down", Kind::kOther,
       "[   15.52] reboot: Power down", -1},
  };
  for (const Case& c : cases) {
    LabConsoleLine p = ParseLabConsoleLine(c.line);
    EXPECT_EQ(p.kind, c.kind) << c.line;
    EXPECT_EQ(p.text, c.text) << c.line;
    EXPECT_EQ(p.code, c.code) << c.line;
  }
}

TEST(DiffKnobLines, ReportsChangedAndMissingKnobsOnly) {
  std::string before =
      "cache_mode=[writethrough] writeback writearound none\n"
      "sequential_cutoff=4.0M\nwriteback_percent=10\ncongested_read_threshold_"
      "us=2000\n";
  EXPECT_TRUE(DiffKnobLines(before, before).empty());
  std::string after =
      "cache_mode=writethrough [writeback] writearound none\n"
      "sequential_cutoff=4.0M\ncongested_read_threshold_us=0\n";
  std::vector<std::string> d = DiffKnobLines(before, after);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(
      d[0],
      "cache_mode: [writethrough] writeback writearound none -> writethrough "
      "[writeback] writearound none");
  EXPECT_EQ(d[1], "congested_read_threshold_us: 2000 -> 0");
  EXPECT_EQ(d[2], "writeback_percent: 10 -> (missing)");
}

TEST(DiffKnobLines, ComparesDmTablesAsWholeLines) {
  std::string before =
      "cache_mode=[writethrough] writeback\n"
      "dm:tb-dmcache=0 1046528 cache 252:0 252:1 253:2 64 1 writethrough "
      "smq 0\n"
      "dm:tb-writecache=0 1046528 writecache s 253:3 253:19 4096 0\n";
  EXPECT_TRUE(DiffKnobLines(before, before).empty());
  std::string after =
      "cache_mode=[writethrough] writeback\n"
      "dm:tb-dmcache=0 1046528 cache 252:0 252:1 253:2 64 1 writeback smq "
      "0\n";
  std::vector<std::string> d = DiffKnobLines(before, after);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0],
            "dm:tb-dmcache: 0 1046528 cache 252:0 252:1 253:2 64 1 "
            "writethrough smq 0 -> 0 1046528 cache 252:0 252:1 253:2 64 1 "
            "writeback smq 0");
  EXPECT_EQ(d[1],
            "dm:tb-writecache: 0 1046528 writecache s 253:3 253:19 4096 0 -> "
            "(missing)");
}

TEST(LabConfText, HoldsLayersInOrderAndThePartitionMap) {
  LabOptions o;
  EXPECT_EQ(o.layers, AllLabLayers());
  o.layers = {"dm-writecache", "bcache"};
  o.hdd_bytes = 2ull << 30;
  o.ssd_bytes = 1041ull << 20;
  o.interrupt_compare = true;
  o.interrupt_signal = "KILL";
  o.loop_stack = true;
  o.hang_setup_once = true;
  EXPECT_EQ(LabConfText(o, "r1"),
            "RUN_ID='r1'\n"
            "HDD_SECTORS=4194304\n"
            "SSD_SECTORS=2131968\n"
            "BUCKET='64k'\n"
            "INTERRUPT=on-change\n"
            "INTERRUPT_SIGNAL=KILL\n"
            "LOOP_STACK=on\n"
            "HANG_SETUP_ONCE=on\n"
            "LAYERS='dm-writecache bcache'\n"
            "PART_BCACHE=1\n"
            "PART_DMCACHE=2\n"
            "PART_WRITECACHE=3\n"
            "PART_RAW=4\n"
            "DMCACHE_META_SECTORS=32768\n");
  EXPECT_EQ(LabOptions().ssd_bytes, LabSsdBytesForCache(256ull << 20));
  EXPECT_NE(LabConfText(LabOptions(), "r1").find("\nLOOP_STACK=off\n"),
            std::string::npos);
  EXPECT_NE(LabConfText(LabOptions(), "r1").find("\nHANG_SETUP_ONCE=off\n"),
            std::string::npos);
}

TEST(LabLabels, NameTheEmulatedMachine) {
  LabOptions o;
  o.ssd_iops = 2000;
  o.hdd_bytes_per_sec = 0;
  LabMachine m = Machine();  // HDD cache=none, SSD cache=writeback
  std::map<std::string, std::string> got;
  for (const auto& [k, v] : LabLabels(o, m)) {
    EXPECT_TRUE(got.emplace(k, v).second) << "duplicate " << k;
    EXPECT_EQ(k.rfind("lab.", 0), 0u) << k;
  }
  // The limits asked for; those in force come from the handshake
  // (LabDilationLabels), never from here: a label given twice would make
  // compare refuse.
  EXPECT_EQ(got["lab.ssd_iops_real"], "2000");
  EXPECT_EQ(got["lab.hdd_iops_real"], std::to_string(o.hdd_iops));
  EXPECT_EQ(got["lab.hdd_bw_real"], "0");
  for (const auto& [k, v] : LabDilationLabels({}, 1, 1, LabRealLimits(o))) {
    EXPECT_EQ(got.count(k), 0u) << k;
  }
  EXPECT_EQ(got["lab.accel"], "tcg");
  EXPECT_EQ(got["lab.hdd_cache"], "none");
  EXPECT_EQ(got["lab.ssd_cache"], "writeback");
  m.kvm = true;
  m.ssd.direct_io = true;
  for (const auto& [k, v] : LabLabels(o, m)) got[k] = v;
  EXPECT_EQ(got["lab.accel"], "kvm");
  EXPECT_EQ(got["lab.ssd_cache"], "none");
  EXPECT_EQ(got.size(), 12u);
}

TEST(LabHandshakeConfText, AsksTheGuestToCalibrate) {
  EXPECT_EQ(LabHandshakeConfText(),
            "CALIBRATE=on\nCALIBRATE_REPEAT=3\nANSWER_TIMEOUT_S=60\n");
  EXPECT_EQ(LabConfText(LabOptions(), "r").find("CALIBRATE"),
            std::string::npos);
  EXPECT_EQ(LabRealLimits(LabOptions()), (LabLimits{150, 120000000, 20000, 0}));
}

TEST(LabRunnerTest, ExpectedInterruptExitCodes) {
  EXPECT_EQ(ExpectedInterruptExitCode("INT"), 130);
  EXPECT_EQ(ExpectedInterruptExitCode("TERM"), 143);
  EXPECT_EQ(ExpectedInterruptExitCode("KILL"), 137);
  EXPECT_EQ(ExpectedInterruptExitCode("HUP"), -1);
}

// --guests: a guest without DB cells runs QEMU under nice; 0 runs it as is.
TEST(QemuArgv, NiceRunsQemuUnderNice) {
  LabMachine m = Machine();
  EXPECT_EQ(QemuArgv(m).front(), m.qemu);
  m.nice = 5;
  const std::vector<std::string> argv = QemuArgv(m);
  ASSERT_GE(argv.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(argv.begin(), argv.begin() + 4),
            (std::vector<std::string>{"nice", "-n", "5", m.qemu}));
}

// --guests: each guest's own notices name its part.
TEST(LabRunnerTest, NoticePrefixNamesThePart) {
  LabOptions o;
  EXPECT_EQ(LabNoticePrefix(o), "lab: ");
  o.log_label = "p1-bcache-db1";
  EXPECT_EQ(LabNoticePrefix(o), "lab [p1-bcache-db1]: ");
}

TEST(LabConsole, KernelProblemLinesAreTheOnesThatExplainAHang) {
  for (const char* line : {
           "[  134.1] INFO: task sh:123 blocked for more than 120 seconds.",
           "[   20.0] BUG: kernel NULL pointer dereference, address: 0000",
           "[   20.0] Oops: 0000 [#1] PREEMPT SMP NOPTI",
           "[   21.0] WARNING: CPU: 1 PID: 80 at drivers/md/bcache/super.c",
           "[   60.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!",
           "[   61.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
           "[   62.0] Kernel panic - not syncing: hung_task: blocked tasks",
           "[   16.65] sysrq: Show Blocked State",
           "[   16.65] task:dd              state:D stack:0     pid:154",
       }) {
    EXPECT_TRUE(IsKernelProblemLine(line)) << line;
  }
  for (const char* line : {
           "[   15.52] reboot: Power down",
           "[    3.0] bcache: register_bdev() registered backing device vda1",
           "@@LAB:fail BUG: in the guest's own words",
           "",
       }) {
    EXPECT_FALSE(IsKernelProblemLine(line)) << line;
  }
}

}  // namespace
}  // namespace tierbench
