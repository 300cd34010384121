#include "cli/lab_scenarios.h"

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/option_values.h"
#include "lab/lab_fault.h"
#include "lab/lab_fill.h"
#include "lab/lab_layers.h"
#include "lab/lab_power_cut.h"
#include "util/errors.h"

namespace tierbench {
namespace {

// The options of a scenario other than the compare (`flag`: --power-cut,
// --fault, --scenario fill): the compare's own are refused, --layers
// (default `layers`) is parsed, and the disk sizes and limits are read;
// --ssd-size keeps `ssd_default` unless given.
void ScenarioOptions(LabArgs& a, const std::string& flag,
                     std::vector<std::string> layers, uint64_t ssd_default) {
  LabOptions& o = a.options;
  for (const CLI::Option* opt : a.compare_only) {
    if (opt->count() > 0) {
      throw ConfigError(flag + " does not take " + opt->get_name() +
                        " (an option of the compare). Fix: drop " +
                        opt->get_name() + ", or drop " + flag);
    }
  }
  o.layers = std::move(layers);
  if (a.layers_option != nullptr && a.layers_option->count() > 0) {
    Status s = ParseLabLayers(a.layers, &o.layers);
    if (!s.ok()) {
      throw ConfigError("Bad value for --layers with " + flag + ": '" +
                        a.layers + "': " + s.message() +
                        ". Fix: e.g. --layers bcache,dm-writecache");
    }
  }
  o.hdd_bytes = SizeOption("--hdd-size", a.hdd_size);
  o.ssd_bytes = a.ssd_size_option != nullptr && a.ssd_size_option->count() > 0
                    ? SizeOption("--ssd-size", a.ssd_size)
                    : ssd_default;
  o.hdd_bytes_per_sec = SizeOption("--hdd-bw", a.hdd_bw);
  o.ssd_bytes_per_sec = SizeOption("--ssd-bw", a.ssd_bw);
}

// Refuses two scenarios in one run, and a scenario's options without it.
void OneScenario(const LabArgs& a) {
  if (int(a.power_cut) + int(!a.fault.empty()) + int(!a.scenario.empty()) > 1) {
    throw ConfigError(
        "--power-cut, --fault and --scenario fill are scenarios of their "
        "own. Fix: run them one after the other");
  }
  if (a.fault.empty() && a.fault_size_option != nullptr &&
      a.fault_size_option->count() > 0) {
    throw ConfigError(
        "--fault-size is an option of --fault. Fix: add --fault "
        "cache-fail|cache-unplug|origin-errors, or drop --fault-size");
  }
  if (a.power_cut && a.options.hang_setup_once) {
    throw ConfigError(
        "--power-cut does not take --hang-setup-once: its second boot, whose "
        "registration is the recovery it measures, is never booted again. "
        "Fix: drop --hang-setup-once");
  }
  for (const CLI::Option* opt : a.fill_only) {
    if (a.scenario.empty() && opt->count() > 0) {
      throw ConfigError(opt->get_name() +
                        " is an option of --scenario fill. Fix: add "
                        "--scenario fill, or drop " +
                        opt->get_name());
    }
  }
}

// --power-cut: the machine, path and layer options only.
void RunPowerCut(LabArgs& a) {
  ScenarioOptions(a, "--power-cut", PowerCutLayers(),
                  SizeOption("--ssd-size", a.ssd_size));
  Status s = CheckPowerCutLayers(a.options.layers);
  if (!s.ok()) {
    throw ConfigError("Bad value for --layers with --power-cut: '" + a.layers +
                      "': " + s.message() +
                      ". Fix: e.g. --layers bcache,dm-writecache");
  }
  LabPowerCut(a.options, std::cout).Run();
}

// --fault: the machine, path and layer options only, like --power-cut.
void RunFault(LabArgs& a) {
  ScenarioOptions(a, "--fault", FaultLayers(),
                  SizeOption("--ssd-size", a.ssd_size));
  Status s = CheckFault(a.fault, a.options.layers);
  if (s.ok()) s = CheckFaultSize(a.options.ssd_bytes, a.fault_mib);
  if (!s.ok()) {
    throw ConfigError("Bad --fault " + a.fault + " --layers " +
                      (a.layers.empty() ? "(default)" : a.layers) + ": " +
                      s.message() +
                      ". Fix: --fault cache-fail|cache-unplug|origin-errors "
                      "on bcache, "
                      "dm-cache or dm-writecache, with a --fault-size that "
                      "fits");
  }
  LabFault(a.options, a.fault, a.fault_mib, std::cout).Run();
}

// --scenario fill: the machine, path and layer options only; the SSD is
// sized for 64 MiB caches unless --ssd-size says otherwise.
void RunFill(LabArgs& a) {
  ScenarioOptions(a, "--scenario fill", FillLayers(),
                  LabSsdBytesForCache(kFillMinCacheBytes));
  uint64_t cache_bytes = 0;
  Status s =
      CheckFill(a.options.ssd_bytes, a.options.layers, a.fill, &cache_bytes);
  if (!s.ok()) {
    throw ConfigError("Bad --scenario fill: " + s.message() +
                      ". Fix: a larger --ssd-size, --layers from "
                      "bcache,dm-cache,dm-writecache, or the --fill-rate "
                      "and --fill-runtime it names");
  }
  LabFill(a.options, a.fill, std::cout).Run();
}

}  // namespace

bool RunLabScenario(LabArgs& a) {
  OneScenario(a);
  if (!a.scenario.empty()) {
    RunFill(a);
  } else if (!a.fault.empty()) {
    RunFault(a);
  } else if (a.power_cut) {
    RunPowerCut(a);
  } else {
    return false;
  }
  return true;
}

}  // namespace tierbench
