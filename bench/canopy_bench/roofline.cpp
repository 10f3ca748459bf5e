#include "roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace canopy_bench {
namespace {

// Layout, in SVG pixels: the plot, then the legend below it in columns.
constexpr double kPlotWidth = 820;
constexpr double kPlotHeight = 500;
constexpr double kLeft = 80, kRight = 30, kTop = 50, kBottom = 60;
constexpr double kLegendColumnWidth = 290, kLegendLine = 13;
constexpr int kLegendColumns = 3;
constexpr double kPointRadius = 4;

struct Axis {
  double low_log10, high_log10;  // whole decades
  double Position(double value, double length) const {
    return (std::log10(value) - low_log10) / (high_log10 - low_log10) * length;
  }
};

const char* ColourOf(const Result& r) {
  if (r.driver == "eltwise" && r.op == "cast") return "#8e44ad";
  if (r.dtype == "bf16") return "#e67e22";
  if (r.dtype == "f16") return "#27ae60";
  return "#2e86c1";
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string FormatTick(double value) {
  char text[32];
  if (value >= 1) {
    std::snprintf(text, sizeof(text), "%.0f", value);
  } else {
    std::snprintf(text, sizeof(text), "%g", value);
  }
  return text;
}

}  // namespace

void WriteRoofline(const std::string& path, const MachinePeak& machine, const std::vector<Result>& results) {
  std::vector<const Result*> points;
  for (const Result& r : results) {
    if (r.status == "ok" && r.time_us > 0 && r.flops > 0 && r.bytes > 0) points.push_back(&r);
  }
  const double bandwidth = machine.BandwidthGbps();
  const double top_peak = std::max(machine.f32_gflops, machine.bf16_gflops);
  if (bandwidth <= 0 || top_peak <= 0) {
    std::fprintf(stderr, "canopy-bench: no machine measurement: roofline not written\n");
    return;
  }
  double x_min = 1.0 / 32, x_max = 1024, y_min = 1, y_max = top_peak;
  for (const Result* r : points) {
    x_min = std::min(x_min, r->Intensity());
    x_max = std::max(x_max, r->Intensity());
    y_min = std::min(y_min, r->Gflops());
    if (r->reference_us > 0) y_min = std::min(y_min, r->ReferenceGflops());
  }
  const Axis x{std::floor(std::log10(x_min)), std::ceil(std::log10(x_max))};
  const Axis y{std::floor(std::log10(y_min)), std::ceil(std::log10(y_max * 1.2))};
  const auto px = [&](double intensity) { return kLeft + x.Position(intensity, kPlotWidth); };
  const auto py = [&](double gflops) { return kTop + kPlotHeight - y.Position(gflops, kPlotHeight); };

  const size_t legend_rows = (points.size() + kLegendColumns - 1) / kLegendColumns;
  const double legend_top = kTop + kPlotHeight + kBottom;
  const double width = std::max(kLeft + kPlotWidth, kLeft + kLegendColumnWidth * kLegendColumns) + kRight;
  const double height = legend_top + kLegendLine * static_cast<double>(legend_rows + 2);

  FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) Die("cannot write %s", path.c_str());
  std::fprintf(file,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n",
               width, height);
  std::fprintf(file, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  std::fprintf(file,
               "<text x=\"%.0f\" y=\"22\" font-size=\"14\" font-weight=\"bold\">Canopy roofline: %d threads, %s "
               "(filled: Canopy, hollow grey: reference of the same problem)</text>\n",
               kLeft, machine.threads, machine.isa.c_str());

  // Grid and ticks at every decade.
  for (double d = x.low_log10; d <= x.high_log10; ++d) {
    const double v = std::pow(10.0, d);
    std::fprintf(file, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px(v), kTop, px(v),
                 kTop + kPlotHeight);
    std::fprintf(file, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px(v), kTop + kPlotHeight + 16,
                 FormatTick(v).c_str());
  }
  for (double d = y.low_log10; d <= y.high_log10; ++d) {
    const double v = std::pow(10.0, d);
    std::fprintf(file, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", kLeft, py(v),
                 kLeft + kPlotWidth, py(v));
    std::fprintf(file, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", kLeft - 6, py(v) + 4,
                 FormatTick(v).c_str());
  }
  std::fprintf(file, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
               kLeft, kTop, kPlotWidth, kPlotHeight);
  std::fprintf(file, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte)</text>\n",
               kLeft + kPlotWidth / 2, kTop + kPlotHeight + 40);
  std::fprintf(file, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">GFLOP/s</text>\n",
               kLeft - 50, kTop + kPlotHeight / 2);

