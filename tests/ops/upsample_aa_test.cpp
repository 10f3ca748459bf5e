// UpsampleBilinear2dAA and UpsampleBicubic2dAA through the public API against
// a float64 evaluation of PyTorch's antialiased interpolation (its centres,
// supports and normalised separable filters), downsampling and upsampling,
// alignCorners, given scales, every A2 dtype, strided views, a constant image
// staying constant, and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_upsample_bicubic2d_aa.h"
#include "aclnnop/aclnn_upsample_bilinear2d_aa.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

double Filter(bool cubic, double x) {
  x = std::abs(x);
  if (!cubic) return x < 1 ? 1 - x : 0;
  const double a = -0.5;
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

// The normalised weights of every input index for output index i.
std::vector<double> Weights(bool cubic, int64_t in, int64_t out, bool align, double given, int64_t i) {
  // An unchanged axis has scale 1 whatever is given (CANN's tilings, PyTorch's separable kernel).
  const double scale = in == out ? 1.0
                       : align   ? (out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0)
                                 : (given > 0 ? 1 / given : static_cast<double>(in) / static_cast<double>(out));
  const double widen = std::max(scale, 1.0), support = (cubic ? 2.0 : 1.0) * widen;
  const double centre = scale * (static_cast<double>(i) + 0.5);
  const double first = centre - support + 0.5, last = centre + support + 0.5;  // truncated, as PyTorch
  const auto lo = std::max<int64_t>(static_cast<int64_t>(first), 0);
  const int64_t hi = std::min<int64_t>(static_cast<int64_t>(last), in);
  std::vector<double> w(static_cast<size_t>(in), 0);
  double total = 0;
  for (int64_t j = lo; j < hi; ++j)
    total += (w[static_cast<size_t>(j)] = Filter(cubic, (static_cast<double>(j) - centre + 0.5) / widen));
  for (double& v : w) v = total != 0 ? v / total : 0;
  return w;
}

struct AaCase {
  Shape input;
  int64_t oh, ow;
  bool align;
  double scaleH, scaleW;
};

using Phase1Fn = aclnnStatus (*)(const aclTensor*, const aclIntArray*, bool, double, double, aclTensor*, uint64_t*,
                                 aclOpExecutor**);

void RunCase(bool cubic, const AaCase& c, aclDataType dtype, View view, bool constant) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor input(dtype, c.input, view);
  Values x = input.FillRandom(rng, Range{-4, 4});
  if (constant) {
    std::fill(x.begin(), x.end(), Value(1.5));
    input.WriteView(x);
  }
  const Shape outShape = {c.input[0], c.input[1], c.oh, c.ow};
  DeviceTensor out(dtype, outShape, view);
  const Phase1Fn phase1 = cubic ? aclnnUpsampleBicubic2dAAGetWorkspaceSize : aclnnUpsampleBilinear2dAAGetWorkspaceSize;
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return phase1(a.Tensor(input), a.IntArray({c.oh, c.ow}), c.align, c.scaleH, c.scaleW, a.Tensor(out), w, e);
      },
      cubic ? aclnnUpsampleBicubic2dAA : aclnnUpsampleBilinear2dAA);
  const int64_t h = c.input[2], w = c.input[3];
  Expected want;
  for (int64_t p = 0; p < c.input[0] * c.input[1]; ++p) {
    for (int64_t i = 0; i < c.oh; ++i) {
      const std::vector<double> wy = Weights(cubic, h, c.oh, c.align, c.scaleH, i);
      for (int64_t j = 0; j < c.ow; ++j) {
        const std::vector<double> wx = Weights(cubic, w, c.ow, c.align, c.scaleW, j);
        double sum = 0, magnitude = 0;
        for (int64_t y = 0; y < h; ++y) {
          for (int64_t xx = 0; xx < w; ++xx) {
            const double term = wy[static_cast<size_t>(y)] * wx[static_cast<size_t>(xx)] *
                                x[static_cast<size_t>((p * h + y) * w + xx)].real();
            sum += term;
            magnitude += std::abs(term);
          }
        }
        want.values.emplace_back(sum);
        want.tolerance.push_back(32 * UnitRoundoff(ACL_FLOAT) * std::max(magnitude, 1.0) +
                                 2 * UnitRoundoff(dtype) * std::abs(sum));
      }
    }
  }
  ExpectNear(out.ReadView(), want, "antialiased resample");
}

