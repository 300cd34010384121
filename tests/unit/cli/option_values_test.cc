// compare --label KEY=VALUE (cli/option_values.h): accepted forms, and the
// one-line refusals naming --label and the fix.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cli/option_values.h"
#include "util/errors.h"

namespace tierbench {
namespace {

std::string LabelError(const std::string& text,
                       std::map<std::string, std::string>* labels) {
  try {
    LabelOption(text, labels);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(LabelOption, KeepsKeysAndValuesAsGiven) {
  std::map<std::string, std::string> labels;
  LabelOption("ssd=Samsung 980 PRO", &labels);
  LabelOption("lab.ssd_iops=2000", &labels);
  LabelOption("empty=", &labels);
  LabelOption("url=a=b", &labels);  // the first '=' splits
  EXPECT_EQ(labels,
            (std::map<std::string, std::string>{{"ssd", "Samsung 980 PRO"},
                                                {"lab.ssd_iops", "2000"},
                                                {"empty", ""},
                                                {"url", "a=b"}}));
}

TEST(LabelOption, RefusesBadLabelsInOneLine) {
  std::map<std::string, std::string> labels = {{"ssd", "a"}};
  for (const std::string& bad :
       {std::string("noequals"), std::string("=v"), std::string("a b=c"),
        std::string("k=tab\there"), std::string("ssd=again"),
        std::string(65, 'k') + "=v", "k=" + std::string(201, 'v')}) {
    const std::string e = LabelError(bad, &labels);
    EXPECT_NE(e.find("--label"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("Fix: KEY=VALUE"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  EXPECT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels["ssd"], "a");
}

}  // namespace
}  // namespace tierbench
