// What a cache cell cost the SSD (issue 30 item 4): bytes written to the
// cache device per byte the application moved, what the cache kept off
// the HDD, and the SSD's projected life at that rate.
//
// Inputs are the block-layer counters of one cell (LayerDelta: the stack
// device, the origin = HDD side and the cache = SSD side, all read in the
// same two readings, cache/layer_counters.h), so the application's bytes
// are the stack device's, over exactly the window the SSD's are:
//   ssd_write_per_app_write = ssd_write / stack_write   (empty: no writes)
//   ssd_write_per_app_byte  = ssd_write / (stack_read + stack_write)
//                             (empty: no IO; promotions of reads count)
//   hdd_bytes_saved         = (stack_read + stack_write)
//                             - (hdd_read + hdd_write)   (may be < 0)
//   ssd_life_days           = tbw_bytes / (ssd_write / io_seconds) / 86400
//                             (empty without a TBW rating, with no SSD
//                             writes, or without IO seconds)
// io_seconds is the counters' span up to the IO stop: LayerDelta::seconds
// minus CellRecord::counters_after_s (a lagging layer's "after" reading is
// taken at its first fold after the stop; the bytes moved in that tail,
// drain metadata and journal, stay in, so the rate errs high and the life
// short, never long).
//
// The window: from the "before" reading, taken after any prefill or
// warm-up (and, for a lagging layer, at the fold that took in the warm-up's
// IO), to the "after" one. Inside it: the workload's ramp_time (fio's
// `bytes` excludes it, the stack counters do not), for a DB cell on a
// lagging layer the clients' "warmup", and for warm-until-steady cells the
// writeback of dirty data the warm-up left (no drain before those cells):
// HDD writes the cell's own IO did not cause, hence hdd_bytes_saved < 0 is
// possible (also with the origin's readahead).
//
// Thread-safety: pure functions.
#ifndef TIERBENCH_RECORD_SSD_WEAR_H_
#define TIERBENCH_RECORD_SSD_WEAR_H_

#include <cstdint>
#include <optional>

namespace tierbench {

struct CellRecord;  // record/cell_record.h

inline constexpr double kBytesPerTerabyte = 1e12;  // TBW ratings: decimal TB

// The counters the figures are made of (bytes, seconds).
struct WearInputs {
  uint64_t app_read_bytes = 0;
  uint64_t app_write_bytes = 0;
  uint64_t hdd_read_bytes = 0;
  uint64_t hdd_write_bytes = 0;
  uint64_t ssd_write_bytes = 0;
  double io_seconds = 0;  // <= 0: unknown
};

// The figures; each empty where its input is missing (never 0 or -1 for
// "unknown").
struct SsdWear {
  std::optional<double> ssd_write_per_app_write;
  std::optional<double> ssd_write_per_app_byte;
  std::optional<int64_t> hdd_bytes_saved;
  std::optional<double> ssd_life_days;
};

// The arithmetic above. `tbw_bytes`: the SSD's rating in bytes (empty: no
// life projected).
SsdWear ComputeSsdWear(const WearInputs& in, std::optional<double> tbw_bytes);

// A TBW rating in terabytes (CompareOptions::ssd_tbw_tb) in bytes.
std::optional<double> TbwBytes(std::optional<double> tbw_tb);

// The inputs of a cache cell; empty for raw cells, failed cells, cells
// without counters and cells whose counters went backwards
// (LayerDelta::counters_reset).
std::optional<WearInputs> CellWearInputs(const CellRecord& rec);

// ComputeSsdWear of CellWearInputs(rec); all empty when there are none.
SsdWear CellSsdWear(const CellRecord& rec, std::optional<double> tbw_bytes);

}  // namespace tierbench

#endif  // TIERBENCH_RECORD_SSD_WEAR_H_
