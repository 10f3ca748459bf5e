// AdaptiveAvgPool2d, UpsampleBilinear2d, UpsampleBicubic2d, UpsampleLinear1d
// and UpsampleTrilinear3d (the separable resampling kernel) and GridSampler2D
// against float64 references written from PyTorch's definitions: adaptive
// windows [floor(i * in / out), ceil((i + 1) * in / out)), bilinear source
// coordinates with and without align_corners and with given scales, Keys'
// cubic weights with clamped taps; every
// dtype, 3-D and 4-D inputs, NHWC, strided views, empty batches, the docs'
// example calls, and every rejection with its code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_grid_sampler2d.h"
#include "aclnnop/aclnn_grid_sampler3d.h"
#include "aclnnop/aclnn_upsample_bicubic_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "aclnnop/aclnn_upsample_trilinear_3d.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// Tolerance of a weighted sum computed in f32 (f64 for f64) and rounded to `dtype`.
double Tolerance(aclDataType dtype, double want, double magnitude) {
  const double compute = dtype == ACL_DOUBLE ? UnitRoundoff(ACL_DOUBLE) : UnitRoundoff(ACL_FLOAT);
  return 16 * compute * magnitude + 2 * UnitRoundoff(dtype) * std::abs(want) + 1e-300;
}

// ---- AdaptiveAvgPool2d ------------------------------------------------------------------------------

struct AdaptiveCase {
  std::string name;
  Shape input;  // [N, C, H, W] or [C, H, W]
  int64_t outH, outW;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const AdaptiveCase& c, std::ostream* os) { *os << c.name; }

AdaptiveCase Adaptive(std::string name, Shape input, int64_t outH, int64_t outW, aclDataType dtype = ACL_FLOAT) {
  AdaptiveCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.outH = outH;
  c.outW = outW;
  c.dtype = dtype;
  return c;
}

void RunAdaptive(const AdaptiveCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const size_t rank = c.input.size();
  const aclFormat format = rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_NCL;
  Shape outShape = c.input;
  outShape[rank - 2] = c.outH;
  outShape[rank - 1] = c.outW;
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAdaptiveAvgPool2dGetWorkspaceSize(a.Tensor(in, format), a.IntArray({c.outH, c.outW}),
                                                      a.Tensor(out, format), ws, ex);
      },
      aclnnAdaptiveAvgPool2d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const int64_t inH = c.input[rank - 2], inW = c.input[rank - 1];
  Expected expected;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    const int64_t oy = index[rank - 2], ox = index[rank - 1];
    const int64_t y0 = oy * inH / c.outH, y1 = ((oy + 1) * inH + c.outH - 1) / c.outH;
    const int64_t x0 = ox * inW / c.outW, x1 = ((ox + 1) * inW + c.outW - 1) / c.outW;
    double sum = 0, magnitude = 0;
    for (int64_t y = y0; y < y1; ++y) {
      for (int64_t xx = x0; xx < x1; ++xx) {
        index[rank - 2] = y;
        index[rank - 1] = xx;
        const double v = x[static_cast<size_t>(Ravel(index, c.input))].real();
        sum += v;
        magnitude += std::abs(v);
      }
    }
    const double area = static_cast<double>((y1 - y0) * (x1 - x0));
    expected.values.push_back(sum / area);
    expected.tolerance.push_back(Tolerance(c.dtype, sum / area, magnitude / area));
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<AdaptiveCase> AdaptiveCases() {
  std::vector<AdaptiveCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string suffix = std::string("_") + Name(dtype);
    cases.push_back(Adaptive("overlapping_windows" + suffix, {2, 3, 7, 10}, 3, 4, dtype));
    cases.push_back(Adaptive("global" + suffix, {2, 5, 7, 7}, 1, 1, dtype));
    cases.push_back(Adaptive("chw" + suffix, {3, 9, 5}, 4, 2, dtype));
  }
  cases.push_back(Adaptive("divisible", {1, 4, 12, 8}, 6, 4));
  cases.push_back(Adaptive("upsampling_windows", {1, 2, 3, 2}, 7, 5));
  cases.push_back(Adaptive("same_size", {2, 2, 5, 6}, 5, 6));
  cases.push_back(Adaptive("one_row", {1, 3, 1, 9}, 1, 4));
  cases.push_back(Adaptive("empty_batch", {0, 3, 6, 6}, 2, 3));
  AdaptiveCase views = Adaptive("views", {2, 3, 8, 9}, 3, 5, ACL_FLOAT16);
  views.inView = View::kStepped;
  views.outView = View::kReversed;
  cases.push_back(views);
  views = Adaptive("views_transposed_offset", {2, 3, 8, 9}, 5, 3, ACL_BF16);
  views.inView = View::kTransposed;
  views.outView = View::kOffset;
  cases.push_back(views);
  // The doc's example: [2, 2, 3, 3] f32 NCHW to [2, 2], values 1..36.
  cases.push_back(Adaptive("doc_example_shape", {2, 2, 3, 3}, 2, 2));
  return cases;
}

