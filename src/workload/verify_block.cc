// fio's verify block format (see the header).
#include "workload/verify_block.h"

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "util/checksum.h"

namespace tierbench {
namespace {

template <typename T>
T Load(const uint8_t* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i)
    v = static_cast<T>(v | static_cast<T>(static_cast<T>(p[i]) << (8 * i)));
  return v;
}

template <typename T>
void Store(T v, uint8_t* p) {
  for (size_t i = 0; i < sizeof(T); ++i)
    p[i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
}

// fio's memswp() of the header with the bytes at verify_offset.
void Swap(uint8_t* a, uint8_t* b, uint32_t len) {
  for (uint32_t i = 0; i < len; ++i) std::swap(a[i], b[i]);
}

std::string Hex(const uint8_t* p, size_t len) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < len; ++i) {
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return out;
}

std::string Format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return buf;
}

// The pattern with its %o fields set to `offset` (fio's paste_blockoff).
std::vector<uint8_t> PastedPattern(const VerifySpec& spec, uint64_t offset) {
  std::vector<uint8_t> p = spec.pattern;
  for (uint32_t pos : spec.pattern_offsets) {
    uint8_t le[8];
    Store<uint64_t>(offset, le);
    const size_t n = std::min<size_t>(8, p.size() - pos);
    std::memcpy(p.data() + pos, le, n);
  }
  return p;
}

void FillPayload(const VerifySpec& spec, uint8_t* buf, uint32_t len,
                 uint64_t offset, uint64_t seed) {
  if (!spec.pattern.empty()) {
    const std::vector<uint8_t> p = PastedPattern(spec, offset);
    const size_t first = std::min<size_t>(p.size(), len);
    std::memcpy(buf, p.data(), first);
    // fio's dup_pattern(): double the filled part until the block is full.
    for (size_t filled = first; filled < len;) {
      const size_t n = std::min<size_t>(filled, len - filled);
      std::memcpy(buf + filled, buf, n);
      filled += n;
    }
    return;
  }
  uint64_t x = seed ? seed : 0x9E3779B97F4A7C15ull;
  uint32_t i = 0;
  for (; i + 8 <= len; i += 8) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    const uint64_t w = x * 0x2545F4914F6CDD1Dull;
    std::memcpy(buf + i, &w, 8);
  }
  for (; i < len; ++i) buf[i] = static_cast<uint8_t>(x >> (8 * (i & 7)));
}

std::string Where(const std::string& file, uint64_t at, uint32_t len,
                  uint64_t offset, uint32_t block_len) {
  return Format(
      " at file %s offset %llu, length %u (requested block: "
      "offset=%llu, length=%u)",
      file.c_str(), static_cast<unsigned long long>(at), len,
      static_cast<unsigned long long>(offset), block_len);
}

// fio's verify_io_u_pattern(): false (and lines) on a mismatch.
bool CheckPattern(const VerifySpec& spec, const uint8_t* interval, uint32_t inc,
                  uint32_t n, uint64_t offset, const std::string& file,
                  uint32_t block_len, std::vector<std::string>* lines) {
  const std::vector<uint8_t> p = PastedPattern(spec, offset);
  const uint32_t hs = VerifyHeaderSize(spec.type);
  const uint8_t* buf = interval + hs;
  const uint32_t len = inc - hs;
  size_t mod = (static_cast<uint64_t>(inc) * n + hs) % p.size();
  for (uint32_t i = 0; i < len; ++i) {
    if (buf[i] != p[mod]) {
      lines->push_back(
          Format("fio: got pattern '%02x', wanted '%02x'. Bad "
                 "bits %d",
                 buf[i], p[mod], __builtin_popcount(buf[i] ^ p[mod])));
      lines->push_back(Format("fio: bad pattern block offset %u", i));
      lines->push_back("pattern: verify failed" +
                       Where(file, offset + static_cast<uint64_t>(n) * inc, inc,
                             offset, block_len));
      return false;
    }
    if (++mod == p.size()) mod = 0;
  }
  return true;
}

}  // namespace

