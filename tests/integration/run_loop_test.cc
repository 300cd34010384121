// `tierbench run` on a real loop device (root): the libaio engine with
// O_DIRECT, data written is readable, the device guard refuses mounted and
// formatted devices, and the binary end to end with JSON output.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/aligned_buffer.h"
#include "test_env.h"
#include "util/errors.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

using testing::LoopDevice;
using testing::RunShell;
using testing::TempDir;

constexpr uint64_t kRunLoopDeviceBytes = 64ull << 20;

RunResult RunText(const std::string& text, bool destructive) {
  Workload w = ParseJobText(text, "<test>", JobOverrides{});
  RunOptions options;
  options.progress = false;
  options.destructive = destructive;
  return RunWorkload(w, options);
}

std::string Job(const std::string& dev, const std::string& rw,
                const std::string& extra = "") {
  return "[j]\nfilename=" + dev +
         "\nioengine=libaio\ndirect=1\niodepth=16\nbs=4k\nsize=8m\nrw=" + rw +
         "\n" + extra;
}

TEST(RunLoopTest, LibaioPatternsOnALoopDevice) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(kRunLoopDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  struct Case {
    const char* rw;
    bool reads;
    bool writes;
  } cases[] = {{"randread", true, false},
               {"randwrite", false, true},
               {"randrw", true, true},
               {"read", true, false},
               {"write", false, true}};
  for (const Case& c : cases) {
    RunResult r = RunText(Job(loop.device(), c.rw), /*destructive=*/true);
    ASSERT_EQ(r.jobs.size(), 1u);
    const JobResult& j = r.jobs[0];
    EXPECT_EQ(j.dir[0].ios + j.dir[1].ios, 2048u) << c.rw;
    EXPECT_EQ(j.dir[0].ios > 0, c.reads) << c.rw;
    EXPECT_EQ(j.dir[1].ios > 0, c.writes) << c.rw;
    EXPECT_EQ(j.dir[0].errors + j.dir[1].errors, 0u) << c.rw;
    EXPECT_GT(j.sys_cpu_sec + j.usr_cpu_sec, 0.0) << c.rw;
  }
}

TEST(RunLoopTest, WrittenDataIsReadable) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(kRunLoopDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  // The image starts as zeros; a sequential write covers the first 8 MiB.
  RunText(Job(loop.device(), "write"), true);
  int fd = open(loop.device().c_str(), O_RDONLY | O_DIRECT);
  ASSERT_GE(fd, 0);
  AlignedBuffer buf(4096);
  int zero_blocks = 0;
  for (uint64_t off = 0; off < (8u << 20); off += 4096) {
    ASSERT_EQ(pread(fd, buf.data(), 4096, static_cast<off_t>(off)), 4096);
    const auto* p = static_cast<const uint64_t*>(buf.data());
    bool zero = true;
    for (int i = 0; i < 512 && zero; ++i) zero = p[i] == 0;
    zero_blocks += zero;
  }
  // Beyond the region nothing was written.
  ASSERT_EQ(pread(fd, buf.data(), 4096, 9 << 20), 4096);
  const auto* p = static_cast<const uint64_t*>(buf.data());
  close(fd);
  EXPECT_EQ(zero_blocks, 0);
  EXPECT_EQ(p[0], 0u);
  // And tierbench reads it back without errors.
  RunResult r = RunText(Job(loop.device(), "randread"), false);
  EXPECT_EQ(r.jobs[0].dir[0].ios, 2048u);
}

int ExitCodeOf(const std::string& text, bool destructive, std::string* what) {
  try {
    RunText(text, destructive);
  } catch (const HarnessError& e) {
    *what = e.what();
    return e.exit_code();
  }
  return 0;
}