class AdaptiveAvgPool2dTest : public ::testing::TestWithParam<AdaptiveCase> {};
TEST_P(AdaptiveAvgPool2dTest, MatchesFloat64Reference) { RunAdaptive(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AdaptiveAvgPool2dTest, ::testing::ValuesIn(AdaptiveCases()),
                         [](const ::testing::TestParamInfo<AdaptiveCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// The doc's example program, values included: windows {0..1, 1..2} on both axes.
TEST(AdaptiveAvgPool2dDoc, ExampleValues) {
  DeviceTensor in(ACL_FLOAT, {2, 2, 3, 3});
  DeviceTensor out(ACL_FLOAT, {2, 2, 2, 2});
  Values x;
  for (int i = 1; i <= 36; ++i) x.push_back(i);
  in.WriteView(x);
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAdaptiveAvgPool2dGetWorkspaceSize(a.Tensor(in, ACL_FORMAT_NCHW), a.IntArray({2, 2}),
                                                      a.Tensor(out, ACL_FORMAT_NCHW), ws, ex);
      },
      aclnnAdaptiveAvgPool2d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want;
  for (int plane = 0; plane < 4; ++plane) {
    const double base = 9.0 * plane;
    for (const double v : {3.0, 4.0, 6.0, 7.0}) want.push_back(base + v);  // means of 2x2 windows of 1..9
  }
  ExpectExact(out.ReadView(), want, "doc example");
}

// ---- UpsampleBilinear2d -------------------------------------------------------------------------------

struct BilinearCase {
  std::string name;
  Shape input;  // in the tensor's own order (NCHW or NHWC)
  int64_t outH, outW;
  bool alignCorners = false;
  double scalesH = 0, scalesW = 0;
  aclFormat format = ACL_FORMAT_NCHW;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const BilinearCase& c, std::ostream* os) { *os << c.name; }

BilinearCase Bilinear(std::string name, Shape input, int64_t outH, int64_t outW, bool alignCorners,
                      aclDataType dtype = ACL_FLOAT) {
  BilinearCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.outH = outH;
  c.outW = outW;
  c.alignCorners = alignCorners;
  c.dtype = dtype;
  return c;
}

// PyTorch's source coordinate of output index i, in float64, with CANN's
// same-size rule (scale 1): the two taps and the far tap's weight.
struct Taps {
  int64_t x0, x1;
  double lambda1;
};
Taps SourceTaps(int64_t i, int64_t in, int64_t out, bool alignCorners, double scales) {
  double scale = 1;
  if (in != out) {
    if (alignCorners) {
      scale = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
    } else {
      scale = scales > 0 ? 1.0 / scales : static_cast<double>(in) / static_cast<double>(out);
    }
  }
  const double source =
      alignCorners ? scale * static_cast<double>(i) : std::max(scale * (static_cast<double>(i) + 0.5) - 0.5, 0.0);
  const int64_t x0 = std::min(static_cast<int64_t>(source), in - 1);
  const int64_t x1 = std::min(x0 + 1, in - 1);
  return {x0, x1, x1 == x0 ? 0.0 : source - static_cast<double>(x0)};
}

void RunBilinear(const BilinearCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const bool nhwc = c.format == ACL_FORMAT_NHWC;
  const size_t hDim = nhwc ? 1 : 2, wDim = nhwc ? 2 : 3;
  Shape outShape = c.input;
  outShape[hDim] = c.outH;
  outShape[wDim] = c.outW;
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnUpsampleBilinear2dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray({c.outH, c.outW}),
                                                       c.alignCorners, c.scalesH, c.scalesW, a.Tensor(out, c.format),
                                                       ws, ex);
      },
      aclnnUpsampleBilinear2d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected expected;
  // f32 coordinates move a tap's weight by about an f32 ulp of the coordinate:
  // allow that much of the neighbours' difference.
  const double coordinate = c.dtype == ACL_DOUBLE ? 0.0 : 4 * UnitRoundoff(ACL_FLOAT);
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    const Taps ty = SourceTaps(index[hDim], c.input[hDim], c.outH, c.alignCorners, c.scalesH);
    const Taps tx = SourceTaps(index[wDim], c.input[wDim], c.outW, c.alignCorners, c.scalesW);
    double sum = 0, magnitude = 0;
    for (const auto& [y, a] : {std::pair{ty.x0, 1 - ty.lambda1}, std::pair{ty.x1, ty.lambda1}}) {
      for (const auto& [xx, b] : {std::pair{tx.x0, 1 - tx.lambda1}, std::pair{tx.x1, tx.lambda1}}) {
        index[hDim] = y;
        index[wDim] = xx;
        const double v = x[static_cast<size_t>(Ravel(index, c.input))].real();
        sum += a * b * v;
        magnitude += std::abs(v);
      }
    }
    const double coordinates = coordinate * (static_cast<double>(std::max(c.input[hDim], c.input[wDim])) + 1);
    expected.values.push_back(sum);
    expected.tolerance.push_back(Tolerance(c.dtype, sum, magnitude) + coordinates * magnitude);
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<BilinearCase> BilinearCases() {
  std::vector<BilinearCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string suffix = std::string("_") + Name(dtype);
    cases.push_back(Bilinear("x2" + suffix, {2, 3, 4, 5}, 8, 10, false, dtype));
    cases.push_back(Bilinear("x2_align" + suffix, {2, 3, 4, 5}, 8, 10, true, dtype));
  }
  cases.push_back(Bilinear("non_integer", {1, 2, 7, 5}, 12, 9, false));
  cases.push_back(Bilinear("non_integer_align", {1, 2, 7, 5}, 12, 9, true));
  cases.push_back(Bilinear("downsample", {1, 2, 9, 10}, 4, 3, false));
  cases.push_back(Bilinear("downsample_align", {1, 2, 9, 10}, 4, 3, true));
  cases.push_back(Bilinear("to_one_align", {1, 2, 5, 4}, 1, 1, true));
  cases.push_back(Bilinear("to_one", {1, 2, 5, 4}, 1, 1, false));
  cases.push_back(Bilinear("from_one", {1, 3, 1, 1}, 4, 3, false));
  cases.push_back(Bilinear("same_size_with_scales", {1, 2, 5, 6}, 5, 6, false));
  cases.back().scalesH = 2.0;
  cases.back().scalesW = 0.5;
  BilinearCase scaled = Bilinear("scales_given", {1, 2, 4, 6}, 9, 10, false);
  scaled.scalesH = 2.25;
  scaled.scalesW = 1.5;  // 1 / scales, not in / out, places the taps
  cases.push_back(scaled);
  scaled.name = "scales_ignored_align";
  scaled.alignCorners = true;
  cases.push_back(scaled);
  BilinearCase nhwc = Bilinear("nhwc", {2, 4, 5, 3}, 7, 9, false);
  nhwc.format = ACL_FORMAT_NHWC;
  cases.push_back(nhwc);
  nhwc.name = "nhwc_double_align";
  nhwc.dtype = ACL_DOUBLE;
  nhwc.alignCorners = true;
  cases.push_back(nhwc);
  nhwc.name = "nhwc_double";
  nhwc.alignCorners = false;
  cases.push_back(nhwc);
  BilinearCase views = Bilinear("views", {2, 3, 4, 5}, 9, 6, false, ACL_FLOAT16);
  views.inView = View::kStepped;
  views.outView = View::kReversed;
  cases.push_back(views);
  views = Bilinear("views_transposed", {2, 3, 6, 5}, 4, 11, true);
  views.inView = View::kTransposed;
  views.outView = View::kOffset;
  cases.push_back(views);
  cases.push_back(Bilinear("empty_batch", {0, 3, 4, 4}, 8, 8, false));
  // The doc's example: [1, 1, 4, 2] f32 NCHW to [8, 4], alignCorners, scales 2.
  BilinearCase doc = Bilinear("doc_example", {1, 1, 4, 2}, 8, 4, true);
  doc.scalesH = doc.scalesW = 2.0;
  cases.push_back(doc);
  return cases;
}

class UpsampleBilinear2dTest : public ::testing::TestWithParam<BilinearCase> {};
TEST_P(UpsampleBilinear2dTest, MatchesFloat64Reference) { RunBilinear(GetParam()); }

// A tiny scales factor puts the source position past the input (huge, or
// infinite where 1 / scales overflows f32): every such output takes the last
// source, as the clamp to in - 1 gives. An adversarial pass found the position
// converted to int64 first (INT64_MIN on x86): reads far outside the input.
TEST(UpsampleTinyScales, TakeTheLastSource) {
  DeviceTensor in(ACL_FLOAT, {1, 1, 2, 4});
  in.WriteView({1, 2, 3, 4, 5, 6, 7, 8});
  for (const double scale : {1e-30, 1e-44}) {  // 1 / 1e-44 overflows f32
    SCOPED_TRACE(scale);
    DeviceTensor nearest(ACL_FLOAT, {1, 1, 2, 6});
    const OpRun n = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnUpsampleNearest2dV2GetWorkspaceSize(a.Tensor(in, ACL_FORMAT_NCHW), a.IntArray({2, 6}), 1.0f,
                                                          static_cast<float>(scale), a.Tensor(nearest, ACL_FORMAT_NCHW),
                                                          ws, ex);
        },
        aclnnUpsampleNearest2dV2);
    ASSERT_TRUE(n.ok()) << Describe(n);
    // Column 0 maps to source 0 (0 * 1 / scales, also where that is infinite), the rest past the end.
    ExpectExact(nearest.ReadView(), {1, 4, 4, 4, 4, 4, 5, 8, 8, 8, 8, 8}, "nearest");
    // Bilinear with half-pixel centres (aligned corners ignore scales).
    DeviceTensor bilinear(ACL_FLOAT, {1, 1, 2, 6});
    const OpRun b = RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnUpsampleBilinear2dGetWorkspaceSize(a.Tensor(in, ACL_FORMAT_NCHW), a.IntArray({2, 6}), false, 1.0,
                                                         scale, a.Tensor(bilinear, ACL_FORMAT_NCHW), ws, ex);
        },
        aclnnUpsampleBilinear2d);
    ASSERT_TRUE(b.ok()) << Describe(b);
    ExpectExact(bilinear.ReadView(), {4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8}, "bilinear");
  }
}
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleBilinear2dTest, ::testing::ValuesIn(BilinearCases()),
                         [](const ::testing::TestParamInfo<BilinearCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- UpsampleBicubic2d ---------------------------------------------------------------------------------

double CubicWeight(double d) {  // Keys' kernel, a = -0.75
  constexpr double a = -0.75;
  d = std::abs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0;
}

// PyTorch's bicubic taps of output index i: floor(x) - 1 .. floor(x) + 2 clamped,
// x = scale * i (align corners) or scale * (i + 0.5) - 0.5, unclamped.
std::vector<std::pair<int64_t, double>> CubicTaps(int64_t i, int64_t in, int64_t out, bool alignCorners, double scales,
                                                  bool identity) {
  if (identity) return {{i, 1.0}};
  double scale;
  if (alignCorners) {
    scale = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  } else {
    scale = scales > 0 ? 1.0 / scales : static_cast<double>(in) / static_cast<double>(out);
  }
  const double x = alignCorners ? scale * static_cast<double>(i) : scale * (static_cast<double>(i) + 0.5) - 0.5;
  const double floor = std::floor(x), t = x - floor;
  std::vector<std::pair<int64_t, double>> taps;
  for (int k = 0; k < 4; ++k) {
    taps.push_back({std::clamp<int64_t>(static_cast<int64_t>(floor) - 1 + k, 0, in - 1), CubicWeight(t + 1 - k)});
  }
  return taps;
}

void RunBicubic(const BilinearCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const bool nhwc = c.format == ACL_FORMAT_NHWC;
  const size_t hDim = nhwc ? 1 : 2, wDim = nhwc ? 2 : 3;
  Shape outShape = c.input;
  outShape[hDim] = c.outH;
  outShape[wDim] = c.outW;
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnUpsampleBicubic2dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray({c.outH, c.outW}),
                                                      c.alignCorners, c.scalesH, c.scalesW, a.Tensor(out, c.format), ws,
                                                      ex);
      },
      aclnnUpsampleBicubic2d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const bool identity = c.input[hDim] == c.outH && c.input[wDim] == c.outW;
  const double coordinate =
      8 * UnitRoundoff(ACL_FLOAT) * static_cast<double>(std::max(c.input[hDim], c.input[wDim]) + 1);
  Expected expected;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    const auto rows = CubicTaps(index[hDim], c.input[hDim], c.outH, c.alignCorners, c.scalesH, identity);
    const auto columns = CubicTaps(index[wDim], c.input[wDim], c.outW, c.alignCorners, c.scalesW, identity);
    double sum = 0, magnitude = 0, moved = 0;
    for (const auto& [y, a] : rows) {
      for (const auto& [xx, b] : columns) {
        index[hDim] = y;
        index[wDim] = xx;
        const double v = x[static_cast<size_t>(Ravel(index, c.input))].real();
        sum += a * b * v;
        magnitude += std::abs(a * b * v);
        moved += std::abs(v);
      }
    }
    // f32 coordinates move each weight by about the coordinate's rounding times the kernel's slope (< 2).
    expected.values.push_back(sum);
    expected.tolerance.push_back(Tolerance(c.dtype, sum, magnitude) + coordinate * moved);
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<BilinearCase> BicubicCases() {
  std::vector<BilinearCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string suffix = std::string("_") + Name(dtype);
    cases.push_back(Bilinear("x2" + suffix, {2, 3, 4, 5}, 8, 10, false, dtype));
    cases.push_back(Bilinear("x2_align" + suffix, {2, 3, 4, 5}, 8, 10, true, dtype));
  }
  cases.push_back(Bilinear("non_integer", {1, 2, 7, 5}, 12, 9, false));
  cases.push_back(Bilinear("non_integer_align", {1, 2, 7, 5}, 12, 9, true));
  cases.push_back(Bilinear("downsample", {1, 2, 9, 10}, 4, 3, false));
  cases.push_back(Bilinear("to_one_align", {1, 2, 5, 4}, 1, 1, true));
  cases.push_back(Bilinear("from_one", {1, 3, 1, 1}, 4, 3, false));
  cases.push_back(Bilinear("same_size", {1, 2, 5, 6}, 5, 6, false));
  cases.push_back(Bilinear("one_axis_same", {1, 2, 5, 6}, 5, 11, true));
  BilinearCase scaled = Bilinear("scales_given", {1, 2, 4, 6}, 9, 9, false);
  scaled.scalesH = 2.25;
  scaled.scalesW = 1.5;
  cases.push_back(scaled);
  BilinearCase nhwc = Bilinear("nhwc", {2, 4, 5, 3}, 7, 9, false);
  nhwc.format = ACL_FORMAT_NHWC;
  cases.push_back(nhwc);
  BilinearCase nd = Bilinear("nd_as_nchw", {2, 3, 4, 5}, 6, 7, true);
  nd.format = ACL_FORMAT_ND;
  cases.push_back(nd);
  BilinearCase views = Bilinear("views", {2, 3, 4, 5}, 9, 6, false, ACL_FLOAT16);
  views.inView = View::kStepped;
  views.outView = View::kReversed;
  cases.push_back(views);
  cases.push_back(Bilinear("empty_batch", {0, 3, 4, 4}, 8, 8, false));
  // The doc's example: [1, 1, 3, 3] f32 ND to [5, 5], no align, no scales.
  BilinearCase doc = Bilinear("doc_example", {1, 1, 3, 3}, 5, 5, false);
  doc.format = ACL_FORMAT_ND;
  cases.push_back(doc);
  return cases;
}

