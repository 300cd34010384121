#include "cache/dm/dm_device.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <set>

#include "cache/kernel_device_name.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string TargetLine(const DmTarget& t) {
  return std::to_string(t.start) + " " + std::to_string(t.length) + " " +
         t.type + (t.params.empty() ? "" : " " + t.params);
}

}  // namespace

std::shared_ptr<DmControl> DmControlOrDefault(std::shared_ptr<DmControl> dm) {
  if (dm) return dm;
  static std::shared_ptr<DmControl> real(NewLibDevmapperControl());
  return real;
}

bool DmDevice::Resolve(const Sysfs& sysfs, const std::string& device,
                       std::string* kernel_name, std::string* dm_name) {
  std::string name = KernelDeviceName(sysfs, device);
  auto read_name = [&](const std::string& kernel) {
    std::string text;
    if (!sysfs.Read("sys/block/" + kernel + "/dm/name", &text).ok()) {
      return false;
    }
    *kernel_name = kernel;
    *dm_name = text;
    return true;
  };
  if (!name.empty() && name.find('/') == std::string::npos && read_name(name)) {
    return true;
  }
  // A test root (or a node that could not be stat'ed): /dev/mapper/NAME.
  std::vector<std::string> blocks;
  if (!sysfs.List("sys/block", &blocks).ok()) return false;
  for (const std::string& b : blocks) {
    std::string text;
    if (b.rfind("dm-", 0) == 0 &&
        sysfs.Read("sys/block/" + b + "/dm/name", &text).ok() && text == name) {
      return read_name(b);
    }
  }
  return false;
}

DmDevice::DmDevice(Sysfs sysfs, std::shared_ptr<DmControl> dm,
                   std::string device)
    : sysfs_(std::move(sysfs)),
      dm_(DmControlOrDefault(std::move(dm))),
      device_(std::move(device)) {
  if (!Resolve(sysfs_, device_, &kernel_name_, &dm_name_)) {
    throw SysError("not a device-mapper device. Device: " + device_ +
                   "; Fix: give the dm device (/dev/mapper/NAME)");
  }
}

std::string DmDevice::Uuid() const {
  std::string text;
  if (!sysfs_.Read("sys/block/" + kernel_name_ + "/dm/uuid", &text).ok()) {
    return "";
  }
  return text;
}

DmTarget DmDevice::Target(const std::string& type) const {
  std::vector<DmTarget> table;
  Status s = dm_->GetTable(dm_name_, &table);
  if (!s.ok()) {
    throw SysError::From("cannot read the table of dm device " + dm_name_, s);
  }
  if (table.size() != 1 || table[0].type != type) {
    throw SysError("dm device " + dm_name_ + " is not a single " + type +
                   " target. Table: " + TableText() + "; Fix: give the " +
                   type + " device itself");
  }
  return table[0];
}

DmTarget DmDevice::StatusOf(const std::string& type) const {
  std::vector<DmTarget> status;
  Status s = dm_->GetStatus(dm_name_, &status);
  if (!s.ok()) {
    throw SysError::From("cannot read the status of dm device " + dm_name_, s);
  }
  if (status.size() != 1 || status[0].type != type) {
    throw SysError("dm device " + dm_name_ + " has no single " + type +
                   " status line");
  }
  return status[0];
}

std::string DmDevice::TableText() const {
  std::vector<DmTarget> table;
  if (!dm_->GetTable(dm_name_, &table).ok()) return "(unreadable)";
  std::string out;
  for (const DmTarget& t : table) {
    out += (out.empty() ? "" : " | ") + TargetLine(t);
  }
  return out;
}

void DmDevice::Reload(const DmTarget& target, const std::string& why) {
  Status s = dm_->Reload(dm_name_, {target});
  if (!s.ok()) {
    throw SysError::From("the kernel refused a table reload of " + dm_name_ +
                             " (" + why + "). Table: " + TargetLine(target),
                         s);
  }
}

void DmDevice::Message(const std::string& message) {
  Status s = dm_->Message(dm_name_, 0, message);
  if (!s.ok()) {
    throw SysError::From(
        "the kernel refused the message '" + message + "' to " + dm_name_, s);
  }
}

std::string DmDevice::KernelNameOf(const std::string& token) const {
  if (token.find(':') != std::string::npos &&
      token.find('/') == std::string::npos) {
    std::string canonical;
    if (sysfs_.Resolve("sys/dev/block/" + token, &canonical).ok()) {
      return BaseName(canonical);
    }
    return token;
  }
  return KernelDeviceName(sysfs_, token);
}

std::vector<std::string> DmDevice::Members() const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::vector<std::string> todo = {kernel_name_};
  while (!todo.empty()) {
    const std::string name = todo.back();
    todo.pop_back();
    if (!seen.insert(name).second) continue;
    std::vector<std::string> slaves;
    if (sysfs_.List("sys/class/block/" + name + "/slaves", &slaves).ok()) {
      for (const std::string& s : slaves) todo.push_back(s);
    }
    if (name != kernel_name_) out.push_back(name);
  }
  out.push_back(kernel_name_);
  return out;
}

BlockStat DmDevice::Stat(const std::string& name) const {
  BlockStat st;
  Status s = ReadBlockStat(sysfs_, name, &st);
  if (!s.ok()) throw SysError::From("cannot read block stats of " + name, s);
  return st;
}

}  // namespace tierbench
