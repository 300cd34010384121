// The io_uring engine on regular files in /tmp, as tests/unit/io/engine_test.cc
// tests libaio: depth and kBusy, errors in completions, batch counts, and each
// of fio's options (fixedbufs, registerfiles over several files, nonvectored
// both ways, sqthread_poll); the ring set up on one thread and driven on
// another (as the runner does); and a seccomp filter refusing io_uring_setup
// giving one clear line.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "io/aligned_buffer.h"
#include "io/io_uring_engine.h"
#include "support/ci_skip.h"
#include "support/seccomp_deny.h"

namespace tierbench {
namespace {

// Skips (fails under CI=true) where io_uring is blocked for the whole test.
#define REQUIRE_IO_URING()                                    \
  do {                                                        \
    const Status avail = IoUringEngine::Available();          \
    if (!avail.ok())                                          \
      TIERBENCH_SKIP_OR_FAIL_IN_CI("io_uring unavailable: " + \
                                   avail.message());          \
  } while (0)

// A 256 KiB file of 4 KiB blocks where block i holds byte `tag+i`.
class UringFile {
 public:
  explicit UringFile(int tag, int flags = O_RDWR) {
    path_ = std::filesystem::temp_directory_path() /
            ("tb-uring-" + std::to_string(::getpid()) + "-" +
             std::to_string(tag) + ".dat");
    std::ofstream out(path_, std::ios::binary);
    for (int i = 0; i < 64; ++i)
      out << std::string(4096, static_cast<char>(tag + i));
    out.close();
    fd_ = open(path_.c_str(), flags);
  }
  ~UringFile() {
    if (fd_ >= 0) close(fd_);
    std::filesystem::remove(path_);
  }
  int fd() const { return fd_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

struct Pool {
  explicit Pool(uint32_t depth) : reqs(depth) {
    for (uint32_t i = 0; i < depth; ++i) {
      bufs.emplace_back(4096);
      reqs[i].index = i;
      reqs[i].buffer = bufs[i].data();
      reqs[i].length = 4096;
    }
  }
  std::vector<iovec> Iovecs() const {
    std::vector<iovec> v;
    for (const AlignedBuffer& b : bufs) v.push_back({b.data(), b.size()});
    return v;
  }
  std::vector<AlignedBuffer> bufs;
  std::vector<IoRequest> reqs;
};

// Queues every request of `pool` (block 5 + index, on req.fd), commits and
// reaps them all; returns the completions.
std::vector<IoRequest*> ReadAll(IoUringEngine* e, Pool* pool) {
  std::vector<IoRequest*> done;
  uint32_t queued = 0;
  for (IoRequest& r : pool->reqs) {
    r.offset = 4096ull * (5 + r.index);
    QueueResult qr;
    EXPECT_TRUE(e->Queue(&r, &qr).ok());
    EXPECT_EQ(qr, QueueResult::kQueued);
    ++queued;
  }
  uint32_t submitted = 0;
  EXPECT_TRUE(e->Commit(&submitted).ok());
  EXPECT_EQ(submitted, queued);
  for (int i = 0; i < 1000 && done.size() < queued; ++i)
    EXPECT_TRUE(e->Reap(1, queued, 0, &done).ok());
  return done;
}

TEST(IoUringEngineTest, BusyWhenDepthReachedAndErrorsReported) {
  REQUIRE_IO_URING();
  UringFile file(0, O_RDONLY);
  ASSERT_GE(file.fd(), 0);
  IoUringEngine engine;
  ASSERT_TRUE(engine.Init(file.fd(), 1).ok());
  AlignedBuffer buf(4096);
  IoRequest a, b;
  a.buffer = b.buffer = buf.data();
  a.length = b.length = 4096;
  QueueResult qr;
  ASSERT_TRUE(engine.Queue(&a, &qr).ok());
  EXPECT_EQ(qr, QueueResult::kQueued);
  ASSERT_TRUE(engine.Queue(&b, &qr).ok());
  EXPECT_EQ(qr, QueueResult::kBusy);
  uint32_t submitted = 0;
  ASSERT_TRUE(engine.Commit(&submitted).ok());
  EXPECT_EQ(submitted, 1u);
  EXPECT_EQ(engine.in_flight(), 1u);
  std::vector<IoRequest*> done;
  ASSERT_TRUE(engine.Reap(1, 1, 0, &done).ok());
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0]->result, 4096);
  EXPECT_GE(done[0]->issue_ns, done[0]->start_ns);
  EXPECT_EQ(engine.in_flight(), 0u);
  // One submit of 1 and one reap of 1, in fio's buckets.
  EXPECT_EQ(engine.batch_counts().submit[1], 1u);
  EXPECT_EQ(engine.batch_counts().complete[1], 1u);
  // A write on a read-only fd completes with -EBADF.
  a.dir = IoDir::kWrite;
  ASSERT_TRUE(engine.Queue(&a, &qr).ok());
  ASSERT_TRUE(engine.Commit(&submitted).ok());
  done.clear();
  ASSERT_TRUE(engine.Reap(1, 1, 0, &done).ok());
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0]->result, -EBADF);
  // Nothing in flight: a timed reap returns at once, empty.
  done.clear();
  ASSERT_TRUE(engine.Reap(1, 1, 1000000, &done).ok());
  EXPECT_TRUE(done.empty());
  engine.Cleanup();
  engine.Cleanup();  // twice is safe
}

