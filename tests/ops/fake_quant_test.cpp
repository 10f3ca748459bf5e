// FakeQuantPerTensorAffineCachemask and FakeQuantPerChannelAffineCachemask
// through the public API against a float64 reference of PyTorch's
// fake_quantize_*_affine_cachemask: values inside and outside [quantMin,
// quantMax] (the mask), halves rounding to even, both A2 dtypes, integer and
// float zero points, every axis, strided views, fakeQuantEnabled off (a copy,
// mask true), empty tensors and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fake_quant_per_channel_affine_cachemask.h"
#include "aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// out and mask for one value (the scale's inverse in float, as the kernels take it).
std::pair<double, double> FakeQuant(double x, double scale, double zp, bool integerZp, int64_t lo, int64_t hi) {
  const float inv = 1.0F / static_cast<float>(scale);
  const float scaled = static_cast<float>(x) * inv;
  const double q = integerZp ? zp + std::nearbyint(scaled) : std::nearbyint(scaled + static_cast<float>(zp));
  const double clamped = std::min(std::max(q, static_cast<double>(lo)), static_cast<double>(hi));
  return {(clamped - zp) * scale, q >= static_cast<double>(lo) && q <= static_cast<double>(hi) ? 1.0 : 0.0};
}

TEST(FakeQuantPerChannel, MatchesReference) {
  const Shape shape = {3, 4, 5};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (aclDataType zpDtype : {ACL_INT32, ACL_FLOAT}) {
      for (int64_t axis : {0, 1, 2, -1}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " zp " + Name(zpDtype) + " axis " + std::to_string(axis));
        Rng rng = Rng::ForCurrentTest();
        const auto a = static_cast<size_t>(axis < 0 ? axis + 3 : axis);
        const int64_t channels = shape[a];
        DeviceTensor self(dtype, shape, View::kTransposed);
        const Values x = self.FillRandom(rng, Range{-30, 30});
        DeviceTensor scale(dtype, {channels}), zp(zpDtype, {channels});
        const Values s = scale.FillRandom(rng, Range{0.05, 0.5}), z = zp.FillRandom(rng, Range{-3, 3});
        DeviceTensor out(dtype, shape, View::kStepped), mask(ACL_BOOL, shape);
        ExpectRuns(
            [&](OpArgs& arg, uint64_t* w, aclOpExecutor** e) {
              return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(arg.Tensor(self), arg.Tensor(scale),
                                                                             arg.Tensor(zp), axis, -20, 20,
                                                                             arg.Tensor(out), arg.Tensor(mask), w, e);
            },
            aclnnFakeQuantPerChannelAffineCachemask);
        Expected want;
        Values marks;
        for (int64_t k = 0; k < NumElements(shape); ++k) {
          const auto c = static_cast<size_t>(Unravel(k, shape)[a]);
          const auto [y, m] =
              FakeQuant(x[static_cast<size_t>(k)].real(), s[c].real(), z[c].real(), zpDtype == ACL_INT32, -20, 20);
          want.values.emplace_back(y);
          want.tolerance.push_back(4 * UnitRoundoff(ACL_FLOAT) * std::abs(y) + UnitRoundoff(dtype) * std::abs(y));
          marks.emplace_back(m);
        }
        ExpectNear(out.ReadView(), want, "out");
        ExpectExact(mask.ReadView(), marks, "mask");
      }
    }
  }
}

