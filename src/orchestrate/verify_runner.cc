#include "orchestrate/verify_runner.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "cache/mode_spec.h"
#include "cache/registry/layer_kinds.h"
#include "io/aligned_buffer.h"
#include "util/clock.h"
#include "util/errors.h"
#include "util/interrupt.h"
#include "workload/verify_block.h"

namespace tierbench {
namespace {

// Blocks per pwrite/pread.
constexpr uint64_t kChunkBlocks = 64;

// The stack device opened for the check: O_DIRECT, so the data goes
// through the cache layer and not the page cache. A regular file (a test
// tree's stand-in device on a filesystem without O_DIRECT) is opened
// without it.
class VerifyTarget {
 public:
  explicit VerifyTarget(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
    struct stat st;
    if (fd_ < 0 && errno == EINVAL && ::stat(path.c_str(), &st) == 0 &&
        S_ISREG(st.st_mode)) {
      fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    }
    if (fd_ < 0) {
      throw SysError("--verify: cannot open " + path +
                     " for O_DIRECT IO: " + std::strerror(errno) +
                     ". Fix: check the stack device and run as root");
    }
  }
  ~VerifyTarget() { ::close(fd_); }
  VerifyTarget(const VerifyTarget&) = delete;
  VerifyTarget& operator=(const VerifyTarget&) = delete;

  void Write(const void* buf, size_t len, uint64_t offset) {
    Transfer(true, const_cast<void*>(buf), len, offset);
  }
  void Read(void* buf, size_t len, uint64_t offset) {
    Transfer(false, buf, len, offset);
  }
  void Sync() {
    if (::fsync(fd_) != 0) {
      throw SysError("--verify: fsync of " + path_ +
                     " failed: " + std::strerror(errno));
    }
  }

 private:
  void Transfer(bool write, void* buf, size_t len, uint64_t offset) {
    size_t done = 0;
    while (done < len) {
      char* p = static_cast<char*>(buf) + done;
      const off_t at = static_cast<off_t>(offset + done);
      const ssize_t n = write ? ::pwrite(fd_, p, len - done, at)
                              : ::pread(fd_, p, len - done, at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw SysError(
            std::string("--verify: ") + (write ? "write to " : "read of ") +
            path_ + " at byte " + std::to_string(offset + done) +
            " failed: " + (n < 0 ? std::strerror(errno) : "end of device"));
      }
      done += static_cast<size_t>(n);
    }
  }

  std::string path_;
  int fd_ = -1;
};

// splitmix64's finaliser.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t BlockSeed(uint64_t nonce, uint64_t offset) {
  return Mix(nonce ^ Mix(offset / kVerifyBlockBytes));
}

VerifySpec Crc32cSpec() {
  VerifySpec spec;
  spec.type = VerifyType::kCrc32c;
  spec.interval = kVerifyBlockBytes;
  return spec;
}

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// One line for a block that differs: its LBA, what was expected and what
// the header read back says; the checker's own first line when the header
// is right and the data is not.
std::string Mismatch(uint64_t offset, uint64_t seed, const uint8_t* found,
                     const std::vector<std::string>& lines) {
  const VerifyHeader h = DecodeVerifyHeader(found);
  std::string s = "LBA " + std::to_string(offset / 512) + " (byte " +
                  std::to_string(offset) +
                  "): expected a crc32c block for byte " +
                  std::to_string(offset) + " with seed " + Hex(seed) +
                  ", found magic " + Hex(h.magic) + ", offset " +
                  std::to_string(h.offset) + ", seed " + Hex(h.rand_seed);
  if (!lines.empty()) s += " (" + lines.front() + ")";
  return s;
}

ModeSpec VerifyMode(const std::string& layer, const std::string& mode) {
  ModeSpec m;
  m.name = "verify-" + mode;
  m.description = "compare --verify";
  m.layer = layer;
  m.cache_mode = mode;
  return m;
}

void CheckInterrupt(const std::string& device) {
  if (Interrupted()) {
    throw InterruptedError("interrupted during the --verify check of " + device,
                           InterruptSignal());
  }
}

}  // namespace

std::vector<std::string> VerifySteps(const std::vector<std::string>& order) {
  std::vector<std::string> steps = {"write"};
  steps.insert(steps.end(), order.begin(), order.end());
  steps.push_back("cold");
  steps.push_back("warm");
  return steps;
}

uint64_t RandomVerifyNonce() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ NowNs();
}

VerifyRunner::VerifyRunner(VerifyRunOptions options)
    : options_(std::move(options)) {}

uint64_t VerifyRunner::Now() const {
  return options_.now_ns ? options_.now_ns() : NowNs();
}

void VerifyRunner::Finish(VerifyStep step, uint64_t start_ns,
                          VerifyOutcome* out) {
  step.seconds = static_cast<double>(Now() - start_ns) / 1e9;
  out->errors += step.errors;
  out->steps.push_back(step);
  if (options_.on_step) options_.on_step(step);
  if (options_.after_step) options_.after_step(step.step);
}

