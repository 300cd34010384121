#include "db/pgbench_report.h"

#include <cstdio>
#include <string>

namespace tierbench {

namespace {

std::string Format(const char* fmt, double a, double b = 0) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), fmt, a, b);
  return buf;
}

}  // namespace

void WritePgbenchSummary(const TpcbDriverConfig& cfg, const TpcbRunResult& r,
                         std::ostream& out) {
  const DirectionStats& d = r.job.dir[static_cast<int>(
      BuiltinWrites(cfg.builtin) ? IoDir::kWrite : IoDir::kRead)];
  out << "transaction type: <builtin: " << BuiltinDescription(cfg.builtin)
      << ">\n";
  out << "scaling factor: " << cfg.scale << '\n';
  out << "query mode: " << QueryModeName(cfg.query_mode) << '\n';
  out << "number of clients: " << cfg.clients << '\n';
  out << "number of threads: " << cfg.threads << '\n';
  out << "maximum number of tries: 1\n";
  if (cfg.duration_ns > 0) {
    out << "duration: " << cfg.duration_ns / 1000000000ull << " s\n";
    out << "number of transactions actually processed: " << r.transactions
        << '\n';
  } else {
    const uint64_t planned =
        cfg.transactions_per_client * static_cast<uint64_t>(cfg.clients);
    out << "number of transactions per client: " << cfg.transactions_per_client
        << '\n';
    out << "number of transactions actually processed: " << r.transactions
        << '/' << planned << '\n';
  }
  const uint64_t all = r.transactions + r.failed;
  out << "number of failed transactions: " << r.failed
      << Format(" (%.3f%%)", all ? 100.0 * static_cast<double>(r.failed) /
                                       static_cast<double>(all)
                                 : 0.0)
      << '\n';
  out << Format("latency average = %.3f ms", d.lat.mean() / 1e6) << '\n';
  out << Format("latency stddev = %.3f ms", d.lat.stddev() / 1e6) << '\n';
  out << Format("initial connection time = %.3f ms",
                static_cast<double>(r.connect_ns) / 1e6)
      << '\n';
  out << Format("tps = %f (without initial connection time)", r.Tps()) << '\n';
  out << Format("latency percentiles: p50 = %.3f ms, p90 = %.3f ms",
                static_cast<double>(d.lat_hist.Percentile(50)) / 1e6,
                static_cast<double>(d.lat_hist.Percentile(90)) / 1e6)
      << Format(", p99 = %.3f ms, p99.9 = %.3f ms",
                static_cast<double>(d.lat_hist.Percentile(99)) / 1e6,
                static_cast<double>(d.lat_hist.Percentile(99.9)) / 1e6)
      << Format(", max = %.3f ms", static_cast<double>(d.lat_hist.max()) / 1e6)
      << '\n';
}

}  // namespace tierbench
