#include "lab/lab_power_cut.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "lab/lab_boot.h"
#include "lab/lab_guest.h"
#include "lab/lab_layers.h"
#include "lab/lab_workspace.h"
#include "lab/power_cut_record.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/log.h"
#include "util/units.h"

namespace tierbench {
namespace {

namespace fs = std::filesystem;

const char kPhaseWrite[] = "write";
const char kPhaseRecover[] = "recover";

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f", s);
  return buf;
}

// Copies `from` to `to` (replacing it); throws SysError naming the fix.
void CopyInput(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    throw SysError("Cannot copy an input of the power cut. Path: " + from +
                   "; SysErr: " + ec.message() +
                   "; Fix: pass --guest-scripts <source tree>/scripts/lab");
  }
}

// Throws SysError for a boot that did not end as `phase` must: boot 1 with
// the cut, boot 2 with "@@LAB:done rc=0".
void CheckBoot(const LabBootResult& boot, const std::string& phase,
               uint64_t timeout_s, const std::string& console) {
  const std::string where = "; Tail: " + JoinLabTail(boot.tail) +
                            LabKernelProblemsText(boot) +
                            "; Console: " + console;
  const std::string which =
      phase == kPhaseWrite ? "guest 1 (write, then cut)" : "guest 2 (recover)";
  if (!boot.guest_failure.empty()) {
    throw SysError("The power-cut " + which + " failed: " + boot.guest_failure +
                   where);
  }
  if (boot.timed_out) {
    throw SysError("The power-cut " + which +
                   " timed out. Timeout: " + std::to_string(timeout_s) + " s" +
                   where + "; Fix: raise --timeout");
  }
  if (phase == kPhaseWrite && !boot.cut) {
    throw SysError("The power-cut " + which +
                   " ended without asking for the cut. QemuExit: " +
                   std::to_string(boot.qemu_exit) + where);
  }
  if (phase == kPhaseRecover && boot.done_rc != 0) {
    throw SysError("The power-cut " + which + " did not finish. DoneCode: " +
                   std::to_string(boot.done_rc) +
                   "; QemuExit: " + std::to_string(boot.qemu_exit) + where);
  }
}

}  // namespace

std::vector<std::string> PowerCutLayers() { return AllLabLayers(); }

Status CheckPowerCutLayers(const std::vector<std::string>& layers) {
  Status s = CheckLabLayers(layers);
  if (!s.ok()) return s;
  const std::vector<std::string> ok = PowerCutLayers();
  std::string names;
  for (const std::string& l : ok) names += (names.empty() ? "" : ", ") + l;
  for (const std::string& l : layers) {
    if (std::find(ok.begin(), ok.end(), l) == ok.end()) {
      return Status::InvalidArgument(
          "layer '" + l + "' has no power cut; layers with one: " + names);
    }
  }
  return Status::Ok();
}

std::string PowerCutConfText(const LabOptions& options,
                             const std::string& run_id,
                             const std::string& phase) {
  return LabConfText(options, run_id) + "SCENARIO=power-cut\n" +
         "POWER_CUT_PHASE=" + phase + "\n" +
         "LR_ROUNDS=" + std::to_string(kLogReplayRounds) + "\n";
}

LabPowerCut::LabPowerCut(LabOptions options, std::ostream& console)
    : options_(std::move(options)), console_(console) {}