TEST(RunLoopTest, RefusesUnsafeWrites) {
  TIERBENCH_REQUIRE_ROOT();
  TIERBENCH_REQUIRE_TOOL("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kRunLoopDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  std::string what;
  // Blank device without --destructive.
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "randwrite"), false, &what),
            kExitSafety);
  EXPECT_NE(what.find("--destructive"), std::string::npos) << what;
  // Formatted device, even with --destructive; reading it is fine.
  ASSERT_EQ(RunShell("mkfs.ext4 -q -F " + loop.device()), 0);
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "randwrite"), true, &what),
            kExitSafety);
  EXPECT_NE(what.find("ext4 filesystem"), std::string::npos) << what;
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "randread"), false, &what), 0)
      << what;
  // Mounted device.
  TempDir mnt;
  ASSERT_EQ(RunShell("mount " + loop.device() + " " + mnt.path()), 0);
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "write"), true, &what), kExitSafety);
  EXPECT_NE(what.find("mounted on " + mnt.path()), std::string::npos) << what;
  RunShell("umount " + mnt.path());
}

// fio's allow_mounted_write: without it a mounted device is refused and the
// message names the option; with it the mount (and the filesystem signature
// it implies) no longer stops a --destructive write.
TEST(RunLoopTest, AllowMountedWriteAsFio) {
  TIERBENCH_REQUIRE_ROOT();
  TIERBENCH_REQUIRE_TOOL("mkfs.ext4", "e2fsprogs");
  LoopDevice loop(kRunLoopDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  ASSERT_EQ(RunShell("mkfs.ext4 -q -F " + loop.device()), 0);
  std::string what;
  {
    TempDir mnt;
    ASSERT_EQ(RunShell("mount " + loop.device() + " " + mnt.path()), 0);
    EXPECT_EQ(ExitCodeOf(Job(loop.device(), "write"), true, &what),
              kExitSafety);
    EXPECT_NE(what.find("mounted on " + mnt.path()), std::string::npos) << what;
    EXPECT_NE(what.find("allow_mounted_write=1"), std::string::npos) << what;
    RunShell("umount " + mnt.path());
  }
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "write"), true, &what), kExitSafety);
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "write", "allow_mounted_write=1\n"),
                       true, &what),
            0)
      << what;
  // Still only with --destructive.
  EXPECT_EQ(ExitCodeOf(Job(loop.device(), "write", "allow_mounted_write=1\n"),
                       false, &what),
            kExitSafety);
}

TEST(RunLoopTest, BinaryEndToEndJson) {
  TIERBENCH_REQUIRE_ROOT();
  LoopDevice loop(kRunLoopDeviceBytes);
  ASSERT_TRUE(loop.ok()) << loop.error();
  TempDir dir;
  const std::string job = dir.path() + "/mixed.fio";
  std::ofstream(job)
      << "[global]\nioengine=libaio\ndirect=1\nbs=4k\niodepth=8\n"
         "[mixed]\nrw=randrw\nrwmixread=70\nsize=4m\nnumjobs=2\ngroup_"
         "reporting\n";
  const std::string out = dir.path() + "/out.json";
  const std::string base = std::string(TIERBENCH_BINARY) +
                           " run --quiet --filename " + loop.device() +
                           " --output-format json --output " + out + " " + job;
  std::string text;
  EXPECT_EQ(RunShell(base, &text), kExitSafety) << text;  // no --destructive
  ASSERT_EQ(RunShell(base + " --destructive", &text), 0) << text;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(out));
  ASSERT_EQ(j["jobs"].size(), 1u);
  const auto& job0 = j["jobs"][0];
  EXPECT_EQ(job0["jobname"], "mixed");
  EXPECT_EQ(job0["jobs"], 2);
  EXPECT_EQ(job0["read"]["total_ios"].get<uint64_t>() +
                job0["write"]["total_ios"].get<uint64_t>(),
            2048u);
  EXPECT_GT(job0["read"]["iops"].get<double>(), 0);
  EXPECT_GT(job0["write"]["clat_ns"]["mean"].get<double>(), 0);
  // --parse-only prints fio's job line.
  ASSERT_EQ(RunShell(std::string(TIERBENCH_BINARY) +
                         " run --parse-only --filename /dev/null " + job,
                     &text),
            0);
  EXPECT_NE(text.find("mixed: (g=0): rw=randrw, bs=(R) 4096B-4096B"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tierbench
