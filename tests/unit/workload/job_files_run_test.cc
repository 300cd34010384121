// The runner with fio's everyday options on regular files in a temporary
// directory: default file names laid out per clone, nrfiles with
// file_service_type, io_size / loops / number_ios budgets, fsync /
// fdatasync / end_fsync counts, and startdelay.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "util/errors.h"
#include "util/units.h"
#include "workload/job_file.h"
#include "workload/runner.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kBlock = 4096;

class JobFilesRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static int counter = 0;
    dir_ =
        fs::temp_directory_path() / ("tb-files-" + std::to_string(::getpid()) +
                                     "-" + std::to_string(counter++));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs job-file text; "@D" stands for the test directory.
  RunResult Run(std::string text) {
    for (size_t p; (p = text.find("@D")) != std::string::npos;)
      text.replace(p, 2, dir_.string());
    Workload w = ParseJobText(text, "<test>", JobOverrides{});
    RunOptions options;
    options.progress = false;
    return RunWorkload(w, options);
  }

  // Creates `name` in the test directory filled with zero bytes.
  void Zeros(const std::string& name, uint64_t bytes) {
    std::ofstream out(dir_ / name, std::ios::binary);
    out << std::string(bytes, '\0');
  }

  // Number of 4 KiB blocks of `name` that are not all zero.
  uint64_t WrittenBlocks(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::string block(kBlock, '\0');
    uint64_t n = 0;
    while (in.read(block.data(), kBlock)) {
      if (block.find_first_not_of('\0') != std::string::npos) ++n;
    }
    return n;
  }

  fs::path dir_;
};

uint64_t TotalIos(const RunResult& r, IoDir d) {
  uint64_t n = 0;
  for (const JobResult& j : r.jobs) n += j.dir[static_cast<int>(d)].ios;
  return n;
}

TEST_F(JobFilesRunTest, DefaultFilesAreLaidOutPerClone) {
  const RunResult r =
      Run("[t]\ndirectory=@D\nsize=2M\nnrfiles=2\nnumjobs=2\nrw=read\nbs=4k\n");
  for (const char* name : {"t.0.0", "t.0.1", "t.1.0", "t.1.1"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(fs::exists(dir_ / name));
    EXPECT_EQ(fs::file_size(dir_ / name), 1u << 20);  // size / nrfiles
  }
  ASSERT_EQ(r.jobs.size(), 2u);
  for (const JobResult& j : r.jobs)  // each clone reads its 2 MiB once
    EXPECT_EQ(j.dir[0].bytes, 2u << 20);
}

TEST_F(JobFilesRunTest, NoDirectoryMeansTheWorkingDirectory) {
  const fs::path old = fs::current_path();
  fs::current_path(dir_);
  const RunResult r = Run("[test]\nsize=1M\nrw=write\nbs=64k\n");
  fs::current_path(old);
  ASSERT_TRUE(fs::exists(dir_ / "test.0.0"));
  EXPECT_EQ(fs::file_size(dir_ / "test.0.0"), 1u << 20);
  EXPECT_EQ(TotalIos(r, IoDir::kWrite), 16u);
}

TEST_F(JobFilesRunTest, FileServiceTypeChoosesTheFiles) {
  // 4 files of 16 blocks, 8 writes: where they land shows the service type.
  struct Case {
    const char* type;
    std::vector<uint64_t> written;
  };
  const Case cases[] = {{"sequential", {8, 0, 0, 0}},
                        {"roundrobin", {2, 2, 2, 2}},
                        {"roundrobin:4", {4, 4, 0, 0}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.type);
    for (int f = 0; f < 4; ++f) Zeros("w.0." + std::to_string(f), 16 * kBlock);
    Run(std::string("[w]\ndirectory=@D\nnrfiles=4\nfilesize=64k\nrw=write\n"
                    "bs=4k\nnumber_ios=8\nfile_service_type=") +
        c.type + "\n");
    for (int f = 0; f < 4; ++f)
      EXPECT_EQ(WrittenBlocks("w.0." + std::to_string(f)), c.written[f])
          << "file " << f;
  }
  // random: every write lands somewhere, over more than one file.
  for (int f = 0; f < 4; ++f) Zeros("w.0." + std::to_string(f), 16 * kBlock);
  Run("[w]\ndirectory=@D\nnrfiles=4\nfilesize=64k\nrw=write\nbs=4k\n"
      "number_ios=16\nfile_service_type=random\n");
  uint64_t total = 0;
  int files_used = 0;
  for (int f = 0; f < 4; ++f) {
    const uint64_t n = WrittenBlocks("w.0." + std::to_string(f));
    total += n;
    files_used += n > 0 ? 1 : 0;
  }
  EXPECT_EQ(total, 16u);
  EXPECT_GT(files_used, 1);
}

TEST_F(JobFilesRunTest, IoSizeLoopsAndNumberIos) {
  // The IOs fio 3.x counts for these on a 1 MiB region with bs=4k
  // (fio --name=t --ioengine=null --size=1m --bs=4k ...): a pass goes over
  // the region once, stopping early at io_size or number_ios; `loops`
  // passes, then more while the bytes stay below io_size.
  struct Case {
    const char* options;
    uint64_t ios;
  };
  const Case cases[] = {
      {"", 256},
      {"loops=2\n", 512},
      {"io_size=3M\n", 768},
      {"io_size=512k\nloops=3\n", 384},
      {"io_size=512k\nloops=2\n", 256},
      {"io_size=3M\nloops=2\n", 768},
      {"io_size=3M\nloops=3\n", 768},
      {"io_size=1536k\nloops=2\n", 512},
      {"number_ios=100\n", 100},
      {"loops=3\nnumber_ios=100\n", 300},
      {"loops=3\nnumber_ios=300\n", 768},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.options);
    EXPECT_EQ(TotalIos(Run(std::string("[n]\nioengine=null\nsize=1M\nbs=4k\n") +
                           c.options),
                       IoDir::kRead),
              c.ios);
  }
  // With filesize=, fio caps size= at the files' total; io_size= is the way
  // to ask for more (fio: 32 and 64 IOs).
  const std::string files =
      "[f]\ndirectory=@D\nnrfiles=2\nfilesize=64k\nsize=256k\nbs=4k\n";
  EXPECT_EQ(TotalIos(Run(files), IoDir::kRead), 32u);
  EXPECT_EQ(TotalIos(Run(files + "io_size=256k\n"), IoDir::kRead), 64u);
}