class UpsampleBicubic2dTest : public ::testing::TestWithParam<BilinearCase> {};
TEST_P(UpsampleBicubic2dTest, MatchesFloat64Reference) { RunBicubic(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleBicubic2dTest, ::testing::ValuesIn(BicubicCases()),
                         [](const ::testing::TestParamInfo<BilinearCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- UpsampleLinear1d -----------------------------------------------------------------------------------

struct LinearCase {
  std::string name;
  Shape input;  // [N, C, L]
  int64_t outL;
  bool alignCorners = false;
  double scales = -1;  // none
  aclFormat format = ACL_FORMAT_ND;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const LinearCase& c, std::ostream* os) { *os << c.name; }

LinearCase Linear(std::string name, Shape input, int64_t outL, bool alignCorners, aclDataType dtype = ACL_FLOAT) {
  LinearCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.outL = outL;
  c.alignCorners = alignCorners;
  c.dtype = dtype;
  return c;
}

void RunLinear(const LinearCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const Shape outShape = {c.input[0], c.input[1], c.outL};
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnUpsampleLinear1dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray({c.outL}), c.alignCorners,
                                                     c.scales, a.Tensor(out, c.format), ws, ex);
      },
      aclnnUpsampleLinear1d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const double coordinate = 4 * UnitRoundoff(ACL_FLOAT) * static_cast<double>(c.input[2] + 1);
  Expected expected;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    Shape index = Unravel(i, outShape);
    double scale;
    if (c.alignCorners) {
      scale = c.outL > 1 ? static_cast<double>(c.input[2] - 1) / static_cast<double>(c.outL - 1) : 0.0;
    } else {
      scale = c.scales > 0 ? 1.0 / c.scales : static_cast<double>(c.input[2]) / static_cast<double>(c.outL);
    }
    const double source = c.alignCorners ? scale * static_cast<double>(index[2])
                                         : std::max(scale * (static_cast<double>(index[2]) + 0.5) - 0.5, 0.0);
    const int64_t x0 = std::min(static_cast<int64_t>(source), c.input[2] - 1), x1 = std::min(x0 + 1, c.input[2] - 1);
    const double lambda1 = x1 == x0 ? 0.0 : source - static_cast<double>(x0);
    index[2] = x0;
    const double v0 = x[static_cast<size_t>(Ravel(index, c.input))].real();
    index[2] = x1;
    const double v1 = x[static_cast<size_t>(Ravel(index, c.input))].real();
    const double want = (1 - lambda1) * v0 + lambda1 * v1;
    expected.values.push_back(want);
    expected.tolerance.push_back(Tolerance(c.dtype, want, std::abs(v0) + std::abs(v1)) +
                                 coordinate * (std::abs(v0) + std::abs(v1)));
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<LinearCase> LinearCases() {
  std::vector<LinearCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string suffix = std::string("_") + Name(dtype);
    cases.push_back(Linear("x3" + suffix, {2, 3, 5}, 15, false, dtype));
    cases.push_back(Linear("x3_align" + suffix, {2, 3, 5}, 15, true, dtype));
  }
  cases.push_back(Linear("non_integer", {1, 4, 7}, 12, false));
  cases.push_back(Linear("downsample_align", {1, 4, 11}, 4, true));
  cases.push_back(Linear("to_one_align", {1, 2, 6}, 1, true));
  cases.push_back(Linear("from_one", {1, 2, 1}, 5, false));
  LinearCase scaled = Linear("scales_given", {1, 2, 4}, 10, false);
  scaled.scales = 2.5;
  cases.push_back(scaled);
  scaled.name = "scales_ignored_align";
  scaled.alignCorners = true;
  cases.push_back(scaled);
  LinearCase ncl = Linear("ncl", {2, 3, 6}, 9, false);
  ncl.format = ACL_FORMAT_NCL;
  cases.push_back(ncl);
  LinearCase views = Linear("views", {2, 3, 6}, 9, true, ACL_BF16);
  views.inView = View::kStepped;
  views.outView = View::kReversed;
  cases.push_back(views);
  cases.push_back(Linear("empty_batch", {0, 3, 4}, 8, false));
  // The doc's example: [1, 1, 2] f32 ND of ones to [1, 1, 3], no align, scales -1.
  cases.push_back(Linear("doc_example", {1, 1, 2}, 3, false));
  return cases;
}

class UpsampleLinear1dTest : public ::testing::TestWithParam<LinearCase> {};
TEST_P(UpsampleLinear1dTest, MatchesFloat64Reference) { RunLinear(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleLinear1dTest, ::testing::ValuesIn(LinearCases()),
                         [](const ::testing::TestParamInfo<LinearCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- Rejections ---------------------------------------------------------------------------------

struct Rejection {
  std::string name;
  std::function<aclnnStatus(OpArgs&, uint64_t*, aclOpExecutor**)> phase1;
  Phase2 phase2;
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  std::string keyword;
};

void PrintTo(const Rejection& r, std::ostream* os) { *os << r.name; }

struct AdaptiveCall {
  Shape self = {1, 2, 6, 6}, out = {1, 2, 3, 3};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
  std::vector<int64_t> outputSize = {3, 3};
  bool nullOutputSize = false;
};

struct BilinearCall {
  Shape self = {1, 2, 3, 3}, out = {1, 2, 6, 6};
  aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
  std::vector<int64_t> outputSize = {6, 6};
  double scalesH = 0, scalesW = 0;
  bool nullOutputSize = false;
};

std::vector<Rejection> Rejections() {
  std::vector<Rejection> r;
  auto adaptive = [&](std::string name, auto change, std::string keyword, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    AdaptiveCall x;
    change(x);
    r.push_back({"adaptive_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnAdaptiveAvgPool2dGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.selfFormat),
                       x.nullOutputSize ? nullptr : a.IntArray(x.outputSize),
                       a.NewTensor(x.outDtype, x.out, View::kContiguous, x.outFormat), ws, ex);
                 },
                 aclnnAdaptiveAvgPool2d, code, keyword});
  };
  auto bilinear = [&](std::string name, auto change, std::string keyword, aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    BilinearCall x;
    change(x);
    r.push_back({"bilinear_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnUpsampleBilinear2dGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.selfFormat),
                       x.nullOutputSize ? nullptr : a.IntArray(x.outputSize), false, x.scalesH, x.scalesW,
                       a.NewTensor(x.outDtype, x.out, View::kContiguous, x.outFormat), ws, ex);
                 },
                 aclnnUpsampleBilinear2d, code, keyword});
  };
  adaptive(
      "self_int32", [](AdaptiveCall& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  adaptive(
      "self_double", [](AdaptiveCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  adaptive(
      "out_dtype", [](AdaptiveCall& x) { x.outDtype = ACL_FLOAT16; }, "out");
  adaptive(
      "rank2",
      [](AdaptiveCall& x) {
        x.self = {6, 6}, x.out = {3, 3};
      },
      "self");
  adaptive(
      "rank5",
      [](AdaptiveCall& x) {
        x.self = {1, 1, 2, 6, 6}, x.out = {1, 1, 2, 3, 3};
      },
      "self");
  adaptive(
      "out_rank",
      [](AdaptiveCall& x) {
        x.out = {2, 3, 3};
      },
      "out");
  adaptive(
      "format_nd", [](AdaptiveCall& x) { x.selfFormat = x.outFormat = ACL_FORMAT_ND; }, "format");
  adaptive(
      "format_nhwc", [](AdaptiveCall& x) { x.selfFormat = x.outFormat = ACL_FORMAT_NHWC; }, "format");
  adaptive(
      "out_format", [](AdaptiveCall& x) { x.outFormat = ACL_FORMAT_NCL; }, "format");
  adaptive(
      "chw_as_nchw",
      [](AdaptiveCall& x) {
        x.self = {2, 6, 6}, x.out = {2, 3, 3};
      },
      "format");
  adaptive(
      "outputSize_length1", [](AdaptiveCall& x) { x.outputSize = {3}; }, "outputSize");
  adaptive(
      "outputSize_length3",
      [](AdaptiveCall& x) {
        x.outputSize = {1, 3, 3};
      },
      "outputSize");
  adaptive(
      "outputSize_0",
      [](AdaptiveCall& x) {
        x.outputSize = {0, 3}, x.out = {1, 2, 0, 3};
      },
      "empty");
  adaptive(
      "outputSize_negative",
      [](AdaptiveCall& x) {
        x.outputSize = {-1, 3};
      },
      "outputSize");
  adaptive(
      "outputSize_not_out",
      [](AdaptiveCall& x) {
        x.outputSize = {2, 3};
      },
      "out");
  adaptive(
      "channels_differ",
      [](AdaptiveCall& x) {
        x.out = {1, 3, 3, 3};
      },
      "out");
  adaptive(
      "empty_channels",
      [](AdaptiveCall& x) {
        x.self = {1, 0, 6, 6}, x.out = {1, 0, 3, 3};
      },
      "empty");
  adaptive(
      "empty_height",
      [](AdaptiveCall& x) {
        x.self = {1, 2, 0, 6};
      },
      "empty");
  adaptive(
      "null_outputSize", [](AdaptiveCall& x) { x.nullOutputSize = true; }, "outputSize", ACLNN_ERR_PARAM_NULLPTR);
  bilinear(
      "self_int32", [](BilinearCall& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  bilinear(
      "out_dtype", [](BilinearCall& x) { x.outDtype = ACL_BF16; }, "out");
  bilinear(
      "double_nchw", [](BilinearCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "NHWC");
  bilinear(
      "rank3",
      [](BilinearCall& x) {
        x.self = {2, 3, 3}, x.out = {2, 6, 6};
      },
      "self");
  bilinear(
      "format_nd", [](BilinearCall& x) { x.selfFormat = x.outFormat = ACL_FORMAT_ND; }, "format");
  bilinear(
      "out_format", [](BilinearCall& x) { x.outFormat = ACL_FORMAT_NHWC; }, "format");
  bilinear(
      "channels_differ",
      [](BilinearCall& x) {
        x.out = {1, 3, 6, 6};
      },
      "N and C");
  bilinear(
      "batch_differs",
      [](BilinearCall& x) {
        x.out = {2, 2, 6, 6};
      },
      "N and C");
  bilinear(
      "scalesH_negative", [](BilinearCall& x) { x.scalesH = -1; }, "negative");
  bilinear(
      "scalesW_negative", [](BilinearCall& x) { x.scalesW = -0.5; }, "negative");
  bilinear(
      "outputSize_length1", [](BilinearCall& x) { x.outputSize = {6}; }, "outputSize");
  bilinear(
      "outputSize_0",
      [](BilinearCall& x) {
        x.outputSize = {0, 6}, x.out = {1, 2, 0, 6};
      },
      "outputSize");
  bilinear(
      "outputSize_not_out",
      [](BilinearCall& x) {
        x.outputSize = {6, 5};
      },
      "outputSize");
  bilinear(
      "null_outputSize", [](BilinearCall& x) { x.nullOutputSize = true; }, "outputSize", ACLNN_ERR_PARAM_NULLPTR);
  struct BicubicCall {
    Shape self = {1, 2, 3, 3}, out = {1, 2, 6, 6};
    aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
    aclFormat selfFormat = ACL_FORMAT_NCHW, outFormat = ACL_FORMAT_NCHW;
    std::vector<int64_t> outputSize = {6, 6};
    double scalesH = 0, scalesW = 0;
  };
  auto bicubic = [&](std::string name, auto change, std::string keyword) {
    BicubicCall x;
    change(x);
    r.push_back({"bicubic_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnUpsampleBicubic2dGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.selfFormat), a.IntArray(x.outputSize),
                       false, x.scalesH, x.scalesW, a.NewTensor(x.outDtype, x.out, View::kContiguous, x.outFormat), ws,
                       ex);
                 },
                 aclnnUpsampleBicubic2d, ACLNN_ERR_PARAM_INVALID, keyword});
  };
  bicubic(
      "self_double", [](BicubicCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  bicubic(
      "out_dtype", [](BicubicCall& x) { x.outDtype = ACL_FLOAT16; }, "out");
  bicubic(
      "format_ncl", [](BicubicCall& x) { x.selfFormat = x.outFormat = ACL_FORMAT_NCL; }, "format");
  bicubic(
      "out_format", [](BicubicCall& x) { x.outFormat = ACL_FORMAT_ND; }, "format");
  bicubic(
      "rank3",
      [](BicubicCall& x) {
        x.self = {2, 3, 3}, x.out = {2, 6, 6};
      },
      "self");
  bicubic(
      "outputSize_length1", [](BicubicCall& x) { x.outputSize = {6}; }, "outputSize");
  bicubic(
      "outputSize_0",
      [](BicubicCall& x) {
        x.outputSize = {0, 6}, x.out = {1, 2, 0, 6};
      },
      "outputSize");
  bicubic(
      "empty_channels",
      [](BicubicCall& x) {
        x.self = {1, 0, 3, 3}, x.out = {1, 0, 6, 6};
      },
      "empty");
  bicubic(
      "empty_width",
      [](BicubicCall& x) {
        x.self = {1, 2, 3, 0};
      },
      "empty");
  bicubic(
      "out_shape",
      [](BicubicCall& x) {
        x.out = {1, 2, 6, 5};
      },
      "out");
  bicubic(
      "channels_differ",
      [](BicubicCall& x) {
        x.out = {1, 3, 6, 6};
      },
      "out");
  bicubic(
      "scales_conflict", [](BicubicCall& x) { x.scalesH = 3; }, "conflict");
  bicubic(
      "scalesW_conflict", [](BicubicCall& x) { x.scalesW = 1.5; }, "conflict");
  struct LinearCall {
    Shape self = {1, 2, 4}, out = {1, 2, 8};
    aclDataType selfDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
    aclFormat format = ACL_FORMAT_ND;
    std::vector<int64_t> outputSize = {8};
    double scales = -1;
  };
  auto linear = [&](std::string name, auto change, std::string keyword) {
    LinearCall x;
    change(x);
    r.push_back({"linear_" + name,
                 [x](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
                   return aclnnUpsampleLinear1dGetWorkspaceSize(
                       a.NewTensor(x.selfDtype, x.self, View::kContiguous, x.format), a.IntArray(x.outputSize), false,
                       x.scales, a.NewTensor(x.outDtype, x.out, View::kContiguous, x.format), ws, ex);
                 },
                 aclnnUpsampleLinear1d, ACLNN_ERR_PARAM_INVALID, keyword});
  };
  linear(
      "self_int32", [](LinearCall& x) { x.selfDtype = x.outDtype = ACL_INT32; }, "self");
  linear(
      "self_double", [](LinearCall& x) { x.selfDtype = x.outDtype = ACL_DOUBLE; }, "self");
  linear(
      "out_dtype", [](LinearCall& x) { x.outDtype = ACL_BF16; }, "out");
  linear(
      "rank4",
      [](LinearCall& x) {
        x.self = {1, 1, 2, 4}, x.out = {1, 1, 2, 8};
      },
      "self");
  linear(
      "out_rank",
      [](LinearCall& x) {
        x.out = {2, 8};
      },
      "out");
  linear(
      "format_nchw", [](LinearCall& x) { x.format = ACL_FORMAT_NCHW; }, "format");
  linear(
      "outputSize_length2",
      [](LinearCall& x) {
        x.outputSize = {8, 8};
      },
      "outputSize");
  linear(
      "outputSize_0",
      [](LinearCall& x) {
        x.outputSize = {0}, x.out = {1, 2, 0};
      },
      "outputSize");
  linear(
      "empty_channels",
      [](LinearCall& x) {
        x.self = {1, 0, 4}, x.out = {1, 0, 8};
      },
      "empty");
  linear(
      "empty_length",
      [](LinearCall& x) {
        x.self = {1, 2, 0};
      },
      "empty");
  linear(
      "out_length",
      [](LinearCall& x) {
        x.out = {1, 2, 7};
      },
      "out");
  linear(
      "scales_conflict", [](LinearCall& x) { x.scales = 3; }, "conflict");
  linear(
      "scales_zero", [](LinearCall& x) { x.scales = 0; }, "conflict");
  return r;
}

class ResampleRejectionTest : public ::testing::TestWithParam<Rejection> {};

TEST_P(ResampleRejectionTest, IsRejectedWithItsStatus) {
  const Rejection& x = GetParam();
  const OpRun run = RunOp(x.phase1, x.phase2);
  EXPECT_EQ(run.phase1, x.expected) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ResampleRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return SanitizeName(info.param.name); });

// ---- UpsampleTrilinear3d ------------------------------------------------------------------------

struct TrilinearCase {
  std::string name;
  Shape input;  // [N, C, D, H, W] (NDHWC: [N, D, H, W, C])
  std::vector<int64_t> outputSize;
  bool alignCorners = false;
  double scales[3] = {0, 0, 0};
  aclFormat format = ACL_FORMAT_NCDHW;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const TrilinearCase& c, std::ostream* os) { *os << c.name; }

TrilinearCase Trilinear(std::string name, Shape input, std::vector<int64_t> outputSize, bool alignCorners,
                        aclDataType dtype = ACL_FLOAT) {
  TrilinearCase c;
  c.name = std::move(name);
  c.input = std::move(input);
  c.outputSize = std::move(outputSize);
  c.alignCorners = alignCorners;
  c.dtype = dtype;
  return c;
}

// PyTorch's linear taps of output index i on one axis: {x0, x1, lambda1}.
struct LinearTap {
  int64_t x0, x1;
  double lambda1;
};

LinearTap TapOf(int64_t i, int64_t in, int64_t out, bool alignCorners, double scales) {
  double scale;
  if (alignCorners) {
    scale = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  } else {
    scale = scales > 0 ? 1.0 / scales : static_cast<double>(in) / static_cast<double>(out);
  }
  const double source =
      alignCorners ? scale * static_cast<double>(i) : std::max(scale * (static_cast<double>(i) + 0.5) - 0.5, 0.0);
  const int64_t x0 = std::min(static_cast<int64_t>(source), in - 1), x1 = std::min(x0 + 1, in - 1);
  return {x0, x1, x1 == x0 ? 0.0 : source - static_cast<double>(x0)};
}

void RunTrilinear(const TrilinearCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const bool ndhwc = c.format == ACL_FORMAT_NDHWC;
  const size_t first = ndhwc ? 1 : 2;
  Shape outShape = c.input;
  for (size_t k = 0; k < 3; ++k) outShape[first + k] = c.outputSize[k];
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-10, 10});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnUpsampleTrilinear3dGetWorkspaceSize(a.Tensor(in, c.format), a.IntArray(c.outputSize),
                                                        c.alignCorners, c.scales[0], c.scales[1], c.scales[2],
                                                        a.Tensor(out, c.format), ws, ex);
      },
      aclnnUpsampleTrilinear3d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // Coordinates are computed in f32 (f64 for f64): their error moves each weight a little.
  double coordinate = 0;
  for (size_t k = 0; k < 3; ++k)
    coordinate += 4 * UnitRoundoff(ACL_FLOAT) * static_cast<double>(c.input[first + k] + 1);
  if (c.dtype == ACL_DOUBLE) coordinate = 0;
  Expected expected;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    const Shape index = Unravel(i, outShape);
    LinearTap taps[3];
    for (size_t k = 0; k < 3; ++k) {
      taps[k] = TapOf(index[first + k], c.input[first + k], outShape[first + k], c.alignCorners, c.scales[k]);
    }
    double want = 0, magnitude = 0;
    for (int corner = 0; corner < 8; ++corner) {
      Shape at = index;
      double weight = 1;
      for (size_t k = 0; k < 3; ++k) {
        const bool upper = ((corner >> k) & 1) != 0;
        at[first + k] = upper ? taps[k].x1 : taps[k].x0;
        weight *= upper ? taps[k].lambda1 : 1 - taps[k].lambda1;
      }
      const double v = x[static_cast<size_t>(Ravel(at, c.input))].real();
      want += weight * v;
      magnitude += std::abs(v);
    }
    expected.values.push_back(want);
    expected.tolerance.push_back(Tolerance(c.dtype, want, magnitude) + coordinate * magnitude);
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<TrilinearCase> TrilinearCases() {
  std::vector<TrilinearCase> cases;
  for (const aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    const std::string suffix = std::string("_") + Name(dtype);
    cases.push_back(Trilinear("up" + suffix, {2, 3, 3, 4, 5}, {5, 7, 9}, false, dtype));
    cases.push_back(Trilinear("up_align" + suffix, {2, 3, 3, 4, 5}, {5, 7, 9}, true, dtype));
  }
  cases.push_back(Trilinear("doc_example", {1, 1, 2, 2, 2}, {4, 4, 4}, false));
  cases.push_back(Trilinear("downsample_align", {1, 2, 7, 9, 6}, {3, 4, 1}, true));
  TrilinearCase scaled = Trilinear("scales_given", {1, 2, 2, 3, 4}, {5, 6, 10}, false);
  scaled.scales[0] = 2.5;
  scaled.scales[1] = 2.0;
  scaled.scales[2] = 2.5;
  cases.push_back(scaled);
  TrilinearCase nd = Trilinear("nd", {1, 2, 3, 3, 4}, {4, 5, 6}, false);
  nd.format = ACL_FORMAT_ND;
  cases.push_back(nd);
  TrilinearCase last = Trilinear("ndhwc", {2, 3, 4, 2, 3}, {5, 6, 4}, false);
  last.format = ACL_FORMAT_NDHWC;
  cases.push_back(last);
  TrilinearCase views = Trilinear("views", {2, 3, 4, 3, 5}, {6, 5, 7}, true, ACL_BF16);
  views.inView = View::kStepped;
  views.outView = View::kReversed;
  cases.push_back(views);
  views.name = "views_transposed";
  views.dtype = ACL_FLOAT;
  views.alignCorners = false;
  views.inView = View::kTransposed;
  views.outView = View::kOffset;
  cases.push_back(views);
  return cases;
}

class UpsampleTrilinear3dTest : public ::testing::TestWithParam<TrilinearCase> {};
TEST_P(UpsampleTrilinear3dTest, MatchesFloat64Reference) { RunTrilinear(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleTrilinear3dTest, ::testing::ValuesIn(TrilinearCases()),
                         [](const ::testing::TestParamInfo<TrilinearCase>& info) {
                           return SanitizeName(info.param.name);
                         });

struct TrilinearRejection {
  std::string name;
  TrilinearCase call;
  Shape out;
  std::string keyword;
};

void PrintTo(const TrilinearRejection& r, std::ostream* os) { *os << r.name; }

std::vector<TrilinearRejection> TrilinearRejections() {
  std::vector<TrilinearRejection> r;
  auto add = [&](std::string name, auto change, std::string keyword) {
    TrilinearRejection x{
        std::move(name), Trilinear("", {1, 2, 3, 4, 4}, {6, 8, 8}, false), {1, 2, 6, 8, 8}, std::move(keyword)};
    change(x);
    r.push_back(x);
  };
  add(
      "int32", [](TrilinearRejection& x) { x.call.dtype = ACL_INT32; }, "self");
  add(
      "rank4",
      [](TrilinearRejection& x) {
        x.call.input = {2, 3, 4, 4}, x.out = {2, 6, 8, 8};
      },
      "self");
  add(
      "format_nchw", [](TrilinearRejection& x) { x.call.format = ACL_FORMAT_NCHW; }, "format");
  add(
      "size_length2",
      [](TrilinearRejection& x) {
        x.call.outputSize = {6, 8};
      },
      "outputSize");
  add(
      "size_0",
      [](TrilinearRejection& x) {
        x.call.outputSize = {0, 8, 8};
      },
      "outputSize");
  add(
      "empty",
      [](TrilinearRejection& x) {
        x.call.input = {1, 0, 3, 4, 4}, x.out = {1, 0, 6, 8, 8};
      },
      "empty");
  add(
      "scale_over_50", [](TrilinearRejection& x) { x.call.scales[1] = 51; }, "scalesH");
  add(
      "out_shape",
      [](TrilinearRejection& x) {
        x.out = {1, 2, 6, 8, 7};
      },
      "out");
  return r;
}

class UpsampleTrilinear3dRejectionTest : public ::testing::TestWithParam<TrilinearRejection> {};

TEST_P(UpsampleTrilinear3dRejectionTest, IsRejectedWithItsStatus) {
  const TrilinearRejection& x = GetParam();
  const TrilinearCase& c = x.call;
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnUpsampleTrilinear3dGetWorkspaceSize(
            a.NewTensor(c.dtype, c.input, View::kContiguous, c.format), a.IntArray(c.outputSize), c.alignCorners,
            c.scales[0], c.scales[1], c.scales[2], a.NewTensor(c.dtype, x.out, View::kContiguous, c.format), ws, ex);
      },
      aclnnUpsampleTrilinear3d);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, UpsampleTrilinear3dRejectionTest, ::testing::ValuesIn(TrilinearRejections()),
                         [](const ::testing::TestParamInfo<TrilinearRejection>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- GridSampler2D ------------------------------------------------------------------------------
// PyTorch's grid_sampler_2d written out: pixel coordinates (in the kernel's
// precision, f32 or f64, so that nearest picks the same pixel), then the taps
// and their weights in float64.

struct GridCase {
  std::string name;
  Shape input;  // [N, C, H, W]
  int64_t outH = 3, outW = 4;
  int64_t interpolation = 0, padding = 0;
  bool alignCorners = false;
  aclDataType dtype = ACL_FLOAT;
  View inView = View::kContiguous, gridView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const GridCase& c, std::ostream* os) { *os << c.name; }

template <typename T>
T GridUnnormalize(T coord, int64_t size, bool align) {
  return align ? (coord + 1) / 2 * static_cast<T>(size - 1) : ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <typename T>
T GridPad(T coord, int64_t size, int64_t padding, bool align) {
  auto clip = [size](T v) { return std::min(static_cast<T>(size - 1), std::max(v, T(0))); };
  if (padding == 1) return clip(coord);
  if (padding == 2) {
    const int64_t lo2 = align ? 0 : -1, hi2 = align ? 2 * (size - 1) : 2 * size - 1;
    if (lo2 == hi2) return T(0);
    const T lo = static_cast<T>(lo2) / 2, span = static_cast<T>(hi2 - lo2) / 2;
    const T v = std::fabs(coord - lo);
    const T extra = std::fmod(v, span);
    const auto flips = static_cast<int64_t>(std::floor(v / span));
    return clip(flips % 2 == 0 ? extra + lo : span - extra + lo);
  }
  return coord;
}

double CubicKeys(double x) {  // |x| <= 2, a = -0.75
  const double a = -0.75;
  x = std::abs(x);
  return x <= 1 ? ((a + 2) * x - (a + 3)) * x * x + 1 : ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
}

// Taps (y, x, weight) of one point, out-of-range taps included (they read zero).
template <typename T>
std::vector<std::tuple<int64_t, int64_t, double>> GridTaps(const GridCase& c, double gxIn, double gyIn, int64_t H,
                                                           int64_t W) {
  const T gx = static_cast<T>(gxIn), gy = static_cast<T>(gyIn);
  std::vector<std::tuple<int64_t, int64_t, double>> taps;
  if (c.interpolation == 2) {
    const T x = GridUnnormalize(gx, W, c.alignCorners), y = GridUnnormalize(gy, H, c.alignCorners);
    const T x0 = std::floor(x), y0 = std::floor(y);
    const double tx = static_cast<double>(x - x0), ty = static_cast<double>(y - y0);
    for (int i = -1; i <= 2; ++i) {
      for (int j = -1; j <= 2; ++j) {
        const T px = GridPad(static_cast<T>(x0 + j), W, c.padding, c.alignCorners);
        const T py = GridPad(static_cast<T>(y0 + i), H, c.padding, c.alignCorners);
        taps.emplace_back(static_cast<int64_t>(std::floor(py)), static_cast<int64_t>(std::floor(px)),
                          CubicKeys(ty - i) * CubicKeys(tx - j));
      }
    }
    return taps;
  }
  const T x = GridPad(GridUnnormalize(gx, W, c.alignCorners), W, c.padding, c.alignCorners);
  const T y = GridPad(GridUnnormalize(gy, H, c.alignCorners), H, c.padding, c.alignCorners);
  if (c.interpolation == 1) {
    taps.emplace_back(static_cast<int64_t>(std::nearbyint(y)), static_cast<int64_t>(std::nearbyint(x)), 1.0);
    return taps;
  }
  const T x0 = std::floor(x), y0 = std::floor(y);
  const double tx = static_cast<double>(x - x0), ty = static_cast<double>(y - y0);
  const auto ix = static_cast<int64_t>(x0), iy = static_cast<int64_t>(y0);
  taps.emplace_back(iy, ix, (1 - ty) * (1 - tx));
  taps.emplace_back(iy, ix + 1, (1 - ty) * tx);
  taps.emplace_back(iy + 1, ix, ty * (1 - tx));
  taps.emplace_back(iy + 1, ix + 1, ty * tx);
  return taps;
}

void RunGrid(const GridCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t N = c.input[0], C = c.input[1], H = c.input[2], W = c.input[3];
  const Shape gridShape = {N, c.outH, c.outW, 2}, outShape = {N, C, c.outH, c.outW};
  DeviceTensor in(c.dtype, c.input, c.inView);
  DeviceTensor grid(c.dtype, gridShape, c.gridView);
  DeviceTensor out(c.dtype, outShape, c.outView);
  const Values x = in.FillRandom(rng, Range{-4, 4});
  const Values g = grid.FillRandom(rng, Range{-1.3, 1.3});  // past [-1, 1] too: the padding counts
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGridSampler2DGetWorkspaceSize(a.Tensor(in), a.Tensor(grid), c.interpolation, c.padding,
                                                  c.alignCorners, a.Tensor(out), ws, ex);
      },
      aclnnGridSampler2D);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected expected;
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    const Shape at = Unravel(i, outShape);  // n, c, h, w
    const size_t gi = static_cast<size_t>(Ravel({at[0], at[2], at[3], 0}, gridShape));
    const auto taps = c.dtype == ACL_DOUBLE ? GridTaps<double>(c, g[gi].real(), g[gi + 1].real(), H, W)
                                            : GridTaps<float>(c, g[gi].real(), g[gi + 1].real(), H, W);
    double want = 0, magnitude = 0, values = 0;
    for (const auto& [ty, tx, weight] : taps) {
      if (ty < 0 || ty >= H || tx < 0 || tx >= W) continue;
      const double v = x[static_cast<size_t>(Ravel({at[0], at[1], ty, tx}, c.input))].real();
      want += weight * v;
      magnitude += std::abs(weight * v);
      values += std::abs(v);
    }
    // The kernel evaluates the weights in f32 too (the cubic's a few roundings each).
    const double weights = c.dtype == ACL_DOUBLE ? 0.0 : 16 * UnitRoundoff(ACL_FLOAT) * values;
    expected.values.push_back(want);
    expected.tolerance.push_back(Tolerance(c.dtype, want, magnitude) + weights);
  }
  ExpectNear(out.ReadView(), expected, c.name);
  ExpectOutsideViewUnchanged(out, before, c.name);
}

std::vector<GridCase> GridCases() {
  std::vector<GridCase> cases;
  const char* modes[] = {"bilinear", "nearest", "bicubic"};
  const char* pads[] = {"zeros", "border", "reflection"};
  for (int64_t mode = 0; mode < 3; ++mode) {
    for (int64_t pad = 0; pad < 3; ++pad) {
      for (const bool align : {false, true}) {
        GridCase c;
        c.name = std::string(modes[mode]) + "_" + pads[pad] + (align ? "_align" : "");
        c.input = {2, 3, 5, 6};
        c.interpolation = mode;
        c.padding = pad;
        c.alignCorners = align;
        cases.push_back(c);
      }
    }
  }
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_DOUBLE}) {
    for (int64_t mode = 0; mode < (dtype == ACL_DOUBLE ? 2 : 3); ++mode) {
      GridCase c;
      c.name = std::string(modes[mode]) + "_reflection_" + Name(dtype);
      c.input = {1, 2, 4, 7};
      c.interpolation = mode;
      c.padding = 2;
      c.dtype = dtype;
      cases.push_back(c);
    }
  }
  GridCase c;
  c.name = "one_pixel_reflection";
  c.input = {1, 2, 1, 1};
  c.padding = 2;
  cases.push_back(c);
  c = GridCase{};
  c.name = "views_bilinear_border";
  c.input = {2, 4, 6, 5};
  c.padding = 1;
  c.inView = View::kTransposed;
  c.gridView = View::kStepped;
  c.outView = View::kReversed;
  cases.push_back(c);
  c = GridCase{};
  c.name = "empty_batch";
  c.input = {0, 2, 4, 4};
  cases.push_back(c);
  // The doc's example shapes: input [1, 1, 5, 8], grid [1, 3, 3, 2], bilinear, zeros, no align.
  c = GridCase{};
  c.name = "doc_example";
  c.input = {1, 1, 5, 8};
  c.outH = c.outW = 3;
  cases.push_back(c);
  return cases;
}

class GridSampler2DTest : public ::testing::TestWithParam<GridCase> {};
TEST_P(GridSampler2DTest, MatchesFloat64Reference) { RunGrid(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, GridSampler2DTest, ::testing::ValuesIn(GridCases()),
                         [](const ::testing::TestParamInfo<GridCase>& info) { return SanitizeName(info.param.name); });

// Grid points no image holds, on a 1 x 3 input {1, 2, 3}. Border and
// reflection end in PyTorch's clip, min(W - 1, max(x, 0)): +inf and NaN read
// the last pixel, -inf the first (the reflection of a non-finite point is NaN,
// then clipped); zeros padding reads nothing there, nor at +-1e30, whose taps
// (and reflection's count of flips) used to be converted to integers out of range.
TEST(GridSampler2D, PointsNoImageHolds) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const Values xs = {inf, -inf, nan, 1e30, -1e30, 1.0};
  const auto in = Upload(ACL_FLOAT, {1, 1, 1, 3}, {1, 2, 3});
  Values grid;
  for (const Value& x : xs) grid.insert(grid.end(), {x, Value(0.0)});
  const auto gridTensor = Upload(ACL_FLOAT, {1, 1, static_cast<int64_t>(xs.size()), 2}, grid);
  struct Want {
    int64_t padding;
    Values out;
  };
  // Reflected, +-1e30 (pixel 1e30, an even number of flips of span 2) is pixel 0.
  const Want wants[] = {{0, {0, 0, 0, 0, 0, 3}}, {1, {3, 1, 3, 3, 1, 3}}, {2, {3, 3, 3, 1, 1, 3}}};
  for (const Want& want : wants) {
    for (int64_t interpolation : {0, 1}) {
      SCOPED_TRACE("padding " + std::to_string(want.padding) + " interpolation " + std::to_string(interpolation));
      DeviceTensor out(ACL_FLOAT, {1, 1, 1, static_cast<int64_t>(xs.size())});
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnGridSampler2DGetWorkspaceSize(a.Tensor(*in), a.Tensor(*gridTensor), interpolation, want.padding,
                                                      true, a.Tensor(out), w, e);
          },
          aclnnGridSampler2D);
      ExpectExact(out.ReadView(), want.out, "out");
    }
  }
}

