#include "present/charts/svg_writer.h"

#include <cstdio>
#include <vector>

#include "util/xml_escape.h"

namespace tierbench {
namespace {

const char kFont[] =
    R"(font-family="DejaVu Sans, Helvetica, Arial, sans-serif")";

std::string Cls(const std::string& cls) {
  return cls.empty() ? std::string() : " class=\"" + cls + "\"";
}

std::string Extra(const std::string& attrs) {
  return attrs.empty() ? std::string() : " " + attrs;
}

}  // namespace

SvgWriter::SvgWriter(double width, double height, std::string kind,
                     std::string title)
    : width_(width),
      height_(height),
      kind_(std::move(kind)),
      title_(std::move(title)) {}

std::string SvgWriter::Escape(const std::string& text) {
  return XmlEscape(text);
}

std::string SvgWriter::Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return std::string(buf) == "-0.0" ? "0.0" : buf;
}

void SvgWriter::Add(const std::string& element, const std::string& tip) {
  // `element` is "<name attrs" without the closing; add the tooltip child.
  if (tip.empty()) {
    body_ += element + "/>\n";
    return;
  }
  const std::string name = element.substr(1, element.find(' ') - 1);
  body_ += element + "><title>" + Escape(tip) + "</title></" + name + ">\n";
}

void SvgWriter::Polyline(const std::vector<std::pair<double, double>>& points,
                         const std::string& cls, const std::string& attrs,
                         const std::string& tip) {
  std::string pts;
  for (const auto& [x, y] : points) {
    pts += (pts.empty() ? "" : " ") + Num(x) + "," + Num(y);
  }
  Add("<polyline" + Cls(cls) + " points=\"" + pts + "\" fill=\"none\"" +
          Extra(attrs),
      tip);
}

void SvgWriter::Rect(double x, double y, double w, double h,
                     const std::string& cls, const std::string& attrs,
                     const std::string& tip) {
  Add("<rect" + Cls(cls) + " x=\"" + Num(x) + "\" y=\"" + Num(y) +
          "\" width=\"" + Num(w < 0 ? 0 : w) + "\" height=\"" +
          Num(h < 0 ? 0 : h) + "\"" + Extra(attrs),
      tip);
}

void SvgWriter::Line(double x1, double y1, double x2, double y2,
                     const std::string& cls, const std::string& attrs,
                     const std::string& tip) {
  Add("<line" + Cls(cls) + " x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) +
          "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) + "\"" + Extra(attrs),
      tip);
}

void SvgWriter::Circle(double cx, double cy, double r, const std::string& cls,
                       const std::string& attrs, const std::string& tip) {
  Add("<circle" + Cls(cls) + " cx=\"" + Num(cx) + "\" cy=\"" + Num(cy) +
          "\" r=\"" + Num(r) + "\"" + Extra(attrs),
      tip);
}

void SvgWriter::Text(double x, double y, const std::string& text,
                     const std::string& cls, const std::string& anchor,
                     double rotate, const std::string& tip,
                     const std::string& attrs) {
  std::string e = "<text" + Cls(cls) + " x=\"" + Num(x) + "\" y=\"" + Num(y) +
                  "\" text-anchor=\"" + anchor + "\"";
  if (rotate != 0) {
    e += " transform=\"rotate(" + Num(rotate) + " " + Num(x) + " " + Num(y) +
         ")\"";
  }
  e += Extra(attrs) + ">";
  if (!tip.empty()) e += "<title>" + Escape(tip) + "</title>";
  body_ += e + Escape(text) + "</text>\n";
}

std::string SvgWriter::Finish() const {
  const std::string w = Num(width_), h = Num(height_);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
         "data-chart=\"" +
         Escape(kind_) + "\" width=\"" + w + "\" height=\"" + h +
         "\" viewBox=\"0 0 " + w + " " + h + "\" font-size=\"11\" " + kFont +
         " role=\"img\">\n<title>" + Escape(title_) + "</title>\n" +
         "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" + w +
         "\" height=\"" + h + "\" fill=\"#ffffff\"/>\n" + body_ + "</svg>\n";
}

std::string Truncate(const std::string& text, size_t max_chars) {
  std::vector<size_t> starts;  // byte offset of each character
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      starts.push_back(i);
  }
  if (starts.size() <= max_chars || max_chars == 0) return text;
  return text.substr(0, starts[max_chars - 1]) + "\u2026";
}

std::string Abbreviate(const std::string& text, size_t max_chars) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
      starts.push_back(i);
  }
  if (starts.size() <= max_chars || max_chars < 5) {
    return Truncate(text, max_chars);
  }
  const size_t head = (max_chars - 1) * 2 / 5;  // the tail gets the rest
  const size_t tail = max_chars - 1 - head;
  return text.substr(0, starts[head]) + "\u2026" +
         text.substr(starts[starts.size() - tail]);
}

}  // namespace tierbench
