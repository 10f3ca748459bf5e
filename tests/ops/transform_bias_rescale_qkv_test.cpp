// TransformBiasRescaleQkv through the public API against a float64 reference:
// every A2 dtype, one and several heads, strided qkv, bias and outputs, CANN's
// example shapes, an empty batch and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_transform_bias_rescale_qkv.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

// Part `part` (0 q, 1 k, 2 v) of qkv + bias as [B, heads, T, dimPerHead], q over sqrt(dimPerHead).
Values Reference(const Values& qkv, const Values& bias, const Shape& shape, int64_t heads, int64_t part) {
  const int64_t batch = shape[0], tokens = shape[1], width = shape[2], dim = width / 3, perHead = dim / heads;
  const double divisor = part == 0 ? std::sqrt(static_cast<double>(perHead)) : 1.0;
  Values out;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t t = 0; t < tokens; ++t) {
        for (int64_t d = 0; d < perHead; ++d) {
          const int64_t column = part * dim + h * perHead + d;
          const double x = qkv[static_cast<size_t>((b * tokens + t) * width + column)].real();
          out.emplace_back((x + bias[static_cast<size_t>(column)].real()) / divisor);
        }
      }
    }
  }
  return out;
}

struct QkvCase {
  int64_t batch, tokens, heads, perHead;
  View qkvView, biasView, outView;
};

TEST(TransformBiasRescaleQkv, MatchesReference) {
  const View k = View::kContiguous;
  const std::vector<QkvCase> cases = {
      {2, 3, 2, 4, k, k, k},
      {3, 5, 1, 7, View::kTransposed, View::kStepped, View::kStepped},
      {2, 4, 4, 3, View::kStepped, View::kReversed, View::kTransposed},
      {1, 6, 3, 16, View::kReversed, View::kOffset, View::kOffset},
  };
  for (aclDataType dtype : HalfAndSingle()) {
    for (const QkvCase& c : cases) {
      const Shape shape = {c.batch, c.tokens, 3 * c.heads * c.perHead};
      const Shape outShape = {c.batch, c.heads, c.tokens, c.perHead};
      SCOPED_TRACE(std::string(Name(dtype)) + " qkv " + ShapeString(shape) + " heads " + std::to_string(c.heads));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor qkv(dtype, shape, c.qkvView);
      DeviceTensor bias(dtype, {shape[2]}, c.biasView);
      DeviceTensor q(dtype, outShape, c.outView), kOut(dtype, outShape, c.outView), v(dtype, outShape, k);
      const Values xv = qkv.FillRandom(rng, Range{-3, 3});
      const Values bv = bias.FillRandom(rng, Range{-1, 1});
      for (DeviceTensor* out : {&q, &kOut, &v}) out->Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnTransformBiasRescaleQkvGetWorkspaceSize(a.Tensor(qkv), a.Tensor(bias), c.heads, a.Tensor(q),
                                                                a.Tensor(kOut), a.Tensor(v), w, e);
          },
          aclnnTransformBiasRescaleQkv);
      const std::vector<double> magnitude(static_cast<size_t>(NumElements(outShape)), 4.0);
      int64_t part = 0;
      for (const DeviceTensor* out : {&q, &kOut, &v}) {
        ExpectNear(out->ReadView(), RelativeTolerance(Reference(xv, bv, shape, c.heads, part), dtype, 2, magnitude),
                   "part " + std::to_string(part));
        ++part;
      }
    }
  }
}

TEST(TransformBiasRescaleQkv, EmptyBatch) {
  const Shape out = {0, 2, 3, 4};
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTransformBiasRescaleQkvGetWorkspaceSize(
            a.NewTensor(ACL_FLOAT16, {0, 3, 24}), a.NewTensor(ACL_FLOAT16, {24}), 2, a.NewTensor(ACL_FLOAT16, out),
            a.NewTensor(ACL_FLOAT16, out), a.NewTensor(ACL_FLOAT16, out), w, e);
      },
      aclnnTransformBiasRescaleQkv);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType xd, Shape x, aclDataType bd, Shape b, int64_t heads, aclDataType od, Shape q, Shape v) {
    return [=](A& a, W w, E e) {
      return aclnnTransformBiasRescaleQkvGetWorkspaceSize(a.NewTensor(xd, x), a.NewTensor(bd, b), heads,
                                                          a.NewTensor(od, q), a.NewTensor(od, q), a.NewTensor(od, v), w,
                                                          e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  const Shape x = {2, 3, 12}, b = {12}, o = {2, 2, 3, 2};
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  auto op = aclnnTransformBiasRescaleQkv;
  return {
      {"qkv_double", call(ACL_DOUBLE, x, ACL_DOUBLE, b, 2, ACL_DOUBLE, o, o), op, "'qkv'"},
      {"bias_dtype", call(f, x, ACL_FLOAT16, b, 2, f, o, o), op, "'qkvBias'"},
      {"out_dtype", call(f, x, f, b, 2, ACL_BF16, o, o), op, "'qOut'"},
      {"qkv_2d", call(f, {6, 12}, f, b, 2, f, o, o), op, "'qkv'", tiling},
      {"heads_0", call(f, x, f, b, 0, f, o, o), op, "'numHeads'", tiling},
      {"heads_negative", call(f, x, f, b, -2, f, o, o), op, "'numHeads'", tiling},
      {"width_not_3", call(f, {2, 3, 13}, f, {13}, 1, f, o, o), op, "'qkv'", tiling},
      {"heads_not_dividing", call(f, x, f, b, 3, f, {2, 3, 3, 1}, {2, 3, 3, 1}), op, "'qkv'", tiling},
      {"bias_2d", call(f, x, f, {1, 12}, 2, f, o, o), op, "'qkvBias'", tiling},
      {"bias_width", call(f, x, f, {6}, 2, f, o, o), op, "'qkvBias'", tiling},
      {"bias_empty", call(f, {2, 3, 0}, f, {0}, 2, f, {2, 2, 3, 0}, {2, 2, 3, 0}), op, "'qkvBias'", tiling},
      {"q_shape", call(f, x, f, b, 2, f, {2, 3, 2, 2}, o), op, "'qOut'", tiling},
      {"v_shape", call(f, x, f, b, 2, f, o, {2, 2, 3, 1}), op, "'vOut'", tiling},
  };
}

class TransformBiasRescaleQkvRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(TransformBiasRescaleQkvRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, TransformBiasRescaleQkvRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
