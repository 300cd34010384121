// fio's verify format: CRC32C / MD5 golden vectors, the verify_header byte
// layout (field offsets as in fio 3.33's verify.h), fill + check round
// trips per type, and detection of a flipped byte, a moved block and a
// stale write with fio's diagnostic lines.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "util/checksum.h"
#include "workload/job_file_verify.h"
#include "workload/verify_block.h"

namespace tierbench {
namespace {

std::string Hex(const std::array<uint8_t, 16>& d) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : d) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

TEST(VerifyChecksumTest, Crc32cGoldenVectors) {
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  // fio_crc32c() keeps the register without the final inversion.
  EXPECT_EQ(FioCrc32c("123456789", 9), 0x1CF96D7Cu);
  EXPECT_EQ(Crc32c("", 0), 0u);
  // RFC 3720 B.4: 32 bytes of zeros, of 0xff.
  std::vector<uint8_t> zeros(32, 0), ones(32, 0xff);
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62A8AB43u);
  // Every length and alignment agrees with the byte-at-a-time definition.
  std::vector<uint8_t> buf(300);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 7);
  for (size_t start = 0; start < 9; ++start) {
    for (size_t len = 0; len + start <= buf.size(); len += 13) {
      uint32_t crc = 0xFFFFFFFFu;
      for (size_t k = 0; k < len; ++k) {
        crc ^= buf[start + k];
        for (int b = 0; b < 8; ++b)
          crc = (crc >> 1) ^ ((crc & 1) ? 0x82F63B78u : 0);
      }
      ASSERT_EQ(FioCrc32c(buf.data() + start, len), crc)
          << "start " << start << " len " << len;
    }
  }
}

TEST(VerifyChecksumTest, Md5GoldenVectors) {
  EXPECT_EQ(Hex(Md5::Of("", 0)), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex(Md5::Of("abc", 3)), "900150983cd24fb0d6963f7d28e17f72");
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(Hex(Md5::Of(fox.data(), fox.size())),
            "9e107d9d372bb6826bd81d3542a419d6");
  // Split updates give the same digest as one.
  const std::string long_text(1000, 'a');
  Md5 m;
  m.Update(long_text.data(), 63);
  m.Update(long_text.data() + 63, 1);
  m.Update(long_text.data() + 64, 936);
  EXPECT_EQ(Hex(m.Digest()), Hex(Md5::Of(long_text.data(), 1000)));
  EXPECT_EQ(Hex(Md5::Of(long_text.data(), 1000)),
            "cabe45dcc9ae5b66ba86600cca6b8ba8");
}

VerifySpec Spec(VerifyType type, uint32_t interval = 4096) {
  VerifySpec s;
  s.type = type;
  s.interval = interval;
  return s;
}

TEST(VerifyBlockTest, HeaderLayoutMatchesFio) {
  VerifySpec spec = Spec(VerifyType::kCrc32c);
  std::vector<uint8_t> buf(4096);
  VerifyStamp stamp;
  stamp.rand_seed = 0x1122334455667788ull;
  stamp.thread = 3;
  stamp.numberio = 0xBEEF;
  stamp.time_sec = 0x01020304;
  stamp.time_nsec = 0x05060708;
  FillVerifyBlock(spec, buf.data(), 4096, 0x123456789000ull, stamp);
  auto u16 = [&](size_t at) { return buf[at] | buf[at + 1] << 8; };
  auto u32 = [&](size_t at) {
    return static_cast<uint32_t>(u16(at)) | static_cast<uint32_t>(u16(at + 2))
                                                << 16;
  };
  auto u64 = [&](size_t at) {
    return static_cast<uint64_t>(u32(at)) | static_cast<uint64_t>(u32(at + 4))
                                                << 32;
  };
  EXPECT_EQ(u16(0), 0xacca);                                  // magic
  EXPECT_EQ(u16(2), 5);                                       // VERIFY_CRC32C
  EXPECT_EQ(u32(4), 4096u);                                   // len
  EXPECT_EQ(u64(8), 0x1122334455667788ull);                   // rand_seed
  EXPECT_EQ(u64(16), 0x123456789000ull);                      // offset
  EXPECT_EQ(u32(24), 0x01020304u);                            // time_sec
  EXPECT_EQ(u32(28), 0x05060708u);                            // time_nsec
  EXPECT_EQ(u16(32), 3);                                      // thread
  EXPECT_EQ(u16(34), 0xBEEF);                                 // numberio
  EXPECT_EQ(u32(36), FioCrc32c(buf.data(), 36));              // header crc32
  EXPECT_EQ(u32(40), FioCrc32c(buf.data() + 44, 4096 - 44));  // vhdr_crc32
  EXPECT_EQ(VerifyHeaderSize(VerifyType::kCrc32c), 44u);
  EXPECT_EQ(VerifyHeaderSize(VerifyType::kMd5), 56u);
  EXPECT_EQ(VerifyHeaderSize(VerifyType::kMeta), 40u);
  EXPECT_EQ(VerifyHeaderSize(VerifyType::kPatternNoHdr), 0u);
  const VerifyHeader h = DecodeVerifyHeader(buf.data());
  EXPECT_EQ(h.numberio, 0xBEEF);
  EXPECT_EQ(h.thread, 3);

  VerifySpec md5 = Spec(VerifyType::kMd5);
  FillVerifyBlock(md5, buf.data(), 4096, 0, stamp);
  EXPECT_EQ(u16(2), 2);  // VERIFY_MD5
  const auto d = Md5::Of(buf.data() + 56, 4096 - 56);
  EXPECT_EQ(std::memcmp(buf.data() + 40, d.data(), 16), 0);
}

