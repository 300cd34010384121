// Engine registry and the three engines on a regular file in /tmp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/aligned_buffer.h"
#include "io/engine_registry.h"
#include "io/libaio_engine.h"
#include "support/ci_skip.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TEST(EngineRegistryTest, KnowsBuiltInEngines) {
  const EngineRegistry& r = EngineRegistry::Default();
  for (const char* name : {"io_uring", "libaio", "psync", "null"}) {
    std::unique_ptr<IoEngine> e = r.Create(name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_STREQ(e->name(), name);
    EXPECT_FALSE(r.Get(name).description.empty()) << name;
  }
  EXPECT_FALSE(r.Get("null").does_io);
  EXPECT_TRUE(r.Get("libaio").does_io);
}

TEST(EngineRegistryTest, UnknownEngineListsKnownOnes) {
  try {
    EngineRegistry::Default().Create("posixaio");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'posixaio'"), std::string::npos)
        << e.what();
    // Every built-in engine is named (a test may have registered more:
    // the registry is the process's).
    const std::string what = e.what();
    const size_t known = what.find("Known: ");
    ASSERT_NE(known, std::string::npos) << what;
    for (const char* engine : {"io_uring, ", "libaio, ", "null, ", "psync"}) {
      EXPECT_NE(what.find(engine, known), std::string::npos)
          << engine << ": " << what;
    }
  }
}

TEST(EngineRegistryTest, RegisterReplacesByName) {
  EngineRegistry r;
  r.Register({"x", "first", false,
              [] { return EngineRegistry::Default().Create("null"); }});
  r.Register({"x", "second", false,
              [] { return EngineRegistry::Default().Create("null"); }});
  ASSERT_EQ(r.engines().size(), 1u);
  EXPECT_EQ(r.Get("x").description, "second");
  EXPECT_EQ(r.Find("y"), nullptr);
}

// A 1 MiB file whose 4 KiB block i is filled with byte i.
class EngineFileTest
    : public ::testing::TestWithParam<std::tuple<const char*, bool>> {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("tb-engine-" + std::to_string(::getpid()) + ".dat");
    std::ofstream out(path_, std::ios::binary);
    for (int i = 0; i < 256; ++i)
      out << std::string(4096, static_cast<char>(i));
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

TEST_P(EngineFileTest, ReadsWhatIsThere) {
  const auto [name, direct] = GetParam();
  int fd = open(path_.c_str(), O_RDWR | (direct ? O_DIRECT : 0));
  if (fd < 0 && direct) {
    const int err = errno;
    TIERBENCH_SKIP_OR_FAIL_IN_CI(path_.string() +
                                 " refuses O_DIRECT: " + std::strerror(err));
  }
  ASSERT_GE(fd, 0);
  constexpr uint32_t kDepth = 4;
  std::unique_ptr<IoEngine> engine = EngineRegistry::Default().Create(name);
  ASSERT_TRUE(engine->Init(fd, kDepth).ok());
  std::vector<AlignedBuffer> bufs;
  std::vector<IoRequest> reqs(kDepth);
  std::vector<IoRequest*> done;
  uint32_t queued = 0;
  for (uint32_t i = 0; i < kDepth; ++i) {
    bufs.emplace_back(4096);
    reqs[i] = IoRequest{};
    reqs[i].index = i;
    reqs[i].buffer = bufs[i].data();
    reqs[i].length = 4096;
    reqs[i].offset = 4096ull * (10 + i);
    QueueResult qr;
    ASSERT_TRUE(engine->Queue(&reqs[i], &qr).ok());
    if (qr == QueueResult::kCompleted) {
      done.push_back(&reqs[i]);
    } else {
      ASSERT_EQ(qr, QueueResult::kQueued);
      ++queued;
    }
  }
  uint32_t submitted = 0;
  ASSERT_TRUE(engine->Commit(&submitted).ok());
  EXPECT_EQ(submitted, queued);
  while (done.size() < kDepth && queued > 0) {
    ASSERT_TRUE(engine->Reap(1, kDepth, 0, &done).ok());
  }
  ASSERT_EQ(done.size(), kDepth);
  const bool does_io = std::string(name) != "null";
  for (IoRequest* r : done) {
    EXPECT_EQ(r->result, 4096) << name;
    EXPECT_GE(r->issue_ns, r->start_ns);
    if (does_io) {
      const auto* p = static_cast<const unsigned char*>(r->buffer);
      EXPECT_EQ(p[0], 10 + r->index);
      EXPECT_EQ(p[4095], 10 + r->index);
    }
  }
  engine->Cleanup();
  engine->Cleanup();  // twice is safe
  close(fd);
}

INSTANTIATE_TEST_SUITE_P(
    Engines, EngineFileTest,
    ::testing::Combine(::testing::Values("io_uring", "libaio", "psync", "null"),
                       ::testing::Bool()),
    [](const auto& info) {
      return std::string(std::get<0>(info.param)) +
             (std::get<1>(info.param) ? "_direct" : "_buffered");
    });

TEST(LibaioEngineTest, BusyWhenDepthReachedAndErrorsReported) {
  auto path = std::filesystem::temp_directory_path() /
              ("tb-libaio-" + std::to_string(::getpid()) + ".dat");
  std::ofstream(path) << std::string(8192, 'x');
  int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  LibaioEngine engine;
  ASSERT_TRUE(engine.Init(fd, 1).ok());
  AlignedBuffer buf(4096);
  IoRequest a, b;
  a.buffer = b.buffer = buf.data();
  a.length = b.length = 4096;
  b.index = 0;
  QueueResult qr;
  ASSERT_TRUE(engine.Queue(&a, &qr).ok());
  EXPECT_EQ(qr, QueueResult::kQueued);
  ASSERT_TRUE(engine.Queue(&b, &qr).ok());
  EXPECT_EQ(qr, QueueResult::kBusy);
  uint32_t submitted = 0;
  ASSERT_TRUE(engine.Commit(&submitted).ok());
  EXPECT_EQ(engine.in_flight(), 1u);
  std::vector<IoRequest*> done;
  ASSERT_TRUE(engine.Reap(1, 1, 0, &done).ok());
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(engine.in_flight(), 0u);
  // A write on a read-only fd completes with -EBADF.
  a.dir = IoDir::kWrite;
  ASSERT_TRUE(engine.Queue(&a, &qr).ok());
  Status s = engine.Commit(&submitted);
  if (s.ok()) {
    done.clear();
    ASSERT_TRUE(engine.Reap(1, 1, 0, &done).ok());
    ASSERT_EQ(done.size(), 1u);
    EXPECT_LT(done[0]->result, 0);
  } else {
    EXPECT_NE(s.message().find("io_submit"), std::string::npos);
  }
  close(fd);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tierbench
