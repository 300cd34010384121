// Status: the error model of tierbench's inner layers (IO loop, sysfs
// helpers, parsers of single values). Modelled on leveldb::Status.
//
// A Status is either OK or carries a code and a message that already names
// the context ("open /dev/loop0: Permission denied"). Functions that can fail
// in those layers return a Status and write results through out-parameters.
// Setup layers convert a failed Status into a HarnessError (util/errors.h).
//
// Thread-safety: a Status is a value type; distinct objects may be used from
// distinct threads.
#ifndef TIERBENCH_UTIL_STATUS_H_
#define TIERBENCH_UTIL_STATUS_H_

#include <string>
#include <string_view>

namespace tierbench {

class Status {
 public:
  enum class Code {
    kOk = 0,
    kNotFound,
    kInvalidArgument,
    kIoError,
    kBusy,
    kUnsupported,
    kPermissionDenied,
    kTimedOut,
  };

  Status() = default;  // OK.

  static Status Ok() { return Status(); }
  static Status NotFound(std::string_view msg) { return {Code::kNotFound, msg}; }
  static Status InvalidArgument(std::string_view msg) {
    return {Code::kInvalidArgument, msg};
  }
  static Status IoError(std::string_view msg) { return {Code::kIoError, msg}; }
  static Status Busy(std::string_view msg) { return {Code::kBusy, msg}; }
  static Status Unsupported(std::string_view msg) {
    return {Code::kUnsupported, msg};
  }
  static Status PermissionDenied(std::string_view msg) {
    return {Code::kPermissionDenied, msg};
  }
  static Status TimedOut(std::string_view msg) { return {Code::kTimedOut, msg}; }

  // Maps an errno value to a Status whose message is
  // "<context>: <strerror(errnum)>". ENOENT -> kNotFound, EACCES/EPERM ->
  // kPermissionDenied, EBUSY -> kBusy, EINVAL -> kInvalidArgument,
  // EOPNOTSUPP/ENOTSUP -> kUnsupported, anything else -> kIoError.
  static Status FromErrno(std::string_view context, int errnum);

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // "OK" or "<CodeName>: <message>".
  std::string ToString() const;

 private:
  Status(Code code, std::string_view msg) : code_(code), message_(msg) {}

  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace tierbench

#endif  // TIERBENCH_UTIL_STATUS_H_