struct RoundTrip {
  VerifyType type;
  uint32_t interval;
  uint32_t offset;
  const char* pattern;
};

TEST(VerifyBlockTest, FillThenCheckRoundTripsAndCatchesAFlippedByte) {
  const RoundTrip cases[] = {
      {VerifyType::kCrc32c, 4096, 0, nullptr},
      {VerifyType::kCrc32c, 512, 0, nullptr},
      {VerifyType::kMd5, 1024, 0, nullptr},
      {VerifyType::kMd5, 4096, 100, nullptr},
      {VerifyType::kMeta, 4096, 0, "0xdeadbeef"},
      {VerifyType::kPattern, 2048, 0, "%o\"abc\""},
      {VerifyType::kPatternNoHdr, 4096, 0, "0x55aa"},
  };
  for (const RoundTrip& c : cases) {
    SCOPED_TRACE(static_cast<int>(c.type));
    VerifySpec spec = Spec(c.type, c.interval);
    spec.offset = c.offset;
    std::string why;
    if (c.pattern != nullptr) {
      ASSERT_TRUE(ParseVerifyPattern(c.pattern, &spec.pattern,
                                     &spec.pattern_offsets, &why))
          << why;
    }
    std::vector<uint8_t> buf(8192);
    VerifyStamp stamp;
    stamp.rand_seed = 42;
    stamp.numberio = 7;
    FillVerifyBlock(spec, buf.data(), 8192, 65536, stamp);
    std::vector<uint8_t> copy = buf;
    std::vector<std::string> lines;
    VerifyExpect expect;
    expect.check_seed = c.pattern == nullptr;
    expect.rand_seed = 42;
    expect.check_numberio = true;
    expect.numberio = 7;
    EXPECT_EQ(
        CheckVerifyBlock(spec, copy.data(), 8192, 65536, "f", expect, &lines),
        0u);
    EXPECT_TRUE(lines.empty());
    // A flipped payload byte in the second half is found, at its interval.
    copy = buf;
    copy[6000] ^= 0x10;
    EXPECT_EQ(
        CheckVerifyBlock(spec, copy.data(), 8192, 65536, "f", expect, &lines),
        1u);
    ASSERT_FALSE(lines.empty());
    const uint64_t bad_at = 65536 + 6000 / c.interval * c.interval;
    bool named = false;
    for (const std::string& l : lines) {
      named = named || l.find("at file f offset " + std::to_string(bad_at) +
                              ", length " + std::to_string(c.interval)) !=
                           std::string::npos;
    }
    EXPECT_TRUE(named) << lines[0];
  }
}