struct GridRejection {
  std::string name;
  Shape input = {1, 2, 4, 4}, grid = {1, 3, 3, 2}, out = {1, 2, 3, 3};
  aclDataType dtype = ACL_FLOAT, gridDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
  int64_t interpolation = 0, padding = 0;
  std::string keyword;
};

void PrintTo(const GridRejection& r, std::ostream* os) { *os << r.name; }

std::vector<GridRejection> GridRejections() {
  std::vector<GridRejection> r;
  auto add = [&](std::string name, auto change, std::string keyword) {
    GridRejection x;
    x.name = std::move(name);
    change(x);
    x.keyword = std::move(keyword);
    r.push_back(x);
  };
  add(
      "bf16", [](GridRejection& x) { x.dtype = x.gridDtype = x.outDtype = ACL_BF16; }, "input");
  add(
      "grid_dtype", [](GridRejection& x) { x.gridDtype = ACL_FLOAT16; }, "grid");
  add(
      "out_dtype", [](GridRejection& x) { x.outDtype = ACL_DOUBLE; }, "out");
  add(
      "mode_3", [](GridRejection& x) { x.interpolation = 3; }, "interpolationMode");
  add(
      "mode_negative", [](GridRejection& x) { x.interpolation = -1; }, "interpolationMode");
  add(
      "padding_3", [](GridRejection& x) { x.padding = 3; }, "paddingMode");
  add(
      "bicubic_double",
      [](GridRejection& x) {
        x.dtype = x.gridDtype = x.outDtype = ACL_DOUBLE;
        x.interpolation = 2;
      },
      "bicubic");
  add(
      "rank5",
      [](GridRejection& x) {
        x.input = {1, 2, 1, 4, 4};
      },
      "input");
  add(
      "grid_last_3",
      [](GridRejection& x) {
        x.grid = {1, 3, 3, 3};
      },
      "grid");
  add(
      "grid_batch",
      [](GridRejection& x) {
        x.grid = {2, 3, 3, 2};
      },
      "grid");
  add(
      "empty_width",
      [](GridRejection& x) {
        x.input = {1, 2, 4, 0};
      },
      "empty");
  add(
      "out_shape",
      [](GridRejection& x) {
        x.out = {1, 2, 3, 4};
      },
      "out");
  return r;
}

