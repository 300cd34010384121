// `tierbench trace-stats TRACE`: the profile of a block IO trace (a fio
// iolog, blkparse output, an MSR Cambridge, Tencent CBS or Alibaba CSV;
// tracefile/trace_reader.h, detected from its content): footprint, mix, sizes,
// sequential share, stack distances, the LRU miss-ratio curve and Belady's
// OPT (trace/trace_profile.h does the work; this file declares the options
// and writes the files).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/help_format.h"
#include "cli/option_values.h"
#include "present/charts/mrc_chart.h"
#include "trace/trace_profile.h"
#include "tracefile/trace_reader.h"
#include "util/errors.h"
#include "util/result_dir.h"
#include "util/strings.h"

namespace tierbench {
namespace {

struct TraceStatsArgs {
  std::string trace;
  std::string block_size = "4k";
  uint64_t exact_limit = kDefaultExactLimit;
  double sample_rate = 0;
  std::string cache_sizes;
  std::string csv;
  std::string svg;
  std::string format = "auto";
  std::string volume;
};

TraceStatsOptions TraceStatsOptionsOf(const TraceStatsArgs& a) {
  TraceStatsOptions o;
  const uint64_t bs = SizeOption("--block-size", a.block_size);
  if (bs == 0 || bs > (uint64_t{1} << 30)) {
    throw ConfigError("Bad value for --block-size. Value: " + a.block_size +
                      "; Problem: outside 1 byte .. 1 GiB; Fix: a block "
                      "size like 4k (the cache's block or page size)");
  }
  o.block_size = static_cast<uint32_t>(bs);
  o.exact_limit = a.exact_limit;
  o.sample_rate = a.sample_rate;
  if (!a.cache_sizes.empty()) {
    for (const std::string& item : SplitTrimmed(a.cache_sizes, ',')) {
      const uint64_t bytes = SizeOption("--cache-sizes", item);
      if (bytes == 0) {
        throw ConfigError(
            "Bad value for --cache-sizes. Value: " + a.cache_sizes +
            "; Problem: a cache of 0 bytes; Fix: sizes like "
            "64M,256M,1G");
      }
      o.cache_sizes.push_back(bytes);
    }
  }
  return o;
}

void RunTraceStats(const TraceStatsArgs& a) {
  const TraceStatsOptions options = TraceStatsOptionsOf(a);
  TraceReadOptions read;
  read.format = *TraceFormatOfWord(a.format);  // CLI11 checked the word
  read.volume = a.volume;
  TraceProfile profile;
  {
    const LoadedTrace trace = LoadTrace(a.trace, read);
    profile = ProfileTrace(trace.log, options);
    // An iolog keeps its "fio iolog vN" line and its sync/trim wording.
    if (trace.format != TraceFormat::kIoLog) {
      profile.format = trace.Description();
    }
  }
  std::cout << FormatTraceProfile(profile);
  if (!a.csv.empty()) {
    TraceMrcTable(profile).WriteFile(a.csv);
    std::cout << "CSV: " << a.csv << "\n";
  }
  if (!a.svg.empty()) {
    WriteFileAtomically(a.svg, MrcChartSvg(profile),
                        "check that the folder of --svg exists and is "
                        "writable");
    std::cout << "SVG: " << a.svg << "\n";
  }
}

}  // namespace

void RegisterTraceStatsCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<TraceStatsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "trace-stats",
      CommandDescription(
          "Profile a block IO trace (fio iolog, blkparse output, blktrace "
          "binary, MSR Cambridge, Tencent CBS or Alibaba CSV, CloudPhysics "
          "vscsi, libCacheSim oracleGeneral): footprint, read/write mix, "
          "sizes, sequential share, reuse distances, the LRU miss-ratio "
          "curve and Belady's optimal hit ratio",
          "tierbench trace-stats app.iolog --cache-sizes 64M,256M,1G "
          "--csv mrc.csv --svg mrc.svg"));
  cmd->add_option("TRACE", a->trace,
                  "a block trace: fio iolog v2/v3, blkparse text, blktrace "
                  "binary (DEVICE.blktrace.N: every CPU's file is read), MSR "
                  "Cambridge, Tencent CBS or Alibaba CSV, vscsi, "
                  "oracleGeneral; .zst is decompressed (see --format)")
      ->required();
  cmd->add_option("--format", a->format,
                  "the trace's format: auto (from its content), iolog, "
                  "blkparse, msr, cbs, alibaba, blktrace, vscsi or oracle")
      ->check(CLI::IsMember({"auto", "iolog", "blkparse", "msr", "cbs",
                             "alibaba", "blktrace", "vscsi", "oracle"}))
      ->default_val("auto");
  cmd->add_option("--volume", a->volume,
                  "the volume of a multi-volume trace to profile: HOST_DISK "
                  "(msr), VolumeID (cbs), device_id (alibaba), MAJ,MIN "
                  "(blkparse, blktrace)");
  cmd->add_option("--block-size", a->block_size,
                  "cache block size: a request of several blocks is that "
                  "many block accesses")
      ->default_val("4k");
  cmd->add_option("--exact-limit", a->exact_limit,
                  "above this many block accesses the curve is sampled "
                  "(SHARDS at rate R = limit / accesses)")
      ->default_val(kDefaultExactLimit);
  cmd->add_option("--sample-rate", a->sample_rate,
                  "SHARDS sampling rate in (0, 1] whatever the trace's size "
                  "(default: exact up to --exact-limit)")
      ->check(CLI::Range(1e-6, 1.0));
  cmd->add_option("--cache-sizes", a->cache_sizes,
                  "comma-separated cache sizes (64M,256M,1G) at which Belady's "
                  "OPT hit ratio is computed and the LRU ratio printed");
  cmd->add_option("--csv", a->csv,
                  "write the miss-ratio curve as CSV (schema_version, "
                  "cache_bytes, lru_miss_ratio, lru_hit_ratio, "
                  "opt_hit_ratio)");
  cmd->add_option("--svg", a->svg,
                  "write the LRU miss-ratio curve with the OPT points as an "
                  "SVG chart");
  cmd->footer(
      "DESCRIPTION\n"
      "  Stack distances are exact (Fenwick tree, O(N log N)) up to "
      "--exact-limit block\n"
      "  accesses; above it, or with --sample-rate, SHARDS_adj (FAST'15) "
      "samples blocks\n"
      "  by a hash and scales by 1/R. OPT is Belady's MIN (demand fetch). "
      "Ratios are\n"
      "  per block access, cold misses included.\n"
      "\n"
      "FORMATS (told from the content with --format auto)\n"
      "  iolog     fio iolog v2/v3\n"
      "  blkparse  blkparse text: MAJ,MIN CPU SEQ SECS PID ACTION RWBS "
      "SECTOR + N\n"
      "            (ISSUE D events, else COMPLETE C; 512-byte sectors)\n"
      "  msr       Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
      "ResponseTime\n"
      "  cbs       Timestamp,Offset,Size,IOType,VolumeID\n"
      "  alibaba   device_id,opcode,offset,length,timestamp\n"
      "  blktrace  blktrace binary (struct blk_io_trace, either byte order):"
      " DEVICE.blktrace.N\n"
      "            (every CPU's file, merged by time) or a blkparse -d dump;"
      " D events, else C\n"
      "  vscsi     CloudPhysics vscsi, version 1 or 2 records (lbn in "
      "sectors, SCSI cmd)\n"
      "  oracle    libCacheSim oracleGeneral (24-byte records, obj_id a 4 KiB"
      " block);\n"
      "            no direction in the format: every request is a read\n"
      "  A file starting with a zstd frame (.zst) is decompressed first.\n"
      "  A trace of several volumes needs --volume.\n"
      "\n"
      "EXAMPLE\n"
      "  tierbench trace-stats --cache-sizes 64M,256M,1G --csv mrc.csv "
      "--svg mrc.svg trace.iolog\n"
      "  tierbench trace-stats --volume hm_0 hm_0.csv\n"
      "\n"
      "EXIT STATUS\n"
      "  0 profiled; 2 unreadable or malformed trace, or a bad option "
      "value; 3 cannot\n"
      "  write --csv or --svg.");
  cmd->callback([a, exit_code]() {
    RunTraceStats(*a);
    *exit_code = kExitOk;
  });
}

}  // namespace tierbench