TEST(UpsampleAA, MatchesPyTorchsFilters) {
  const std::vector<AaCase> cases = {{{1, 2, 12, 10}, 4, 3, false, 0, 0},
                                     {{2, 1, 9, 7}, 3, 5, true, 0, 0},
                                     {{1, 3, 6, 6}, 11, 9, false, 0, 0},
                                     {{1, 1, 20, 16}, 5, 4, false, 0.25, 0.3},
                                     {{1, 2, 5, 8}, 1, 1, true, 0, 0},
                                     {{2, 2, 7, 5}, 7, 5, false, 0, 0},
                                     // unchanged axes with a scale given: copied
                                     {{1, 1, 4, 4}, 4, 4, false, 0.5, 0.5},
                                     {{1, 2, 6, 5}, 6, 10, false, 0.25, 2}};
  for (const bool cubic : {false, true}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (size_t k = 0; k < cases.size(); ++k) {
        SCOPED_TRACE(std::string(cubic ? "bicubic " : "bilinear ") + Name(dtype) + " case " + std::to_string(k));
        RunCase(cubic, cases[k], dtype, k % 2 == 0 ? View::kContiguous : View::kTransposed, false);
      }
    }
  }
}

TEST(UpsampleAA, BilinearTakesAnIntegerRatioOf50) {
  ExpectRuns(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnUpsampleBilinear2dAAGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {1, 1, 101, 2}), a.IntArray({2, 2}),
                                                         false, 0.0, 0.0, a.NewTensor(ACL_FLOAT, {1, 1, 2, 2}), w, e);
      },
      aclnnUpsampleBilinear2dAA);
}

TEST(UpsampleAA, ConstantImageStaysConstant) {
  for (const bool cubic : {false, true}) {
    SCOPED_TRACE(cubic ? "bicubic" : "bilinear");
    RunCase(cubic, {{1, 2, 30, 17}, 7, 4, false, 0, 0}, ACL_FLOAT, View::kStepped, true);
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape in, std::vector<int64_t> size, double sh, aclDataType outDtype, Shape out) {
    return [=](A& a, W w, E e) {
      return aclnnUpsampleBilinear2dAAGetWorkspaceSize(a.NewTensor(dtype, in), a.IntArray(size), false, sh, 0.0,
                                                       a.NewTensor(outDtype, out), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  return {
      {"double", call(ACL_DOUBLE, {1, 1, 4, 4}, {2, 2}, 0, ACL_DOUBLE, {1, 1, 2, 2}), aclnnUpsampleBilinear2dAA,
       "'input'"},
      {"out_dtype", call(f, {1, 1, 4, 4}, {2, 2}, 0, ACL_FLOAT16, {1, 1, 2, 2}), aclnnUpsampleBilinear2dAA, "'out'"},
      {"rank", call(f, {1, 4, 4}, {2, 2}, 0, f, {1, 2, 2}), aclnnUpsampleBilinear2dAA, "'input'"},
      {"size_three", call(f, {1, 1, 4, 4}, {2, 2, 2}, 0, f, {1, 1, 2, 2}), aclnnUpsampleBilinear2dAA, "'outputSize'"},
      {"scale_negative", call(f, {1, 1, 4, 4}, {2, 2}, -1, f, {1, 1, 2, 2}), aclnnUpsampleBilinear2dAA, "scalesH"},
      {"empty", call(f, {1, 0, 4, 4}, {2, 2}, 0, f, {1, 0, 2, 2}), aclnnUpsampleBilinear2dAA, "empty"},
      {"out_shape", call(f, {1, 1, 4, 4}, {2, 2}, 0, f, {1, 1, 2, 3}), aclnnUpsampleBilinear2dAA, "'out'"},
      {"reduce_over_50", call(f, {1, 1, 102, 4}, {2, 2}, 0, f, {1, 1, 2, 2}), aclnnUpsampleBilinear2dAA, "50"},
      // Bicubic's host code divides the sizes in FLOAT: 101 / 2 is 50.5 (bilinear's integer 50 passes).
      {"bicubic_reduce_50_5",
       [=](A& a, W w, E e) {
         return aclnnUpsampleBicubic2dAAGetWorkspaceSize(a.NewTensor(f, {1, 1, 101, 2}), a.IntArray({2, 2}), false, 0.0,
                                                         0.0, a.NewTensor(f, {1, 1, 2, 2}), w, e);
       },
       aclnnUpsampleBicubic2dAA, "50"},
  };
}

class UpsampleAARejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(UpsampleAARejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, UpsampleAARejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
