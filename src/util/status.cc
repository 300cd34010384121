#include "util/status.h"

#include <cerrno>
#include <cstring>

namespace tierbench {

Status Status::FromErrno(std::string_view context, int errnum) {
  std::string msg(context);
  msg += ": ";
  msg += std::strerror(errnum);
  switch (errnum) {
    case ENOENT:
    case ENODEV:
    case ENXIO:
      return Status(Code::kNotFound, msg);
    case EACCES:
    case EPERM:
    case EROFS:
      return Status(Code::kPermissionDenied, msg);
    case EBUSY:
      return Status(Code::kBusy, msg);
    case EINVAL:
      return Status(Code::kInvalidArgument, msg);
    case EOPNOTSUPP:
      return Status(Code::kUnsupported, msg);
    case ETIMEDOUT:
      return Status(Code::kTimedOut, msg);
    default:
      return Status(Code::kIoError, msg);
  }
}

std::string Status::ToString() const {
  const char* name = "OK";
  switch (code_) {
    case Code::kOk:
      return "OK";
    case Code::kNotFound:
      name = "NotFound";
      break;
    case Code::kInvalidArgument:
      name = "InvalidArgument";
      break;
    case Code::kIoError:
      name = "IoError";
      break;
    case Code::kBusy:
      name = "Busy";
      break;
    case Code::kUnsupported:
      name = "Unsupported";
      break;
    case Code::kPermissionDenied:
      name = "PermissionDenied";
      break;
    case Code::kTimedOut:
      name = "TimedOut";
      break;
  }
  return std::string(name) + ": " + message_;
}

}  // namespace tierbench
