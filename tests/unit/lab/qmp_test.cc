// Unit tests of the lab's QMP client (lab/lab_qmp.h): the command JSON it
// sends, reply parsing, and a session against a scripted fake QEMU on a
// unix socket.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "lab/lab_qmp.h"

namespace tierbench {
namespace {

TEST(QmpCommands, ExactJson) {
  EXPECT_EQ(QmpCapabilitiesCommand(), R"({"execute":"qmp_capabilities"})");
  EXPECT_EQ(QmpQueryBlockCommand(), R"({"execute":"query-block"})");
  EXPECT_EQ(
      QmpDeviceDelCommand("cache-bcache-dev"),
      R"({"arguments":{"id":"cache-bcache-dev"},"execute":"device_del"})");
  // Total limits only; the read/write split off (QEMU refuses a total
  // together with a split).
  EXPECT_EQ(QmpThrottleCommand("hdd", 4, 3466205),
            R"({"arguments":{"bps":3466205,"bps_rd":0,"bps_wr":0,)"
            R"("device":"hdd","iops":4,"iops_rd":0,"iops_wr":0},)"
            R"("execute":"block_set_io_throttle"})");
  // 0: that limit off.
  EXPECT_EQ(QmpThrottleCommand("ssd", 578, 0),
            R"({"arguments":{"bps":0,"bps_rd":0,"bps_wr":0,)"
            R"("device":"ssd","iops":578,"iops_rd":0,"iops_wr":0},)"
            R"("execute":"block_set_io_throttle"})");
}

TEST(ParseQmpReply, Kinds) {
  QmpReplyKind kind;
  std::string error;
  ASSERT_TRUE(ParseQmpReply(R"({"return": {}})", &kind, &error).ok());
  EXPECT_EQ(kind, QmpReplyKind::kReturn);
  ASSERT_TRUE(ParseQmpReply(R"({"error": {"class": "DeviceNotFound", )"
                            R"("desc": "Device 'x' not found"}})",
                            &kind, &error)
                  .ok());
  EXPECT_EQ(kind, QmpReplyKind::kError);
  EXPECT_EQ(error, "DeviceNotFound: Device 'x' not found");
  ASSERT_TRUE(
      ParseQmpReply(R"({"event": "RESUME", "timestamp": {}})", &kind, &error)
          .ok());
  EXPECT_EQ(kind, QmpReplyKind::kEvent);
  ASSERT_TRUE(
      ParseQmpReply(R"({"QMP": {"version": {}, "capabilities": ["oob"]}})",
                    &kind, &error)
          .ok());
  EXPECT_EQ(kind, QmpReplyKind::kGreeting);
  EXPECT_FALSE(ParseQmpReply("not json", &kind, &error).ok());
  EXPECT_FALSE(ParseQmpReply("[1]", &kind, &error).ok());
}

// A query-block reply as QEMU 7.2 sent it (trimmed): hdd throttled, ssd
// without any throttle (no iops/bps keys).
const char kQueryBlock[] =
    R"({"return": [{"io-status": "ok", "device": "hdd", "inserted": )"
    R"({"iops_rd": 0, "iops_wr": 0, "group": "hdd", "iops": 47, "bps": )"
    R"(37000000, "bps_rd": 0, "bps_wr": 0, "file": "hdd.img"}}, )"
    R"({"device": "ssd", "inserted": {"file": "ssd.img"}}]})";

TEST(ParseQmpDriveThrottle, ReadsTheDriveNamed) {
  uint64_t iops = 9, bps = 9;
  ASSERT_TRUE(ParseQmpDriveThrottle(kQueryBlock, "hdd", &iops, &bps).ok());
  EXPECT_EQ(iops, 47u);
  EXPECT_EQ(bps, 37000000u);
  ASSERT_TRUE(ParseQmpDriveThrottle(kQueryBlock, "ssd", &iops, &bps).ok());
  EXPECT_EQ(iops, 0u);
  EXPECT_EQ(bps, 0u);
  EXPECT_FALSE(ParseQmpDriveThrottle(kQueryBlock, "vdc", &iops, &bps).ok());
  EXPECT_FALSE(
      ParseQmpDriveThrottle(R"({"return": {}})", "hdd", &iops, &bps).ok());
}

// A fake QEMU: listens on a unix socket, sends the greeting, then answers
// each line it reads with the next scripted reply lines (and records what
// it got).
class FakeQemu {
 public:
  explicit FakeQemu(std::vector<std::vector<std::string>> replies)
      : replies_(std::move(replies)) {
    char tmpl[] = "/tmp/tierbench-qmp-test.XXXXXX";
    dir_ = mkdtemp(tmpl);
    path_ = dir_ + "/qmp.sock";
    listen_fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strcpy(addr.sun_path, path_.c_str());
    bound_ = bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr),
                  sizeof(addr)) == 0 &&
             listen(listen_fd_, 1) == 0;
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeQemu() {
    thread_.join();
    close(listen_fd_);
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  const std::string& path() const { return path_; }
  bool bound() const { return bound_; }
  // Valid after the client is gone.
  std::vector<std::string> received() {
    thread_.join();
    thread_ = std::thread([] {});
    return received_;
  }

 private:
  void Serve() {
    if (!bound_) return;
    int fd = accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) return;
    Send(fd, R"({"QMP": {"version": {}, "capabilities": ["oob"]}})");
    std::string buf;
    char chunk[512];
    size_t next = 0;
    for (;;) {
      ssize_t n = read(fd, chunk, sizeof(chunk));
      if (n <= 0) break;
      buf.append(chunk, static_cast<size_t>(n));
      size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        received_.push_back(buf.substr(0, nl));
        buf.erase(0, nl + 1);
        if (next < replies_.size()) {
          for (const std::string& r : replies_[next]) Send(fd, r);
          ++next;
        }
      }
    }
    close(fd);
  }
  static void Send(int fd, const std::string& line) {
    const std::string out = line + "\r\n";
    (void)!write(fd, out.data(), out.size());
  }

