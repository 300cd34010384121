// SvgWriter: builds one standalone SVG 1.1 document element by element.
// Every text is XML-escaped, every coordinate printed with one decimal, and
// styling is done with presentation attributes (fill, stroke, ...), so the
// same text is valid as a file of its own and inline in HTML, and renders
// without CSS in any viewer. Elements carry a `class` so tests and the HTML
// can find them. The root <svg> gets a <title> (the chart's accessible
// name) and a `data-chart` attribute naming the chart kind.
//
// Not thread-safe; Finish() may be called once all elements are added.
#ifndef TIERBENCH_PRESENT_CHARTS_SVG_WRITER_H_
#define TIERBENCH_PRESENT_CHARTS_SVG_WRITER_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tierbench {

// Shared by the charts (chart_frame, xy_plot, position_table): a generous
// glyph width in px at their font-size 11, to size boxes around text, and
// the length labels are shortened to.
inline constexpr double kCharPx = 7.0;
inline constexpr size_t kMaxLabel = 28;

class SvgWriter {
 public:
  // A `width` x `height` px drawing; `kind` goes to data-chart.
  SvgWriter(double width, double height, std::string kind, std::string title);

  // `attrs`: extra attributes, e.g. R"(fill="#0072B2")". `tip`: a <title>
  // child (the tooltip with the full figure or label), "" for none.
  void Rect(double x, double y, double w, double h, const std::string& cls,
            const std::string& attrs, const std::string& tip = "");
  void Line(double x1, double y1, double x2, double y2, const std::string& cls,
            const std::string& attrs, const std::string& tip = "");
  void Circle(double cx, double cy, double r, const std::string& cls,
              const std::string& attrs, const std::string& tip = "");
  // An open line through `points` ((x, y) pairs), e.g. a time series.
  void Polyline(const std::vector<std::pair<double, double>>& points,
                const std::string& cls, const std::string& attrs,
                const std::string& tip = "");
  // Text at (x, y); `anchor` start|middle|end; `rotate` in degrees about
  // (x, y).
  void Text(double x, double y, const std::string& text, const std::string& cls,
            const std::string& anchor, double rotate = 0,
            const std::string& tip = "", const std::string& attrs = "");

  double width() const { return width_; }
  double height() const { return height_; }
  // The complete document (XML declaration-free, so it can be inlined).
  std::string Finish() const;

  static std::string Escape(const std::string& text);
  static std::string Num(double v);  // "%.1f"

 private:
  void Add(const std::string& element, const std::string& tip);

  double width_, height_;
  std::string kind_, title_, body_;
};

// `text` cut to `max_chars` characters (UTF-8 aware) with "…" when longer.
std::string Truncate(const std::string& text, size_t max_chars);
// `text` shortened to `max_chars` characters by a "…" in the middle, keeping
// its start and its end (where names tend to differ: "...-variant-3").
std::string Abbreviate(const std::string& text, size_t max_chars);

}  // namespace tierbench

#endif  // TIERBENCH_PRESENT_CHARTS_SVG_WRITER_H_