TEST_F(JobFilesRunTest, FsyncAndFdatasyncEveryNWrites) {
  // fio's sync counts for 16 writes of 4k (fio --rw=write --size=64k
  // --fsync=4 ...: 3, as the sync after the last write is never issued).
  const std::string base =
      "[s]\nfilename=@D/s.dat\nsize=64k\nbs=4k\nrw=write\n";
  EXPECT_EQ(Run(base).jobs.at(0).syncs, 0u);
  EXPECT_EQ(Run(base + "fsync=4\n").jobs.at(0).syncs, 3u);
  EXPECT_EQ(Run(base + "fdatasync=8\n").jobs.at(0).syncs, 1u);
  EXPECT_EQ(Run(base + "fsync=5\n").jobs.at(0).syncs, 3u);
  EXPECT_EQ(
      Run(base + "ioengine=libaio\niodepth=4\nfsync=5\n").jobs.at(0).syncs, 3u);
  // end_fsync: once per file, counted apart (fio does not count it either).
  const RunResult end = Run(base + "fsync=4\nend_fsync=1\n");
  EXPECT_EQ(end.jobs.at(0).syncs, 3u);
  EXPECT_EQ(end.jobs.at(0).end_fsyncs, 1u);
  EXPECT_EQ(Run("[m]\ndirectory=@D\nnrfiles=3\nsize=48k\nrw=randwrite\n"
                "end_fsync=1\n")
                .jobs.at(0)
                .end_fsyncs,
            3u);
  // A read job syncs nothing, end_fsync included (fio: a write stage).
  EXPECT_EQ(Run("[r]\nfilename=@D/s.dat\nsize=64k\nrw=read\nend_fsync=1\n")
                .jobs.at(0)
                .end_fsyncs,
            0u);
}

TEST_F(JobFilesRunTest, StartdelayIsNotMeasured) {
  const RunResult r =
      Run("[d]\nioengine=null\nsize=64k\nbs=4k\nstartdelay=300ms\n");
  EXPECT_GE(r.wall_ns, 300 * kNsPerMs);
  EXPECT_LT(r.jobs.at(0).runtime_ns, 300 * kNsPerMs);
  // A range: each clone draws its own delay inside it.
  const RunResult range =
      Run("[d]\nioengine=null\nsize=64k\nstartdelay=100ms-200ms\n");
  EXPECT_GE(range.wall_ns, 100 * kNsPerMs);
}

}  // namespace
}  // namespace tierbench
