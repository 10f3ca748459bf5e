// What the harness rows of the binary math ops (harness_binary_math_test.cpp)
// cannot draw at random: NaN, infinities, zero divisors, the edges of shifts,
// the wrap of a narrow integer result before a wider out, and every
// documented rejection with its exact status code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_dot.h"
#include "aclnnop/aclnn_equal.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_gcd.h"
#include "aclnnop/aclnn_isclose.h"
#include "aclnnop/aclnn_left_shift.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_right_shift.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_trace.h"
#include "aclnnop/aclnn_x_log_y_scalar_other.h"
#include "aclnnop/aclnn_x_log_y_tensor.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Python's %: the divisor's sign; an integer divisor of 0 gives self (CANN's
// documented value), INT32_MIN % -1 is 0; floats: NaN for 0 and infinities.
TEST(RemainderValues, SignsZeroDivisorsAndSpecialValues) {
  auto self = Upload(ACL_INT32, {6}, {7, -7, 7, -7, 5, -2147483648.0});
  auto other = Upload(ACL_INT32, {6}, {3, 3, -3, -3, 0, -1});
  auto out = Poisoned(ACL_INT32, {6});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnRemainderTensorTensorGetWorkspaceSize(x.Tensor(*self), x.Tensor(*other), x.Tensor(*out), w, e);
      },
      aclnnRemainderTensorTensor);
  ExpectExact(out->ReadView(), {1, 2, -2, -1, 5, 0}, "RemainderTensorTensor s32");

  auto f = Upload(ACL_FLOAT, {5}, {-1, 5.5, kInf, kNan, 3});
  auto fout = Poisoned(ACL_FLOAT, {5});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnRemainderTensorScalarGetWorkspaceSize(x.Tensor(*f), x.Scalar(ACL_FLOAT, 3.5), x.Tensor(*fout), w,
                                                          e);
      },
      aclnnRemainderTensorScalar);
  ExpectExact(fout->ReadView(), {2.5, 2, kNan, kNan, 3}, "RemainderTensorScalar f32");

  // A scalar dividend computes in out's dtype: 5.5 into INT32 is 5.
  auto divisors = Upload(ACL_INT32, {3}, {-4, 4, 0});
  auto iout = Poisoned(ACL_INT32, {3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnRemainderScalarTensorGetWorkspaceSize(x.Scalar(ACL_FLOAT, 5.5), x.Tensor(*divisors),
                                                          x.Tensor(*iout), w, e);
      },
      aclnnRemainderScalarTensor);
  ExpectExact(iout->ReadView(), {-3, 1, 5}, "RemainderScalarTensor into s32");
}

// Floats: the floor of the exact quotient (1 // 0.1 is 9), a zero divisor gives
// self / 0, a zero quotient keeps its sign. Integers: toward -inf, 0 for a zero
// divisor, INT32_MIN // -1 wraps.
TEST(FloorDivideValues, ExactQuotientsZerosAndWrap) {
  auto a = Upload(ACL_DOUBLE, {6}, {1, 7, -7, 1, -1, 0.5});
  auto b = Upload(ACL_DOUBLE, {6}, {0.1, -2, 2, 0, 0, -4});
  auto out = Poisoned(ACL_DOUBLE, {6});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnFloorDivideGetWorkspaceSize(x.Tensor(*a), x.Tensor(*b), x.Tensor(*out), w, e);
      },
      aclnnFloorDivide);
  ExpectExact(out->ReadView(), {9, -4, -4, kInf, -kInf, -1}, "FloorDivide f64");

  auto i = Upload(ACL_INT32, {4}, {7, -7, 5, -2147483648.0});
  auto iout = Poisoned(ACL_INT32, {4});
  auto j = Upload(ACL_INT32, {4}, {2, 2, 0, -1});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnFloorDivideGetWorkspaceSize(x.Tensor(*i), x.Tensor(*j), x.Tensor(*iout), w, e);
      },
      aclnnFloorDivide);
  ExpectExact(iout->ReadView(), {3, -4, 0, -2147483648.0}, "FloorDivide s32");
}