PowerCutRun LabPowerCut::Run() {
  const LabOptions& o = options_;
  Status layers_ok = CheckPowerCutLayers(o.layers);
  if (!layers_ok.ok()) {
    throw ConfigError("Bad --layers for --power-cut: " + layers_ok.message() +
                      ". Fix: pass --layers with some of " + [] {
                        std::string n;
                        for (const std::string& l : PowerCutLayers())
                          n += (n.empty() ? "" : ",") + l;
                        return n;
                      }());
  }
  const std::string run_id =
      o.run_id.empty() ? FormatUtcNow("lab-power-cut-%Y%m%d-%H%M%S") : o.run_id;
  const std::string run_dir = CheckLabRunStart(o.results_dir, run_id, o.qemu);

  const LabGuest guest = EnsureLabGuest(o);
  const LabAccelChoice accel = ChooseLabAccelFor(o, guest);
  LabWorkspace ws(o);
  const std::string in = ws.in_dir();
  CopyInput(LabScriptsDir(o) + "/power-cut", in + "/power-cut");
  WriteLabTextFile(in + "/power-cut-write.fio", PowerCutJobText(false));
  WriteLabTextFile(in + "/power-cut-verify.fio", PowerCutJobText(true));
  for (int r = 0; r < kLogReplayRounds; ++r) {
    const std::string base = in + "/log-replay-r" + std::to_string(r);
    WriteLabTextFile(base + "-write.fio", LogReplayJobText(r, false));
    WriteLabTextFile(base + "-verify.fio", LogReplayJobText(r, true));
  }
  LabBootOptions boot_options;
  boot_options.timeout_s = o.timeout_s;
  const LabMachine machine = ws.Machine(guest, accel.kvm);
  NoticeLabDriveCache(machine);
  LogNotice("lab: power cut on " + std::to_string(o.layers.size()) +
            " layer(s); booting kernel " + guest.kernel_release + " in QEMU (" +
            (accel.kvm ? "KVM" : "TCG") + "); undilated: HDD " +
            FormatBytes(o.hdd_bytes) + " at " + std::to_string(o.hdd_iops) +
            " IOPS, SSD " + FormatBytes(o.ssd_bytes) + " at " +
            std::to_string(o.ssd_iops) + " IOPS");

  // Guest 1: write with dirty data held in the cache, then the cut.
  WriteLabTextFile(in + "/lab.conf", PowerCutConfText(o, run_id, kPhaseWrite));
  ws.PackInput();
  const std::string console1 = ws.dir() + "/console-1.log";
  LabBootResult boot1;
  {
    std::ofstream log(console1);
    boot_options.kill_at_cut = true;
    // It builds its stacks from scratch: booted again after a kernel hang.
    std::string hung;
    boot1 = BootLabGuestAgainAfterAHang(
        ws, machine, boot_options, run_id, log,
        [this](const std::string& l) { console_ << l << std::endl; }, {},
        &hung);
  }
  // Guest 2: on the same image files, after the cut.
  auto keep_consoles = [&] {
    MakeLabDirs(run_dir + "/lab");
    std::error_code ec;
    fs::copy_file(console1, run_dir + "/lab/console-1.log",
                  fs::copy_options::overwrite_existing, ec);
    fs::copy_file(ws.dir() + "/console-2.log", run_dir + "/lab/console-2.log",
                  fs::copy_options::overwrite_existing, ec);
  };
  if (!boot1.cut) {
    keep_consoles();
    ws.StoreResults(false, run_dir);  // a hung first boot's lab/hang
  }
  CheckBoot(boot1, kPhaseWrite, o.timeout_s, run_dir + "/lab/console-1.log");
  LogNotice("lab: power cut: QEMU killed " + Seconds(boot1.cut_at_s) +
            " s after guest 1 started; booting guest 2 on the same disks");
  WriteLabTextFile(in + "/lab.conf",
                   PowerCutConfText(o, run_id, kPhaseRecover));
  ws.PackInput();
  LabBootResult boot2;
  {
    std::ofstream log(ws.dir() + "/console-2.log");
    boot_options.kill_at_cut = false;
    boot2 = BootLabGuest(
        machine, boot_options, log,
        [this](const std::string& l) { console_ << l << std::endl; });
  }

  // Results back: guest 2 wrote both boots' files.
  ws.StoreResults(boot2.done_rc >= 0, run_dir);
  keep_consoles();
  CheckBoot(boot2, kPhaseRecover, o.timeout_s, run_dir + "/lab/console-2.log");

  // The rows.
  PowerCutRun run;
  run.run_dir = run_dir;
  run.cut_after_s = boot1.cut_at_s;
  run.guest_seconds = boot1.seconds + boot2.seconds;
  const std::string lab = run_dir + "/lab/";
  const PowerCutRecord record =
      ParsePowerCutRecord(ReadLabTextFile(lab + "power-cut.txt"));
  for (const std::string& layer : o.layers) {
    const std::string base = lab + "power-cut/" + layer;
    PowerCutLayer row;
    Status s = PowerCutLayerFromGuest(
        layer, record, ReadLabTextFile(base + "-write.json"),
        ReadLabTextFile(base + "-origin.json"),
        ReadLabTextFile(base + "-verify.json"), &row);
    if (!s.ok()) {
      throw SysError(
          "The power-cut guest left incomplete results: " + s.message() +
          ". Files: " + lab + "power-cut.txt, power-cut/; Console: " + lab +
          "console-2.log");
    }
    run.layers.push_back(row);
  }
  for (const std::string& layer : o.layers) {
    std::vector<LogReplayMark> marks;
    Status s = LogReplayFromGuest(
        layer, record, kLogReplayRounds,
        [&](const std::string& name) {
          const std::string path = lab + "log-replay/" + name;
          std::error_code ec;
          return fs::exists(path, ec) ? ReadLabTextFile(path) : std::string();
        },
        &marks);
    if (!s.ok()) {
      throw SysError(
          "The log-replay check left incomplete results: " + s.message() +
          ". Files: " + lab + "power-cut.txt, log-replay/; Console: " + lab +
          "console-2.log");
    }
    run.log_replay.insert(run.log_replay.end(), marks.begin(), marks.end());
  }
  PowerCutReporter reporter(run_dir, console_);
  reporter.OnPowerCut(run);
  reporter.Finalize();

  std::string lost, unproven;
  for (const PowerCutLayer& l : run.layers) {
    const std::string verdict = PowerCutVerdict(l);
    if (verdict == "lost") lost += (lost.empty() ? "" : ", ") + l.layer;
    if (verdict == "unproven")
      unproven += (unproven.empty() ? "" : ", ") + l.layer;
  }
  for (const LogReplayMark& m : run.log_replay) {
    const std::string verdict = LogReplayVerdict(m);
    const std::string what = m.layer + " log replay at " + m.mark;
    if (verdict == "lost") lost += (lost.empty() ? "" : ", ") + what;
    if (verdict == "unproven")
      unproven += (unproven.empty() ? "" : ", ") + what;
  }
  if (!lost.empty()) {
    throw RunError(
        "Acknowledged writes did not survive the power cut. "
        "Layers: " +
        lost + "; Results: " + run_dir +
        "/power-cut.csv and log-replay.csv; Logs: " + lab +
        "power-cut/, log-replay/");
  }
  if (!unproven.empty()) {
    throw RunError(
        "The power cut proved nothing for some layers: no dirty data at the "
        "cut, or the origin already held every block. Layers: " +
        unproven + "; Results: " + run_dir +
        "/power-cut.csv and log-replay.csv; Record: " + lab + "power-cut.txt");
  }
  LogNotice("lab: power cut done in " + Seconds(run.guest_seconds) +
            " s (both guests, kernel " + guest.kernel_release +
            "). Results: " + run_dir +
            "/power-cut.csv (lab/ holds the "
            "guests' files, console-1.log and console-2.log)");
  return run;
}

}  // namespace tierbench
