// ScaledMaskedSoftmax and MaskedSoftmaxWithRelPosBias through the public API
// against a float64 softmax of the stored inputs: every A2 dtype, each mask
// and bias layout CANN takes, strided and broadcast views, CANN's examples,
// empty batches and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h"
#include "aclnnop/aclnn_scaled_masked_softmax.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kMaskedValue = -10000.0;

// Softmax of each run of `width` consecutive logits.
Values RowSoftmax(const std::vector<double>& logits, int64_t width) {
  Values out;
  for (size_t start = 0; start < logits.size(); start += static_cast<size_t>(width)) {
    const auto first = logits.begin() + static_cast<std::ptrdiff_t>(start);
    const double max = *std::max_element(first, first + width);
    double sum = 0;
    for (int64_t j = 0; j < width; ++j) sum += std::exp(first[j] - max);
    for (int64_t j = 0; j < width; ++j) out.emplace_back(std::exp(first[j] - max) / sum);
  }
  return out;
}

// The flat index of `index` (in `shape`) in a tensor of `other` broadcast to `shape`, right-aligned.
int64_t BroadcastIndex(const Shape& index, const Shape& shape, const Shape& other) {
  int64_t flat = 0;
  const size_t lead = shape.size() - other.size();
  for (size_t d = 0; d < other.size(); ++d) flat = flat * other[d] + (other[d] == 1 ? 0 : index[d + lead]);
  return flat;
}

// ---- ScaledMaskedSoftmax --------------------------------------------------------------------------

Values ScaledMaskedReference(const Values& x, const Shape& shape, const Values& mask, const Shape& maskShape,
                             double scale) {
  std::vector<double> logits;
  for (int64_t i = 0; i < NumElements(shape); ++i) {
    const Shape index = Unravel(i, shape);
    const bool masked = mask[static_cast<size_t>(BroadcastIndex(index, shape, maskShape))].real() != 0;
    logits.push_back(masked ? kMaskedValue : scale * x[static_cast<size_t>(i)].real());
  }
  return RowSoftmax(logits, shape.back());
}

struct ScaledCase {
  Shape shape, maskShape;
  double scale;
  View xView, maskView, yView;
};

TEST(ScaledMaskedSoftmax, MatchesReference) {
  const std::vector<ScaledCase> cases = {
      {{2, 3, 4, 16}, {2, 3, 4, 16}, 0.5, View::kContiguous, View::kContiguous, View::kContiguous},
      {{2, 3, 5, 7}, {1, 3, 5, 7}, 1.7, View::kTransposed, View::kStepped, View::kStepped},
      {{2, 2, 3, 33}, {2, 1, 3, 33}, -0.25, View::kStepped, View::kContiguous, View::kOffset},
      {{3, 2, 4, 9}, {1, 1, 4, 9}, 1.0, View::kReversed, View::kReversed, View::kTransposed},
      {{1, 2, 2, 4096}, {1, 1, 2, 4096}, 0.125, View::kContiguous, View::kContiguous, View::kContiguous},
  };
  for (aclDataType dtype : HalfAndSingle()) {
    for (const ScaledCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + ShapeString(c.shape) + " mask " + ShapeString(c.maskShape));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor x(dtype, c.shape, c.xView);
      DeviceTensor mask(ACL_BOOL, c.maskShape, c.maskView);
      DeviceTensor y(dtype, c.shape, c.yView);
      const Values xv = x.FillRandom(rng, Range{-4, 4});
      Values mv = mask.FillRandom(rng, Range{0, 1});
      mv[0] = 1.0;  // a row with one masked position, and one with all of them
      for (int64_t j = 0; j < c.shape.back(); ++j) mv[static_cast<size_t>(c.shape.back() + j)] = 1.0;
      mask.WriteView(mv);
      y.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnScaledMaskedSoftmaxGetWorkspaceSize(a.Tensor(x), a.Tensor(mask), c.scale, false, a.Tensor(y), w,
                                                            e);
          },
          aclnnScaledMaskedSoftmax);
      ExpectNear(y.ReadView(),
                 RelativeTolerance(ScaledMaskedReference(xv, c.shape, mv, c.maskShape, c.scale), dtype, 16), "y");
    }
  }
}