// Left shifts outside [0, width) give 0; right shifts clamp the count into
// [0, width - 1]; an INT8 result wraps at 8 bits before an INT64 out.
TEST(ShiftValues, CountsOutsideTheWidthAndNarrowResults) {
  auto v = Upload(ACL_INT8, {5}, {1, 3, -1, 100, 1});
  auto s = Upload(ACL_INT8, {5}, {7, 7, 8, -1, 0});
  auto wide = Poisoned(ACL_INT64, {5});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnLeftShiftGetWorkspaceSize(x.Tensor(*v), x.Tensor(*s), x.Tensor(*wide), w, e);
      },
      aclnnLeftShift);
  ExpectExact(wide->ReadView(), {-128, -128, 0, 0, 1}, "LeftShift s8 into s64");

  auto u = Upload(ACL_UINT8, {4}, {200, 200, 128, 7});
  auto us = Upload(ACL_UINT8, {4}, {20, 7, 3, 0});
  auto uout = Poisoned(ACL_UINT8, {4});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnRightShiftGetWorkspaceSize(x.Tensor(*u), x.Tensor(*us), x.Tensor(*uout), w, e);
      },
      aclnnRightShift);
  ExpectExact(uout->ReadView(), {1, 1, 16, 7}, "RightShift u8 clamps the count to 7");

  auto n = Upload(ACL_INT16, {3}, {-8, -8, 64});
  auto ns = Upload(ACL_INT16, {3}, {100, -3, 2});
  auto nout = Poisoned(ACL_INT16, {3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnRightShiftGetWorkspaceSize(x.Tensor(*n), x.Tensor(*ns), x.Tensor(*nout), w, e);
      },
      aclnnRightShift);
  ExpectExact(nout->ReadView(), {-1, -8, 16}, "RightShift s16: sign fill, a negative count is 0");
}

// Or narrows an INT64 scalar that fits INT32: an INT8 tensor | 3 computes in
// INT32 and is castable into an INT32 out; Not is ~x and, on BOOL, logical.
TEST(BitwiseScalarValues, Int64ScalarNarrowedAndNot) {
  auto v = Upload(ACL_INT8, {3}, {-128, 4, 0});
  auto out = Poisoned(ACL_INT32, {3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnBitwiseOrScalarGetWorkspaceSize(x.Tensor(*v), x.Scalar(ACL_INT64, 3), x.Tensor(*out), w, e);
      },
      aclnnBitwiseOrScalar);
  ExpectExact(out->ReadView(), {-125, 7, 3}, "BitwiseOrScalar s8 | 3");

  auto b = Upload(ACL_BOOL, {2}, {0, 1});
  auto bout = Poisoned(ACL_BOOL, {2});
  ExpectRuns([&](OpArgs& x, uint64_t* w,
                 aclOpExecutor** e) { return aclnnBitwiseNotGetWorkspaceSize(x.Tensor(*b), x.Tensor(*bout), w, e); },
             aclnnBitwiseNot);
  ExpectExact(bout->ReadView(), {1, 0}, "BitwiseNot bool");
}

// xlogy: 0 * log(0) is 0, but a NaN y gives NaN even where x is 0; log-add-exp of
// equal infinities is that infinity; isclose: NaN only with equalNan, an
// infinity only to itself.
TEST(SpecialValues, XLogYLogAddExpAndIsClose) {
  auto x = Upload(ACL_FLOAT, {5}, {0, 0, 2, 0, kNan});
  auto y = Upload(ACL_FLOAT, {5}, {0, kNan, 0, -1, 1});
  auto out = Poisoned(ACL_FLOAT, {5});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnXLogYTensorGetWorkspaceSize(a.Tensor(*x), a.Tensor(*y), a.Tensor(*out), w, e);
      },
      aclnnXLogYTensor);
  ExpectExact(out->ReadView(), {0, kNan, -kInf, 0, kNan}, "XLogYTensor");

  auto p = Upload(ACL_FLOAT, {4}, {kInf, -kInf, kNan, 1000});
  auto q = Upload(ACL_FLOAT, {4}, {kInf, -kInf, 0, 1000});
  auto lae = Poisoned(ACL_FLOAT, {4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnLogAddExpGetWorkspaceSize(a.Tensor(*p), a.Tensor(*q), a.Tensor(*lae), w, e);
      },
      aclnnLogAddExp);
  ExpectNear(lae->ReadView(), {{kInf, -kInf, kNan, 1000 + std::log(2.0)}, {0, 0, 0, 1e-4}}, "LogAddExp");

  auto s = Upload(ACL_FLOAT, {5}, {kNan, kInf, kInf, 1, 1e-9});
  auto o = Upload(ACL_FLOAT, {5}, {kNan, kInf, 1e30, 1 + 1e-6, 0});
  for (bool equalNan : {false, true}) {
    auto close = Poisoned(ACL_BOOL, {5});
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnIsCloseGetWorkspaceSize(a.Tensor(*s), a.Tensor(*o), 1e-5, 1e-8, equalNan, a.Tensor(*close), w, e);
        },
        aclnnIsClose);
    ExpectExact(close->ReadView(), {equalNan ? 1.0 : 0.0, 1, 0, 1, 1}, "IsClose");
  }
}