TEST(IoUringEngineTest, ReadsAndWritesWithEachOption) {
  REQUIRE_IO_URING();
  struct Case {
    const char* what;
    IoUringOptions o;
  } cases[4];
  cases[0] = {"nonvectored=0 (readv)", {}};
  cases[0].o.nonvectored = 0;
  cases[1] = {"nonvectored=1 (read)", {}};
  cases[1].o.nonvectored = 1;
  cases[2] = {"fixedbufs", {}};
  cases[2].o.fixedbufs = true;
  cases[3] = {"sqthread_poll", {}};
  cases[3].o.sqthread_poll = true;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    UringFile file(10);
    ASSERT_GE(file.fd(), 0);
    Pool pool(4);
    IoUringEngine engine;
    EngineSetup setup;
    setup.uring = c.o;
    setup.buffers = pool.Iovecs();
    ASSERT_TRUE(engine.Configure(setup).ok());
    const Status init = engine.Init(file.fd(), 4);
    ASSERT_TRUE(init.ok()) << init.message();
    EXPECT_EQ(engine.options().nonvectored == 1,
              c.o.nonvectored != 0);  // -1 probes to 1 on any recent kernel
    EXPECT_EQ(engine.options().registerfiles, c.o.sqthread_poll);
    std::vector<IoRequest*> done = ReadAll(&engine, &pool);
    ASSERT_EQ(done.size(), 4u);
    for (IoRequest* r : done) {
      EXPECT_EQ(r->result, 4096);
      const auto* p = static_cast<const unsigned char*>(r->buffer);
      EXPECT_EQ(p[0], 10 + 5 + r->index);
      EXPECT_EQ(p[4095], 10 + 5 + r->index);
    }
    // Write block 5 + index back as byte 0xAB and read it again.
    for (IoRequest& r : pool.reqs) {
      r.dir = IoDir::kWrite;
      std::memset(r.buffer, 0xAB, 4096);
    }
    done = ReadAll(&engine, &pool);
    ASSERT_EQ(done.size(), 4u);
    for (IoRequest* r : done) EXPECT_EQ(r->result, 4096);
    unsigned char check = 0;
    ASSERT_EQ(pread(file.fd(), &check, 1, 4096 * 7), 1);
    EXPECT_EQ(check, 0xAB);
  }
}

TEST(IoUringEngineTest, RegisteredFilesAreAddressedPerRequest) {
  REQUIRE_IO_URING();
  UringFile first(20), second(100);
  ASSERT_GE(first.fd(), 0);
  ASSERT_GE(second.fd(), 0);
  Pool pool(2);
  pool.reqs[0].fd = first.fd();
  pool.reqs[1].fd = second.fd();
  IoUringEngine engine;
  EngineSetup setup;
  setup.uring.registerfiles = true;
  setup.fds = {first.fd(), second.fd()};
  ASSERT_TRUE(engine.Configure(setup).ok());
  ASSERT_TRUE(engine.Init(first.fd(), 2).ok());
  std::vector<IoRequest*> done = ReadAll(&engine, &pool);
  ASSERT_EQ(done.size(), 2u);
  for (IoRequest* r : done) {
    ASSERT_EQ(r->result, 4096);
    const int tag = r->index == 0 ? 20 : 100;
    EXPECT_EQ(static_cast<const unsigned char*>(r->buffer)[0],
              tag + 5 + r->index);
  }
  // An fd that was not registered is refused, naming it.
  UringFile other(30);
  pool.reqs[0].fd = other.fd();
  QueueResult qr;
  const Status s = engine.Queue(&pool.reqs[0], &qr);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not among the registered files"),
            std::string::npos)
      << s.message();
}

TEST(IoUringEngineTest, FixedbufsNeedsTheBuffers) {
  IoUringEngine engine;
  EngineSetup setup;
  setup.uring.fixedbufs = true;
  const Status s = engine.Configure(setup);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("fixedbufs"), std::string::npos);
}

TEST(IoUringEngineTest, SetUpOnOneThreadDrivenOnAnother) {
  REQUIRE_IO_URING();
  UringFile file(40);
  ASSERT_GE(file.fd(), 0);
  Pool pool(8);
  IoUringEngine engine;
  ASSERT_TRUE(engine.Init(file.fd(), 8).ok());
  std::vector<IoRequest*> done;
  std::thread worker([&] { done = ReadAll(&engine, &pool); });
  worker.join();
  ASSERT_EQ(done.size(), 8u);
  for (IoRequest* r : done) {
    EXPECT_EQ(r->result, 4096);
    EXPECT_EQ(static_cast<const unsigned char*>(r->buffer)[0],
              40 + 5 + r->index);
  }
}

TEST(IoUringEngineTest, RefusedIoUringSetupIsOneClearLine) {
  UringFile file(50);
  ASSERT_GE(file.fd(), 0);
  const int fd = file.fd();
  const int rc =
      testing::RunWithSyscallDenied(__NR_io_uring_setup, EPERM, [fd] {
        IoUringEngine engine;
        const Status s = engine.Init(fd, 4);
        const std::string& m = s.message();
        if (s.ok()) return 10;
        if (s.code() != Status::Code::kPermissionDenied) return 11;
        if (m.find("io_uring_setup") == std::string::npos ||
            m.find("seccomp") == std::string::npos ||
            m.find("Fix: use ioengine=libaio") == std::string::npos ||
            m.find('\n') != std::string::npos) {
          return 12;
        }
        return IoUringEngine::Available().ok() ? 13 : 0;
      });
  ASSERT_NE(rc, -1) << "could not install the seccomp filter";
  EXPECT_EQ(rc, 0) << "10: Init succeeded; 11: wrong code; 12: message; "
                      "13: Available() said yes";
}

}  // namespace
}  // namespace tierbench