// CANN's example: x 1..16 in [2, 2, 2, 2], every mask position false... and true.
TEST(ScaledMaskedSoftmax, CannExample) {
  Values x;
  for (int i = 0; i < 16; ++i) x.emplace_back(i % 4);
  const Shape shape = {2, 2, 2, 2};
  for (double masked : {0.0, 1.0}) {
    const auto xt = Upload(ACL_FLOAT, shape, x);
    const auto mask = Upload(ACL_BOOL, shape, Values(16, masked));
    DeviceTensor y(ACL_FLOAT, shape);
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnScaledMaskedSoftmaxGetWorkspaceSize(a.Tensor(*xt), a.Tensor(*mask), 1.0, false, a.Tensor(y), w,
                                                          e);
        },
        aclnnScaledMaskedSoftmax);
    Values want;
    const double low = 1 / (1 + std::exp(1.0));
    for (int i = 0; i < 16; ++i) want.emplace_back(masked != 0 ? 0.5 : i % 2 == 0 ? low : 1 - low);
    ExpectNear(y.ReadView(), RelativeTolerance(want, ACL_FLOAT, 8), "y");
  }
}

TEST(ScaledMaskedSoftmax, EmptyBatch) {
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnScaledMaskedSoftmaxGetWorkspaceSize(a.NewTensor(ACL_FLOAT16, {0, 2, 3, 4}),
                                                        a.NewTensorIn(Range{0, 1}, ACL_BOOL, {1, 2, 3, 4}), 1.0, false,
                                                        a.NewTensor(ACL_FLOAT16, {0, 2, 3, 4}), w, e);
      },
      aclnnScaledMaskedSoftmax);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> ScaledRejections() {
  auto call = [](aclDataType xd, Shape x, aclDataType md, Shape m, aclDataType yd, Shape y, bool triu = false) {
    return [=](A& a, W w, E e) {
      return aclnnScaledMaskedSoftmaxGetWorkspaceSize(a.NewTensor(xd, x), a.NewTensorIn(Range{0, 1}, md, m), 1.0, triu,
                                                      a.NewTensor(yd, y), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, b = ACL_BOOL;
  const Shape s = {2, 3, 4, 8};
  return {
      {"x_double", call(ACL_DOUBLE, s, b, s, ACL_DOUBLE, s), aclnnScaledMaskedSoftmax, "'x'"},
      {"mask_float", call(f, s, f, s, f, s), aclnnScaledMaskedSoftmax, "'mask'"},
      {"y_dtype", call(f, s, b, s, ACL_FLOAT16, s), aclnnScaledMaskedSoftmax, "'y'"},
      {"x_3d", call(f, {3, 4, 8}, b, s, f, {3, 4, 8}), aclnnScaledMaskedSoftmax, "'x'"},
      {"mask_3d", call(f, s, b, {3, 4, 8}, f, s), aclnnScaledMaskedSoftmax, "'mask'"},
      {"mask_batch", call(f, s, b, {3, 3, 4, 8}, f, s), aclnnScaledMaskedSoftmax, "'mask'"},
      {"mask_heads", call(f, s, b, {2, 2, 4, 8}, f, s), aclnnScaledMaskedSoftmax, "'mask'"},
      {"mask_rows", call(f, s, b, {2, 3, 1, 8}, f, s), aclnnScaledMaskedSoftmax, "'mask'"},
      {"row_4097", call(f, {1, 1, 1, 4097}, b, {1, 1, 1, 4097}, f, {1, 1, 1, 4097}), aclnnScaledMaskedSoftmax, "'x'"},
      {"row_0", call(f, {1, 1, 1, 0}, b, {1, 1, 1, 0}, f, {1, 1, 1, 0}), aclnnScaledMaskedSoftmax, "'x'"},
      {"y_shape", call(f, s, b, s, f, {2, 3, 8, 4}), aclnnScaledMaskedSoftmax, "'y'"},
      {"fixed_triu_mask", call(f, s, b, s, f, s, true), aclnnScaledMaskedSoftmax, "'fixedTriuMask'"},
  };
}

class ScaledMaskedSoftmaxRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ScaledMaskedSoftmaxRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ScaledMaskedSoftmaxRejects, ::testing::ValuesIn(ScaledRejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- MaskedSoftmaxWithRelPosBias ------------------------------------------------------------------

struct WindowCase {
  Shape x, mask, bias;  // mask empty: none
  int64_t windows;      // W
  double scale;
  View xView, maskView, biasView, outView;
};

// The reference on x viewed as [B, W, N, S1, S2]: the mask indexed by (w, s1, s2), the bias by (n, s1, s2).
Values WindowReference(const WindowCase& c, const Values& x, const Values& mask, const Values& bias) {
  const int64_t s2 = c.x.back(), s1 = c.x[c.x.size() - 2], n = c.x[c.x.size() - 3];
  std::vector<double> logits;
  for (int64_t i = 0; i < NumElements(c.x); ++i) {
    const int64_t col = i % s2, row = i / s2 % s1, head = i / (s2 * s1) % n, window = i / (s2 * s1 * n) % c.windows;
    double z = c.scale * x[static_cast<size_t>(i)].real();
    z += bias[static_cast<size_t>((head * s1 + row) * s2 + col)].real();
    if (!c.mask.empty()) z += mask[static_cast<size_t>((window * s1 + row) * s2 + col)].real();
    logits.push_back(z);
  }
  return RowSoftmax(logits, s2);
}

TEST(MaskedSoftmaxWithRelPosBias, MatchesReference) {
  const View k = View::kContiguous;
  const std::vector<WindowCase> cases = {
      {{2, 3, 2, 4, 16}, {3, 4, 16}, {2, 4, 16}, 3, 1.0, k, k, k, k},
      {{2, 3, 2, 5, 7}, {1, 3, 1, 5, 7}, {1, 1, 2, 5, 7}, 3, 0.3, View::kTransposed, View::kStepped, k, View::kStepped},
      {{6, 2, 3, 9}, {3, 1, 3, 9}, {1, 2, 3, 9}, 3, -1.5, View::kStepped, k, View::kReversed, View::kOffset},
      {{6, 2, 3, 9}, {}, {2, 3, 9}, 1, 0.7, View::kReversed, k, View::kStepped, View::kTransposed},
      {{2, 2, 3, 4, 40}, {}, {1, 1, 3, 4, 40}, 2, 1.0, k, k, k, View::kStepped},
  };
  for (aclDataType dtype : HalfAndSingle()) {
    for (const WindowCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " x " + ShapeString(c.x) + " mask " + ShapeString(c.mask));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor x(dtype, c.x, c.xView);
      DeviceTensor bias(dtype, c.bias, c.biasView);
      DeviceTensor out(dtype, c.x, c.outView);
      const Values xv = x.FillRandom(rng, Range{-3, 3});
      const Values bv = bias.FillRandom(rng, Range{-2, 2});
      std::unique_ptr<DeviceTensor> mask;
      Values mv;
      if (!c.mask.empty()) {
        mask = std::make_unique<DeviceTensor>(dtype, c.mask, c.maskView);
        mv = mask->FillRandom(rng, Range{-2, 2});
      }
      out.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(a.Tensor(x), mask ? a.Tensor(*mask) : nullptr,
                                                                    a.Tensor(bias), c.scale, 0, a.Tensor(out), w, e);
          },
          aclnnMaskedSoftmaxWithRelPosBias);
      ExpectNear(out.ReadView(), RelativeTolerance(WindowReference(c, xv, mv, bv), dtype, 16), "out");
    }
  }
}

// CANN's example: x, mask and bias all ones in [1, 1, 1, 2, 16]: every probability 1/16.
TEST(MaskedSoftmaxWithRelPosBias, CannExample) {
  const auto x = Upload(ACL_FLOAT, {1, 1, 1, 2, 16}, Values(32, 1.0));
  const auto mask = Upload(ACL_FLOAT, {1, 2, 16}, Values(32, 1.0));
  const auto bias = Upload(ACL_FLOAT, {1, 2, 16}, Values(32, 1.0));
  DeviceTensor out(ACL_FLOAT, {1, 1, 1, 2, 16});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(a.Tensor(*x), a.Tensor(*mask), a.Tensor(*bias), 1.0, 0,
                                                                a.Tensor(out), w, e);
      },
      aclnnMaskedSoftmaxWithRelPosBias);
  ExpectNear(out.ReadView(), RelativeTolerance(Values(32, 1.0 / 16), ACL_FLOAT, 8), "out");
}