class GridSampler2DRejectionTest : public ::testing::TestWithParam<GridRejection> {};

TEST_P(GridSampler2DRejectionTest, IsRejectedWithItsStatus) {
  const GridRejection& x = GetParam();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGridSampler2DGetWorkspaceSize(a.NewTensor(x.dtype, x.input), a.NewTensor(x.gridDtype, x.grid),
                                                  x.interpolation, x.padding, false, a.NewTensor(x.outDtype, x.out), ws,
                                                  ex);
      },
      aclnnGridSampler2D);
  EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
  EXPECT_NE(run.message.find(x.keyword), std::string::npos) << run.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, GridSampler2DRejectionTest, ::testing::ValuesIn(GridRejections()),
                         [](const ::testing::TestParamInfo<GridRejection>& info) {
                           return SanitizeName(info.param.name);
                         });

// ---- GridSampler3D ------------------------------------------------------------------------------
// PyTorch's grid_sampler_3d written out with the 2-D reference's coordinate
// rules: trilinear over the eight corners or nearest, each padding, NCDHW and
// NDHWC, every A2 dtype.

struct Grid3dCase {
  Shape input;  // [N, C, D, H, W]
  int64_t interpolation = 0, padding = 0;
  bool alignCorners = false, channelsLast = false;
  aclDataType dtype = ACL_FLOAT;
};

