#include "lab/lab_fill.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

#include "lab/fill_record.h"
#include "lab/lab_boot.h"
#include "lab/lab_disk.h"
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

std::string FillSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", s);
  return buf;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<std::string> FillLayers() {
  return {kLabLayerBcache, kLabLayerDmCache, kLabLayerWritecache};
}

Status CheckFill(uint64_t ssd_bytes, const std::vector<std::string>& layers,
                 const FillOptions& fill, uint64_t* cache_bytes) {
  Status s = CheckLabLayers(layers);
  if (!s.ok()) return s;
  const std::vector<std::string> ok = FillLayers();
  for (const std::string& l : layers) {
    if (std::find(ok.begin(), ok.end(), l) == ok.end()) {
      return Status::InvalidArgument("layer '" + l +
                                     "' has no fill scenario; layers with "
                                     "one: " +
                                     Join(ok));
    }
  }
  std::vector<LabPartition> parts;
  s = LabSsdLayout(ssd_bytes, 0, &parts);
  if (!s.ok()) return s;
  *cache_bytes = parts[0].sectors * 512;
  if (*cache_bytes < kFillMinCacheBytes) {
    return Status::InvalidArgument(
        "the SSD of " + FormatBytes(ssd_bytes) + " gives each layer a cache " +
        "of " + FormatBytes(*cache_bytes) +
        ", under the fill scenario's 64 MiB (a smaller cache fills within a "
        "second or two: no cliff to time); --ssd-size " +
        std::to_string(LabSsdBytesForCache(kFillMinCacheBytes) >> 20) +
        "M gives 64 MiB");
  }
  const double bytes_per_s = static_cast<double>(fill.rate_iops) * 4096;
  const double to_lowest =
      0.7 * static_cast<double>(*cache_bytes) / bytes_per_s;
  const double to_full = static_cast<double>(*cache_bytes) / bytes_per_s;
  if (to_lowest < 4) {
    return Status::InvalidArgument(
        "--fill-rate " + std::to_string(fill.rate_iops) + " reaches 70 % of " +
        FormatBytes(*cache_bytes) + " in " + FillSeconds(to_lowest) +
        " s, within the first seconds the cliff is judged against; a rate of " +
        "at most " +
        std::to_string(static_cast<uint64_t>(0.7 * *cache_bytes / 4 / 4096)) +
        " IOPS gives 4 s");
  }
  if (static_cast<double>(fill.runtime_s) < to_full + 4) {
    return Status::InvalidArgument(
        "--fill-runtime " + std::to_string(fill.runtime_s) +
        " s ends before 4 s past the " + FillSeconds(to_full) +
        " s in which the rate writes the whole cache; at least " +
        std::to_string(static_cast<uint64_t>(to_full + 5)) + " s");
  }
  return Status::Ok();
}

LabFill::LabFill(LabOptions options, FillOptions fill, std::ostream& console)
    : options_(std::move(options)), fill_(fill), console_(console) {}

FillRun LabFill::Run() {
  const LabOptions& o = options_;
  uint64_t cache_bytes = 0;
  Status ok = CheckFill(o.ssd_bytes, o.layers, fill_, &cache_bytes);
  if (!ok.ok()) {
    throw ConfigError("Bad --scenario fill: " + ok.message() +
                      ". Fix: a larger --ssd-size, or --layers from " +
                      Join(FillLayers()));
  }
  std::vector<LabPartition> hdd;
  Status hs = LabHddLayout(o.hdd_bytes, 0, &hdd);
  if (!hs.ok()) throw ConfigError("Bad --hdd-size: " + hs.message());
  // The region: twice the cache at least (no block written twice before
  // the cliff), within the origin.
  const uint64_t region =
      std::min<uint64_t>(4 * cache_bytes, hdd[0].sectors * 512) & ~4095ull;
  if (region < 2 * cache_bytes) {
    throw ConfigError("Bad --hdd-size: each origin region holds " +
                      FormatBytes(hdd[0].sectors * 512) +
                      ", less than twice the cache of " +
                      FormatBytes(cache_bytes) + ". Fix: a larger --hdd-size");
  }
  const std::string run_id =
      o.run_id.empty() ? FormatUtcNow("lab-fill-%Y%m%d-%H%M%S") : o.run_id;
  const std::string run_dir = CheckLabRunStart(o.results_dir, run_id, o.qemu);

  const LabGuest guest = EnsureLabGuest(o);
  const LabAccelChoice accel = ChooseLabAccelFor(o, guest);
  LabWorkspace ws(o);
  const std::string in = ws.in_dir();
  CopyLabScript(o, in, "fill");
  WriteLabTextFile(in + "/fill.fio",
                   FillJobText(region, fill_.runtime_s, fill_.rate_iops));
  WriteLabTextFile(in + "/lab.conf", LabConfText(o, run_id) +
                                         "SCENARIO=fill\nFILL_DRAIN_S=" +
                                         std::to_string(fill_.drain_s) + "\n");
  ws.PackInput();
  const LabMachine machine = ws.Machine(guest, accel.kvm);
  NoticeLabDriveCache(machine);
  LogNotice("lab: fill on " + Join(o.layers) + ": 4k random writes at " +
            std::to_string(fill_.rate_iops) + " IOPS for " +
            std::to_string(fill_.runtime_s) + " s into a " +
            FormatBytes(cache_bytes) + " cache (HDD at " +
            std::to_string(o.hdd_iops) + " IOPS), then " +
            std::to_string(fill_.drain_s) + " s watched; booting kernel " +
            guest.kernel_release + " in QEMU (" + (accel.kvm ? "KVM" : "TCG") +
            "); undilated");
  LabBootOptions boot_options;
  boot_options.timeout_s = o.timeout_s;
  const LabBootResult boot =
      BootScenarioGuest(ws, machine, boot_options, run_dir, "fill", console_);
  const std::string where = "; Console: " + run_dir + "/lab/console.log";
  FillRun run;
  run.run_dir = run_dir;
  run.guest_seconds = boot.seconds;
  const std::string lab = run_dir + "/lab/";
  const PowerCutRecord record =
      ParsePowerCutRecord(ReadLabTextFile(lab + "fill.txt"));
  for (const std::string& layer : o.layers) {
    auto read = [&](const std::string& path) {
      std::error_code ec;
      return fs::exists(path, ec) ? ReadLabTextFile(path) : std::string();
    };
    FillLayer row;
    Status s = FillLayerFromGuest(
        layer, record, read(lab + "fill/" + layer + ".json"),
        read(lab + "fill/" + layer + "-dirty.txt"), fill_.rate_iops, &row);
    if (!s.ok()) {
      throw SysError("The fill guest left incomplete results: " + s.message() +
                     ". Files: " + lab + "fill.txt, fill/" + where +
                     "; Fix: read the guest's steps there (a guest script "
                     "out of step with this tierbench: --guest-scripts "
                     "<its source tree>/scripts/lab)");
    }
    run.layers.push_back(std::move(row));
  }
  FillReporter reporter(run_dir, console_);
  reporter.OnFill(run);
  reporter.Finalize();
  char secs[32];
  std::snprintf(secs, sizeof(secs), "%.0f", run.guest_seconds);
  LogNotice("lab: fill done in " + std::string(secs) + " s (kernel " +
            guest.kernel_release + "). Results: " + run_dir +
            "/fill.csv, fill-series.csv, charts/fill.svg");
  return run;
}

}  // namespace tierbench
