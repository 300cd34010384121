// Unit tests of the host's side of the dilation handshake
// (lab/lab_handshake.h) with fake throttles in place of QMP.
#include "lab/lab_handshake.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "util/errors.h"

namespace tierbench {
namespace {

// Throttles as QEMU would keep them; records every Set.
struct FakeThrottles : LabThrottleControl {
  std::map<std::string, std::pair<uint64_t, uint64_t>> in_force;
  std::vector<std::string> sets;
  bool refuse = false;
  bool ignore_sets = false;  // QEMU "accepts" but keeps the old limits
  Status Set(const std::string& drive, uint64_t iops, uint64_t bps) override {
    sets.push_back(drive + " " + std::to_string(iops) + " " +
                   std::to_string(bps));
    if (refuse) return Status::InvalidArgument("DeviceNotFound: " + drive);
    if (!ignore_sets) in_force[drive] = {iops, bps};
    return Status::Ok();
  }
  Status Get(const std::string& drive, uint64_t* iops, uint64_t* bps) override {
    auto it = in_force.find(drive);
    if (it == in_force.end()) return Status::InvalidArgument("no " + drive);
    *iops = it->second.first;
    *bps = it->second.second;
    return Status::Ok();
  }
  // A new QEMU starts with the real limits again.
  int new_boots = 0;
  void NewBoot() override {
    ++new_boots;
    in_force["hdd"] = {150, 120000000};
    in_force["ssd"] = {20000, 0};
  }
};

const LabLimits kReal{150, 120000000, 20000, 0};

CpuLoopTimes HostLoop() {
  CpuLoopTimes t;
  t.memory_ns = 12'000'000;
  t.integer_ns = 19'000'000;
  t.syscall_ns = 19'360'000;  // total 50.36 ms
  return t;
}

struct HandshakeRig {
  FakeThrottles* fake;
  std::unique_ptr<LabHandshake> handshake;
};

HandshakeRig Make(LabDilation setting) {
  auto fake = std::make_unique<FakeThrottles>();
  fake->in_force["hdd"] = {kReal.hdd_iops, kReal.hdd_bw};
  fake->in_force["ssd"] = {kReal.ssd_iops, kReal.ssd_bw};
  FakeThrottles* raw = fake.get();
  return {raw, std::make_unique<LabHandshake>(setting, HostLoop(), kReal,
                                              std::move(fake))};
}

const char kGuestLine[] =
    "ns=1743330050 memory_ns=1661812020 integer_ns=38784620 "
    "syscall_ns=42733410";

TEST(LabHandshake, FullSetsBothDrivesAndAnswersWithTheLimitsInForce) {
  HandshakeRig s = Make({LabDilation::Mode::kFull, 1});
  const std::string answer = s.handshake->Answer(kGuestLine);
  EXPECT_EQ(answer,
            "@@HOST:labels lab.dilation=34.62 lab.dilation_mode=full "
            "lab.cpu_slowdown=34.62 lab.hdd_iops=4 lab.hdd_bw=3466205 "
            "lab.ssd_iops=578 lab.ssd_bw=0");
  EXPECT_EQ(s.fake->sets,
            (std::vector<std::string>{"hdd 4 3466205", "ssd 578 0"}));
  ASSERT_TRUE(s.handshake->answered());
  const LabHandshakeResult& r = s.handshake->result();
  EXPECT_EQ(r.factor, 34.62);
  EXPECT_EQ(r.guest_ns, 1743330050u);
  EXPECT_EQ(r.host_ns, 50'360'000u);
  EXPECT_EQ(r.guest_parts.memory_ns, 1661812020u);
  EXPECT_EQ(r.effective, (LabLimits{4, 3466205, 578, 0}));
  // A repeated line changes nothing and gets the same answer.
  EXPECT_EQ(s.handshake->Answer("ns=1"), answer);
  EXPECT_EQ(s.fake->sets.size(), 2u);
  // A new QEMU of the same run (booted again after a kernel hang) gets the
  // same limits set and the same answer, whatever its own calibration says.
  s.handshake->NewBoot();
  EXPECT_EQ(s.handshake->Answer("ns=99 memory_ns=1 integer_ns=1 syscall_ns=1"),
            answer);
  EXPECT_EQ(s.fake->new_boots, 1);
  EXPECT_EQ(s.fake->sets,
            (std::vector<std::string>{"hdd 4 3466205", "ssd 578 0",
                                      "hdd 4 3466205", "ssd 578 0"}));
  EXPECT_EQ(s.handshake->result().factor, 34.62);
  const std::string report =
      LabDilationReport({LabDilation::Mode::kFull, 1}, r);
  EXPECT_NE(report.find("dilation: 34.62 (--dilation full)\n"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("limits_in_force: HDD 4 IOPS, 3466205 B/s; SSD 578"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("memory 138."), std::string::npos) << report;
  EXPECT_NE(report.find("time: dilated by 34.62"), std::string::npos) << report;
}

// auto: the same measured slowdown, the factor capped (lab/lab_dilation.h).
TEST(LabHandshake, AutoCapsTheFactor) {
  HandshakeRig s = Make({LabDilation::Mode::kAuto, 1});
  EXPECT_EQ(s.handshake->Answer(kGuestLine),
            "@@HOST:labels lab.dilation=4.00 lab.dilation_mode=auto "
            "lab.cpu_slowdown=34.62 lab.hdd_iops=38 lab.hdd_bw=30000000 "
            "lab.ssd_iops=5000 lab.ssd_bw=0");
  EXPECT_EQ(s.fake->sets,
            (std::vector<std::string>{"hdd 38 30000000", "ssd 5000 0"}));
}

TEST(LabHandshake, OffKeepsTheThrottlesButStillReadsThemBack) {
  HandshakeRig s = Make({LabDilation::Mode::kOff, 1});
  const std::string answer = s.handshake->Answer(kGuestLine);
  EXPECT_TRUE(s.fake->sets.empty());
  EXPECT_NE(answer.find("lab.dilation=1.00 lab.dilation_mode=off "
                        "lab.cpu_slowdown=34.62 lab.hdd_iops=150 "
                        "lab.hdd_bw=120000000 lab.ssd_iops=20000 "
                        "lab.ssd_bw=0"),
            std::string::npos)
      << answer;
  EXPECT_NE(
      LabDilationReport({LabDilation::Mode::kOff, 1}, s.handshake->result())
          .find("time: not dilated"),
      std::string::npos);
}

TEST(LabHandshake, FixedFactor) {
  HandshakeRig s = Make({LabDilation::Mode::kFixed, 8});
  const std::string answer = s.handshake->Answer(kGuestLine);
  EXPECT_EQ(s.fake->sets,
            (std::vector<std::string>{"hdd 19 15000000", "ssd 2500 0"}));
  EXPECT_NE(answer.find("lab.dilation=8.00 lab.dilation_mode=fixed"),
            std::string::npos)
      << answer;
}

TEST(LabHandshake, FailuresAreOneLineErrors) {
  {
    HandshakeRig s = Make({LabDilation::Mode::kAuto, 1});
    EXPECT_THROW(s.handshake->Answer("ns=0"), SysError);
    EXPECT_FALSE(s.handshake->answered());
  }
  {
    HandshakeRig s = Make({LabDilation::Mode::kAuto, 1});
    s.fake->refuse = true;
    try {
      s.handshake->Answer(kGuestLine);
      FAIL() << "a refused throttle was accepted";
    } catch (const SysError& e) {
      EXPECT_NE(std::string(e.what()).find("hdd throttle"), std::string::npos)
          << e.what();
    }
  }
  {
    // What QEMU has in force must be what was set: the labels say it.
    HandshakeRig s = Make({LabDilation::Mode::kAuto, 1});
    s.fake->ignore_sets = true;
    try {
      s.handshake->Answer(kGuestLine);
      FAIL() << "a throttle that did not change was accepted";
    } catch (const SysError& e) {
      EXPECT_NE(std::string(e.what()).find("InForce: 150 IOPS"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace tierbench