  // Ceilings: the bandwidth slope up to each compute peak, then the peak.
  const double x_low = std::pow(10.0, x.low_log10), x_high = std::pow(10.0, x.high_log10);
  const auto ceiling = [&](double peak, const char* colour, const char* dash, const char* label) {
    const double ridge = peak / bandwidth;
    const double start = std::max(x_low, std::pow(10.0, y.low_log10) / bandwidth);
    std::fprintf(file,
                 "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                 "stroke-dasharray=\"%s\"/>\n",
                 px(start), py(start * bandwidth), px(ridge), py(peak), px(x_high), py(peak), colour, dash);
    std::fprintf(file, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\">%s %.0f GFLOP/s</text>\n",
                 kLeft + kPlotWidth - 4, py(peak) - 5, colour, label, peak);
  };
  ceiling(machine.f32_gflops, "#c0392b", "none", "f32 FMA peak");
  if (machine.bf16_gflops > 0) ceiling(machine.bf16_gflops, "#e67e22", "6,4", "bf16 dot-product peak");
  {
    const double at = std::sqrt(x_low * std::min(x_high, machine.f32_gflops / bandwidth));
    std::fprintf(file,
                 "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c0392b\" transform=\"rotate(%.1f %.1f %.1f)\">memory %.1f GB/s "
                 "(STREAM %s)</text>\n",
                 px(at), py(at * bandwidth) - 6,
                 -std::atan2(py(x_low * bandwidth) - py(x_high * bandwidth), px(x_high) - px(x_low)) * 180 / M_PI,
                 px(at), py(at * bandwidth) - 6, bandwidth, machine.copy_gbps >= machine.triad_gbps ? "copy" : "triad");
  }

  // Points, numbered; references as hollow markers at the same intensity.
  for (size_t i = 0; i < points.size(); ++i) {
    const Result& r = *points[i];
    if (r.reference_us > 0) {
      std::fprintf(file, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n",
                   px(r.Intensity()), py(r.ReferenceGflops()), kPointRadius);
    }
    std::fprintf(file, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" fill-opacity=\"0.8\"/>\n",
                 px(r.Intensity()), py(r.Gflops()), kPointRadius, ColourOf(r));
    std::fprintf(file, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" fill=\"%s\">%zu</text>\n",
                 px(r.Intensity()) + kPointRadius + 1, py(r.Gflops()) + 3 - (i % 3) * 3.0, ColourOf(r), i + 1);
  }

  // Legend, column by column.
  std::fprintf(file,
               "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">#  op dtype problem: Canopy GFLOP/s, %% of "
               "the roofline at its intensity</text>\n",
               kLeft, legend_top);
  for (size_t i = 0; i < points.size(); ++i) {
    const Result& r = *points[i];
    const double lx = kLeft + kLegendColumnWidth * static_cast<double>(i / legend_rows);
    const double ly = legend_top + kLegendLine * static_cast<double>(i % legend_rows + 1);
    const std::string name = r.op + " " + r.dtype + " " + r.problem;
    std::fprintf(file, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%zu  %s: %.1f, %.0f%%</text>\n", lx,
                 ly, ColourOf(r), i + 1, Escape(name).c_str(), r.Gflops(), r.PercentOfRoofline());
  }
  std::fprintf(file, "</svg>\n");
  std::fclose(file);
  std::printf("roofline: %zu point(s) written to %s\n", points.size(), path.c_str());
}

}  // namespace canopy_bench