TEST(FakeQuantPerTensor, MatchesReferenceAndDisabledCopies) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (const float enabled : {1.0F, 0.0F}) {
      SCOPED_TRACE(std::string(Name(dtype)) + (enabled >= 1 ? " enabled" : " disabled"));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, {4, 6}, View::kReversed);
      Values x = self.FillRandom(rng, Range{-20, 20});
      x[0] = ConvertValue(2.5 * 0.25, dtype);  // a half after scaling: to even
      x[1] = ConvertValue(3.5 * 0.25, dtype);
      self.WriteView(x);
      const auto scale = Upload(dtype, {1}, {0.25});
      const auto zp = Upload(ACL_INT32, {1}, {Value(2)});
      DeviceTensor out(dtype, {4, 6}), mask(ACL_BOOL, {4, 6});
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
                a.Tensor(self), a.Tensor(*scale), a.Tensor(*zp), enabled, -10, 30, a.Tensor(out), a.Tensor(mask), w, e);
          },
          aclnnFakeQuantPerTensorAffineCachemask);
      Expected want;
      Values marks;
      for (const Value& v : x) {
        const auto [y, m] = FakeQuant(v.real(), 0.25, 2, true, -10, 30);
        want.values.emplace_back(enabled >= 1 ? y : v.real());
        want.tolerance.push_back(enabled >= 1 ? UnitRoundoff(dtype) * std::abs(y) : 0);
        marks.emplace_back(enabled >= 1 ? m : 1.0);
      }
      ExpectNear(out.ReadView(), want, "out");
      ExpectExact(mask.ReadView(), marks, "mask");
    }
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto tensor = [](aclDataType dtype, Shape scale, aclDataType zpDtype, Shape zp, int64_t lo, int64_t hi,
                   aclDataType maskDtype, Shape out) {
    return [=](A& a, W w, E e) {
      return aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
          a.NewTensor(dtype, {2, 3}), a.NewTensorIn(Range{0.1, 0.5}, dtype, scale),
          a.NewTensorIn(Range{0, 1}, zpDtype, zp), 1.0F, lo, hi, a.NewTensor(dtype, out), a.NewTensor(maskDtype, out),
          w, e);
    };
  };
  auto channel = [](Shape scale, Shape zp, int64_t axis) {
    return [=](A& a, W w, E e) {
      return aclnnFakeQuantPerChannelAffineCachemaskGetWorkspaceSize(
          a.NewTensor(ACL_FLOAT, {2, 3}), a.NewTensorIn(Range{0.1, 0.5}, ACL_FLOAT, scale),
          a.NewTensorIn(Range{0, 1}, ACL_INT32, zp), axis, -8, 7, a.NewTensor(ACL_FLOAT, {2, 3}),
          a.NewTensor(ACL_BOOL, {2, 3}), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT, i = ACL_INT32, b = ACL_BOOL;
  return {
      {"tensor_double", tensor(ACL_DOUBLE, {1}, i, {1}, 0, 7, b, {2, 3}), aclnnFakeQuantPerTensorAffineCachemask,
       "'self'"},
      {"tensor_zp_float", tensor(f, {1}, f, {1}, 0, 7, b, {2, 3}), aclnnFakeQuantPerTensorAffineCachemask,
       "'zeroPoint'"},
      {"tensor_mask_int", tensor(f, {1}, i, {1}, 0, 7, ACL_INT8, {2, 3}), aclnnFakeQuantPerTensorAffineCachemask,
       "'mask'"},
      {"tensor_two_scales", tensor(f, {2}, i, {1}, 0, 7, b, {2, 3}), aclnnFakeQuantPerTensorAffineCachemask, "'scale'"},
      {"tensor_out_shape", tensor(f, {1}, i, {1}, 0, 7, b, {3, 2}), aclnnFakeQuantPerTensorAffineCachemask, "'out'"},
      {"tensor_min_over_max", tensor(f, {1}, i, {1}, 8, 7, b, {2, 3}), aclnnFakeQuantPerTensorAffineCachemask,
       "quantMin"},
      {"channel_scale_2d", channel({3, 1}, {3}, 1), aclnnFakeQuantPerChannelAffineCachemask, "scale"},
      {"channel_lengths", channel({3}, {2}, 1), aclnnFakeQuantPerChannelAffineCachemask, "scale"},
      {"channel_axis", channel({3}, {3}, 2), aclnnFakeQuantPerChannelAffineCachemask, "'axis'"},
      {"channel_count", channel({2}, {2}, 1), aclnnFakeQuantPerChannelAffineCachemask, "along axis"},
  };
}

class FakeQuantRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(FakeQuantRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FakeQuantRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