uint32_t VerifyHeaderSize(VerifyType type) {
  switch (type) {
    case VerifyType::kMd5:
      return kVerifyHeaderBytes + 16;
    case VerifyType::kCrc32c:
      return kVerifyHeaderBytes + 4;
    case VerifyType::kPatternNoHdr:
      return 0;
    default:
      return kVerifyHeaderBytes;
  }
}

VerifyHeader DecodeVerifyHeader(const uint8_t* p) {
  VerifyHeader h;
  h.magic = Load<uint16_t>(p);
  h.verify_type = Load<uint16_t>(p + 2);
  h.len = Load<uint32_t>(p + 4);
  h.rand_seed = Load<uint64_t>(p + 8);
  h.offset = Load<uint64_t>(p + 16);
  h.time_sec = Load<uint32_t>(p + 24);
  h.time_nsec = Load<uint32_t>(p + 28);
  h.thread = Load<uint16_t>(p + 32);
  h.numberio = Load<uint16_t>(p + 34);
  h.crc32 = Load<uint32_t>(p + 36);
  return h;
}

void EncodeVerifyHeader(const VerifyHeader& h, uint8_t* p) {
  Store(h.magic, p);
  Store(h.verify_type, p + 2);
  Store(h.len, p + 4);
  Store(h.rand_seed, p + 8);
  Store(h.offset, p + 16);
  Store(h.time_sec, p + 24);
  Store(h.time_nsec, p + 28);
  Store(h.thread, p + 32);
  Store(h.numberio, p + 34);
  Store(h.crc32, p + 36);
}

uint32_t VerifyInterval(const VerifySpec& spec, uint32_t len) {
  return spec.interval != 0 && spec.interval <= len ? spec.interval : len;
}

void FillVerifyBlock(const VerifySpec& spec, uint8_t* buf, uint32_t len,
                     uint64_t offset, const VerifyStamp& stamp) {
  FillPayload(spec, buf, len, offset, stamp.rand_seed);
  if (spec.type == VerifyType::kNull ||
      spec.type == VerifyType::kPatternNoHdr) {
    return;
  }
  const uint32_t inc = VerifyInterval(spec, len);
  const uint32_t hs = VerifyHeaderSize(spec.type);
  uint32_t n = 0;
  for (uint32_t pos = 0; pos + inc <= len; pos += inc, ++n) {
    uint8_t* chunk = buf + pos;
    VerifyHeader h;
    h.magic = kVerifyMagic;
    h.verify_type = static_cast<uint16_t>(spec.type);
    h.len = inc;
    h.rand_seed = stamp.rand_seed;
    h.offset = offset + static_cast<uint64_t>(n) * spec.interval;
    h.time_sec = stamp.time_sec;
    h.time_nsec = stamp.time_nsec;
    h.thread = stamp.thread;
    h.numberio = stamp.numberio;
    EncodeVerifyHeader(h, chunk);
    h.crc32 = FioCrc32c(chunk, kVerifyHeaderCrcOffset);
    Store(h.crc32, chunk + kVerifyHeaderCrcOffset);
    const uint8_t* data = chunk + hs;
    const uint32_t data_len = inc - hs;
    if (spec.type == VerifyType::kCrc32c) {
      Store(FioCrc32c(data, data_len), chunk + kVerifyHeaderBytes);
    } else if (spec.type == VerifyType::kMd5) {
      const std::array<uint8_t, 16> d = Md5::Of(data, data_len);
      std::memcpy(chunk + kVerifyHeaderBytes, d.data(), d.size());
    }
    if (spec.offset != 0) Swap(chunk, chunk + spec.offset, hs);
  }
}

