#include "cache/dm/dm_control.h"

#include <libdevmapper.h>

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "cache/dm/dm_status.h"

namespace tierbench {

std::string FormatDmTarget(const DmTarget& target) {
  std::string out = std::to_string(target.start) + ' ' +
                    std::to_string(target.length) + ' ' + target.type;
  if (!target.params.empty()) {
    out += ' ';
    out += target.params;
  }
  return out;
}

Status ParseDmTarget(std::string_view line, DmTarget* out) {
  std::vector<std::string> words = SplitDmWords(line);
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("dm table line \"" + std::string(line) +
                                   "\": " + why);
  };
  if (words.size() < 3) return bad("expected \"start length type params\"");
  DmTarget t;
  for (auto [word, field] :
       {std::pair{&words[0], &t.start}, std::pair{&words[1], &t.length}}) {
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(word->c_str(), &end, 10);
    if (word->empty() ||
        !std::isdigit(static_cast<unsigned char>((*word)[0])) || *end != '\0' ||
        errno != 0) {
      return bad("bad number \"" + *word + "\"");
    }
    *field = v;
  }
  t.type = words[2];
  for (size_t i = 3; i < words.size(); ++i) {
    if (i > 3) t.params += ' ';
    t.params += words[i];
  }
  *out = std::move(t);
  return Status::Ok();
}

namespace {

// libdevmapper logs through one global hook: calls are serialised by g_mu and
// the hook keeps the last error line of the current call.
std::mutex g_mu;
std::string g_last_error;  // Guarded by g_mu.

// libdevmapper's levels (lib/log/log.h, not in the public header): 2 fatal,
// 3 error, 4 warn ... 7 debug; higher bits are flags (stderr, once).
constexpr int kLogLevelMask = 7;
constexpr int kLogErr = 3;

__attribute__((format(printf, 5, 6))) void CaptureLog(int level,
                                                      const char* /*file*/,
                                                      int /*line*/,
                                                      int /*dm_errno*/,
                                                      const char* f, ...) {
  if ((level & kLogLevelMask) > kLogErr) return;  // Warnings, debug: dropped.
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof(buf), f, ap);
  va_end(ap);
  g_last_error = buf;
  // One line: the first line of a multi-line message.
  size_t nl = g_last_error.find('\n');
  if (nl != std::string::npos) g_last_error.resize(nl);
}

using TaskPtr = std::unique_ptr<dm_task, decltype(&dm_task_destroy)>;

Status FromErr(int err, const std::string& msg) {
  switch (err) {
    case ENXIO:
    case ENODEV:
    case ENOENT:
      return Status::NotFound(msg);
    case EINVAL:
      return Status::InvalidArgument(msg);
    case EBUSY:
      return Status::Busy(msg);
    case EPERM:
    case EACCES:
      return Status::PermissionDenied(msg);
    case EOPNOTSUPP:
      return Status::Unsupported(msg);
    default:
      return Status::IoError(msg);
  }
}

class LibDevmapperControl : public DmControl {
 public:
  LibDevmapperControl() {
    std::lock_guard<std::mutex> lock(g_mu);
    dm_udev_set_sync_support(0);
    dm_log_with_errno_init(&CaptureLog);
  }

  Status Info(const std::string& name, DmDeviceInfo* out) const override {
    std::lock_guard<std::mutex> lock(g_mu);
    TaskPtr t(nullptr, &dm_task_destroy);
    Status s = Prepare(DM_DEVICE_INFO, "info", name, &t);
    if (s.ok()) s = Run(t.get(), "info", name);
    dm_info info{};
    if (s.ok()) s = GetInfo(t.get(), "info", name, &info);
    if (!s.ok()) return s;
    DmDeviceInfo d;
    const char* n = dm_task_get_name(t.get());
    const char* u = dm_task_get_uuid(t.get());
    d.name = n != nullptr ? n : name;
    d.uuid = u != nullptr ? u : "";
    d.major = info.major;
    d.minor = info.minor;
    d.suspended = info.suspended != 0;
    d.open_count = info.open_count;
    d.target_count = info.target_count;
    *out = std::move(d);
    return Status::Ok();
  }

  Status GetTable(const std::string& name,
                  std::vector<DmTarget>* out) const override {
    return Targets(DM_DEVICE_TABLE, "table", name, out);
  }

  Status GetStatus(const std::string& name,
                   std::vector<DmTarget>* out) const override {
    return Targets(DM_DEVICE_STATUS, "status", name, out);
  }

  Status Reload(const std::string& name,
                const std::vector<DmTarget>& table) override {
    // The live table, to go back to when the new one cannot resume.
    std::vector<DmTarget> old;
    const bool have_old = Targets(DM_DEVICE_TABLE, "table", name, &old).ok();
    std::lock_guard<std::mutex> lock(g_mu);
    Status s = LoadInactive(name, table);
    if (!s.ok()) return s;  // Nothing loaded: the device is unchanged.

    s = Simple(DM_DEVICE_SUSPEND, "suspend", name);
    if (s.ok()) s = Simple(DM_DEVICE_RESUME, "resume", name);
    if (!s.ok()) {
      // Drop the inactive table (if still there) and resume what is live.
      (void)Simple(DM_DEVICE_CLEAR, "clear", name);
      if (!Simple(DM_DEVICE_RESUME, "resume", name).ok() && have_old) {
        // The resume swapped the new table in and its target refused to
        // resume (dm-cache: "cannot enter passthrough mode unless all
        // blocks are clean"): the device would stay suspended, and every
        // IO to it, a filesystem's sync included, would wait forever. The
        // old table goes back in.
        if (LoadInactive(name, old).ok()) {
          (void)Simple(DM_DEVICE_RESUME, "resume", name);
        }
      }
    }
    return s;
  }