void RunGrid3d(const Grid3dCase& c) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t N = c.input[0], C = c.input[1], D = c.input[2], H = c.input[3], W = c.input[4];
  const int64_t od = 2, oh = 3, ow = 2;
  const Shape gridShape = {N, od, oh, ow, 3}, outShape = {N, C, od, oh, ow};
  // NDHWC tensors hold [N, D, H, W, C].
  const Shape inStored = c.channelsLast ? Shape{N, D, H, W, C} : c.input;
  const Shape outStored = c.channelsLast ? Shape{N, od, oh, ow, C} : outShape;
  DeviceTensor in(c.dtype, inStored, View::kTransposed), grid(c.dtype, gridShape, View::kStepped);
  DeviceTensor out(c.dtype, outStored);
  const Values x = in.FillRandom(rng, Range{-4, 4});
  const Values g = grid.FillRandom(rng, Range{-1.3, 1.3});
  const aclFormat format = c.channelsLast ? ACL_FORMAT_NDHWC : ACL_FORMAT_NCDHW;
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGridSampler3DGetWorkspaceSize(a.Tensor(in, format), a.Tensor(grid), c.interpolation, c.padding,
                                                  c.alignCorners, a.Tensor(out, format), ws, ex);
      },
      aclnnGridSampler3D);
  auto value = [&](int64_t n, int64_t ch, int64_t z, int64_t y, int64_t xx) {
    const Shape at = c.channelsLast ? Shape{n, z, y, xx, ch} : Shape{n, ch, z, y, xx};
    return x[static_cast<size_t>(Ravel(at, inStored))].real();
  };
  const auto count = static_cast<size_t>(NumElements(outStored));
  Expected expected{Values(count), std::vector<double>(count)};
  for (int64_t i = 0; i < NumElements(outShape); ++i) {
    const Shape at = Unravel(i, outShape);  // n, c, d, h, w
    const size_t gi = static_cast<size_t>(Ravel({at[0], at[2], at[3], at[4], 0}, gridShape));
    auto coordinate = [&](double v, int64_t size) {
      if (c.dtype == ACL_DOUBLE)
        return GridPad(GridUnnormalize(v, size, c.alignCorners), size, c.padding, c.alignCorners);
      const auto f = static_cast<float>(v);
      return static_cast<double>(GridPad(GridUnnormalize(f, size, c.alignCorners), size, c.padding, c.alignCorners));
    };
    const double px = coordinate(g[gi].real(), W), py = coordinate(g[gi + 1].real(), H),
                 pz = coordinate(g[gi + 2].real(), D);
    double want = 0, magnitude = 0;
    auto tap = [&](int64_t z, int64_t y, int64_t xx, double weight) {
      if (z < 0 || z >= D || y < 0 || y >= H || xx < 0 || xx >= W) return;
      want += weight * value(at[0], at[1], z, y, xx);
      magnitude += std::abs(weight * value(at[0], at[1], z, y, xx));
    };
    if (c.interpolation == 1) {
      tap(static_cast<int64_t>(std::nearbyint(pz)), static_cast<int64_t>(std::nearbyint(py)),
          static_cast<int64_t>(std::nearbyint(px)), 1);
    } else {
      const double x0 = std::floor(px), y0 = std::floor(py), z0 = std::floor(pz);
      const double tx = px - x0, ty = py - y0, tz = pz - z0;
      for (int corner = 0; corner < 8; ++corner) {
        const int dz = corner >> 2, dy = (corner >> 1) & 1, dx = corner & 1;
        tap(static_cast<int64_t>(z0) + dz, static_cast<int64_t>(y0) + dy, static_cast<int64_t>(x0) + dx,
            (dz != 0 ? tz : 1 - tz) * (dy != 0 ? ty : 1 - ty) * (dx != 0 ? tx : 1 - tx));
      }
    }
    const Shape stored = c.channelsLast ? Shape{at[0], at[2], at[3], at[4], at[1]} : at;
    const auto k = static_cast<size_t>(Ravel(stored, outStored));
    expected.values[k] = want;
    expected.tolerance[k] = Tolerance(c.dtype, want, magnitude) + 16 * UnitRoundoff(ACL_FLOAT) * magnitude;
  }
  ExpectNear(out.ReadView(), expected, "GridSampler3D");
}