uint32_t CheckVerifyBlock(const VerifySpec& spec, uint8_t* buf, uint32_t len,
                          uint64_t offset, const std::string& file,
                          const VerifyExpect& expect,
                          std::vector<std::string>* lines) {
  if (spec.type == VerifyType::kNull) return 0;
  const uint32_t inc = VerifyInterval(spec, len);
  const uint32_t hs = VerifyHeaderSize(spec.type);
  uint32_t bad = 0;
  uint32_t n = 0;
  for (uint32_t pos = 0; pos + inc <= len; pos += inc, ++n) {
    if (bad > 0 && spec.fatal) break;
    uint8_t* chunk = buf + pos;
    if (spec.offset != 0 && hs != 0) Swap(chunk, chunk + spec.offset, hs);
    const uint64_t at = offset + static_cast<uint64_t>(n) * inc;
    VerifyHeader h;
    if (spec.type != VerifyType::kPatternNoHdr) {
      h = DecodeVerifyHeader(chunk);
      std::string why;
      const uint64_t want_offset =
          offset + static_cast<uint64_t>(n) * spec.interval;
      if (h.magic != kVerifyMagic) {
        why = Format("verify: bad magic header %x, wanted %x", h.magic,
                     kVerifyMagic);
      } else if (h.len != inc) {
        why = Format("verify: bad header length %u, wanted %u", h.len, inc);
      } else if (expect.check_seed && h.rand_seed != expect.rand_seed) {
        why = Format("verify: bad header rand_seed %llu, wanted %llu",
                     static_cast<unsigned long long>(h.rand_seed),
                     static_cast<unsigned long long>(expect.rand_seed));
      } else if (h.offset != want_offset) {
        why = Format("verify: bad header offset %llu, wanted %llu",
                     static_cast<unsigned long long>(h.offset),
                     static_cast<unsigned long long>(offset));
      } else if (expect.check_numberio && h.numberio != expect.numberio) {
        why = Format("verify: bad header numberio %u, wanted %u", h.numberio,
                     expect.numberio);
      } else {
        const uint32_t crc = FioCrc32c(chunk, kVerifyHeaderCrcOffset);
        if (crc != h.crc32)
          why =
              Format("verify: bad header crc %x, calculated %x", h.crc32, crc);
      }
      if (!why.empty()) {
        lines->push_back(why + Where(file, at, inc, offset, len));
        return bad + 1;  // fio's verify_header(): the block is done
      }
    }
    bool ok = true;
    const uint8_t* data = chunk + hs;
    const uint32_t data_len = inc - hs;
    const char* name = nullptr;
    std::string good, got;
    switch (spec.type) {
      case VerifyType::kCrc32c: {
        uint8_t computed[4];
        Store(FioCrc32c(data, data_len), computed);
        if (std::memcmp(computed, chunk + kVerifyHeaderBytes, 4) != 0) {
          ok = false;
          name = "crc32c";
          good = Hex(chunk + kVerifyHeaderBytes, 4);
          got = Hex(computed, 4);
        }
        break;
      }
      case VerifyType::kMd5: {
        const std::array<uint8_t, 16> d = Md5::Of(data, data_len);
        if (std::memcmp(d.data(), chunk + kVerifyHeaderBytes, 16) != 0) {
          ok = false;
          name = "md5";
          good = Hex(chunk + kVerifyHeaderBytes, 16);
          got = Hex(d.data(), 16);
        }
        break;
      }
      case VerifyType::kMeta:
        if (!spec.pattern.empty())
          ok = CheckPattern(spec, chunk, inc, n, offset, file, len, lines);
        break;
      case VerifyType::kPattern:
      case VerifyType::kPatternNoHdr:
        ok = CheckPattern(spec, chunk, inc, n, offset, file, len, lines);
        break;
      default:
        break;
    }
    if (name != nullptr) {
      lines->push_back(std::string(name) + ": verify failed" +
                       Where(file, at, inc, offset, len));
      lines->push_back("       Expected CRC: " + good);
      lines->push_back("       Received CRC: " + got);
    }
    if (!ok) {
      ++bad;
      if (spec.type != VerifyType::kPatternNoHdr &&
          h.verify_type != static_cast<uint16_t>(spec.type)) {
        lines->push_back(
            Format("fio: verify type mismatch (%u media, %u given)",
                   h.verify_type, static_cast<unsigned>(spec.type)));
      }
    }
  }
  return bad;
}

}  // namespace tierbench
