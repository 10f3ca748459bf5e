// The rejections of aclnnAddV3 / aclnnInplaceAddV3 and aclnnBitwiseAndTensorOut /
// aclnnInplaceBitwiseAndTensorOut with CANN's codes (their values are tested
// by harness rows: harness_add_v3_test.cpp, harness_binary_pointwise_test.cpp).
// TensorOut differs from BitwiseAndTensor in one check: self, other and out
// must share one storage format, so a layout mix BitwiseAndTensor accepts is
// rejected here.
#include <gtest/gtest.h>

#include <vector>

#include "aclnnop/aclnn_add_v3.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

std::vector<RejectionCase> Rejections() {
  const Shape m = {2, 3};
  const Shape nchw = {1, 2, 2, 3};
  auto t = [m](A& a, aclDataType dtype) { return a.NewTensor(dtype, m); };
  auto s = [](A& a, aclDataType dtype, double v) { return a.Scalar(dtype, v); };
  return {
      {"AddV3_other_s64",
       [=](A& a, W w, E e) {
         return aclnnAddV3GetWorkspaceSize(s(a, ACL_INT64, 1), t(a, ACL_INT64), s(a, ACL_INT64, 1), t(a, ACL_INT64), w,
                                           e);
       },
       aclnnAddV3, "other", kInvalid},
      {"AddV3_other_f64",
       [=](A& a, W w, E e) {
         return aclnnAddV3GetWorkspaceSize(s(a, ACL_FLOAT, 1), t(a, ACL_DOUBLE), s(a, ACL_FLOAT, 1), t(a, ACL_DOUBLE),
                                           w, e);
       },
       aclnnAddV3, "other", kInvalid},
      {"AddV3_float_alpha_with_integers",
       [=](A& a, W w, E e) {
         return aclnnAddV3GetWorkspaceSize(s(a, ACL_INT32, 1), t(a, ACL_INT32), s(a, ACL_FLOAT, 1.5), t(a, ACL_INT32),
                                           w, e);
       },
       aclnnAddV3, "alpha", kInvalid},
      {"AddV3_float_result_into_s32",
       [=](A& a, W w, E e) {
         return aclnnAddV3GetWorkspaceSize(s(a, ACL_FLOAT, 1), t(a, ACL_FLOAT), s(a, ACL_FLOAT, 1), t(a, ACL_INT32), w,
                                           e);
       },
       aclnnAddV3, "out", kInvalid},
      {"AddV3_complex_self_into_f32",
       [=](A& a, W w, E e) {
         return aclnnAddV3GetWorkspaceSize(s(a, ACL_COMPLEX64, 1), t(a, ACL_FLOAT), s(a, ACL_FLOAT, 1), t(a, ACL_FLOAT),
                                           w, e);
       },
       aclnnAddV3, "out", kInvalid},
      {"AddV3_out_shape",
       [=](A& a, W w, E e) {
         return aclnnAddV3GetWorkspaceSize(s(a, ACL_FLOAT, 1), t(a, ACL_FLOAT), s(a, ACL_FLOAT, 1),
                                           a.NewTensor(ACL_FLOAT, {3, 2}), w, e);
       },
       aclnnAddV3, "out", kInvalid},
      {"InplaceAddV3_float_self_into_s8",
       [=](A& a, W w, E e) {
         return aclnnInplaceAddV3GetWorkspaceSize(s(a, ACL_FLOAT, 1.5), t(a, ACL_INT8), s(a, ACL_INT32, 1), w, e);
       },
       aclnnInplaceAddV3, "other", kInvalid},
      {"InplaceAddV3_other_bool",
       [=](A& a, W w, E e) {
         return aclnnInplaceAddV3GetWorkspaceSize(s(a, ACL_BOOL, 1), t(a, ACL_BOOL), s(a, ACL_BOOL, 1), w, e);
       },
       aclnnInplaceAddV3, "other", kInvalid},
      {"BitwiseAndTensorOut_self_f32",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorOutGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_INT32), t(a, ACL_INT32), w, e);
       },
       aclnnBitwiseAndTensorOut, "self", kInvalid},
      {"BitwiseAndTensorOut_other_u32",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorOutGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_UINT32), t(a, ACL_INT64), w, e);
       },
       aclnnBitwiseAndTensorOut, "other", kInvalid},
      {"BitwiseAndTensorOut_s32_into_bool",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorOutGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_INT32), t(a, ACL_BOOL), w, e);
       },
       aclnnBitwiseAndTensorOut, "out", kInvalid},
      {"BitwiseAndTensorOut_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorOutGetWorkspaceSize(t(a, ACL_INT32), a.NewTensor(ACL_INT32, {4}), t(a, ACL_INT32),
                                                         w, e);
       },
       aclnnBitwiseAndTensorOut, "other", kInvalid},
      {"BitwiseAndTensorOut_formats_differ",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorOutGetWorkspaceSize(
             a.NewTensor(ACL_INT32, nchw, View::kContiguous, ACL_FORMAT_NCHW), a.NewTensor(ACL_INT32, nchw),
             a.NewTensor(ACL_INT32, nchw), w, e);
       },
       aclnnBitwiseAndTensorOut, "format", kInvalid},
      {"InplaceBitwiseAndTensorOut_formats_differ",
       [=](A& a, W w, E e) {
         return aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(
             a.NewTensor(ACL_INT16, nchw), a.NewTensor(ACL_INT16, nchw, View::kContiguous, ACL_FORMAT_NHWC), w, e);
       },
       aclnnInplaceBitwiseAndTensorOut, "format", kInvalid},
      {"InplaceBitwiseAndTensorOut_s32_into_bool",
       [=](A& a, W w, E e) {
         return aclnnInplaceBitwiseAndTensorOutGetWorkspaceSize(t(a, ACL_BOOL), t(a, ACL_INT32), w, e);
       },
       aclnnInplaceBitwiseAndTensorOut, "self", kInvalid},
  };
}

class MathOutFormsRejects : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(MathOutFormsRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, MathOutFormsRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

// The same formats that TensorOut rejects are a valid BitwiseAndTensor call (CANN checks only for private
// formats there), and one shared format is a valid TensorOut call.
TEST(BitwiseAndTensorOut, OneSharedFormatRunsWhereBitwiseAndTensorTakesAMix) {
  const Shape nchw = {1, 2, 2, 3};
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnBitwiseAndTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, nchw, View::kContiguous, ACL_FORMAT_NCHW),
                                                     a.NewTensor(ACL_INT32, nchw), a.NewTensor(ACL_INT32, nchw), w, e);
      },
      aclnnBitwiseAndTensor);
  DeviceTensor self(ACL_INT32, nchw), other(ACL_INT32, nchw), out(ACL_INT32, nchw);
  Values x, y, want;
  for (int i = 0; i < 12; ++i) {
    x.push_back(Value(i * 7 - 40));
    y.push_back(Value(i * 13 + 3));
    want.push_back(Value((i * 7 - 40) & (i * 13 + 3)));
  }
  self.WriteView(x);
  other.WriteView(y);
  ExpectRuns(
      [&](A& a, W w, E e) {
        return aclnnBitwiseAndTensorOutGetWorkspaceSize(
            a.Tensor(self, ACL_FORMAT_NCHW), a.Tensor(other, ACL_FORMAT_NCHW), a.Tensor(out, ACL_FORMAT_NCHW), w, e);
      },
      aclnnBitwiseAndTensorOut);
  ExpectExact(out.ReadView(), want, "BitwiseAndTensorOut NCHW");
}

}  // namespace
}  // namespace canopy_test
