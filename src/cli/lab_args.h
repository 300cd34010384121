// LabArgs: the values of `tierbench lab`'s options as CLI11 parses them
// (cli/lab_command.cc declares the options), shared with the scenarios'
// runners (cli/lab_scenarios.h). A plain struct, filled once per command.
#ifndef TIERBENCH_CLI_LAB_ARGS_H_
#define TIERBENCH_CLI_LAB_ARGS_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "lab/lab_fill.h"
#include "lab/lab_runner.h"

namespace tierbench {

struct LabArgs {
  LabOptions options;
  bool quick = false;
  bool full = false;  // --full: the rest of the story with --quick
  // 2G: four 511 MiB HDD regions; 1041M: a 256 MiB cache for every layer
  // (LabSsdBytesForCache) plus dm-cache's metadata.
  std::string hdd_size = "2G", ssd_size = "1041M";
  std::string layers;  // --layers, when given
  CLI::Option* layers_option = nullptr;
  std::string hdd_bw = "120000000", ssd_bw = "0";
  std::string runtime, ramp_time, size, repeat, cache_state, stats_lag;
  std::string working_set;
  bool capture_replay = false;  // --capture-replay, passed to compare
  std::vector<std::string> extra;
  bool power_cut = false;
  std::string fault;       // --fault KIND ("" when not given)
  uint64_t fault_mib = 8;  // --fault-size, MiB
  std::string scenario;    // --scenario fill ("" when not given)
  FillOptions fill;        // --fill-runtime, --fill-rate, --fill-drain
  CLI::Option* ssd_size_option = nullptr;
  // Options of one scenario each, refused without it.
  CLI::Option* fault_size_option = nullptr;
  std::vector<CLI::Option*> fill_only;
  std::string accel = "auto", dilation = "auto";
  bool kvm = false;  // --kvm: --accel kvm
  int guests = 1;    // --guests: the cells split over guests side by side
  // Options of the compare scenario, which --power-cut refuses.
  std::vector<CLI::Option*> compare_only;
};

}  // namespace tierbench

#endif  // TIERBENCH_CLI_LAB_ARGS_H_
