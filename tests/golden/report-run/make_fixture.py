#!/usr/bin/env python3
"""Writes the fake run folder of the report tests (runs.csv schema 8,
comparison.csv schema 6; the SSD wear columns are empty, as the fixture's
cells have no block counters to make them of, manifest.json schema 2, series.csv schema 1) with fixed
figures: raw HDD
and SSD, four bcache modes and one dm-cache mode, three workloads (one with a
read and a write series), three repetitions, one failed cell, warnings, cells
judged invalid (the bcache caching modes' cold reads on randread-4k) and
groups within noise. comparison.csv follows record/comparison.cc
(median, min, max, spread, change vs HDD/SSD, position, noise = min-max
ranges overlap, iops_sustained = IOs / (runtime + drain_after_s), its median
and change vs HDD/SSD), and the 95% confidence intervals independently of
stats/confidence.cc: Welch's t on the log values with SciPy's t quantile
(needs SciPy: Debian python3-scipy). Run from this directory:
/usr/bin/python3 make_fixture.py

With the argument "b" it writes ../report-run-b instead: the same run on the
host lab-guest-b (run id fixture-b) where writeback does 20% fewer IOPS on
randwrite-4k; the merged-report tests set the two side by side."""
import csv, json, math, os, statistics, sys
from scipy import stats

RESULT_COLS = ("job,group,jobs,direction,unit,ios,bytes,runtime_ms,iops,bw_mib_s,"
  "slat_min_us,slat_mean_us,slat_max_us,slat_stddev_us,clat_min_us,clat_mean_us,"
  "clat_max_us,clat_stddev_us,lat_min_us,lat_mean_us,lat_max_us,lat_stddev_us,"
  "clat_p1_us,clat_p5_us,clat_p10_us,clat_p20_us,clat_p30_us,clat_p40_us,clat_p50_us,"
  "clat_p60_us,clat_p70_us,clat_p80_us,clat_p90_us,clat_p95_us,clat_p99_us,clat_p99_5_us,"
  "clat_p99_9_us,clat_p99_95_us,clat_p99_99_us,lat_p50_us,lat_p99_us,"
  "sched_lat_min_us,sched_lat_mean_us,sched_lat_max_us,sched_lat_stddev_us,"
  "sched_lat_p50_us,sched_lat_p99_us,sched_lat_p99_9_us,iops_min,iops_mean,"
  "iops_max,iops_stddev,iops_samples,ss_attained,ss_criterion,usr_cpu_s,sys_cpu_s,"
  "errors,error").split(",")
# runs.csv's metric columns: iops_sustained after iops.
RUN_RESULT_COLS = RESULT_COLS[:RESULT_COLS.index("iops") + 1] + ["iops_sustained"] + \
    RESULT_COLS[RESULT_COLS.index("iops") + 1:]
TIMING = ["cell_wall_s", "harness_overhead_pct", "settled", "window_s", "cpus",
  "cpu_busy_pct", "cpu_steal_pct", "cpu_iowait_pct", "target_device", "target_busy_pct",
  "target_in_flight_before", "target_flush_ios", "target_read_bytes", "other_disk_ios",
  "db_size_bytes", "shared_buffers_bytes", "mem_total_bytes", "db_restarted", "db_reused",
  "db_server_cpu_s"]
LEAD = ["run_id", "mode", "layer", "cache_mode_readback", "workload", "working_set",
        "working_set_bytes", "repetition", "target", "cache_state", "valid",
        "invalid_reasons"]
COUNTERS = ["read_hits", "read_misses", "read_hit_ratio_pct", "write_hits", "write_misses",
  "bypassed_ios", "bypassed_bytes", "promotions", "demotions", "dirty_before_bytes",
  "dirty_after_bytes", "dirty_growth_bytes", "drain_before_s", "drain_after_s",
  "counters_after_s",
  "stack_read_bytes", "stack_write_bytes", "hdd_read_bytes", "hdd_write_bytes",
  "ssd_read_bytes", "ssd_write_bytes", "ssd_write_per_app_write", "ssd_write_per_app_byte",
  "hdd_bytes_saved", "ssd_life_days", "cache_bytes", "cache_block_bytes", "warm_passes",
  "warm_s", "warm_hit_ratio_pct", "warm_steady", "settings",
  "bcache_bypass_hits", "bcache_bypass_misses", "bcache_sequential_cutoff",
  "bcache_congested_read_threshold_us", "bcache_congested_write_threshold_us",
  "bcache_cache_available_percent", "dm_cache_policy", "dm_cache_migration_threshold",
  "dm_cache_used_blocks", "dm_cache_dirty_blocks", "dm_writecache_high_watermark",
  "dm_writecache_free_blocks", "dm_writecache_total_blocks", "dm_writecache_writes_blocked",
  "lvmcache_policy", "lvmcache_migration_threshold", "lvmcache_used_blocks",
  "lvmcache_dirty_blocks", "verify_blocks", "verify_errors", "finding_rules", "warnings"]