TEST(VerifyBlockTest, DiagnosticsAsFio) {
  VerifySpec spec = Spec(VerifyType::kCrc32c);
  std::vector<uint8_t> buf(4096);
  FillVerifyBlock(spec, buf.data(), 4096, 8192, VerifyStamp{});
  std::vector<std::string> lines;
  // The block read at another offset: the header says where it belongs.
  std::vector<uint8_t> copy = buf;
  EXPECT_EQ(
      CheckVerifyBlock(spec, copy.data(), 4096, 12288, "/dev/x", {}, &lines),
      1u);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "verify: bad header offset 8192, wanted 12288 at file /dev/x "
            "offset 12288, length 4096 (requested block: offset=12288, "
            "length=4096)");
  // Zeros: bad magic.
  lines.clear();
  std::vector<uint8_t> zero(4096, 0);
  EXPECT_EQ(CheckVerifyBlock(spec, zero.data(), 4096, 0, "/dev/x", {}, &lines),
            1u);
  EXPECT_EQ(lines[0].rfind("verify: bad magic header 0, wanted acca at file "
                           "/dev/x offset 0, length 4096",
                           0),
            0u);
  // Payload damage: fio's three lines, CRCs as stored bytes.
  lines.clear();
  copy = buf;
  copy[100] ^= 1;
  EXPECT_EQ(
      CheckVerifyBlock(spec, copy.data(), 4096, 8192, "/dev/x", {}, &lines),
      1u);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "crc32c: verify failed at file /dev/x offset 8192, length 4096 "
            "(requested block: offset=8192, length=4096)");
  EXPECT_EQ(lines[1].rfind("       Expected CRC: ", 0), 0u);
  EXPECT_EQ(lines[2].rfind("       Received CRC: ", 0), 0u);
  EXPECT_NE(lines[1].substr(21), lines[2].substr(21));
  // A stale write: numberio differs.
  lines.clear();
  VerifyExpect expect;
  expect.check_numberio = true;
  expect.numberio = 9;
  copy = buf;
  EXPECT_EQ(
      CheckVerifyBlock(spec, copy.data(), 4096, 8192, "/dev/x", expect, &lines),
      1u);
  EXPECT_EQ(lines[0].rfind("verify: bad header numberio 0, wanted 9", 0), 0u);
}

TEST(VerifyBlockTest, FatalStopsAtTheFirstBadInterval) {
  VerifySpec spec = Spec(VerifyType::kCrc32c, 512);
  std::vector<uint8_t> buf(4096);
  FillVerifyBlock(spec, buf.data(), 4096, 0, VerifyStamp{});
  buf[600] ^= 1;
  buf[3000] ^= 1;
  std::vector<std::string> lines;
  std::vector<uint8_t> copy = buf;
  EXPECT_EQ(CheckVerifyBlock(spec, copy.data(), 4096, 0, "f", {}, &lines), 2u);
  spec.fatal = true;
  copy = buf;
  EXPECT_EQ(CheckVerifyBlock(spec, copy.data(), 4096, 0, "f", {}, &lines), 1u);
}

TEST(VerifyPatternTest, ParsesAsFio) {
  std::vector<uint8_t> b;
  std::vector<uint32_t> o;
  std::string why;
  // fio lib/pattern.c's examples.
  ASSERT_TRUE(ParseVerifyPattern("\"abcd\"", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0x61, 0x62, 0x63, 0x64}));
  ASSERT_TRUE(ParseVerifyPattern("-1024", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0x00, 0xfc, 0xff, 0xff}));
  ASSERT_TRUE(ParseVerifyPattern("66", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0x42}));
  ASSERT_TRUE(ParseVerifyPattern("0xFF0X1", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0xff, 0x01}));
  ASSERT_TRUE(ParseVerifyPattern("\"123\"0xFFeeCC", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0x31, 0x32, 0x33, 0xff, 0xee, 0xcc}));
  ASSERT_TRUE(ParseVerifyPattern("-100xab\"1\"%o\"2\"", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0xf6, 0xff, 0xff, 0xff, 0xab, 0x31, 0, 0,
                                     0, 0, 0, 0, 0, 0, 0x32}));
  EXPECT_EQ(o, (std::vector<uint32_t>{6}));
  ASSERT_TRUE(ParseVerifyPattern("0", &b, &o, &why));
  EXPECT_EQ(b, (std::vector<uint8_t>{0}));
  EXPECT_FALSE(ParseVerifyPattern("\"open", &b, &o, &why));
  EXPECT_FALSE(ParseVerifyPattern("%x", &b, &o, &why));
  EXPECT_FALSE(ParseVerifyPattern("'file'", &b, &o, &why));
  EXPECT_FALSE(ParseVerifyPattern("abc", &b, &o, &why));
}

}  // namespace
}  // namespace tierbench
