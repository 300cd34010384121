// LabQmp: a minimal client of QEMU's machine protocol (QMP) on a unix
// socket (`-qmp unix:<path>,server=on,wait=off`, lab/lab_qemu.h), enough to
// change the emulated disks' throttles while the guest runs
// (lab/lab_dilation.h).
//
// QMP speaks one JSON object per line: a greeting, then one reply
// ({"return": ...} or {"error": {"class", "desc"}}) per command, with
// asynchronous {"event": ...} lines in between, which are skipped. Connect()
// reads the greeting and leaves capability negotiation to
// Execute(QmpCapabilitiesCommand()), the first command QEMU accepts.
//
// Errors: every call returns a Status naming the socket; a call never waits
// longer than its timeout. Not thread-safe: one LabQmp per thread.
#ifndef TIERBENCH_LAB_LAB_QMP_H_
#define TIERBENCH_LAB_LAB_QMP_H_

#include <cstdint>
#include <string>

#include "util/status.h"

namespace tierbench {

// {"execute":"qmp_capabilities"}
std::string QmpCapabilitiesCommand();

// block_set_io_throttle for the drive whose -drive id is `drive`: total
// IOPS and bytes/s (0: that limit off; both 0: the drive unthrottled), the
// read/write split off. One line of JSON, no newline.
std::string QmpThrottleCommand(const std::string& drive, uint64_t iops,
                               uint64_t bytes_per_sec);

// {"execute":"query-block"}
std::string QmpQueryBlockCommand();

// device_del of the device whose -device id is `id`: QEMU asks the guest to
// eject it (ACPI PCI hot-unplug) and removes it once the guest has.
std::string QmpDeviceDelCommand(const std::string& id);

// The throttle in force on drive `drive` from the reply line of
// query-block: its "iops" and "bps" (0 when the drive has no throttle).
// InvalidArgument when the reply does not list the drive.
Status ParseQmpDriveThrottle(const std::string& reply, const std::string& drive,
                             uint64_t* iops, uint64_t* bytes_per_sec);

// One line QEMU sent, classified.
enum class QmpReplyKind { kReturn, kError, kEvent, kGreeting, kOther };
// Stores the kind; for kError, *error gets "<class>: <desc>". Returns
// InvalidArgument when the line is not a JSON object.
Status ParseQmpReply(const std::string& line, QmpReplyKind* kind,
                     std::string* error);

class LabQmp {
 public:
  LabQmp() = default;
  ~LabQmp();
  LabQmp(const LabQmp&) = delete;
  LabQmp& operator=(const LabQmp&) = delete;

  // Connects to `socket_path` (retrying while it does not exist yet or
  // refuses) and reads QEMU's greeting, all within `timeout_ms`.
  Status Connect(const std::string& socket_path, int timeout_ms);

  // Sends `command` (one JSON object) and waits for its reply: OK for
  // {"return"} (the whole reply line into *reply when given), an error
  // naming QEMU's error class and text otherwise.
  Status Execute(const std::string& command, int timeout_ms,
                 std::string* reply = nullptr);

 private:
  Status ReadLine(int64_t deadline_ms, std::string* line);

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
};

}  // namespace tierbench

#endif  // TIERBENCH_LAB_LAB_QMP_H_