TEST(GridSampler3D, MatchesFloat64Reference) {
  for (int64_t mode = 0; mode < 2; ++mode) {
    for (int64_t pad = 0; pad < 3; ++pad) {
      for (const bool align : {false, true}) {
        SCOPED_TRACE("mode " + std::to_string(mode) + " padding " + std::to_string(pad) + (align ? " align" : ""));
        RunGrid3d({{2, 3, 3, 4, 5}, mode, pad, align});
      }
    }
  }
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    SCOPED_TRACE(Name(dtype));
    RunGrid3d({{1, 2, 2, 3, 4}, 0, 2, false, false, dtype});
    RunGrid3d({{1, 2, 2, 3, 4}, 1, 1, true, false, dtype});
  }
  SCOPED_TRACE("NDHWC");
  RunGrid3d({{2, 4, 3, 3, 3}, 0, 0, false, true});
}

TEST(GridSampler3D, EmptyDepthLeavesOutAsItWas) {
  // CANN passes an input empty in D (or N, C) and returns without a kernel: out keeps its bytes.
  DeviceTensor in(ACL_FLOAT, {1, 2, 0, 4, 5}), grid(ACL_FLOAT, {1, 2, 2, 2, 3}), out(ACL_FLOAT, {1, 2, 2, 2, 2});
  Rng rng = Rng::ForCurrentTest();
  grid.FillRandom(rng, Range{-1, 1});
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGridSampler3DGetWorkspaceSize(a.Tensor(in), a.Tensor(grid), 0, 0, false, a.Tensor(out), ws, ex);
      },
      aclnnGridSampler3D);
  EXPECT_EQ(out.DownloadBytes(), poisoned);
}