MODES = [  # name, layer, readback, target
  ("hdd", "raw", "", "/dev/vdb"), ("ssd", "raw", "", "/dev/vdc"),
  ("writethrough", "bcache", "writethrough", "/dev/bcache0"),
  ("writeback", "bcache", "writeback", "/dev/bcache0"),
  ("writearound", "bcache", "writearound", "/dev/bcache0"),
  ("none", "bcache", "none", "/dev/bcache0"),
  ("dm-cache-writeback", "dm-cache", "writeback", "/dev/mapper/tb-dmcache")]
# workload -> [(job, direction)]
WORKLOADS = {"randread-4k": [("randread-4k", "read")],
             "randwrite-4k": [("randwrite-4k", "write")],
             "anandtech-mix": [("mix-16k", "read"), ("mix-16k", "write")]}
# (mode, workload, job, dir) -> IOPS of repetitions 1..3
IOPS = {
  "hdd": {"randread-4k": [150.2, 148.7, 151.9], "randwrite-4k": [149.1, 147.3, 150.6],
          ("anandtech-mix", "read"): [77.8, 79.1, 76.4], ("anandtech-mix", "write"): [67.5, 68.9, 66.2]},
  "ssd": {"randread-4k": [12891.1, 12650.4, 13020.7], "randwrite-4k": [11960.6, 11720.3, 12105.9],
          ("anandtech-mix", "read"): [7092.6, 6980.2, 7150.8], ("anandtech-mix", "write"): [4741.3, 4690.0, 4802.5]},
  "writethrough": {"randread-4k": [149.9, 152.3, 147.5], "randwrite-4k": [146.2, 148.0, 144.9],
          ("anandtech-mix", "read"): [78.9, 80.2, 77.6], ("anandtech-mix", "write"): [68.9, 67.0, 70.1]},
  "writeback": {"randread-4k": [151.3, 149.8, 153.0], "randwrite-4k": [4388.4, 4255.1, 4431.7],
          ("anandtech-mix", "read"): [165.1, 171.4, 160.2], ("anandtech-mix", "write"): [123.9, 130.4, 119.8]},
  "writearound": {"randread-4k": [148.8, 150.9, 146.1], "randwrite-4k": [148.8, 151.2, 146.9],
          ("anandtech-mix", "read"): [79.3, 78.1, 80.8], ("anandtech-mix", "write"): [66.3, 65.1, 67.9]},
  "none": {"randread-4k": [148.7, 150.0, 147.2], "randwrite-4k": [149.6, None, 148.1],
          ("anandtech-mix", "read"): [77.1, 78.4, 76.0], ("anandtech-mix", "write"): [67.8, 66.6, 69.0]},
  "dm-cache-writeback": {"randread-4k": [312.5, 305.8, 318.9], "randwrite-4k": [3120.4, 3050.2, 3188.7],
          ("anandtech-mix", "read"): [240.2, 251.7, 236.4], ("anandtech-mix", "write"): [180.3, 174.6, 186.2]},
}
DRAIN = {"writeback": {"randwrite-4k": [51.2, 49.8, 53.4], "anandtech-mix": [12.4, 11.9, 13.1]},
         "dm-cache-writeback": {"randwrite-4k": [38.6, 40.1, 37.2], "anandtech-mix": [8.2, 8.8, 7.9]}}
# (mode, workload) -> (rule, severity, text)
WARN = {("writearound", "anandtech-mix"): ("bcache.cutoff", "caution", "42% of IO bypassed the cache (sequential_cutoff = 4.0M): that part measured the HDD (fix: sequential_cutoff=0 in the mode file)"),
        ("writeback", "anandtech-mix"): ("bcache.cutoff", "caution", "28% of IO bypassed the cache (sequential_cutoff = 4.0M): that part measured the HDD (fix: sequential_cutoff=0 in the mode file)")}
