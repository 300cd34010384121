#include "lab/lab_fault.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "lab/fault_record.h"
#include "lab/lab_boot.h"
#include "lab/lab_disk.h"
#include "lab/lab_guest.h"
#include "lab/lab_layers.h"
#include "lab/lab_qmp.h"
#include "lab/lab_workspace.h"
#include "lab/power_cut_record.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/log.h"
#include "util/units.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

constexpr int kFaultQmpMs = 10'000;

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace

std::vector<std::string> FaultKinds() {
  return {"cache-fail", "cache-unplug", "origin-errors"};
}

std::vector<std::string> FaultLayers() {
  return {kLabLayerBcache, kLabLayerDmCache, kLabLayerWritecache};
}

Status CheckFault(const std::string& kind,
                  const std::vector<std::string>& layers) {
  const std::vector<std::string> kinds = FaultKinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    return Status::InvalidArgument("fault '" + kind + "' is not one of " +
                                   Join(kinds, ", "));
  }
  Status s = CheckLabLayers(layers);
  if (!s.ok()) return s;
  const std::vector<std::string> ok = FaultLayers();
  for (const std::string& l : layers) {
    if (std::find(ok.begin(), ok.end(), l) == ok.end()) {
      return Status::InvalidArgument(
          "layer '" + l +
          "' has no fault scenario (its cache is an LVM cachevol the lab "
          "cannot switch to an error target); layers with one: " +
          Join(ok, ", "));
    }
  }
  return Status::Ok();
}

Status CheckFaultSize(uint64_t ssd_bytes, uint64_t mib) {
  std::vector<LabPartition> parts;
  Status s = LabSsdLayout(ssd_bytes, 0, &parts);
  if (!s.ok()) return s;
  const uint64_t cache = parts[0].sectors * 512;
  if (2 * (mib << 20) > cache / 4) {
    return Status::InvalidArgument(
        "--fault-size " + std::to_string(mib) +
        " (twice that with the "
        "writer's region) is over a quarter of the " +
        FormatBytes(cache) +
        " cache each layer gets, and dm-writecache writes back from half "
        "of it; at most " +
        std::to_string(cache / 8 >> 20) + " fits");
  }
  return Status::Ok();
}

std::string FaultConfText(const LabOptions& options, const std::string& run_id,
                          const std::string& kind, uint64_t mib) {
  std::string conf = LabConfText(options, run_id) +
                     "SCENARIO=fault\nFAULT=" + kind +
                     "\nFAULT_MIB=" + std::to_string(mib) + "\n";
  if (kind == "cache-unplug") {
    conf += "UNPLUG_SECTORS=" +
            std::to_string(FaultUnplugDiskBytes(options.ssd_bytes) /
                           kLabSectorBytes) +
            "\n";
  }
  return conf;
}

uint64_t FaultUnplugDiskBytes(uint64_t ssd_bytes) {
  std::vector<LabPartition> parts;
  if (!LabSsdLayout(ssd_bytes, 0, &parts).ok() || parts.size() < 2) return 0;
  return parts[1].sectors * kLabSectorBytes;  // dm-cache's: metadata + data
}

std::string FaultUnplugDriveId(const std::string& layer) {
  return "cache-" + layer;
}

LabFault::LabFault(LabOptions options, std::string kind, uint64_t mib,
                   std::ostream& console)
    : options_(std::move(options)),
      kind_(std::move(kind)),
      mib_(mib),
      console_(console) {}