  std::vector<std::vector<std::string>> replies_;
  std::string dir_, path_;
  int listen_fd_ = -1;
  bool bound_ = false;
  std::vector<std::string> received_;
  std::thread thread_;
};

TEST(LabQmp, NegotiatesSkipsEventsAndReportsErrors) {
  FakeQemu qemu({{R"({"return": {}})"},
                 {R"({"event": "X", "timestamp": {}})", R"({"return": {}})"},
                 {R"({"error": {"class": "GenericError", "desc": "bad"}})"},
                 {kQueryBlock}});
  ASSERT_TRUE(qemu.bound());
  {
    LabQmp qmp;
    ASSERT_TRUE(qmp.Connect(qemu.path(), 5000).ok());
    ASSERT_TRUE(qmp.Execute(QmpCapabilitiesCommand(), 5000).ok());
    ASSERT_TRUE(qmp.Execute(QmpThrottleCommand("hdd", 4, 0), 5000).ok());
    Status s = qmp.Execute(QmpThrottleCommand("ssd", 0, 0), 5000);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message().find("GenericError: bad"), std::string::npos)
        << s.message();
    std::string reply;
    ASSERT_TRUE(qmp.Execute(QmpQueryBlockCommand(), 5000, &reply).ok());
    EXPECT_EQ(reply, kQueryBlock);
  }
  const std::vector<std::string> got = qemu.received();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], QmpCapabilitiesCommand());
  EXPECT_EQ(got[1], QmpThrottleCommand("hdd", 4, 0));
}

TEST(LabQmp, TimesOutWhenQemuDoesNotAnswer) {
  FakeQemu qemu({});  // greets, then never answers
  ASSERT_TRUE(qemu.bound());
  LabQmp qmp;
  ASSERT_TRUE(qmp.Connect(qemu.path(), 5000).ok());
  Status s = qmp.Execute(QmpCapabilitiesCommand(), 200);
  EXPECT_EQ(s.code(), Status::Code::kTimedOut) << s.ToString();
}

TEST(LabQmp, ConnectGivesUpOnAMissingSocket) {
  LabQmp qmp;
  Status s = qmp.Connect("/nonexistent-dir/qmp.sock", 200);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent-dir/qmp.sock"), std::string::npos);
  std::string longer(200, 'x');
  EXPECT_EQ(qmp.Connect("/tmp/" + longer, 200).code(),
            Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace tierbench
