#include "lab/lab_qmp.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "util/clock.h"

namespace tierbench {
namespace {

int64_t QmpNowMs() { return static_cast<int64_t>(NowNs() / 1'000'000); }

}  // namespace

std::string QmpCapabilitiesCommand() {
  return nlohmann::json{{"execute", "qmp_capabilities"}}.dump();
}

std::string QmpThrottleCommand(const std::string& drive, uint64_t iops,
                               uint64_t bytes_per_sec) {
  // nlohmann::json objects keep their keys sorted: the text is stable.
  nlohmann::json args = {
      {"device", drive},      {"iops", iops}, {"iops_rd", 0}, {"iops_wr", 0},
      {"bps", bytes_per_sec}, {"bps_rd", 0},  {"bps_wr", 0}};
  return nlohmann::json{{"execute", "block_set_io_throttle"},
                        {"arguments", args}}
      .dump();
}

std::string QmpQueryBlockCommand() {
  return nlohmann::json{{"execute", "query-block"}}.dump();
}

std::string QmpDeviceDelCommand(const std::string& id) {
  return nlohmann::json{{"execute", "device_del"}, {"arguments", {{"id", id}}}}
      .dump();
}

Status ParseQmpDriveThrottle(const std::string& reply, const std::string& drive,
                             uint64_t* iops, uint64_t* bytes_per_sec) {
  const nlohmann::json j = nlohmann::json::parse(reply, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("return") ||
      !j["return"].is_array()) {
    return Status::InvalidArgument("not a query-block reply: " + reply);
  }
  for (const nlohmann::json& d : j["return"]) {
    if (!d.is_object() || d.value("device", "") != drive) continue;
    *iops = 0;
    *bytes_per_sec = 0;
    if (d.contains("inserted") && d["inserted"].is_object()) {
      const nlohmann::json& in = d["inserted"];
      if (in.contains("iops") && in["iops"].is_number_unsigned())
        *iops = in["iops"].get<uint64_t>();
      if (in.contains("bps") && in["bps"].is_number_unsigned())
        *bytes_per_sec = in["bps"].get<uint64_t>();
    }
    return Status::Ok();
  }
  return Status::InvalidArgument("query-block lists no drive '" + drive + "'");
}

Status ParseQmpReply(const std::string& line, QmpReplyKind* kind,
                     std::string* error) {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Status::InvalidArgument("not a QMP reply: " + line);
  }
  if (j.contains("return")) {
    *kind = QmpReplyKind::kReturn;
  } else if (j.contains("error")) {
    *kind = QmpReplyKind::kError;
    const nlohmann::json& e = j["error"];
    std::string cls, desc;
    if (e.is_object()) {
      if (e.contains("class") && e["class"].is_string()) cls = e["class"];
      if (e.contains("desc") && e["desc"].is_string()) desc = e["desc"];
    }
    *error = cls + ": " + desc;
  } else if (j.contains("event")) {
    *kind = QmpReplyKind::kEvent;
  } else if (j.contains("QMP")) {
    *kind = QmpReplyKind::kGreeting;
  } else {
    *kind = QmpReplyKind::kOther;
  }
  return Status::Ok();
}

LabQmp::~LabQmp() {
  if (fd_ >= 0) close(fd_);
}

Status LabQmp::Connect(const std::string& socket_path, int timeout_ms) {
  path_ = socket_path;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof(addr.sun_path)) {
    return Status::InvalidArgument("QMP socket path longer than " +
                                   std::to_string(sizeof(addr.sun_path) - 1) +
                                   " bytes: " + socket_path);
  }
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  const int64_t deadline = QmpNowMs() + timeout_ms;
  for (;;) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Status::FromErrno("socket for " + path_, errno);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
      fd_ = fd;
      break;
    }
    const int err = errno;
    close(fd);
    if ((err != ENOENT && err != ECONNREFUSED) || QmpNowMs() >= deadline) {
      return Status::FromErrno("connect to QMP socket " + path_, err);
    }
    usleep(50'000);
  }
  std::string line;
  for (;;) {
    Status s = ReadLine(deadline, &line);
    if (!s.ok()) return s;
    QmpReplyKind kind;
    std::string error;
    s = ParseQmpReply(line, &kind, &error);
    if (!s.ok()) return s;
    if (kind == QmpReplyKind::kGreeting) return Status::Ok();
  }
}

Status LabQmp::Execute(const std::string& command, int timeout_ms,
                       std::string* reply) {
  if (fd_ < 0) return Status::InvalidArgument("QMP not connected");
  const int64_t deadline = QmpNowMs() + timeout_ms;
  const std::string out = command + "\n";
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = send(fd_, out.data() + done, out.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::FromErrno("send to QMP socket " + path_, errno);
    done += static_cast<size_t>(n);
  }
  std::string line;
  for (;;) {
    Status s = ReadLine(deadline, &line);
    if (!s.ok()) return s;
    QmpReplyKind kind;
    std::string error;
    s = ParseQmpReply(line, &kind, &error);
    if (!s.ok()) return s;
    if (kind == QmpReplyKind::kReturn) {
      if (reply != nullptr) *reply = line;
      return Status::Ok();
    }
    if (kind == QmpReplyKind::kError) {
      return Status::InvalidArgument("QEMU refused " + command + ": " + error);
    }
  }
}

Status LabQmp::ReadLine(int64_t deadline_ms, std::string* line) {
  for (;;) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      *line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      while (!line->empty() && line->back() == '\r') line->pop_back();
      if (!line->empty()) return Status::Ok();
      continue;
    }
    const int64_t left = deadline_ms - QmpNowMs();
    if (left <= 0) {
      return Status::TimedOut("no reply on QMP socket " + path_);
    }
    pollfd pfd{fd_, POLLIN, 0};
    int rc = poll(&pfd, 1, static_cast<int>(left));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) return Status::FromErrno("poll QMP socket " + path_, errno);
    if (rc == 0) continue;
    char chunk[4096];
    ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::FromErrno("read QMP socket " + path_, errno);
    if (n == 0) return Status::IoError("QEMU closed QMP socket " + path_);
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

}  // namespace tierbench
