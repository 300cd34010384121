// Unit tests of the lab's time dilation (lab/lab_dilation.h): --dilation,
// the factor and its rounding, the dilated limits, the guest's calib line
// and the host's answer.
#include "lab/lab_dilation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include "cli/option_values.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TEST(ParseLabDilation, AutoOffAndFactors) {
  LabDilation d;
  ASSERT_TRUE(ParseLabDilation("auto", &d).ok());
  EXPECT_EQ(d.mode, LabDilation::Mode::kAuto);
  ASSERT_TRUE(ParseLabDilation("off", &d).ok());
  EXPECT_EQ(d.mode, LabDilation::Mode::kOff);
  ASSERT_TRUE(ParseLabDilation("8", &d).ok());
  EXPECT_EQ(d.mode, LabDilation::Mode::kFixed);
  EXPECT_EQ(d.factor, 8);
  ASSERT_TRUE(ParseLabDilation("1", &d).ok());
  EXPECT_EQ(d.factor, 1);
  ASSERT_TRUE(ParseLabDilation("1000", &d).ok());
  EXPECT_EQ(d.factor, 1000);
  // Rounded to 2 decimals like a measured factor.
  ASSERT_TRUE(ParseLabDilation("2.345", &d).ok());
  EXPECT_EQ(LabDilationName(d), "2.35");
}

TEST(ParseLabDilation, RefusesOutOfRangeAndNonNumbers) {
  for (const char* bad : {"0.99", "0", "-3", "1000.5", "1e9", "", "x", "3x",
                          "nan", "inf", "Auto", "on"}) {
    LabDilation d;
    EXPECT_FALSE(ParseLabDilation(bad, &d).ok()) << "'" << bad << "'";
  }
}

