// ElideEchoedInput: long echoed values are cut, paths get more room, the
// message stays one line, and HarnessError applies it.
#include <gtest/gtest.h>

#include <string>

#include "util/elide.h"
#include "util/errors.h"

namespace tierbench {
namespace {

TEST(ElideTest, ShortMessagesAreUnchanged) {
  const std::string m =
      "job.fio:3: option 'bs': '4q' is not a size. Fix: use 4k";
  EXPECT_EQ(ElideEchoedInput(m), m);
}

TEST(ElideTest, LongTokenIsCutWithItsLength) {
  const std::string value(200000, 'k');
  const std::string m =
      "big.fio:3: option 'bs': '" + value + "' is not a size. Fix: use 4k";
  const std::string out = ElideEchoedInput(m);
  // 'k...k' is one token of 200002 characters: 60 kept.
  EXPECT_EQ(out, "big.fio:3: option 'bs': '" + std::string(59, 'k') +
                     "...[199942 more bytes] is not a size. Fix: use 4k");
}

TEST(ElideTest, PathsKeepMoreRoom) {
  const std::string path = "/srv/" + std::string(150, 'p') + "/job.fio:12:";
  EXPECT_EQ(ElideEchoedInput(path + " bad"), path + " bad");
  const std::string longer = "/" + std::string(400, 'p');
  EXPECT_EQ(ElideEchoedInput(longer),
            "/" + std::string(299, 'p') + "...[101 more bytes]");
}

TEST(ElideTest, ManyShortWordsKeepHeadAndTail) {
  std::string m = "head";
  for (int i = 0; i < 1000; ++i) m += " word";
  m += " Fix: the fix";
  const std::string out = ElideEchoedInput(m);
  EXPECT_EQ(out.size(), 640u + 320u + std::string("...[").size() +
                            std::to_string(m.size() - 960).size() +
                            std::string(" bytes elided]...").size());
  EXPECT_EQ(out.substr(0, 4), "head");
  EXPECT_EQ(out.substr(out.size() - 13), " Fix: the fix");
}

TEST(ElideTest, OneLineWithoutControlCharacters) {
  EXPECT_EQ(ElideEchoedInput("a\nb\rc\x1b[2Jd\te"), "a b c?[2Jd\te");
}

TEST(ElideTest, HarnessErrorsAreElided) {
  const ConfigError e("x.fio:1: option 'bs': '" + std::string(1000, 'z') +
                      "'. Fix: y");
  EXPECT_LT(std::string(e.what()).size(), 130u);
  EXPECT_NE(std::string(e.what()).find("more bytes]"), std::string::npos);
}

}  // namespace
}  // namespace tierbench
