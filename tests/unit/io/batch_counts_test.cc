// The submit/complete batch sizes the engines count (fio's io_u_submit and
// io_u_complete maps, io/io_batch_counts.h): fio's bucket edges, libaio per
// io_submit()/io_getevents() call, psync and null 1 and 1 per IO.
#include "io/io_batch_counts.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "io/aligned_buffer.h"
#include "io/engine_registry.h"

namespace tierbench {
namespace {

TEST(IoBatchCountsTest, FiosBucketEdges) {
  // io_u.c __io_u_mark_map: 0 | 1-4 | 5-8 | 9-16 | 17-32 | 33-64 | >64.
  const std::vector<std::pair<uint32_t, int>> cases = {
      {0, 0},  {1, 1},  {4, 1},  {5, 2},  {8, 2},  {9, 3},   {16, 3},
      {17, 4}, {32, 4}, {33, 5}, {64, 5}, {65, 6}, {1024, 6}};
  for (const auto& [n, bucket] : cases)
    EXPECT_EQ(IoBatchCounts::Bucket(n), bucket) << n;
  IoBatchCounts c;
  c.Submitted(3);
  c.Completed(64);
  c.Completed(0);
  EXPECT_EQ(c.submit[1], 1u);
  EXPECT_EQ(c.complete[5], 1u);
  EXPECT_EQ(c.complete[0], 1u);
  c.Clear();
  for (int i = 0; i < IoBatchCounts::kBuckets; ++i) {
    EXPECT_EQ(c.submit[i], 0u);
    EXPECT_EQ(c.complete[i], 0u);
  }
}

class BatchCountFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("tb-batch-" + std::to_string(::getpid()) + ".dat");
    std::ofstream(path_, std::ios::binary) << std::string(64 * 4096, 'x');
    fd_ = open(path_.c_str(), O_RDWR);
    ASSERT_GE(fd_, 0);
  }
  void TearDown() override {
    close(fd_);
    std::filesystem::remove(path_);
  }
  // Prepares `n` 4 KiB reads at blocks 0..n-1.
  void Prepare(uint32_t n) {
    bufs_.clear();
    reqs_.assign(n, IoRequest{});
    for (uint32_t i = 0; i < n; ++i) {
      bufs_.emplace_back(4096);
      reqs_[i].index = i;
      reqs_[i].offset = 4096ull * i;
      reqs_[i].length = 4096;
      reqs_[i].buffer = bufs_.back().data();
    }
  }
  std::filesystem::path path_;
  int fd_ = -1;
  std::vector<AlignedBuffer> bufs_;
  std::vector<IoRequest> reqs_;
};

TEST_F(BatchCountFileTest, LibaioCountsEachSubmitAndReapCall) {
  std::unique_ptr<IoEngine> e = EngineRegistry::Default().Create("libaio");
  ASSERT_TRUE(e->Init(fd_, 8).ok());
  Prepare(6);
  for (IoRequest& r : reqs_) {
    QueueResult q;
    ASSERT_TRUE(e->Queue(&r, &q).ok());
    ASSERT_EQ(q, QueueResult::kQueued);
  }
  uint32_t submitted = 0;
  ASSERT_TRUE(e->Commit(&submitted).ok());
  ASSERT_EQ(submitted, 6u);
  std::vector<IoRequest*> done;
  ASSERT_TRUE(e->Reap(6, 6, 0, &done).ok());  // waits for all six
  ASSERT_EQ(done.size(), 6u);
  ASSERT_TRUE(e->Reap(0, 6, 0, &done).ok());  // a poll finding none
  const IoBatchCounts& c = e->batch_counts();
  EXPECT_EQ(c.submit[2], 1u);    // one io_submit of 6 (5-8)
  EXPECT_EQ(c.complete[2], 1u);  // one io_getevents of 6
  EXPECT_EQ(c.complete[0], 1u);  // the empty poll counts as 0, as fio
  uint64_t submits = 0, completes = 0;
  for (int i = 0; i < IoBatchCounts::kBuckets; ++i) {
    submits += c.submit[i];
    completes += c.complete[i];
  }
  EXPECT_EQ(submits, 1u);
  EXPECT_EQ(completes, 2u);
}

TEST_F(BatchCountFileTest, SyncEnginesCountOneAndOnePerIo) {
  for (const char* name : {"psync", "null"}) {
    SCOPED_TRACE(name);
    std::unique_ptr<IoEngine> e = EngineRegistry::Default().Create(name);
    ASSERT_TRUE(e->Init(fd_, 1).ok());
    Prepare(3);
    for (IoRequest& r : reqs_) {
      QueueResult q;
      ASSERT_TRUE(e->Queue(&r, &q).ok());
      ASSERT_EQ(q, QueueResult::kCompleted);
    }
    const IoBatchCounts& c = e->batch_counts();
    EXPECT_EQ(c.submit[1], 3u);  // fio: "submit: 4=100.0%"
    EXPECT_EQ(c.complete[1], 3u);
    EXPECT_EQ(c.submit[0] + c.submit[2], 0u);
  }
}

}  // namespace
}  // namespace tierbench