COLD = "the cold cache sent 100% of the 17.6MiB read to the HDD (hdd_read_bytes against stack_read_bytes, 0 read hits, 4500 misses): this cell measured the origin, not what the cache does once settled (fix: --cache-state warm-until-steady, the default)"
for m in ("writethrough", "writeback", "writearound"):
    WARN[(m, "randread-4k")] = ("cold-reads", "invalid", COLD)
FAILED = {("none", "randwrite-4k", 2): "psync: pwrite at offset 4096: Input/output error"}

VARIANT_B = len(sys.argv) > 1 and sys.argv[1] == "b"
OUT = "../report-run-b" if VARIANT_B else "."
RUN_ID, HOST = ("fixture-b", "lab-guest-b") if VARIANT_B else ("fixture", "lab-guest")
if VARIANT_B:
    IOPS["writeback"]["randwrite-4k"] = [round(v * 0.8, 1) for v in IOPS["writeback"]["randwrite-4k"]]
    os.makedirs(OUT, exist_ok=True)

def f3(v): return "%.3f" % v

def latency(iops, seed):
    # clat percentiles (us) from the IOPS at queue depth 1, a fixed shape.
    base = 1e6 / iops
    shape = [0.3, 0.45, 0.55, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.35, 1.6, 1.9, 2.8, 3.4, 5.1, 6.0, 7.5]
    return [base * s * (1 + seed * 0.01) for s in shape]

def iops_of(mode, w, d):
    t = IOPS[mode]
    return t[w] if w in t else t[(w, d)]

rows = []
for rep in (1, 2, 3):
    for w, series in WORKLOADS.items():
        for name, layer, readback, target in MODES:
            raw = layer == "raw"
            fail = FAILED.get((name, w, rep))
            drain = "" if raw else f3(DRAIN.get(name, {}).get(w, [0.0, 0.0, 0.0])[rep - 1])[:-2]
            finding = WARN.get((name, w))
            warn = finding[2] if finding else ""
            invalid = finding is not None and finding[1] == "invalid"
            counters = {c: "" for c in COUNTERS}
            if not raw:
                counters.update({"drain_before_s": "0.0", "drain_after_s": drain,
                                 "counters_after_s": "15.0" if layer == "bcache" else "0.0",
                                 "cache_bytes": "1073741824", "cache_block_bytes": "4096",
                                 "warm_passes": "0", "settings": "cache_mode=" + readback})
            counters["warnings"] = warn
            counters["finding_rules"] = finding[0] + ":" + finding[1] if finding else ""
            lead = [RUN_ID, name, layer, readback, w, "", "", str(rep), target,
                    "" if raw else "cold", "no" if invalid else "yes",
                    finding[0] + ": " + finding[2] if invalid else ""]
            # Cell wall: warm-up free cold cells, 30 s of IO, the drain and
            # 2.5 s (raw: 1.5 s) of harness time.
            drain_s = 0.0 if raw else float(drain or 0)
            wall = 30.0 + drain_s + (1.5 if raw else 2.5)
            timing = {c: "" for c in TIMING}
            timing.update({"cell_wall_s": f3(wall),
                      "harness_overhead_pct": "%.1f" % (100 * (wall - 30.0 - drain_s) / wall),
                      "settled": "" if raw else "0", "window_s": "30.104", "cpus": "2",
                      "cpu_busy_pct": "21.4", "cpu_steal_pct": "0.0", "cpu_iowait_pct": "38.2",
                      "target_device": target[5:].replace("mapper/tb-dmcache", "dm-3"),
                      "target_busy_pct": "99.1", "target_in_flight_before": "0",
                      "target_flush_ios": "0", "target_read_bytes": "0", "other_disk_ios": "0"})
            for job, d in series:
                v = iops_of(name, w, d)[rep - 1]
                res = {c: "" for c in RUN_RESULT_COLS}
                res.update({"job": job, "group": "0", "jobs": "1", "direction": d, "unit": "io",
                            "runtime_ms": "30000.000", "errors": "0"})
                if fail:
                    res.update({"ios": "0", "bytes": "0", "iops": "0.000", "bw_mib_s": "0.000",
                                "error": fail, "runtime_ms": "0.000"})
                else:
                    bs = 16384 if w == "anandtech-mix" else 4096
                    ios = int(round(v * 30))
                    p = latency(v, rep)
                    names = [c for c in RESULT_COLS if c.startswith("clat_p")]
                    res.update({"ios": str(ios), "bytes": str(ios * bs), "iops": f3(v),
                                "iops_sustained": f3(v) if not drain_s else f3(ios / (30.0 + drain_s)),
                                "bw_mib_s": f3(v * bs / 2**20), "clat_mean_us": f3(1e6 / v),
                                "lat_mean_us": f3(1e6 / v + 5), "lat_p50_us": f3(p[6] + 5),
                                "lat_p99_us": f3(p[12] + 5), "iops_samples": "30"})
                    res.update({c: f3(x) for c, x in zip(names, p)})
                rows.append(lead + [res[c] for c in RUN_RESULT_COLS] + [timing[c] for c in TIMING] +
                            [counters[c] for c in COUNTERS])