TEST(GridSampler3D, Rejections) {
  struct Case {
    std::string name;
    aclDataType dtype, gridDtype;
    Shape input, grid, out;
    int64_t interpolation, padding;
    std::string keyword;
  };
  const aclDataType f = ACL_FLOAT;
  const Shape in = {1, 2, 3, 4, 5}, g = {1, 2, 2, 2, 3}, o = {1, 2, 2, 2, 2};
  const std::vector<Case> cases = {
      {"int", ACL_INT32, ACL_INT32, in, g, o, 0, 0, "input"},
      {"grid_dtype", f, ACL_FLOAT16, in, g, o, 0, 0, "grid"},
      {"bicubic", f, f, in, g, o, 2, 0, "interpolationMode"},
      {"padding", f, f, in, g, o, 0, 3, "paddingMode"},
      {"rank", f, f, {1, 2, 3, 4}, g, o, 0, 0, "input"},
      {"grid_last", f, f, in, {1, 2, 2, 2, 2}, o, 0, 0, "grid"},
      {"out_shape", f, f, in, g, {1, 2, 2, 2, 3}, 0, 0, "out"},
      {"batch", f, f, in, {2, 2, 2, 2, 3}, o, 0, 0, "grid"},
      // CANN's host code: the view's last two dimensions must not be empty.
      {"empty_h", f, f, {1, 2, 3, 0, 5}, g, o, 0, 0, "empty"},
      {"empty_w", f, f, {1, 2, 3, 4, 0}, g, o, 1, 2, "empty"},
  };
  for (const Case& x : cases) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnGridSampler3DGetWorkspaceSize(a.NewTensor(x.dtype, x.input), a.NewTensor(x.gridDtype, x.grid),
                                                    x.interpolation, x.padding, false, a.NewTensor(x.dtype, x.out), w,
                                                    e);
        },
        aclnnGridSampler3D);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << x.name << ": " << Describe(run);
    EXPECT_NE(run.message.find(x.keyword), std::string::npos) << x.name << ": " << run.message;
  }
}

}  // namespace
}  // namespace canopy_test