TEST(LabDilationOption, OneLineNamingTheOptionAndTheFix) {
  try {
    LabDilationOption("0.5");
    FAIL() << "0.5 accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.exit_code(), kExitConfig);
    EXPECT_NE(what.find("--dilation"), std::string::npos) << what;
    EXPECT_NE(what.find("Value: 0.5"), std::string::npos) << what;
    EXPECT_NE(what.find("Fix: --dilation auto"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_EQ(LabDilationOption("off").mode, LabDilation::Mode::kOff);
}

TEST(LabAccelOption, ValuesKvmFlagAndRefusals) {
  EXPECT_EQ(LabAccelOption("auto", false), LabAccel::kAuto);
  EXPECT_EQ(LabAccelOption("tcg", false), LabAccel::kTcg);
  EXPECT_EQ(LabAccelOption("kvm", false), LabAccel::kKvm);
  EXPECT_EQ(LabAccelOption("auto", true), LabAccel::kKvm);  // --kvm
  EXPECT_THROW(LabAccelOption("tcg", true), ConfigError);
  try {
    LabAccelOption("xen", false);
    FAIL() << "xen accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--accel"), std::string::npos) << what;
    EXPECT_NE(what.find("Fix: --accel auto"), std::string::npos) << what;
  }
}

TEST(RoundLabDilation, TwoDecimalsAtLeastOneAtMostAThousand) {
  EXPECT_EQ(RoundLabDilation(34.6213), 34.62);
  EXPECT_EQ(RoundLabDilation(34.625), 34.63);  // half away from zero
  EXPECT_EQ(RoundLabDilation(0.3), 1);
  EXPECT_EQ(RoundLabDilation(0), 1);
  EXPECT_EQ(RoundLabDilation(NAN), 1);
  EXPECT_EQ(RoundLabDilation(5000), kLabMaxDilation);
  EXPECT_EQ(FormatLabDilationFactor(34.62), "34.62");
  EXPECT_EQ(FormatLabDilationFactor(1), "1.00");
  // The label parses back to the very factor the limits were computed
  // from (the lab test recomputes them from the label).
  EXPECT_EQ(
      std::strtod(FormatLabDilationFactor(RoundLabDilation(7.777)).c_str(),
                  nullptr),
      RoundLabDilation(7.777));
}

TEST(LabDilationFactor, AutoOffAndFixed) {
  const LabDilation automatic{LabDilation::Mode::kAuto, 1};
  const LabDilation off{LabDilation::Mode::kOff, 1};
  const LabDilation fixed{LabDilation::Mode::kFixed, 8};
  // auto: capped; full: the whole measured slowdown.
  EXPECT_EQ(LabDilationFactor(automatic, 1743330050, 50360000),
            kLabAutoDilationCap);
  EXPECT_EQ(LabDilationFactor(automatic, 150, 50), 3);  // below the cap
  const LabDilation full{LabDilation::Mode::kFull, 1};
  EXPECT_EQ(LabDilationFactor(full, 1743330050, 50360000), 34.62);
  // A guest faster than the host (KVM, noise) never speeds the disks up.
  EXPECT_EQ(LabDilationFactor(automatic, 40, 50), 1);
  EXPECT_EQ(LabDilationFactor(automatic, 50, 0), 1);
  EXPECT_EQ(LabDilationFactor(off, 1743330050, 50360000), 1);
  EXPECT_EQ(LabDilationFactor(fixed, 1743330050, 50360000), 8);
  EXPECT_DOUBLE_EQ(LabCpuSlowdown(150, 50), 3.0);
  EXPECT_EQ(LabCpuSlowdown(150, 0), 0);
}

TEST(DilateLabLimit, RoundsToNearestKeepsZeroAndAtLeastOne) {
  EXPECT_EQ(DilateLabLimit(150, 34.62), 4u);  // 4.33
  EXPECT_EQ(DilateLabLimit(150, 1), 150u);
  EXPECT_EQ(DilateLabLimit(150, 40), 4u);    // 3.75
  EXPECT_EQ(DilateLabLimit(150, 60), 3u);    // 2.5: half away from zero
  EXPECT_EQ(DilateLabLimit(150, 1000), 1u);  // 0.15: never 0 (= unthrottled)
  EXPECT_EQ(DilateLabLimit(0, 34.62), 0u);   // unthrottled stays so
  EXPECT_EQ(DilateLabLimit(20000, 34.62), 578u);
  EXPECT_EQ(DilateLabLimit(120000000, 34.62), 3466205u);
  const LabLimits real{150, 120000000, 20000, 0};
  const LabLimits got = DilateLabLimits(real, 34.62);
  EXPECT_EQ(got, (LabLimits{4, 3466205, 578, 0}));
  EXPECT_EQ(DilateLabLimits(real, 1), real);
}

TEST(ParseLabCalibration, TotalAndParts) {
  uint64_t ns = 0;
  CpuLoopTimes parts;
  ASSERT_TRUE(ParseLabCalibration(
                  "ns=1743330050 memory_ns=1661812020 integer_ns=38784620 "
                  "syscall_ns=42733410",
                  &ns, &parts)
                  .ok());
  EXPECT_EQ(ns, 1743330050u);
  EXPECT_EQ(parts.memory_ns, 1661812020u);
  EXPECT_EQ(parts.integer_ns, 38784620u);
  EXPECT_EQ(parts.syscall_ns, 42733410u);
  ASSERT_TRUE(ParseLabCalibration("ns=5", &ns, &parts).ok());
  EXPECT_EQ(ns, 5u);
  EXPECT_EQ(parts.memory_ns, 0u);
}

TEST(ParseLabCalibration, RefusesWhatIsNotACalibration) {
  for (const char* bad :
       {"", "ns=", "ns=0", "memory_ns=5", "ns=12x", "ns=-1", "ns=1 ns=2",
        "ns=1 cpu_ns=2", "ns 12", "ns=99999999999999999999999"}) {
    uint64_t ns = 7;
    CpuLoopTimes parts;
    EXPECT_FALSE(ParseLabCalibration(bad, &ns, &parts).ok()) << bad;
    EXPECT_EQ(ns, 7u) << bad;
  }
}

TEST(LabDilationLabels, FactorModeSlowdownAndTheLimitsInForce) {
  const auto labels = LabDilationLabels({LabDilation::Mode::kAuto, 1}, 34.62,
                                        34.6159, LabLimits{4, 3466205, 578, 0});
  std::map<std::string, std::string> got(labels.begin(), labels.end());
  EXPECT_EQ(labels.size(), got.size());
  EXPECT_EQ(labels.front().first, "lab.dilation");
  EXPECT_EQ(got["lab.dilation"], "34.62");
  EXPECT_EQ(got["lab.dilation_mode"], "auto");
  EXPECT_EQ(got["lab.cpu_slowdown"], "34.62");
  EXPECT_EQ(got["lab.hdd_iops"], "4");
  EXPECT_EQ(got["lab.hdd_bw"], "3466205");
  EXPECT_EQ(got["lab.ssd_iops"], "578");
  EXPECT_EQ(got["lab.ssd_bw"], "0");
  const auto off = LabDilationLabels({LabDilation::Mode::kOff, 1}, 1, 30,
                                     LabLimits{150, 0, 20000, 0});
  EXPECT_EQ(off[1].second, "off");
  const auto fixed = LabDilationLabels({LabDilation::Mode::kFixed, 8}, 8, 30,
                                       LabLimits{19, 0, 2500, 0});
  EXPECT_EQ(fixed[1].second, "fixed");
}

TEST(LabHostAnswerLine, LabelsAsOneLineOfWords) {
  std::string line;
  ASSERT_TRUE(LabHostAnswerLine(
                  {{"lab.dilation", "2.00"}, {"lab.hdd_iops", "75"}}, &line)
                  .ok());
  EXPECT_EQ(line, "@@HOST:labels lab.dilation=2.00 lab.hdd_iops=75");
  // The guest splits on blanks: a blank would break a label in two.
  EXPECT_FALSE(LabHostAnswerLine({{"lab.x", "a b"}}, &line).ok());
  EXPECT_FALSE(LabHostAnswerLine({{"", "1"}}, &line).ok());
  EXPECT_FALSE(LabHostAnswerLine({{"lab.x", "1\n"}}, &line).ok());
}

}  // namespace
}  // namespace tierbench
