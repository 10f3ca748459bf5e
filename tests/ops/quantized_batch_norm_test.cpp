// QuantizedBatchNorm through the public API against a float64 reference of
// torch.quantized_batch_norm: every A2 dtype, with and without weight and
// bias, saturation at the dtype's bounds, strided views, and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quantized_batch_norm.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

TEST(QuantizedBatchNorm, MatchesReference) {
  const Shape shape = {2, 3, 4, 5};
  for (aclDataType dtype : {ACL_INT8, ACL_UINT8, ACL_INT32}) {
    for (const bool affine : {false, true}) {
      SCOPED_TRACE(std::string(Name(dtype)) + (affine ? " affine" : ""));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor input(dtype, shape, View::kTransposed);
      const Range range = dtype == ACL_UINT8 ? Range{0, 255} : Range{-128, 127};
      const Values x = input.FillRandom(rng, range);
      DeviceTensor mean(ACL_FLOAT, {3}), var(ACL_FLOAT, {3}), weight(ACL_FLOAT, {3}), bias(ACL_FLOAT, {3});
      const Values m = mean.FillRandom(rng, Range{-2, 2}), v = var.FillRandom(rng, Range{0.5, 3});
      const Values w = weight.FillRandom(rng, Range{-2, 2}), b = bias.FillRandom(rng, Range{-1, 1});
      DeviceTensor output(dtype, shape, View::kStepped);
      const double inScale = 0.05, outScale = 0.02, eps = 1e-5;
      const int64_t inZero = dtype == ACL_UINT8 ? 128 : 3, outZero = dtype == ACL_UINT8 ? 120 : -4;
      ExpectRuns(
          [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
            return aclnnQuantizedBatchNormGetWorkspaceSize(
                a.Tensor(input, ACL_FORMAT_NCHW), a.Tensor(mean), a.Tensor(var), a.Scalar(ACL_FLOAT, inScale),
                a.Scalar(ACL_INT32, static_cast<double>(inZero)), a.Scalar(ACL_FLOAT, outScale),
                a.Scalar(ACL_INT32, static_cast<double>(outZero)), affine ? a.Tensor(weight) : nullptr,
                affine ? a.Tensor(bias) : nullptr, static_cast<float>(eps), a.Tensor(output, ACL_FORMAT_NCHW), ws, e);
          },
          aclnnQuantizedBatchNorm);
      const double lo = dtype == ACL_INT8 ? -128 : dtype == ACL_UINT8 ? 0 : -2147483648.0;
      const double hi = dtype == ACL_INT8 ? 127 : dtype == ACL_UINT8 ? 255 : 2147483647.0;
      Expected want;
      for (int64_t k = 0; k < NumElements(shape); ++k) {
        const auto c = static_cast<size_t>(Unravel(k, shape)[1]);
        const double deq = (x[static_cast<size_t>(k)].real() - static_cast<double>(inZero)) * inScale;
        const double y = (deq - m[c].real()) / std::sqrt(v[c].real() + eps) * (affine ? w[c].real() : 1.0) +
                         (affine ? b[c].real() : 0.0);
        const double q = y / outScale + static_cast<double>(outZero);
        want.values.emplace_back(std::clamp(std::nearbyint(q), lo, hi));
        // FLOAT arithmetic may move a value that lands near a half to the neighbouring integer.
        want.tolerance.push_back(std::abs(q - std::floor(q) - 0.5) < 1e-3 * std::max(std::abs(q), 1.0) ? 1 : 0);
      }
      ExpectNear(output.ReadView(), want, "output");
    }
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape in, aclDataType outDtype, Shape out, Shape stats, aclDataType zpDtype) {
    return [=](A& a, W w, E e) {
      return aclnnQuantizedBatchNormGetWorkspaceSize(
          a.NewTensor(dtype, in, View::kContiguous, ACL_FORMAT_NCHW), a.NewTensor(ACL_FLOAT, stats),
          a.NewTensorIn(Range{0.5, 2}, ACL_FLOAT, stats), a.Scalar(ACL_FLOAT, 0.1), a.Scalar(zpDtype, 0),
          a.Scalar(ACL_FLOAT, 0.1), a.Scalar(ACL_INT32, 0), nullptr, nullptr, 1e-5F,
          a.NewTensor(outDtype, out, View::kContiguous, ACL_FORMAT_NCHW), w, e);
    };
  };
  const aclDataType i8 = ACL_INT8, i32 = ACL_INT32;
  const Shape s = {1, 2, 3, 3};
  return {
      {"float_input", call(ACL_FLOAT, s, ACL_FLOAT, s, {2}, i32), aclnnQuantizedBatchNorm, "'input'"},
      {"dtypes_differ", call(i8, s, ACL_UINT8, s, {2}, i32), aclnnQuantizedBatchNorm, "'output'"},
      {"zero_point_int8", call(i8, s, i8, s, {2}, ACL_INT8), aclnnQuantizedBatchNorm, "'inputZeroPoint'"},
      {"rank3", call(i8, {2, 3, 3}, i8, {2, 3, 3}, {2}, i32), aclnnQuantizedBatchNorm, "'input'"},
      {"stats_length", call(i8, s, i8, s, {3}, i32), aclnnQuantizedBatchNorm, "'mean'"},
      {"output_shape", call(i8, s, i8, {1, 2, 3, 2}, {2}, i32), aclnnQuantizedBatchNorm, "'output'"},
      {"empty", call(i8, {0, 2, 3, 3}, i8, {0, 2, 3, 3}, {2}, i32), aclnnQuantizedBatchNorm, "empty"},
  };
}

class QuantizedBatchNormRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(QuantizedBatchNormRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, QuantizedBatchNormRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
