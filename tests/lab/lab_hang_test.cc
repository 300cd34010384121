// Lab test of a kernel hang while the guest builds its stacks (the CI run of
// 2026-12-05 lost 1,800 s to a bcache registration that never returned):
// with --hang-setup-once the guest's first boot blocks a setup step in the
// real kernel (a read of a suspended dm device, D state), the guard in
// scripts/lab/init reports it within 5 s with the kernel's blocked tasks,
// and the lab boots the guest again on the same disks, which builds the
// stack and runs the compare.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab_test_util.h"

namespace tierbench::labtest {
namespace {

TEST(LabHang, AKernelHangWhileBuildingTheStacksBootsTheGuestAgain) {
  TIERBENCH_REQUIRE_LAB();
  ScratchDir dir;
  ASSERT_FALSE(dir.path().empty());
  const std::vector<std::string> args = {
      kUndilated,      "--hang-setup-once",
      "--cache-state", "cold",
      "--layers",      "dm-writecache",
      "--modes",       Mode("dm-writecache"),
      "--workloads",   Workload("randwrite-4k"),
      "--runtime",     "2",
      "--size",        "16M",
      "--results",     dir.path(),
      "--run-id",      "lab-hang"};
  TIERBENCH_RUN_LAB(args, 0);
  // One notice says what hung, and that the guest was booted again.
  EXPECT_NE(output.find("booting again on the same disks: the guest's kernel "
                        "hung while it built its stacks (a read of the "
                        "suspended dm device tb-hang (test aid) did not "
                        "return within 5 s)"),
            std::string::npos)
      << output;
  const std::string lab = dir.path() + "/lab-hang/lab/";
  // The hung boot's kernel log holds the blocked reader (sysrq w)...
  const std::string hung_dmesg = ReadText(lab + "hang/dmesg.txt");
  EXPECT_NE(hung_dmesg.find("Show Blocked State"), std::string::npos)
      << hung_dmesg;
  EXPECT_NE(hung_dmesg.find("task:dd"), std::string::npos) << hung_dmesg;
  EXPECT_NE(ReadText(lab + "hang/failure.txt").find("the kernel hung"),
            std::string::npos);
  // ...both boots are in the console log, and the second one measured.
  const std::string console = ReadText(lab + "console.log");
  EXPECT_NE(console.find("@@LAB:hang "), std::string::npos) << console;
  EXPECT_NE(console.find("the boot after the test aid's hang"),
            std::string::npos)
      << console;
  EXPECT_EQ(ReadText(lab + "compare-exit-code"), "0\n");
  const std::vector<CsvRow> rows = ReadCsv(dir.path() + "/lab-hang/runs.csv");
  EXPECT_NE(Find(rows, "dm-writecache", "randwrite-4k", "write"), nullptr)
      << output;
}

}  // namespace
}  // namespace tierbench::labtest
