// Modulate through the public API against a float64 reference: [B, 1, D] and
// [B, D] factors, every A2 dtype, strided views, CANN's example, empty
// tensors and the rejections with their codes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_modulate.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

// out[b, l, d] = self[b, l, d] * (1 + scale[b, d]) + shift[b, d].
Values Reference(const Values& self, const Shape& shape, const Values& scale, const Values& shift) {
  Values out;
  for (int64_t i = 0; i < NumElements(shape); ++i) {
    const int64_t d = i % shape[2], b = i / (shape[1] * shape[2]);
    const auto row = static_cast<size_t>(b * shape[2] + d);
    out.emplace_back(self[static_cast<size_t>(i)].real() * (1 + scale[row].real()) + shift[row].real());
  }
  return out;
}

struct ModulateCase {
  Shape self, scale, shift;
  View selfView, scaleView, shiftView, outView;
};

TEST(Modulate, MatchesReference) {
  const View k = View::kContiguous;
  const std::vector<ModulateCase> cases = {
      {{2, 5, 8}, {2, 1, 8}, {2, 1, 8}, k, k, k, k},
      {{3, 4, 7}, {3, 7}, {3, 7}, View::kTransposed, View::kStepped, View::kTransposed, View::kStepped},
      {{2, 6, 33}, {2, 1, 33}, {2, 33}, View::kStepped, View::kReversed, k, View::kOffset},
      {{1, 3, 5}, {1, 5}, {1, 1, 5}, View::kReversed, View::kBroadcast, View::kBroadcast, View::kTransposed},
  };
  for (aclDataType dtype : HalfAndSingle()) {
    for (const ModulateCase& c : cases) {
      SCOPED_TRACE(std::string(Name(dtype)) + " self " + ShapeString(c.self) + " scale " + ShapeString(c.scale) +
                   " shift " + ShapeString(c.shift));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, c.self, c.selfView);
      DeviceTensor scale(dtype, c.scale, c.scaleView);
      DeviceTensor shift(dtype, c.shift, c.shiftView);
      DeviceTensor out(dtype, c.self, c.outView);
      const Values sv = self.FillRandom(rng, Range{-3, 3});
      const Values gv = scale.FillRandom(rng, Range{-1, 1});
      const Values hv = shift.FillRandom(rng, Range{-2, 2});
      out.Poison();
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnModulateGetWorkspaceSize(a.Tensor(self), a.Tensor(scale), a.Tensor(shift), a.Tensor(out), w, e);
          },
          aclnnModulate);
      std::vector<double> magnitude;  // the error scales with the product and the shift, not the sum
      for (int64_t i = 0; i < NumElements(c.self); ++i) magnitude.push_back(8.0);
      ExpectNear(out.ReadView(), RelativeTolerance(Reference(sv, c.self, gv, hv), dtype, 4, magnitude), "out");
    }
  }
}

// CANN's example: self all 1, scale all 0.5, shift all 0.2 in [2, 3, 4] / [2, 1, 4]: every output 1.7.
TEST(Modulate, CannExample) {
  const auto self = Upload(ACL_FLOAT, {2, 3, 4}, Values(24, 1.0));
  const auto scale = Upload(ACL_FLOAT, {2, 1, 4}, Values(8, 0.5));
  const auto shift = Upload(ACL_FLOAT, {2, 1, 4}, Values(8, 0.2));
  DeviceTensor out(ACL_FLOAT, {2, 3, 4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnModulateGetWorkspaceSize(a.Tensor(*self), a.Tensor(*scale), a.Tensor(*shift), a.Tensor(out), w, e);
      },
      aclnnModulate);
  ExpectNear(out.ReadView(), RelativeTolerance(Values(24, 1.7), ACL_FLOAT, 4), "out");
}

TEST(Modulate, EmptyTensors) {
  for (const Shape& shape : {Shape{0, 3, 4}, Shape{2, 3, 0}}) {
    const Shape factor = {shape[0], 1, shape[2]};
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnModulateGetWorkspaceSize(a.NewTensor(ACL_BF16, shape), a.NewTensor(ACL_BF16, factor),
                                               a.NewTensor(ACL_BF16, {shape[0], shape[2]}),
                                               a.NewTensor(ACL_BF16, shape), w, e);
        },
        aclnnModulate);
    EXPECT_TRUE(run.ok()) << ShapeString(shape) << ": " << Describe(run);
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType xd, Shape x, aclDataType gd, Shape g, aclDataType hd, Shape h, aclDataType od, Shape o) {
    return [=](A& a, W w, E e) {
      return aclnnModulateGetWorkspaceSize(a.NewTensor(xd, x), a.NewTensor(gd, g), a.NewTensor(hd, h),
                                           a.NewTensor(od, o), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, h = ACL_FLOAT16;
  const Shape x = {2, 3, 4}, r = {2, 1, 4};
  return {
      {"self_double", call(ACL_DOUBLE, x, ACL_DOUBLE, r, ACL_DOUBLE, r, ACL_DOUBLE, x), aclnnModulate, "'self'"},
      {"scale_dtype", call(f, x, h, r, f, r, f, x), aclnnModulate, "'scaleOptional'"},
      {"shift_int", call(f, x, f, r, ACL_INT32, r, f, x), aclnnModulate, "'shiftOptional'"},
      {"out_dtype", call(f, x, f, r, f, r, h, x), aclnnModulate, "'out'"},
      {"self_2d", call(f, {2, 4}, f, {2, 4}, f, {2, 4}, f, {2, 4}), aclnnModulate, "'self'"},
      {"self_empty_scale_not", call(f, {2, 0, 4}, f, r, f, r, f, {2, 0, 4}), aclnnModulate, "'self'"},
      {"out_shape", call(f, x, f, r, f, r, f, {2, 4, 3}), aclnnModulate, "'out'"},
      {"scale_1d", call(f, x, f, {4}, f, r, f, x), aclnnModulate, "'scaleOptional'"},
      {"scale_batch", call(f, x, f, {1, 1, 4}, f, r, f, x), aclnnModulate, "'scaleOptional'"},
      {"shift_width", call(f, x, f, r, f, {2, 1, 3}, f, x), aclnnModulate, "'shiftOptional'"},
      {"shift_rows", call(f, x, f, r, f, {2, 3, 4}, f, x), aclnnModulate, "'shiftOptional'"},
      {"shift_4d", call(f, x, f, r, f, {2, 1, 1, 4}, f, x), aclnnModulate, "'shiftOptional'"},
      // CANN's shape check, not its null check: 161002 for either factor left out.
      {"scale_null",
       [=](A& a, W w, E e) {
         return aclnnModulateGetWorkspaceSize(a.NewTensor(f, x), nullptr, a.NewTensor(f, r), a.NewTensor(f, x), w, e);
       },
       aclnnModulate, "'scaleOptional'"},
      {"shift_null",
       [=](A& a, W w, E e) {
         return aclnnModulateGetWorkspaceSize(a.NewTensor(f, x), a.NewTensor(f, r), nullptr, a.NewTensor(f, x), w, e);
       },
       aclnnModulate, "'shiftOptional'"},
  };
}

class ModulateRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ModulateRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ModulateRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