  // DM_DEVICE_RELOAD of `table` into the inactive slot (g_mu held).
  static Status LoadInactive(const std::string& name,
                             const std::vector<DmTarget>& table) {
    TaskPtr t(nullptr, &dm_task_destroy);
    Status s = Prepare(DM_DEVICE_RELOAD, "reload", name, &t);
    if (!s.ok()) return s;
    for (const DmTarget& target : table) {
      if (!dm_task_add_target(t.get(), target.start, target.length,
                              target.type.c_str(), target.params.c_str())) {
        return Status::InvalidArgument("reload " + name +
                                       ": cannot add target \"" +
                                       FormatDmTarget(target) + "\"");
      }
    }
    return Run(t.get(), "reload", name);
  }

  Status Message(const std::string& name, uint64_t sector,
                 const std::string& message) override {
    std::lock_guard<std::mutex> lock(g_mu);
    TaskPtr t(nullptr, &dm_task_destroy);
    Status s = Prepare(DM_DEVICE_TARGET_MSG, "message", name, &t);
    if (!s.ok()) return s;
    if (!dm_task_set_sector(t.get(), sector) ||
        !dm_task_set_message(t.get(), message.c_str())) {
      return Status::IoError("message " + name + ": cannot set \"" + message +
                             "\"");
    }
    return Run(t.get(), "message", name);
  }

  Status NameOf(unsigned major, unsigned minor,
                std::string* name) const override {
    std::lock_guard<std::mutex> lock(g_mu);
    std::string dev = std::to_string(major) + ":" + std::to_string(minor);
    TaskPtr t(dm_task_create(DM_DEVICE_INFO), &dm_task_destroy);
    if (!t) return Status::IoError("info " + dev + ": dm_task_create failed");
    if (!dm_task_set_major_minor(t.get(), static_cast<int>(major),
                                 static_cast<int>(minor), 0)) {
      return Status::InvalidArgument("info " + dev + ": bad device number");
    }
    Status s = Run(t.get(), "info", dev);
    dm_info info{};
    if (s.ok()) s = GetInfo(t.get(), "info", dev, &info);
    if (!s.ok()) return s;
    const char* n = dm_task_get_name(t.get());
    if (n == nullptr || *n == '\0') {
      return Status::NotFound("info " + dev + ": no name for that device");
    }
    *name = n;
    return Status::Ok();
  }

 private:
  // Callers hold g_mu.
  static Status Prepare(int type, const char* op, const std::string& name,
                        TaskPtr* out) {
    TaskPtr t(dm_task_create(type), &dm_task_destroy);
    if (!t) {
      return Status::IoError(std::string(op) + " " + name +
                             ": dm_task_create failed");
    }
    g_last_error.clear();
    if (!dm_task_set_name(t.get(), name.c_str())) {
      return Status::InvalidArgument(std::string(op) + " " + name +
                                     ": bad device name" + LastError());
    }
    *out = std::move(t);
    return Status::Ok();
  }

  static std::string LastError() {
    return g_last_error.empty() ? "" : " (" + g_last_error + ")";
  }

  static Status Run(dm_task* t, const char* op, const std::string& name) {
    g_last_error.clear();
    if (dm_task_run(t)) return Status::Ok();
    int err = dm_task_get_errno(t);
    std::string msg = std::string(op) + " " + name + ": ";
    if (!g_last_error.empty()) {
      msg += g_last_error;
    } else {
      msg += err != 0 ? std::strerror(err) : "dm_task_run failed";
    }
    return FromErr(err, msg);
  }

  static Status GetInfo(dm_task* t, const char* op, const std::string& name,
                        dm_info* info) {
    if (!dm_task_get_info(t, info)) {
      return Status::IoError(std::string(op) + " " + name +
                             ": dm_task_get_info failed");
    }
    if (!info->exists) {
      return Status::NotFound(std::string(op) + " " + name +
                              ": no such device-mapper device");
    }
    return Status::Ok();
  }

  // A task with only a name (suspend, resume, clear).
  static Status Simple(int type, const char* op, const std::string& name) {
    TaskPtr t(nullptr, &dm_task_destroy);
    Status s = Prepare(type, op, name, &t);
    if (!s.ok()) return s;
    if (type == DM_DEVICE_RESUME) {
      // No /dev/mapper node on resume (the default would stack one).
      dm_task_set_add_node(t.get(), DM_ADD_NODE_ON_CREATE);
    }
    return Run(t.get(), op, name);
  }

  static Status Targets(int type, const char* op, const std::string& name,
                        std::vector<DmTarget>* out) {
    std::lock_guard<std::mutex> lock(g_mu);
    TaskPtr t(nullptr, &dm_task_destroy);
    Status s = Prepare(type, op, name, &t);
    if (s.ok()) s = Run(t.get(), op, name);
    dm_info info{};
    // libdevmapper turns ENXIO on STATUS into "exists = 0".
    if (s.ok()) s = GetInfo(t.get(), op, name, &info);
    if (!s.ok()) return s;
    std::vector<DmTarget> targets;
    void* next = nullptr;
    do {
      uint64_t start = 0, length = 0;
      char* target_type = nullptr;
      char* params = nullptr;
      next = dm_get_next_target(t.get(), next, &start, &length, &target_type,
                                &params);
      if (target_type != nullptr) {
        targets.push_back(
            {start, length, target_type, params != nullptr ? params : ""});
      }
    } while (next != nullptr);
    *out = std::move(targets);
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<DmControl> NewLibDevmapperControl() {
  return std::make_unique<LibDevmapperControl>();
}

}  // namespace tierbench