std::vector<RejectionCase> WindowRejections() {
  auto call = [](aclDataType xd, Shape x, aclDataType md, Shape m, aclDataType bd, Shape b, aclDataType od, Shape o) {
    return [=](A& a, W w, E e) {
      return aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(a.NewTensor(xd, x),
                                                              m.empty() ? nullptr : a.NewTensor(md, m),
                                                              a.NewTensor(bd, b), 1.0, 0, a.NewTensor(od, o), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, h = ACL_FLOAT16;
  const Shape x = {2, 3, 2, 4, 8}, m = {3, 4, 8}, b = {2, 4, 8};
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  auto op = aclnnMaskedSoftmaxWithRelPosBias;
  return {
      {"x_double", call(ACL_DOUBLE, x, ACL_DOUBLE, m, ACL_DOUBLE, b, ACL_DOUBLE, x), op, "'x'"},
      {"mask_dtype", call(f, x, h, m, f, b, f, x), op, "'attenMaskOptional'"},
      {"bias_dtype", call(f, x, f, m, h, b, f, x), op, "'relativePosBias'"},
      {"out_dtype", call(f, x, f, m, f, b, h, x), op, "'out'"},
      {"x_3d", call(f, {3, 4, 8}, f, m, f, b, f, {3, 4, 8}), op, "'x'", tiling},
      {"x_empty", call(f, {0, 3, 2, 4, 8}, f, m, f, b, f, {0, 3, 2, 4, 8}), op, "'x'", tiling},
      {"mask_2d", call(f, x, f, {4, 8}, f, b, f, x), op, "'attenMaskOptional'", tiling},
      {"mask_heads", call(f, x, f, {3, 2, 4, 8}, f, b, f, x), op, "'attenMaskOptional'", tiling},
      {"mask_windows", call(f, x, f, {2, 4, 8}, f, b, f, x), op, "'attenMaskOptional'", tiling},
      {"mask_rows", call(f, x, f, {3, 4, 4}, f, b, f, x), op, "'attenMaskOptional'", tiling},
      {"mask_batch_5d", call(f, x, f, {2, 3, 1, 4, 8}, f, b, f, x), op, "'attenMaskOptional'", tiling},
      {"mask_windows_4d_x", call(f, {5, 2, 4, 8}, f, {2, 4, 8}, f, b, f, {5, 2, 4, 8}), op, "'attenMaskOptional'",
       tiling},
      {"bias_2d", call(f, x, f, m, f, {4, 8}, f, x), op, "'relativePosBias'", tiling},
      {"bias_windows", call(f, x, f, m, f, {3, 2, 4, 8}, f, x), op, "'relativePosBias'", tiling},
      {"bias_heads", call(f, x, f, m, f, {3, 4, 8}, f, x), op, "'relativePosBias'", tiling},
      {"out_shape", call(f, x, f, m, f, b, f, {6, 2, 4, 8}), op, "'out'", tiling},
      {"row_too_long", call(h, {1, 1, 1, 1, 6200}, h, {1, 1, 6200}, h, {1, 1, 6200}, h, {1, 1, 1, 1, 6200}), op, "'x'",
       tiling},
  };
}

class MaskedSoftmaxWithRelPosBiasRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(MaskedSoftmaxWithRelPosBiasRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MaskedSoftmaxWithRelPosBiasRejects, ::testing::ValuesIn(WindowRejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
