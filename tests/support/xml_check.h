// XmlCheck: a small XML 1.0 well-formedness checker for the SVG tests (no
// DTD, no namespaces beyond names): one root element, balanced and properly
// nested tags, quoted and unique attributes, only the five predefined and
// numeric entities, no stray '<' or '&' in text. Parse() returns "" when
// well-formed, else the first problem with its byte offset; elements()
// then lists every element with its attributes and direct text, in document
// order. Header-only test helper.
#ifndef TIERBENCH_TESTS_SUPPORT_XML_CHECK_H_
#define TIERBENCH_TESTS_SUPPORT_XML_CHECK_H_

#include <cctype>
#include <map>
#include <string>
#include <vector>

namespace tierbench {

class XmlCheck {
 public:
  struct Element {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::string text;  // direct character data, entities decoded
    int parent = -1;   // index into elements(), -1 for the root
  };

  std::string Parse(const std::string& doc) {
    s_ = doc;
    i_ = 0;
    elements_.clear();
    std::vector<int> open;
    bool root_done = false;
    while (i_ < s_.size()) {
      if (s_[i_] != '<') {
        const size_t start = i_;
        while (i_ < s_.size() && s_[i_] != '<') ++i_;
        std::string text;
        std::string err = Decode(s_.substr(start, i_ - start), &text);
        if (!err.empty()) return err + " at " + std::to_string(start);
        const bool blank =
            text.find_first_not_of(" \t\r\n") == std::string::npos;
        if (open.empty() && !blank)
          return "text outside the root at " + std::to_string(start);
        if (!open.empty()) elements_[open.back()].text += text;
        continue;
      }
      if (s_.compare(i_, 5, "<?xml") == 0) {
        if (i_ != 0) return "XML declaration not at the start";
        const size_t end = s_.find("?>", i_);
        if (end == std::string::npos) return "unclosed declaration";
        i_ = end + 2;
        continue;
      }
      if (s_.compare(i_, 4, "<!--") == 0) {
        const size_t end = s_.find("-->", i_);
        if (end == std::string::npos) return "unclosed comment";
        i_ = end + 3;
        continue;
      }
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        const std::string name = Name();
        SkipSpace();
        if (i_ >= s_.size() || s_[i_] != '>') return "bad end tag " + name;
        ++i_;
        if (open.empty() || elements_[open.back()].name != name) {
          return "end tag </" + name + "> does not match at " +
                 std::to_string(i_);
        }
        open.pop_back();
        if (open.empty()) root_done = true;
        continue;
      }
      ++i_;
      if (root_done && open.empty())
        return "second root element at " + std::to_string(i_);
      Element e;
      e.name = Name();
      if (e.name.empty()) return "bad tag name at " + std::to_string(i_);
      e.parent = open.empty() ? -1 : open.back();
      while (true) {
        SkipSpace();
        if (i_ >= s_.size()) return "unclosed tag " + e.name;
        if (s_[i_] == '>' || s_.compare(i_, 2, "/>") == 0) break;
        const std::string attr = Name();
        if (attr.empty())
          return "bad attribute in <" + e.name + "> at " + std::to_string(i_);
        SkipSpace();
        if (i_ >= s_.size() || s_[i_] != '=')
          return "attribute " + attr + " without value";
        ++i_;
        SkipSpace();
        if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) {
          return "unquoted attribute " + attr;
        }
        const char q = s_[i_++];
        const size_t end = s_.find(q, i_);
        if (end == std::string::npos) return "unclosed attribute " + attr;
        std::string raw = s_.substr(i_, end - i_), value;
        if (raw.find('<') != std::string::npos)
          return "'<' in attribute " + attr;
        std::string err = Decode(raw, &value);
        if (!err.empty()) return err + " in attribute " + attr;
        if (e.attrs.count(attr)) return "duplicate attribute " + attr;
        e.attrs[attr] = value;
        i_ = end + 1;
      }
      const bool empty = s_[i_] == '/';
      i_ += empty ? 2 : 1;
      elements_.push_back(e);
      if (!empty)
        open.push_back(static_cast<int>(elements_.size()) - 1);
      else if (open.empty())
        root_done = true;
    }
    if (!open.empty())
      return "unclosed element <" + elements_[open.back()].name + ">";
    if (elements_.empty()) return "no root element";
    return "";
  }

  const std::vector<Element>& elements() const { return elements_; }

  // Elements whose class attribute contains the word `cls`.
  std::vector<const Element*> WithClass(const std::string& cls) const {
    std::vector<const Element*> out;
    for (const Element& e : elements_) {
      auto it = e.attrs.find("class");
      if (it == e.attrs.end()) continue;
      const std::string padded = " " + it->second + " ";
      if (padded.find(" " + cls + " ") != std::string::npos) out.push_back(&e);
    }
    return out;
  }

 private:
  std::string Name() {
    const size_t start = i_;
    while (i_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
            s_[i_] == '_' || s_[i_] == ':' || s_[i_] == '.')) {
      ++i_;
    }
    return s_.substr(start, i_ - start);
  }
  void SkipSpace() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
      ++i_;
  }
  static std::string Decode(const std::string& in, std::string* out) {
    static const std::map<std::string, std::string> kEntities = {
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
    for (size_t i = 0; i < in.size(); ++i) {
      if (in[i] != '&') {
        *out += in[i];
        continue;
      }
      const size_t end = in.find(';', i);
      if (end == std::string::npos) return "bare '&'";
      const std::string name = in.substr(i + 1, end - i - 1);
      if (!name.empty() && name[0] == '#') {
        *out += '?';
      } else if (kEntities.count(name)) {
        *out += kEntities.at(name);
      } else {
        return "unknown entity &" + name + ";";
      }
      i = end;
    }
    return "";
  }

  std::string s_;
  size_t i_ = 0;
  std::vector<Element> elements_;
};

}  // namespace tierbench

#endif  // TIERBENCH_TESTS_SUPPORT_XML_CHECK_H_
