// Unit tests of the lab's accelerator choice (lab/lab_accel.h): KVM only
// where /dev/kvm opens and a probe boots, the probe's answer cached per
// boot, QEMU and kernel.
#include "lab/lab_accel.h"

#include <gtest/gtest.h>

#include <string>

#include "util/errors.h"

namespace tierbench {
namespace {

struct FakeHost : LabAccelHost {
  std::string unusable;  // KvmUnusableReason
  std::string boot_id = "b1";
  std::string qemu = "/usr/bin/qemu-system-x86_64:100:200";
  std::string probe_failure;  // ProbeKvm's answer
  std::string cache;
  int probes = 0, cache_writes = 0, kvm_checks = 0;
  std::string KvmUnusableReason() override {
    ++kvm_checks;
    return unusable;
  }
  std::string BootId() override { return boot_id; }
  std::string QemuIdentity() override { return qemu; }
  std::string ProbeKvm() override {
    ++probes;
    return probe_failure;
  }
  std::string ReadProbeCache() override { return cache; }
  void WriteProbeCache(const std::string& text) override {
    ++cache_writes;
    cache = text;
  }
};

TEST(ParseLabAccel, Names) {
  LabAccel a;
  ASSERT_TRUE(ParseLabAccel("kvm", &a).ok());
  EXPECT_EQ(a, LabAccel::kKvm);
  ASSERT_TRUE(ParseLabAccel("tcg", &a).ok());
  EXPECT_STREQ(LabAccelName(a), "tcg");
  ASSERT_TRUE(ParseLabAccel("auto", &a).ok());
  EXPECT_STREQ(LabAccelName(a), "auto");
  EXPECT_FALSE(ParseLabAccel("KVM", &a).ok());
  EXPECT_FALSE(ParseLabAccel("", &a).ok());
}

TEST(ChooseLabAccel, NoKvmDeviceMeansTcgAtOnceWithoutAProbe) {
  FakeHost host;
  host.unusable = "/dev/kvm: No such file or directory";
  const LabAccelChoice c = ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_FALSE(c.kvm);
  EXPECT_FALSE(c.probed);
  EXPECT_EQ(c.how, "TCG: /dev/kvm: No such file or directory");
  EXPECT_EQ(host.probes, 0);
  EXPECT_EQ(host.cache_writes, 0);
}

TEST(ChooseLabAccel, TcgAsksNothing) {
  FakeHost host;
  const LabAccelChoice c = ChooseLabAccel(LabAccel::kTcg, "6.1.0-57", host);
  EXPECT_FALSE(c.kvm);
  EXPECT_EQ(host.kvm_checks, 0);
  EXPECT_EQ(host.probes, 0);
}

TEST(ChooseLabAccel, ProbeOnceThenTheCachedAnswer) {
  FakeHost host;
  LabAccelChoice c = ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_TRUE(c.kvm);
  EXPECT_TRUE(c.probed);
  EXPECT_EQ(c.how, "KVM (probe booted)");
  EXPECT_EQ(host.probes, 1);
  EXPECT_EQ(host.cache,
            "key=boot_id=b1 qemu=/usr/bin/qemu-system-x86_64:100:200 "
            "kernel=6.1.0-57\nresult=kvm\n");
  c = ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_TRUE(c.kvm);
  EXPECT_FALSE(c.probed);
  EXPECT_EQ(c.how, "KVM (probe cached for this boot)");
  EXPECT_EQ(host.probes, 1);
  // Another boot, another QEMU or another guest kernel: probe again.
  host.boot_id = "b2";
  ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_EQ(host.probes, 2);
  host.qemu = "/opt/qemu:1:2";
  ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_EQ(host.probes, 3);
  ChooseLabAccel(LabAccel::kAuto, "6.1.0-58", host);
  EXPECT_EQ(host.probes, 4);
  ChooseLabAccel(LabAccel::kAuto, "6.1.0-58", host);
  EXPECT_EQ(host.probes, 4);
}

TEST(ChooseLabAccel, FailedProbeFallsBackToTcgAndIsCachedToo) {
  FakeHost host;
  host.probe_failure = "no power-off within 15 s (the guest hangs under KVM)";
  LabAccelChoice c = ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_FALSE(c.kvm);
  EXPECT_EQ(c.how,
            "TCG: the KVM probe failed (probe booted): no power-off within "
            "15 s (the guest hangs under KVM)");
  c = ChooseLabAccel(LabAccel::kAuto, "6.1.0-57", host);
  EXPECT_FALSE(c.kvm);
  EXPECT_EQ(host.probes, 1);
  EXPECT_NE(c.how.find("cached for this boot"), std::string::npos) << c.how;
}

TEST(ChooseLabAccel, KvmAskedForButUnusableIsAnError) {
  FakeHost host;
  host.unusable = "/dev/kvm: Permission denied";
  EXPECT_THROW(ChooseLabAccel(LabAccel::kKvm, "6.1.0-57", host), SysError);
  host.unusable.clear();
  host.probe_failure = "QEMU exited 134";
  try {
    ChooseLabAccel(LabAccel::kKvm, "6.1.0-57", host);
    FAIL() << "a failed probe gave KVM";
  } catch (const SysError& e) {
    EXPECT_NE(std::string(e.what()).find("Fix: --accel tcg"), std::string::npos)
        << e.what();
  }
  host.probe_failure.clear();
  host.cache.clear();
  EXPECT_TRUE(ChooseLabAccel(LabAccel::kKvm, "6.1.0-57", host).kvm);
}

TEST(ChooseLabAccel, UnknownBootIdProbesEveryTimeAndCachesNothing) {
  FakeHost host;
  host.boot_id = "";
  ChooseLabAccel(LabAccel::kAuto, "k", host);
  ChooseLabAccel(LabAccel::kAuto, "k", host);
  EXPECT_EQ(host.probes, 2);
  EXPECT_EQ(host.cache_writes, 0);
}

TEST(KvmProbeCache, RoundTripAndForeignEntries) {
  const std::string key = KvmProbeCacheKey("b", "q", "k");
  std::string failure = "x";
  EXPECT_TRUE(ParseKvmProbeCache(KvmProbeCacheText(key, ""), key, &failure));
  EXPECT_EQ(failure, "");
  EXPECT_TRUE(ParseKvmProbeCache(
      KvmProbeCacheText(key, "QEMU exited 134\nmore"), key, &failure));
  EXPECT_EQ(failure, "QEMU exited 134");
  EXPECT_FALSE(ParseKvmProbeCache(KvmProbeCacheText(key, ""),
                                  KvmProbeCacheKey("b2", "q", "k"), &failure));
  EXPECT_FALSE(ParseKvmProbeCache("", key, &failure));
  EXPECT_FALSE(
      ParseKvmProbeCache("key=" + key + "\nresult=maybe\n", key, &failure));
}

}  // namespace
}  // namespace tierbench