with open(os.path.join(OUT, "runs.csv"), "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["schema_version"] + LEAD + RUN_RESULT_COLS + TIMING + COUNTERS)
    for r in rows: out.writerow(["8"] + r)

# comparison.csv, as record/comparison.cc computes it.
H = ["mode", "layer", "baseline", "workload", "job", "direction", "unit", "n", "valid",
     "invalid_reasons", "iops_median",
     "iops_min", "iops_max", "iops_spread_pct", "iops_sustained_median", "iops_sustained_vs_hdd_pct",
     "iops_sustained_vs_ssd_pct", "bw_mib_s_median", "lat_mean_us_median",
     "lat_p99_us_median", "lat_p99_us_min", "lat_p99_us_max", "iops_vs_hdd_pct",
     "iops_vs_ssd_pct", "iops_position", "p99_vs_hdd_pct", "p99_vs_ssd_pct", "p99_position",
     "noise", "noise_vs_hdd", "noise_vs_ssd", "iops_vs_hdd_ci_low_pct",
     "iops_vs_hdd_ci_high_pct", "iops_vs_ssd_ci_low_pct", "iops_vs_ssd_ci_high_pct",
     "iops_vs_hdd_ci_df", "iops_vs_ssd_ci_df", "p99_vs_hdd_ci_low_pct",
     "p99_vs_hdd_ci_high_pct", "p99_vs_ssd_ci_low_pct", "p99_vs_ssd_ci_high_pct",
     "significant_vs_hdd", "significant_vs_ssd", "ssd_write_per_app_write_median",
     "ssd_write_per_app_byte_median", "hdd_bytes_saved_median", "ssd_life_days_median",
     "finding_rules", "warnings"]
ci = {c: i + 1 for i, c in enumerate(LEAD + RUN_RESULT_COLS + TIMING + COUNTERS)}
groups = {}
for r in rows:
    r = ["8"] + r
    if r[ci["error"]]: continue
    key = (r[ci["mode"]], r[ci["workload"]], r[ci["job"]], r[ci["direction"]])
    g = groups.setdefault(key, {"layer": r[ci["layer"]], "iops": [], "sus": [], "p99": [], "bw": [], "lat": [], "w": r[ci["warnings"]],
                                "valid": r[ci["valid"]], "reasons": r[ci["invalid_reasons"]],
                                "rules": r[ci["finding_rules"]]})
    g["sus"].append(float(r[ci["iops_sustained"]]))
    g["iops"].append(float(r[ci["iops"]])); g["p99"].append(float(r[ci["clat_p99_us"]]))
    g["bw"].append(float(r[ci["bw_mib_s"]])); g["lat"].append(float(r[ci["clat_mean_us"]]))
def spread(v):
    return (max(v) - min(v)) / statistics.median(v) * 100 if len(v) >= 2 else 0.0
def noise(a, b):
    if len(a) < 2 or len(b) < 2: return ""
    return "1" if min(a) <= max(b) and min(b) <= max(a) else "0"
def pct(x, b): return "%.2f" % ((x - b) / b * 100)
def pos(x, h, s):
    p = (x - h) / (s - h)
    return "%.4f" % (0.0 if p == 0 else p)
def welch_log(x, b):
    # (low %, high %, df) of the change of x against b; None below 3 values.
    if len(x) < 3 or len(b) < 3: return None
    lx, lb = [math.log(v) for v in x], [math.log(v) for v in b]
    qa, qb = statistics.variance(lx) / len(lx), statistics.variance(lb) / len(lb)
    df = (qa + qb) ** 2 / (qa * qa / (len(lx) - 1) + qb * qb / (len(lb) - 1))
    t = stats.t.ppf(0.975, df)
    d, se = statistics.mean(lx) - statistics.mean(lb), math.sqrt(qa + qb)
    return (math.expm1(d - t * se) * 100, math.expm1(d + t * se) * 100, df)
def ci_cells(g, base, key, metric):
    # low, high, df cells; empty against the group itself.
    ci = None if base is g else welch_log(g[metric], base[metric])
    return ["%.2f" % v for v in ci] if ci else ["", "", ""]
def sig(ci):
    if not ci[0]: return ""
    return "1" if float(ci[0]) > 0 or float(ci[1]) < 0 else "0"
comp = []
seen = []
for r in rows:
    key = (r[ci["mode"] - 1], r[ci["workload"] - 1], r[ci["job"] - 1], r[ci["direction"] - 1])
    if key in groups and key not in seen: seen.append(key)
for key in seen:
    g = groups[key]
    mode, w, job, d = key
    hk, sk = ("hdd", w, job, d), ("ssd", w, job, d)
    h, s = groups[hk], groups[sk]
    med = statistics.median
    x, p = med(g["iops"]), med(g["p99"])
    nh, ns = noise(g["iops"], h["iops"]), noise(g["iops"], s["iops"])
    ih, is_ = ci_cells(g, h, key, "iops"), ci_cells(g, s, key, "iops")
    ph, ps = ci_cells(g, h, key, "p99"), ci_cells(g, s, key, "p99")
    comp.append([mode, g["layer"], mode if g["layer"] == "raw" else "", w, job, d, "io",
                 str(len(g["iops"])), g["valid"], g["reasons"], f3(x), f3(min(g["iops"])), f3(max(g["iops"])),
                 "%.2f" % spread(g["iops"]), f3(med(g["sus"])), pct(med(g["sus"]), med(h["iops"])),
                 pct(med(g["sus"]), med(s["iops"])), f3(med(g["bw"])), f3(med(g["lat"])), f3(p),
                 f3(min(g["p99"])), f3(max(g["p99"])), pct(x, med(h["iops"])), pct(x, med(s["iops"])),
                 pos(x, med(h["iops"]), med(s["iops"])), pct(p, med(h["p99"])), pct(p, med(s["p99"])),
                 pos(p, med(h["p99"]), med(s["p99"])),
                 "1" if "1" in (nh, ns) else ("0" if nh or ns else ""), nh, ns,
                 ih[0], ih[1], is_[0], is_[1], ih[2], is_[2], ph[0], ph[1], ps[0], ps[1],
                 sig(ih), sig(is_), "", "", "", "", g["rules"], g["w"]])
with open(os.path.join(OUT, "comparison.csv"), "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["schema_version"] + H)
    for c in comp: out.writerow(["6"] + c)

# series.csv, as record/cell_series.cc writes it: per cell and second
# of the 30 s window the IOs (summing to runs.csv's ios), the layer's hit
# ratio and dirty data; per drain poll the dirty data. Cache modes warm up
# (IOPS rise over the first seconds); writeback modes gather dirty data and
# drain it in drain_after_s; raw cells have IO only; "none" counts no hits.
# Repetition 1 only (the per-second chart shows each mode's first
# repetition), to keep the fixture small.
import math
def shape(t, cache):
    wobble = 1 + 0.03 * math.sin(t * 1.7)
    return wobble * ((0.4 + 0.6 * (1 - math.exp(-t / 4.0))) if cache else 1.0)
def spread_ios(total, weights):
    s = sum(weights)
    out = [int(total * w / s) for w in weights]
    for i in range(total - sum(out)): out[i % len(out)] += 1
    return out
SERIES_H = ["mode", "layer", "workload", "repetition", "phase", "t_s", "read_iops",
            "write_iops", "hit_ratio_pct", "dirty_bytes"]
series_rows = []
for rep in (1,):
    for w, series in WORKLOADS.items():
        for name, layer, readback, target in MODES:
            if FAILED.get((name, w, rep)): continue
            cache = layer != "raw"
            weights = [shape(t, cache) for t in range(30)]
            per_dir = {}
            for job_name, d in series:
                per_dir[d] = spread_ios(int(round(iops_of(name, w, d)[rep - 1] * 30)), weights)
            reads = "read" in per_dir
            writeback = readback == "writeback"
            bs = 16384 if w == "anandtech-mix" else 4096
            dirty = 0
            for t in range(30):
                r = per_dir.get("read", [0] * 30)[t]
                wr = per_dir.get("write", [0] * 30)[t]
                hit = dirty_s = ""
                if cache:
                    if reads and name not in ("none", "writearound"):
                        hit = "%.1f" % min(99.0, 100 * (1 - math.exp(-(t + 1) / 6.0)))
                    if writeback:
                        dirty += wr * bs // 2
                    dirty_s = str(dirty)
                series_rows.append([name, layer, w, str(rep), "measure", "%.1f" % t, str(r), str(wr),
                                    hit, dirty_s])
            if cache:
                drain_s = DRAIN.get(name, {}).get(w, [0.0, 0.0, 0.0])[rep - 1]
                polls = int(math.ceil(drain_s)) if dirty else 0
                for k in range(polls + 1):
                    left = 0 if k == polls else int(dirty * (1 - k / max(1, polls)))
                    series_rows.append([name, layer, w, str(rep), "drain", "%.1f" % (30.2 + k),
                                        "", "", "", str(left)])
with open(os.path.join(OUT, "series.csv"), "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["schema_version", "run_id"] + SERIES_H)
    for r in series_rows: out.writerow(["1", "fixture"] + r)

def job(name, rw, bs, depth):
    return {"name": name, "origin": name + ".fio", "rw": rw, "rwmixread": 50,
            "percentage_random": 100, "bs_read": {"min": bs, "max": bs},
            "bs_write": {"min": bs, "max": bs}, "blockalign": [bs, bs], "iodepth": depth,
            "numjobs": 1, "direct": True, "ioengine": "libaio", "size_bytes": 1073741824,
            "runtime_ns": 30000000000, "time_based": True}
manifest = {
  "schema_version": 2, "tool": "tierbench", "version": "0.1.0", "run_id": RUN_ID,
  "command_line": "tierbench compare --stack /dev/bcache0 --stack /dev/mapper/tb-dmcache --hdd /dev/vdb --ssd /dev/vdc --repeat 3 --runtime 30s --destructive",
  "kernel": {"release": "6.1.0-18-amd64", "version": "#1 SMP Debian", "machine": "x86_64"},
  "hostname": HOST, "start_time": "2026-11-30T21:04:11Z", "end_time": "2026-11-30T23:41:57Z",
  "status": "complete with failed cells",
  "options": {"stacks": ["/dev/bcache0", "/dev/mapper/tb-dmcache"], "hdd": "/dev/vdb", "ssd": "/dev/vdc",
              "repeat": 3, "cache_state": "cold", "runtime_ns": 30000000000, "ramp_time_ns": None},
  "devices": {"hdd": {"path": "/dev/vdb", "size_bytes": 8589934592, "device": "vdb",
                      "queue": {"scheduler": "mq-deadline", "rotational": 1}},
              "ssd": {"path": "/dev/vdc", "size_bytes": 8589934592, "device": "vdc",
                      "queue": {"scheduler": "none", "rotational": 0}},
              "stacks": [{"device": "/dev/bcache0", "layer": "bcache"},
                         {"device": "/dev/mapper/tb-dmcache", "layer": "dm-cache"}],
              "stack_warnings": []},
  "modes": [], "original_settings": {},
  "restore": {"attempted": True, "ok": True, "failures": []},
  "workloads": [{"path": "workloads/randread-4k.fio", "name": "randread-4k", "kind": "fio",
                 "jobs": [job("randread-4k", "randread", 4096, 1)]},
                {"path": "workloads/randwrite-4k.fio", "name": "randwrite-4k", "kind": "fio",
                 "jobs": [job("randwrite-4k", "randwrite", 4096, 1)]},
                {"path": "workloads/anandtech-mix.fio", "name": "anandtech-mix", "kind": "fio",
                 "jobs": [job("mix-16k", "randrw", 16384, 4)]}],
  "tool_versions": {"fio": None, "pgbench": None, "postgres": None},
  "cells": {"planned": 63, "finished": 63, "failed": 1}}
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=2)
    f.write("\n")