VerifyOutcome VerifyRunner::Run(CacheLayer& layer, const std::string& device) {
  const LayerKind* kind = FindLayerKind(layer.layer());
  if (kind == nullptr || kind->verify_order.empty()) {
    throw ConfigError("--verify: layer " + layer.layer() +
                      " has no verify order. Fix: drop --verify");
  }
  const uint64_t bytes = options_.bytes;
  if (bytes == 0 || bytes % kVerifyBlockBytes != 0) {
    throw ConfigError("--verify: " + std::to_string(bytes) +
                      " bytes is not a positive multiple of 4 KiB. Fix: "
                      "--verify=4M");
  }
  const uint64_t blocks = bytes / kVerifyBlockBytes;
  const std::vector<std::string>& order = kind->verify_order;
  VerifyOutcome out;
  out.device = device;
  out.layer = layer.layer();
  out.bytes = bytes;
  out.blocks = blocks;
  out.nonce = options_.nonce;
  const uint64_t begin_ns = Now();
  if (options_.on_start) {
    options_.on_start(
        {device, layer.layer(), bytes, blocks, VerifySteps(order)});
  }

  const VerifySpec spec = Crc32cSpec();
  VerifyTarget target(device);
  const uint64_t chunk_blocks = std::min(blocks, kChunkBlocks);
  AlignedBuffer buf(chunk_blocks * kVerifyBlockBytes);
  uint8_t* data = static_cast<uint8_t*>(buf.data());
  auto base_step = [&](const std::string& name) {
    VerifyStep s;
    s.device = device;
    s.layer = layer.layer();
    s.step = name;
    return s;
  };
  auto current_mode = [&layer]() { return layer.ReadBack().cache_mode; };
  auto dirty = [&layer]() {
    try {
      return layer.DirtyBytes();
    } catch (const SysError&) {
      return int64_t{-1};
    }
  };

  // 1 + 2: empty, switch, write.
  uint64_t t0 = Now();
  VerifyStep write = base_step("write");
  layer.MakeCold(options_.drain_timeout_s);
  layer.ApplyMode(VerifyMode(layer.layer(), order.front()), &write.notes);
  write.mode = current_mode();
  const uint32_t now_s = static_cast<uint32_t>(::time(nullptr));
  for (uint64_t b = 0; b < blocks; b += chunk_blocks) {
    CheckInterrupt(device);
    const uint64_t n = std::min(chunk_blocks, blocks - b);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t offset = (b + i) * kVerifyBlockBytes;
      VerifyStamp stamp;
      stamp.rand_seed = BlockSeed(options_.nonce, offset);
      stamp.numberio = static_cast<uint16_t>(b + i);
      stamp.time_sec = now_s;
      FillVerifyBlock(spec, data + i * kVerifyBlockBytes, kVerifyBlockBytes,
                      offset, stamp);
    }
    target.Write(data, n * kVerifyBlockBytes, b * kVerifyBlockBytes);
  }
  target.Sync();
  write.blocks = blocks;
  write.dirty_bytes = dirty();
  out.dirty_bytes_after_write = write.dirty_bytes;
  Finish(write, t0, &out);

  // 3: read back after each step.
  auto check = [&](VerifyStep step, uint64_t start_ns) {
    step.mode = current_mode();
    for (uint64_t b = 0; b < blocks; b += chunk_blocks) {
      CheckInterrupt(device);
      const uint64_t n = std::min(chunk_blocks, blocks - b);
      target.Read(data, n * kVerifyBlockBytes, b * kVerifyBlockBytes);
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t offset = (b + i) * kVerifyBlockBytes;
        uint8_t* block = data + i * kVerifyBlockBytes;
        VerifyExpect expect;
        expect.check_seed = true;
        expect.rand_seed = BlockSeed(options_.nonce, offset);
        std::vector<std::string> lines;
        if (CheckVerifyBlock(spec, block, kVerifyBlockBytes, offset, device,
                             expect, &lines) == 0) {
          continue;
        }
        ++step.errors;
        if (step.mismatches.size() < kVerifyMismatchesKept) {
          step.mismatches.push_back(
              Mismatch(offset, expect.rand_seed, block, lines));
        }
      }
    }
    step.blocks = blocks;
    step.dirty_bytes = dirty();
    const bool good = step.errors == 0;
    Finish(std::move(step), start_ns, &out);
    return good;
  };
  auto done = [&]() {
    out.seconds = static_cast<double>(Now() - begin_ns) / 1e9;
    return out;
  };
  if (!check(base_step(order.front()), Now())) return done();
  for (size_t i = 1; i < order.size(); ++i) {
    CheckInterrupt(device);
    t0 = Now();
    VerifyStep step = base_step(order[i]);
    layer.ApplyMode(VerifyMode(layer.layer(), order[i]), &step.notes);
    if (!check(std::move(step), t0)) return done();
  }
  CheckInterrupt(device);
  t0 = Now();
  VerifyStep cold = base_step("cold");
  layer.MakeCold(options_.drain_timeout_s);
  // Reads are cached again (a cold dm-cache is left in passthrough).
  layer.ApplyMode(VerifyMode(layer.layer(), order.front()), &cold.notes);
  if (!check(std::move(cold), t0)) return done();
  if (!check(base_step("warm"), Now())) return done();
  out.complete = true;
  return done();
}

}  // namespace tierbench