FaultRun LabFault::Run() {
  const LabOptions& o = options_;
  Status ok = CheckFault(kind_, o.layers);
  if (!ok.ok()) {
    throw ConfigError("Bad --fault: " + ok.message() +
                      ". Fix: --fault cache-fail|cache-unplug|origin-errors "
                      "with --layers "
                      "from " +
                      Join(FaultLayers(), ","));
  }
  const std::string run_id =
      o.run_id.empty() ? FormatUtcNow("lab-fault-%Y%m%d-%H%M%S") : o.run_id;
  const std::string run_dir = CheckLabRunStart(o.results_dir, run_id, o.qemu);

  const LabGuest guest = EnsureLabGuest(o);
  const LabAccelChoice accel = ChooseLabAccelFor(o, guest);
  LabWorkspace ws(o);
  const std::string in = ws.in_dir();
  CopyLabScript(o, in, "fault");
  WriteLabTextFile(in + "/lab.conf", FaultConfText(o, run_id, kind_, mib_));
  ws.PackInput();
  LabMachine machine = ws.Machine(guest, accel.kvm);
  LabBootOptions boot_options;
  boot_options.timeout_s = o.timeout_s;
  if (kind_ == "cache-unplug") {
    // One cache disk per layer, always all three in FaultLayers()' order
    // (vde, vdf, vdg), each as large as dm-cache's SSD region, throttled as
    // the SSD, in the workspace: what the guest's unplug request removes.
    machine.qmp_socket = ws.qmp_socket();
    for (const std::string& layer : FaultLayers()) {
      LabDrive d = machine.ssd;
      d.id = FaultUnplugDriveId(layer);
      d.image = ws.dir() + "/" + d.id + ".img";
      d.direct_io = machine.hdd.direct_io;  // the HDD image's directory
      std::error_code ec;
      { std::ofstream(d.image).flush(); }
      fs::resize_file(d.image, FaultUnplugDiskBytes(o.ssd_bytes), ec);
      if (ec) {
        throw SysError("Cannot make the lab's unpluggable cache disk. Path: " +
                       d.image + "; SysErr: " + ec.message());
      }
      machine.hotplug.push_back(d);
    }
    const std::string socket = machine.qmp_socket;
    boot_options.unplug = [socket](const std::string& id) {
      LabQmp qmp;
      Status s = qmp.Connect(socket, kFaultQmpMs);
      if (s.ok()) s = qmp.Execute(QmpCapabilitiesCommand(), kFaultQmpMs);
      if (s.ok()) {
        s = qmp.Execute(QmpDeviceDelCommand(LabHotplugDeviceId(id)),
                        kFaultQmpMs);
      }
      if (!s.ok()) {
        throw SysError::From(
            "Cannot unplug the lab's cache disk " + id + " (QMP device_del)",
            s);
      }
    };
  }
  NoticeLabDriveCache(machine);
  LogNotice("lab: fault " + kind_ + " on " + Join(o.layers, ", ") + " (" +
            std::to_string(mib_) + " MiB dirty each); booting kernel " +
            guest.kernel_release + " in QEMU (" + (accel.kvm ? "KVM" : "TCG") +
            "); undilated");
  const LabBootResult boot =
      BootScenarioGuest(ws, machine, boot_options, run_dir, "fault", console_);
  const std::string where = "; Console: " + run_dir + "/lab/console.log";

  FaultRun run;
  run.run_dir = run_dir;
  run.fault = kind_;
  run.guest_seconds = boot.seconds;
  const std::string lab = run_dir + "/lab/";
  const PowerCutRecord record =
      ParsePowerCutRecord(ReadLabTextFile(lab + "fault.txt"));
  for (const std::string& layer : o.layers) {
    FaultLayer row;
    Status s = FaultLayerFromGuest(layer, record, &row);
    if (!s.ok()) {
      throw SysError("The fault guest left incomplete results: " + s.message() +
                     ". Files: " + lab + "fault.txt, fault/" + where +
                     "; Fix: read the guest's steps there (a guest script "
                     "out of step with this tierbench: --guest-scripts "
                     "<its source tree>/scripts/lab)");
    }
    run.layers.push_back(row);
  }
  FaultReporter reporter(run_dir, console_);
  reporter.OnFault(run);
  reporter.Finalize();
  char secs[32];
  std::snprintf(secs, sizeof(secs), "%.0f", run.guest_seconds);
  LogNotice("lab: fault done in " + std::string(secs) + " s (kernel " +
            guest.kernel_release + "). Results: " + run_dir +
            "/fault.csv (lab/ holds fault.txt, fault/*-dmesg.txt, "
            "console.log)");
  return run;
}

}  // namespace tierbench