// gcd(a, 0) = |a|, gcd(0, 0) = 0, signs dropped; INT32_MIN's magnitude 2^31
// wraps to itself in an INT32 out, as PyTorch's does.
TEST(GcdValues, ZerosSignsAndExtremes) {
  const double min32 = -2147483648.0;
  auto self = Upload(ACL_INT32, {7}, {0, 0, -12, 12, -18, min32, min32});
  auto other = Upload(ACL_INT32, {7}, {0, -7, 0, -8, -27, 0, 6});
  auto out = Poisoned(ACL_INT32, {7});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnGcdGetWorkspaceSize(x.Tensor(*self), x.Tensor(*other), x.Tensor(*out), w, e);
      },
      aclnnGcd);
  ExpectExact(out->ReadView(), {0, 7, 12, 4, 9, min32, 2}, "Gcd s32");

  // CANN's example: gcd(x, x) over 0..7.
  auto x = Upload(ACL_INT32, {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  auto xout = Poisoned(ACL_INT32, {4, 2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGcdGetWorkspaceSize(a.Tensor(*x), a.Tensor(*x), a.Tensor(*xout), w, e);
      },
      aclnnGcd);
  ExpectExact(xout->ReadView(), {0, 1, 2, 3, 4, 5, 6, 7}, "Gcd example");
}

// ---- rejections ---------------------------------------------------------------------------------

using Rejection = RejectionCase;

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<Rejection> Rejections() {
  const Shape m = {2, 3};
  auto t = [m](A& a, aclDataType dtype) { return a.NewTensor(dtype, m); };
  return {
      {"Atan2_out_s32",
       [=](A& a, W w, E e) {
         return aclnnAtan2GetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), t(a, ACL_INT32), w, e);
       },
       aclnnAtan2, "out"},
      {"Atan2_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnAtan2GetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {4}), t(a, ACL_FLOAT), w, e);
       },
       aclnnAtan2, "other"},
      // CANN's A2 code computes gcds in INT16, INT32 and INT64 only, into an integer out.
      {"Gcd_s8",
       [=](A& a, W w, E e) { return aclnnGcdGetWorkspaceSize(t(a, ACL_INT8), t(a, ACL_INT8), t(a, ACL_INT8), w, e); },
       aclnnGcd, "INT8"},
      {"Gcd_u8",
       [=](A& a, W w, E e) {
         return aclnnGcdGetWorkspaceSize(t(a, ACL_UINT8), t(a, ACL_UINT8), t(a, ACL_UINT8), w, e);
       },
       aclnnGcd, "UINT8"},
      {"Gcd_bool",
       [=](A& a, W w, E e) { return aclnnGcdGetWorkspaceSize(t(a, ACL_BOOL), t(a, ACL_BOOL), t(a, ACL_INT32), w, e); },
       aclnnGcd, "BOOL"},
      {"Gcd_float",
       [=](A& a, W w, E e) {
         return aclnnGcdGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_INT32), t(a, ACL_INT32), w, e);
       },
       aclnnGcd, "self"},
      {"Gcd_out_float",
       [=](A& a, W w, E e) {
         return aclnnGcdGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_INT32), a.NewTensor(ACL_FLOAT, {0, 3}), w, e);
       },
       aclnnGcd, "out"},
      {"Gcd_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnGcdGetWorkspaceSize(t(a, ACL_INT32), a.NewTensor(ACL_INT32, {4}), t(a, ACL_INT32), w, e);
       },
       aclnnGcd, "other"},
      // INT8 % INT8 promotes to INT8, which CANN does not compute remainders in.
      {"RemainderTensorTensor_s8",
       [=](A& a, W w, E e) {
         return aclnnRemainderTensorTensorGetWorkspaceSize(t(a, ACL_INT8), t(a, ACL_INT8), t(a, ACL_INT8), w, e);
       },
       aclnnRemainderTensorTensor, "INT8"},
      {"RemainderTensorTensor_float_into_s32",
       [=](A& a, W w, E e) {
         return aclnnRemainderTensorTensorGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), t(a, ACL_INT32), w, e);
       },
       aclnnRemainderTensorTensor, "out"},
      {"InplaceRemainderTensorScalar_float_scalar_into_s32",
       [=](A& a, W w, E e) {
         return aclnnInplaceRemainderTensorScalarGetWorkspaceSize(t(a, ACL_INT32), a.Scalar(ACL_FLOAT, 1.5), w, e);
       },
       aclnnInplaceRemainderTensorScalar, "selfRef"},
      {"RemainderScalarTensor_out_s8",
       [=](A& a, W w, E e) {
         return aclnnRemainderScalarTensorGetWorkspaceSize(a.Scalar(ACL_INT32, 3), t(a, ACL_INT8), t(a, ACL_INT8), w,
                                                           e);
       },
       aclnnRemainderScalarTensor, "out"},
      {"FloorDivide_u16",
       [=](A& a, W w, E e) {
         return aclnnFloorDivideGetWorkspaceSize(t(a, ACL_UINT16), t(a, ACL_UINT16), t(a, ACL_UINT16), w, e);
       },
       aclnnFloorDivide, "self"},
      {"FloorDivides_scalar_u32",
       [=](A& a, W w, E e) {
         return aclnnFloorDividesGetWorkspaceSize(t(a, ACL_INT32), a.Scalar(ACL_UINT32, 2), t(a, ACL_INT32), w, e);
       },
       aclnnFloorDivides, "other"},
      {"LeftShift_float",
       [=](A& a, W w, E e) {
         return aclnnLeftShiftGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_INT32), t(a, ACL_INT32), w, e);
       },
       aclnnLeftShift, "self"},
      {"LeftShifts_float_scalar",
       [=](A& a, W w, E e) {
         return aclnnLeftShiftsGetWorkspaceSize(t(a, ACL_INT32), a.Scalar(ACL_FLOAT, 1), t(a, ACL_INT32), w, e);
       },
       aclnnLeftShifts, "shiftBits"},
      // UINT16 promotes only with itself.
      {"RightShift_u16_with_s32",
       [=](A& a, W w, E e) {
         return aclnnRightShiftGetWorkspaceSize(t(a, ACL_UINT16), t(a, ACL_INT32), t(a, ACL_INT32), w, e);
       },
       aclnnRightShift, "shiftBits"},
      // A BOOL tensor with an INT32 scalar is INT32: not castable into a BOOL out.
      {"BitwiseAndScalar_bool_out",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndScalarGetWorkspaceSize(t(a, ACL_BOOL), a.Scalar(ACL_INT32, 1), t(a, ACL_BOOL), w, e);
       },
       aclnnBitwiseAndScalar, "out"},
      {"BitwiseNot_out_dtype",
       [=](A& a, W w, E e) { return aclnnBitwiseNotGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_INT64), w, e); },
       aclnnBitwiseNot, "out"},
      {"BitwiseNot_float",
       [=](A& a, W w, E e) { return aclnnBitwiseNotGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), w, e); },
       aclnnBitwiseNot, "self"},
      {"Lerp_weight_dtype",
       [=](A& a, W w, E e) {
         return aclnnLerpGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), t(a, ACL_FLOAT16), t(a, ACL_FLOAT), w, e);
       },
       aclnnLerp, "weight"},
      {"Lerp_double",
       [=](A& a, W w, E e) {
         return aclnnLerpGetWorkspaceSize(t(a, ACL_DOUBLE), t(a, ACL_DOUBLE), t(a, ACL_DOUBLE), t(a, ACL_DOUBLE), w, e);
       },
       aclnnLerp, "self"},
      {"InplaceLerps_broadcast_past_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceLerpsGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), t(a, ACL_FLOAT),
                                                  a.Scalar(ACL_FLOAT, 0.5), w, e);
       },
       aclnnInplaceLerps, "selfRef"},
      // INT8 with UINT8 promotes to INT16, which addcmul does not compute in.
      {"Addcmul_int16_promotion",
       [=](A& a, W w, E e) {
         return aclnnAddcmulGetWorkspaceSize(t(a, ACL_INT8), t(a, ACL_UINT8), t(a, ACL_INT8), a.Scalar(ACL_INT32, 1),
                                             t(a, ACL_INT16), w, e);
       },
       aclnnAddcmul, "INT16"},
      {"XLogYTensor_double",
       [=](A& a, W w, E e) {
         return aclnnXLogYTensorGetWorkspaceSize(t(a, ACL_DOUBLE), t(a, ACL_FLOAT), t(a, ACL_FLOAT), w, e);
       },
       aclnnXLogYTensor, "self"},
      {"InplaceXLogYScalarOther_s32_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceXLogYScalarOtherGetWorkspaceSize(t(a, ACL_INT32), a.Scalar(ACL_FLOAT, 2), w, e);
       },
       aclnnInplaceXLogYScalarOther, "selfRef"},
      {"LogAddExp_out_double",
       [=](A& a, W w, E e) {
         return aclnnLogAddExpGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), t(a, ACL_DOUBLE), w, e);
       },
       aclnnLogAddExp, "out"},
      {"Rsub_float_alpha_on_integers",
       [=](A& a, W w, E e) {
         return aclnnRsubGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_INT32), a.Scalar(ACL_FLOAT, 1.5), t(a, ACL_INT32),
                                          w, e);
       },
       aclnnRsub, "alpha"},
      {"Rsubs_bool_self",
       [=](A& a, W w, E e) {
         return aclnnRsubsGetWorkspaceSize(t(a, ACL_BOOL), a.Scalar(ACL_INT32, 1), a.Scalar(ACL_INT32, 1),
                                           t(a, ACL_BOOL), w, e);
       },
       aclnnRsubs, "self"},
      {"Equal_out_rank0",
       [=](A& a, W w, E e) {
         return aclnnEqualGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), a.NewTensor(ACL_BOOL, {}), w, e);
       },
       aclnnEqual, "out"},
      {"Equal_out_float",
       [=](A& a, W w, E e) {
         return aclnnEqualGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {1}), w, e);
       },
       aclnnEqual, "out"},
      {"Equal_u16_with_s32",
       [=](A& a, W w, E e) {
         return aclnnEqualGetWorkspaceSize(t(a, ACL_UINT16), t(a, ACL_INT32), a.NewTensor(ACL_BOOL, {1}), w, e);
       },
       aclnnEqual, "other"},
      {"Trace_rank1",
       [=](A& a, W w, E e) {
         return aclnnTraceGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {4}), a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnTrace, "self"},
      {"Trace_integer_into_s32",
       [=](A& a, W w, E e) { return aclnnTraceGetWorkspaceSize(t(a, ACL_INT32), a.NewTensor(ACL_INT32, {}), w, e); },
       aclnnTrace, "out"},
      {"Dot_lengths_differ",
       [=](A& a, W w, E e) {
         return aclnnDotGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, {4}),
                                         a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnDot, "tensor"},
      {"Dot_dtypes_differ",
       [=](A& a, W w, E e) {
         return aclnnDotGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT16, {3}),
                                         a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnDot, "tensor"},
      {"Dot_matrix",
       [=](A& a, W w, E e) {
         return aclnnDotGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnDot, "self"},
      {"InplaceFillTensor_value_two_elements",
       [=](A& a, W w, E e) {
         return aclnnInplaceFillTensorGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {2}), w, e);
       },
       aclnnInplaceFillTensor, "value"},
      {"InplaceMaskedFillTensor_value_rank1",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillTensorGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_BOOL),
                                                             a.NewTensor(ACL_FLOAT, {1}), w, e);
       },
       aclnnInplaceMaskedFillTensor, "value"},
      {"InplaceMaskedFillTensor_mask_s8",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillTensorGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_INT8),
                                                             a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnInplaceMaskedFillTensor, "mask"},
      {"InplaceMaskedFillTensor_float_value_into_s32",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillTensorGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_BOOL),
                                                             a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnInplaceMaskedFillTensor, "value"},
      {"IsClose_dtype_mismatch",
       [=](A& a, W w, E e) {
         return aclnnIsCloseGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT16), 1e-5, 1e-8, false, t(a, ACL_BOOL), w,
                                             e);
       },
       aclnnIsClose, "other"},
  };
}

class BinaryMathRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(BinaryMathRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, BinaryMathRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
