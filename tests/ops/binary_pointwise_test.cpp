// What the harness rows (harness_binary_pointwise_test.cpp) cannot draw at
// random: float ties, NaN, infinities and signed zeros in comparisons and
// clamps, integer powers, aliasing in-place calls, one-empty operands, and
// every documented rejection with its exact status code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_sum.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- comparisons with ties and special values -----------------------------------------------------

const Values kSpecialA = {1.0, -0.0, kNan, kInf, -kInf, 0.5, 2.0, kNan};
const Values kSpecialB = {1.0, 0.0, kNan, kInf, kInf, 0.25, 3.0, 1.0};

TEST(EqTensorValues, TiesNanInfinitiesAndSignedZeros) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
    SCOPED_TRACE(Name(dtype));
    auto a = Upload(dtype, {8}, kSpecialA), b = Upload(dtype, {8}, kSpecialB);
    auto out = Poisoned(ACL_BOOL, {8});
    ExpectRuns(
        [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
          return aclnnEqTensorGetWorkspaceSize(x.Tensor(*a), x.Tensor(*b), x.Tensor(*out), w, e);
        },
        aclnnEqTensor);
    // -0 == 0, NaN != NaN, inf == inf.
    ExpectExact(out->ReadView(), {1, 1, 0, 1, 0, 0, 0, 0}, "EqTensor");
  }
}

TEST(EqTensorValues, FloatAgainstIntegerComparesInFloat) {
  // 16777217 is not a FLOAT: as FLOAT it equals 16777216.
  auto a = Upload(ACL_INT32, {3}, {16777217.0, 3.0, -2.0});
  auto b = Upload(ACL_FLOAT, {3}, {16777216.0, 3.0, 2.0});
  auto out = Poisoned(ACL_INT32, {3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnEqTensorGetWorkspaceSize(x.Tensor(*a), x.Tensor(*b), x.Tensor(*out), w, e);
      },
      aclnnEqTensor);
  ExpectExact(out->ReadView(), {1, 1, 0}, "EqTensor s32 vs f32 into s32");
}

TEST(EqTensorValues, InplaceWritesSelfDtypeThroughItsOwnView) {
  // selfRef is a transposed view, other broadcast along rows: selfRef = (selfRef == other) as 1.0 / 0.0.
  auto self = std::make_unique<DeviceTensor>(ACL_FLOAT16, Shape{3, 2}, View::kTransposed);
  self->WriteView({1, 2, 3, 2, 1, 1});
  auto other = Upload(ACL_FLOAT16, {2}, {1, 2});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceEqTensorGetWorkspaceSize(x.Tensor(*self), x.Tensor(*other), w, e);
      },
      aclnnInplaceEqTensor);
  ExpectExact(self->ReadView(), {1, 1, 0, 1, 1, 0}, "InplaceEqTensor");
}

TEST(EqTensorValues, OtherIsSelfItself) {
  auto self = Upload(ACL_FLOAT, {4}, {1, kNan, -0.0, 3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        aclTensor* t = x.Tensor(*self);
        return aclnnInplaceEqTensorGetWorkspaceSize(t, t, w, e);
      },
      aclnnInplaceEqTensor);
  ExpectExact(self->ReadView(), {1, 0, 1, 1}, "InplaceEqTensor(self, self)");
}

TEST(GtScalarValues, NanInfinitiesAndTheScalarRoundedToSelfDtype) {
  auto a = Upload(ACL_FLOAT, {6}, {0.0, -0.0, kNan, kInf, -kInf, 1e-30});
  auto out = Poisoned(ACL_FLOAT, {6});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnGtScalarGetWorkspaceSize(x.Tensor(*a), x.Scalar(ACL_FLOAT, 0.0), x.Tensor(*out), w, e);
      },
      aclnnGtScalar);
  ExpectExact(out->ReadView(), {0, 0, 0, 1, 0, 1}, "GtScalar > 0 (ggml's step)");

  // FLOAT16(0.1) is 0.0999755859375, greater than the double 0.09997, but not
  // than 0.09997 rounded to FLOAT16 (the same value): the scalar takes self's dtype.
  auto h = Upload(ACL_FLOAT16, {2}, {0.1, 0.2});
  auto hout = Poisoned(ACL_BOOL, {2});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnGtScalarGetWorkspaceSize(x.Tensor(*h), x.Scalar(ACL_DOUBLE, 0.09997), x.Tensor(*hout), w, e);
      },
      aclnnGtScalar);
  ExpectExact(hout->ReadView(), {0, 1}, "GtScalar f16 vs a double that rounds to it");
}

TEST(GtScalarValues, InplaceOnAStridedView) {
  auto self = std::make_unique<DeviceTensor>(ACL_INT32, Shape{2, 3}, View::kStepped);
  self->WriteView({-3, 0, 5, 7, 1, 2});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceGtScalarGetWorkspaceSize(x.Tensor(*self), x.Scalar(ACL_INT64, 1), w, e);
      },
      aclnnInplaceGtScalar);
  ExpectExact(self->ReadView(), {0, 0, 1, 1, 0, 1}, "InplaceGtScalar");
}

// UINT64 values of 2^63 and above are positive: they compare as unsigned
// numbers, not as the negative int64 their bits would be (the engine once
// computed UINT64 in int64, so 2^63 > 5 was false). The values are written as
// raw bytes (above 2^53 they have no exact double).
TEST(GtScalarValues, Uint64FromTwoToThe63OnComparesUnsigned) {
  constexpr uint64_t kTwo63 = uint64_t{1} << 63;
  const std::vector<uint64_t> values = {kTwo63, ~uint64_t{0}, 5, 0, kTwo63 + 1, 6};
  auto bytesOf = [](const std::vector<uint64_t>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(uint64_t));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return bytes;
  };
  auto valuesOf = [](const std::vector<uint8_t>& bytes) {
    std::vector<uint64_t> v(bytes.size() / sizeof(uint64_t));
    std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  };
  auto gt = [&](DeviceTensor& self, uint64_t other, DeviceTensor* out) {
    aclScalar* scalar = aclCreateScalar(&other, ACL_UINT64);
    ExpectRuns(
        [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
          return out != nullptr ? aclnnGtScalarGetWorkspaceSize(x.Tensor(self), scalar, x.Tensor(*out), w, e)
                                : aclnnInplaceGtScalarGetWorkspaceSize(x.Tensor(self), scalar, w, e);
        },
        out != nullptr ? aclnnGtScalar : aclnnInplaceGtScalar);
    aclDestroyScalar(scalar);
  };
  DeviceTensor self(ACL_UINT64, {6});
  self.UploadBytes(bytesOf(values));
  auto out = Poisoned(ACL_BOOL, {6});
  gt(self, 5, out.get());
  ExpectExact(out->ReadView(), {1, 1, 0, 0, 1, 1}, "GtScalar u64 > 5");
  gt(self, kTwo63, out.get());
  ExpectExact(out->ReadView(), {0, 1, 0, 0, 1, 0}, "GtScalar u64 > 2^63");
  gt(self, ~uint64_t{0} - 1, out.get());
  ExpectExact(out->ReadView(), {0, 1, 0, 0, 0, 0}, "GtScalar u64 > 2^64 - 2");
  // In place: the result (1 / 0) written back in UINT64.
  gt(self, 6, nullptr);
  std::vector<uint64_t> result = valuesOf(self.DownloadBytes());
  result.resize(values.size());  // the storage may be longer than the view
  EXPECT_EQ(result, (std::vector<uint64_t>{1, 1, 0, 0, 1, 0})) << "InplaceGtScalar u64 > 6";
}

// ---- clamps ------------------------------------------------------------------------------------------

TEST(ClampValues, NanPropagatesAndMinAboveMaxGivesMax) {
  auto self = Upload(ACL_FLOAT, {5}, {kNan, -5, 0.5, 5, -0.0});
  auto out = Poisoned(ACL_FLOAT, {5});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnClampGetWorkspaceSize(x.Tensor(*self), x.Scalar(ACL_FLOAT, -1), x.Scalar(ACL_FLOAT, 1),
                                          x.Tensor(*out), w, e);
      },
      aclnnClamp);
  ExpectExact(out->ReadView(), {kNan, -1, 0.5, 1, -0.0}, "Clamp [-1, 1]");
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnClampGetWorkspaceSize(x.Tensor(*self), x.Scalar(ACL_FLOAT, 2), x.Scalar(ACL_FLOAT, 1),
                                          x.Tensor(*out), w, e);
      },
      aclnnClamp);
  ExpectExact(out->ReadView(), {kNan, 1, 1, 1, 1}, "Clamp min 2 > max 1");
  // A NaN bound makes every element NaN.
  auto lo = Upload(ACL_FLOAT, {5}, {0, kNan, 0, 0, 0});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnClampMinTensorGetWorkspaceSize(x.Tensor(*self), x.Tensor(*lo), x.Tensor(*out), w, e);
      },
      aclnnClampMinTensor);
  ExpectExact(out->ReadView(), {kNan, kNan, 0.5, 5, 0}, "ClampMinTensor with a NaN bound");
}

TEST(ClampValues, GgmlPatternsF16DataWithF32Bounds) {
  // ggml_cann_clamp: f16 src and dst, FLOAT scalar bounds (rounded to f16: 0.1 -> 0.0999755859375).
  auto self = Upload(ACL_FLOAT16, {4}, {-1, 0.05, 0.5, 2});
  auto out = Poisoned(ACL_FLOAT16, {4});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnClampGetWorkspaceSize(x.Tensor(*self), x.Scalar(ACL_FLOAT, 0.1), x.Scalar(ACL_FLOAT, 1),
                                          x.Tensor(*out), w, e);
      },
      aclnnClamp);
  ExpectExact(out->ReadView(), {HalfToDouble(DoubleToHalf(0.1)), HalfToDouble(DoubleToHalf(0.1)), 0.5, 1}, "Clamp f16");
  // The rope cache's ramp: InplaceClampMax on f32 by 1.
  auto ramp = Upload(ACL_FLOAT, {4}, {0, 0.5, 1.5, 3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceClampMaxGetWorkspaceSize(x.Tensor(*ramp), x.Scalar(ACL_FLOAT, 1), w, e);
      },
      aclnnInplaceClampMax);
  ExpectExact(ramp->ReadView(), {0, 0.5, 1, 1}, "InplaceClampMax");
}

TEST(ClampValues, InplaceTensorBoundIsSelfItself) {
  auto self = Upload(ACL_INT32, {3}, {-4, 0, 9});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        aclTensor* t = x.Tensor(*self);
        return aclnnInplaceClampMinTensorGetWorkspaceSize(t, t, w, e);
      },
      aclnnInplaceClampMinTensor);
  ExpectExact(self->ReadView(), {-4, 0, 9}, "InplaceClampMinTensor(self, self)");
}

// ---- Pow ----------------------------------------------------------------------------------------------

// The dividend's sign, exact integer remainders, INT32_MIN % -1 = 0 and a
// zero integer divisor giving self (CANN leaves it undefined; never a trap).
TEST(FmodValues, IntegerSignsZeroDivisorAndMinByMinusOne) {
  auto self = Upload(ACL_INT32, {6}, {7, -7, 7, -7, 5, -2147483648.0});
  auto other = Upload(ACL_INT32, {6}, {3, 3, -3, -3, 0, -1});
  auto out = Poisoned(ACL_INT32, {6});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnFmodTensorGetWorkspaceSize(x.Tensor(*self), x.Tensor(*other), x.Tensor(*out), w, e);
      },
      aclnnFmodTensor);
  ExpectExact(out->ReadView(), {1, -1, 1, -1, 5, 0}, "FmodTensor s32");
}

TEST(FmodValues, FloatSpecialValues) {
  auto self = Upload(ACL_FLOAT, {6}, {5.5, -5.5, 1, kInf, kNan, -0.0});
  auto out = Poisoned(ACL_FLOAT, {6});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnFmodScalarGetWorkspaceSize(x.Tensor(*self), x.Scalar(ACL_FLOAT, -2), x.Tensor(*out), w, e);
      },
      aclnnFmodScalar);
  ExpectExact(out->ReadView(), {1.5, -1.5, 1, kNan, kNan, -0.0}, "FmodScalar f32");
  auto zero = Poisoned(ACL_FLOAT, {6});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnFmodScalarGetWorkspaceSize(x.Tensor(*self), x.Scalar(ACL_FLOAT, 0), x.Tensor(*zero), w, e);
      },
      aclnnFmodScalar);
  ExpectExact(zero->ReadView(), {kNan, kNan, kNan, kNan, kNan, kNan}, "FmodScalar by 0");
}

// Bool operands give the logical result; negative integers use all their bits.
TEST(BitwiseValues, BoolIsLogicalAndSignedBitsAreExact) {
  auto a = Upload(ACL_BOOL, {4}, {0, 1, 0, 1});
  auto b = Upload(ACL_BOOL, {4}, {0, 0, 1, 1});
  auto out = Poisoned(ACL_BOOL, {4});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnBitwiseXorTensorGetWorkspaceSize(x.Tensor(*a), x.Tensor(*b), x.Tensor(*out), w, e);
      },
      aclnnBitwiseXorTensor);
  ExpectExact(out->ReadView(), {0, 1, 1, 0}, "BitwiseXorTensor bool");
  auto s = Upload(ACL_INT64, {3}, {-1, -8, 0x7fff0000});
  auto t = Upload(ACL_INT64, {3}, {0x1234, 7, -65536});
  auto res = Poisoned(ACL_INT64, {3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnBitwiseAndTensorGetWorkspaceSize(x.Tensor(*s), x.Tensor(*t), x.Tensor(*res), w, e);
      },
      aclnnBitwiseAndTensor);
  ExpectExact(res->ReadView(), {0x1234, 0, 0x7fff0000}, "BitwiseAndTensor s64");
}

TEST(PowValues, IntegerPowersAreExactWrapAndTakeNegativeExponentsAsTorch) {
  auto base = Upload(ACL_INT32, {7}, {2, 3, 1, -1, -1, 5, 0});
  auto exponent = Upload(ACL_INT32, {7}, {31, 21, -7, -3, -2, -1, 0});
  auto out = Poisoned(ACL_INT32, {7});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnPowTensorTensorGetWorkspaceSize(x.Tensor(*base), x.Tensor(*exponent), x.Tensor(*out), w, e);
      },
      aclnnPowTensorTensor);
  // 2^31 wraps to INT32_MIN, 3^21 = 10460353203 wraps to 1870418611; 1 / base truncated otherwise.
  ExpectExact(out->ReadView(), {-2147483648.0, 1870418611.0, 1, -1, 1, 0, 1}, "PowTensorTensor s32");
}

TEST(PowValues, SpecialFloatValues) {
  auto base = Upload(ACL_FLOAT, {5}, {0, kNan, -8, kInf, 2});
  auto exponent = Upload(ACL_FLOAT, {5}, {0, 0, 1.0 / 3, -1, 0.5});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplacePowTensorTensorGetWorkspaceSize(x.Tensor(*base), x.Tensor(*exponent), w, e);
      },
      aclnnInplacePowTensorTensor);
  ExpectExact(base->ReadView(), {1, 1, kNan, 0, static_cast<double>(std::sqrt(2.0f))},
              "InplacePowTensorTensor (ggml's alibi)");
}

TEST(PowValues, GgmlSlopesScalarBaseF16Exponents) {
  // aclnn_get_slope_inner: a FLOAT base m raised to an arange in the slope dtype (f16 here): computed in f16.
  auto exponent = Upload(ACL_FLOAT16, {4}, {1, 2, 3, 4});
  auto out = Poisoned(ACL_FLOAT16, {4});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnPowScalarTensorGetWorkspaceSize(x.Scalar(ACL_FLOAT, 0.5), x.Tensor(*exponent), x.Tensor(*out), w,
                                                    e);
      },
      aclnnPowScalarTensor);
  ExpectExact(out->ReadView(), {0.5, 0.25, 0.125, 0.0625}, "PowScalarTensor");
}

TEST(PowValues, HalfResultIsRoundedBeforeAWiderOut) {
  // f16 ^ f16 into f32: the result is rounded to f16 first, as CANN computes in f16 and casts.
  auto base = Upload(ACL_FLOAT16, {1}, {3});
  auto exponent = Upload(ACL_FLOAT16, {1}, {0.5});
  auto out = Poisoned(ACL_FLOAT, {1});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnPowTensorTensorGetWorkspaceSize(x.Tensor(*base), x.Tensor(*exponent), x.Tensor(*out), w, e);
      },
      aclnnPowTensorTensor);
  ExpectExact(out->ReadView(), {HalfToDouble(DoubleToHalf(std::sqrt(3.0)))}, "PowTensorTensor f16 into f32");
}

// ---- MaskedFill, Addcdiv -------------------------------------------------------------------------------

TEST(MaskedFillValues, BroadcastMaskAndANanValue) {
  auto self = Upload(ACL_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto mask = Upload(ACL_BOOL, {3}, {1, 0, 1});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.Tensor(*self), x.Tensor(*mask), x.Scalar(ACL_FLOAT, kNan),
                                                            w, e);
      },
      aclnnInplaceMaskedFillScalar);
  ExpectExact(self->ReadView(), {kNan, 2, kNan, kNan, 5, kNan}, "InplaceMaskedFillScalar");
}

// CANN's host code converts a value of any dtype to selfRef's, as a cast (its unit tests: INT32, INT8 and
// BOOL tensors filled from FLOAT and integer scalars).
TEST(MaskedFillValues, ValueOfAnyDtypeIsCastToSelf) {
  struct Case {
    aclDataType self, value;
    double fill, want;
  };
  for (const Case& c : std::vector<Case>{{ACL_INT32, ACL_FLOAT, 8.88888, 8},
                                         {ACL_INT8, ACL_FLOAT, -3.7, -3},
                                         {ACL_BOOL, ACL_INT64, 0, 0},
                                         {ACL_BOOL, ACL_INT32, 5, 1},
                                         {ACL_FLOAT, ACL_DOUBLE, 0.1, static_cast<float>(0.1)}}) {
    auto self = Upload(c.self, {2, 2}, {1, 1, 1, 1});
    auto mask = Upload(ACL_BOOL, {2, 2}, {1, 0, 0, 1});
    ExpectRuns(
        [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
          return aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.Tensor(*self), x.Tensor(*mask),
                                                              x.Scalar(c.value, c.fill), w, e);
        },
        aclnnInplaceMaskedFillScalar);
    ExpectExact(self->ReadView(), {c.want, 1, 1, c.want}, std::string(Name(c.self)) + " from " + Name(c.value));
  }
}

TEST(AddcdivValues, Int64DividesTrulyAndTruncatesFloatsDivideByZero) {
  auto self = Upload(ACL_INT64, {3}, {10, -10, 1});
  auto t1 = Upload(ACL_INT64, {3}, {7, 7, 1});
  auto t2 = Upload(ACL_INT64, {3}, {2, 2, 3});
  auto out = Poisoned(ACL_INT64, {3});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddcdivGetWorkspaceSize(x.Tensor(*self), x.Tensor(*t1), x.Tensor(*t2), x.Scalar(ACL_INT64, 3),
                                            x.Tensor(*out), w, e);
      },
      aclnnAddcdiv);
  // 10 + 3 * 3.5 = 20.5, -10 + 10.5 = 0.5, 1 + 1 = 2: truncated.
  ExpectExact(out->ReadView(), {20, 0, 2}, "Addcdiv s64");

  auto f = Upload(ACL_FLOAT, {3}, {1, 1, 1});
  auto num = Upload(ACL_FLOAT, {3}, {1, -1, 0});
  auto zero = Upload(ACL_FLOAT, {1}, {0});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnInplaceAddcdivGetWorkspaceSize(x.Tensor(*f), x.Tensor(*num), x.Tensor(*zero),
                                                   x.Scalar(ACL_FLOAT, 1), w, e);
      },
      aclnnInplaceAddcdiv);
  ExpectExact(f->ReadView(), {kInf, -kInf, kNan}, "InplaceAddcdiv by zero");
}

// ---- Sum ----------------------------------------------------------------------------------------------

void RunSum(const std::vector<const DeviceTensor*>& tensors, const DeviceTensor& out) {
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        std::vector<aclTensor*> list;
        for (const DeviceTensor* t : tensors) list.push_back(x.Tensor(*t));
        return aclnnSumGetWorkspaceSize(x.TensorList(list), x.Tensor(out), w, e);
      },
      aclnnSum);
}

TEST(SumValues, EveryDtypeBroadcastAndStridedAgainstFloat64) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_UINT8}) {
    SCOPED_TRACE(Name(dtype));
    const Range range = IsUnsigned(dtype) ? Range{0, 60} : Range{-40, 40};
    DeviceTensor a(dtype, {4, 5}, View::kTransposed), b(dtype, {5}), c(dtype, {4, 1}, View::kStepped);
    DeviceTensor out(dtype, {4, 5}, View::kStepped);
    const Values va = a.FillRandom(rng, range), vb = b.FillRandom(rng, range), vc = c.FillRandom(rng, range);
    out.Poison();
    RunSum({&a, &b, &c}, out);
    Expected want;
    for (int64_t i = 0; i < 20; ++i) {
      const double sum = va[i].real() + vb[i % 5].real() + vc[i / 5].real();
      // f16 adds in f32 and rounds once; integers wrap into out's width (s8: +-120 can wrap).
      want.values.push_back(
          IsIntegral(dtype)
              ? Value(static_cast<double>(dtype == ACL_INT8    ? static_cast<int8_t>(static_cast<int64_t>(sum))
                                          : dtype == ACL_UINT8 ? static_cast<uint8_t>(static_cast<int64_t>(sum))
                                                               : static_cast<int32_t>(static_cast<int64_t>(sum))))
              : ConvertValue(sum, dtype));
      // Two f32 additions, then one rounding to out: relative to the terms, not the (cancelled) sum.
      const double terms = std::abs(va[i].real()) + std::abs(vb[i % 5].real()) + std::abs(vc[i / 5].real());
      want.tolerance.push_back(IsIntegral(dtype) ? 0 : 2 * 0x1p-24 * terms + UnitRoundoff(dtype) * std::abs(sum));
    }
    ExpectNear(out.ReadView(), want, "Sum");
  }
}

TEST(SumValues, OneTensorAndOutAliasingAnInput) {
  auto a = Upload(ACL_FLOAT, {3}, {1, 2, 3});
  auto b = Upload(ACL_FLOAT, {3}, {10, 20, 30});
  auto out = Poisoned(ACL_FLOAT, {3});
  RunSum({a.get()}, *out);
  ExpectExact(out->ReadView(), {1, 2, 3}, "Sum of one tensor");
  // out is the last input: its values before the op are what is added.
  RunSum({a.get(), a.get(), b.get()}, *b);
  ExpectExact(b->ReadView(), {12, 24, 36}, "Sum into its own input");
}

// ---- rejections ---------------------------------------------------------------------------------

using Rejection = RejectionCase;

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR;

std::vector<Rejection> Rejections() {
  const Shape m = {2, 3};
  return {
      // EqTensor: A2 takes no unsigned 16 / 32 / 64 bit dtypes.
      {"EqTensor_self_u32",
       [=](A& a, W w, E e) {
         return aclnnEqTensorGetWorkspaceSize(a.NewTensor(ACL_UINT32, m), a.NewTensor(ACL_INT32, m),
                                              a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnEqTensor, "self", kInvalid},
      {"EqTensor_out_u16",
       [=](A& a, W w, E e) {
         return aclnnEqTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.NewTensor(ACL_INT32, m),
                                              a.NewTensor(ACL_UINT16, m), w, e);
       },
       aclnnEqTensor, "out", kInvalid},
      {"EqTensor_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnEqTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {4}),
                                              a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnEqTensor, "other", kInvalid},
      {"EqTensor_out_shape",
       [=](A& a, W w, E e) {
         return aclnnEqTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {3}),
                                              a.NewTensor(ACL_BOOL, {3}), w, e);
       },
       aclnnEqTensor, "out", kInvalid},
      {"EqTensor_rank9",
       [=](A& a, W w, E e) {
         const Shape r9(9, 1);
         return aclnnEqTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, r9), a.NewTensor(ACL_FLOAT, r9),
                                              a.NewTensor(ACL_BOOL, r9), w, e);
       },
       aclnnEqTensor, "self", kInvalid},
      {"EqTensor_null_other",
       [=](A& a, W w, E e) {
         return aclnnEqTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnEqTensor, "other", kNull},
      {"InplaceEqTensor_broadcast_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceEqTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnInplaceEqTensor, "selfRef", kInvalid},
      {"InplaceEqTensor_one_empty",
       [=](A& a, W w, E e) {
         return aclnnInplaceEqTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {0, 3}), a.NewTensor(ACL_FLOAT, {1, 3}), w,
                                                     e);
       },
       aclnnInplaceEqTensor, "empty", kInvalid},
      {"InplaceEqTensor_other_u64",
       [=](A& a, W w, E e) {
         return aclnnInplaceEqTensorGetWorkspaceSize(a.NewTensor(ACL_INT64, m), a.NewTensor(ACL_UINT64, m), w, e);
       },
       aclnnInplaceEqTensor, "other", kInvalid},
      // GtScalar: no complex self or scalar.
      {"GtScalar_self_c64",
       [=](A& a, W w, E e) {
         return aclnnGtScalarGetWorkspaceSize(a.NewTensor(ACL_COMPLEX64, m), a.Scalar(ACL_FLOAT, 0),
                                              a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnGtScalar, "self", kInvalid},
      {"GtScalar_scalar_c64",
       [=](A& a, W w, E e) {
         return aclnnGtScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_COMPLEX64, 0),
                                              a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnGtScalar, "other", kInvalid},
      {"GtScalar_out_shape",
       [=](A& a, W w, E e) {
         return aclnnGtScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 0),
                                              a.NewTensor(ACL_BOOL, {3, 2}), w, e);
       },
       aclnnGtScalar, "out", kInvalid},
      {"GtScalar_null_scalar",
       [=](A& a, W w, E e) {
         return aclnnGtScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnGtScalar, "other", kNull},
      {"InplaceGtScalar_self_c128",
       [=](A& a, W w, E e) {
         return aclnnInplaceGtScalarGetWorkspaceSize(a.NewTensor(ACL_COMPLEX128, m), a.Scalar(ACL_FLOAT, 0), w, e);
       },
       aclnnInplaceGtScalar, "selfRef", kInvalid},
      // Clamp family: no BOOL self, both bounds null is a null pointer, promoted results must fit out.
      {"Clamp_no_bounds",
       [=](A& a, W w, E e) {
         return aclnnClampGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, nullptr, a.NewTensor(ACL_FLOAT, m), w,
                                           e);
       },
       aclnnClamp, "clipValueMin", kNull},
      {"ClampTensor_no_bounds",
       [=](A& a, W w, E e) {
         return aclnnClampTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, nullptr, a.NewTensor(ACL_FLOAT, m),
                                                 w, e);
       },
       aclnnClampTensor, "clipValueMax", kNull},
      {"Clamp_self_bool",
       [=](A& a, W w, E e) {
         return aclnnClampGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.Scalar(ACL_BOOL, 0), nullptr,
                                           a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnClamp, "self", kInvalid},
      {"Clamp_bound_c64",
       [=](A& a, W w, E e) {
         return aclnnClampGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, a.Scalar(ACL_COMPLEX64, 1),
                                           a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnClamp, "clipValueMax", kInvalid},
      {"Clamp_float_bound_into_int_out",
       [=](A& a, W w, E e) {
         return aclnnClampGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.Scalar(ACL_FLOAT, 0.5), nullptr,
                                           a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnClamp, "out", kInvalid},
      {"Clamp_out_shape",
       [=](A& a, W w, E e) {
         return aclnnClampGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 0), nullptr,
                                           a.NewTensor(ACL_FLOAT, {3, 2}), w, e);
       },
       aclnnClamp, "out", kInvalid},
      {"ClampMin_null_bound",
       [=](A& a, W w, E e) {
         return aclnnClampMinGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnClampMin, "clipValueMin", kNull},
      {"ClampMax_out_u16",
       [=](A& a, W w, E e) {
         return aclnnClampMaxGetWorkspaceSize(a.NewTensor(ACL_UINT8, m), a.Scalar(ACL_INT32, 1),
                                              a.NewTensor(ACL_UINT16, m), w, e);
       },
       aclnnClampMax, "out", kInvalid},
      {"InplaceClampMax_self_bool",
       [=](A& a, W w, E e) {
         return aclnnInplaceClampMaxGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.Scalar(ACL_BOOL, 1), w, e);
       },
       aclnnInplaceClampMax, "selfRef", kInvalid},
      {"InplaceClampMax_float_bound_into_int",
       [=](A& a, W w, E e) {
         return aclnnInplaceClampMaxGetWorkspaceSize(a.NewTensor(ACL_INT64, m), a.Scalar(ACL_FLOAT, 1.5), w, e);
       },
       aclnnInplaceClampMax, "selfRef", kInvalid},
      {"ClampTensor_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnClampTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {2}), nullptr,
                                                 a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnClampTensor, "clipValueMin", kInvalid},
      {"ClampTensor_out_shape",
       [=](A& a, W w, E e) {
         return aclnnClampTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), nullptr, a.NewTensor(ACL_FLOAT, m),
                                                 a.NewTensor(ACL_FLOAT, {3}), w, e);
       },
       aclnnClampTensor, "out", kInvalid},
      {"ClampMinTensor_bound_c64",
       [=](A& a, W w, E e) {
         return aclnnClampMinTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_COMPLEX64, m),
                                                    a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnClampMinTensor, "clipValueMin", kInvalid},
      {"InplaceClampMinTensor_broadcast_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceClampMinTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m), w,
                                                           e);
       },
       aclnnInplaceClampMinTensor, "selfRef", kInvalid},
      {"ClampMaxTensor_promoted_into_int_out",
       [=](A& a, W w, E e) {
         return aclnnClampMaxTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.NewTensor(ACL_FLOAT, m),
                                                    a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnClampMaxTensor, "out", kInvalid},
      {"InplaceClampMaxTensor_self_bool",
       [=](A& a, W w, E e) {
         return aclnnInplaceClampMaxTensorGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnInplaceClampMaxTensor, "selfRef", kInvalid},
      // Pow: integer math takes no negative or out-of-range scalar exponent; not both BOOL.
      {"PowTensorScalar_negative_integer_exponent",
       [=](A& a, W w, E e) {
         return aclnnPowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.Scalar(ACL_INT32, -1),
                                                     a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnPowTensorScalar, "exponent", kInvalid},
      {"PowTensorScalar_exponent_beyond_s8",
       [=](A& a, W w, E e) {
         return aclnnPowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_INT8, m), a.Scalar(ACL_INT32, 300),
                                                     a.NewTensor(ACL_INT8, m), w, e);
       },
       aclnnPowTensorScalar, "exponent", kInvalid},
      {"PowTensorScalar_both_bool",
       [=](A& a, W w, E e) {
         return aclnnPowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.Scalar(ACL_BOOL, 1),
                                                     a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnPowTensorScalar, "BOOL", kInvalid},
      {"PowTensorScalar_float_into_int_out",
       [=](A& a, W w, E e) {
         return aclnnPowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.Scalar(ACL_FLOAT, 0.5),
                                                     a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnPowTensorScalar, "out", kInvalid},
      {"PowTensorScalar_self_u16",
       [=](A& a, W w, E e) {
         return aclnnPowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_UINT16, m), a.Scalar(ACL_FLOAT, 2),
                                                     a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnPowTensorScalar, "self", kInvalid},
      {"PowTensorScalar_out_shape",
       [=](A& a, W w, E e) {
         return aclnnPowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 2),
                                                     a.NewTensor(ACL_FLOAT, {6}), w, e);
       },
       aclnnPowTensorScalar, "out", kInvalid},
      {"InplacePowTensorScalar_self_bool",
       [=](A& a, W w, E e) {
         return aclnnInplacePowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.Scalar(ACL_INT32, 2), w, e);
       },
       aclnnInplacePowTensorScalar, "selfRef", kInvalid},
      {"InplacePowTensorScalar_float_into_int",
       [=](A& a, W w, E e) {
         return aclnnInplacePowTensorScalarGetWorkspaceSize(a.NewTensor(ACL_INT64, m), a.Scalar(ACL_FLOAT, 2), w, e);
       },
       aclnnInplacePowTensorScalar, "selfRef", kInvalid},
      {"PowTensorTensor_both_bool",
       [=](A& a, W w, E e) {
         return aclnnPowTensorTensorGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.NewTensor(ACL_BOOL, m),
                                                     a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnPowTensorTensor, "BOOL", kInvalid},
      {"PowTensorTensor_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnPowTensorTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {2}),
                                                     a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnPowTensorTensor, "exponent", kInvalid},
      {"PowTensorTensor_complex_into_real_out",
       [=](A& a, W w, E e) {
         return aclnnPowTensorTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_COMPLEX64, m),
                                                     a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnPowTensorTensor, "out", kInvalid},
      {"InplacePowTensorTensor_broadcast_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplacePowTensorTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m), w,
                                                            e);
       },
       aclnnInplacePowTensorTensor, "selfRef", kInvalid},
      {"InplacePowTensorTensor_exponent_bool",
       [=](A& a, W w, E e) {
         return aclnnInplacePowTensorTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnInplacePowTensorTensor, "exponent", kInvalid},
      {"PowScalarTensor_out_shape",
       [=](A& a, W w, E e) {
         return aclnnPowScalarTensorGetWorkspaceSize(a.Scalar(ACL_FLOAT, 2), a.NewTensor(ACL_FLOAT, m),
                                                     a.NewTensor(ACL_FLOAT, {3}), w, e);
       },
       aclnnPowScalarTensor, "out", kInvalid},
      {"PowScalarTensor_exponent_bool",
       [=](A& a, W w, E e) {
         return aclnnPowScalarTensorGetWorkspaceSize(a.Scalar(ACL_FLOAT, 2), a.NewTensor(ACL_BOOL, m),
                                                     a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnPowScalarTensor, "exponent", kInvalid},
      {"PowScalarTensor_base_bool",
       [=](A& a, W w, E e) {
         return aclnnPowScalarTensorGetWorkspaceSize(a.Scalar(ACL_BOOL, 1), a.NewTensor(ACL_FLOAT, m),
                                                     a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnPowScalarTensor, "self", kInvalid},
      {"PowScalarTensor_null_base",
       [=](A& a, W w, E e) {
         return aclnnPowScalarTensorGetWorkspaceSize(nullptr, a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, m), w,
                                                     e);
       },
       aclnnPowScalarTensor, "self", kNull},
      // InplaceMaskedFillScalar: bool mask broadcast into selfRef (value of any dtype: MaskedFillValues).
      {"InplaceMaskedFillScalar_mask_not_bool",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_INT8, m),
                                                             a.Scalar(ACL_FLOAT, 0), w, e);
       },
       aclnnInplaceMaskedFillScalar, "mask", kInvalid},
      {"InplaceMaskedFillScalar_self_f64",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillScalarGetWorkspaceSize(a.NewTensor(ACL_DOUBLE, m), a.NewTensor(ACL_BOOL, m),
                                                             a.Scalar(ACL_FLOAT, 0), w, e);
       },
       aclnnInplaceMaskedFillScalar, "selfRef", kInvalid},
      {"InplaceMaskedFillScalar_mask_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_BOOL, m),
                                                             a.Scalar(ACL_FLOAT, 0), w, e);
       },
       aclnnInplaceMaskedFillScalar, "selfRef", kInvalid},
      {"InplaceMaskedFillScalar_null_mask",
       [=](A& a, W w, E e) {
         return aclnnInplaceMaskedFillScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), nullptr, a.Scalar(ACL_FLOAT, 0),
                                                             w, e);
       },
       aclnnInplaceMaskedFillScalar, "mask", kNull},
      // Addcdiv: the five dtypes, value castable to the promoted dtype, shapes broadcast.
      {"Addcdiv_tensor2_s32",
       [=](A& a, W w, E e) {
         return aclnnAddcdivGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, m),
                                             a.NewTensor(ACL_INT32, m), a.Scalar(ACL_FLOAT, 1),
                                             a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnAddcdiv, "tensor2", kInvalid},
      {"Addcdiv_float_value_on_int64",
       [=](A& a, W w, E e) {
         return aclnnAddcdivGetWorkspaceSize(a.NewTensor(ACL_INT64, m), a.NewTensor(ACL_INT64, m),
                                             a.NewTensor(ACL_INT64, m), a.Scalar(ACL_FLOAT, 0.5),
                                             a.NewTensor(ACL_INT64, m), w, e);
       },
       aclnnAddcdiv, "value", kInvalid},
      {"Addcdiv_promoted_into_int_out",
       [=](A& a, W w, E e) {
         return aclnnAddcdivGetWorkspaceSize(a.NewTensor(ACL_INT64, m), a.NewTensor(ACL_FLOAT, m),
                                             a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 1),
                                             a.NewTensor(ACL_INT64, m), w, e);
       },
       aclnnAddcdiv, "out", kInvalid},
      {"Addcdiv_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnAddcdivGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {2}),
                                             a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 1),
                                             a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnAddcdiv, "tensor1", kInvalid},
      {"Addcdiv_out_shape",
       [=](A& a, W w, E e) {
         return aclnnAddcdivGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m),
                                             a.NewTensor(ACL_FLOAT, {3}), a.Scalar(ACL_FLOAT, 1),
                                             a.NewTensor(ACL_FLOAT, {3}), w, e);
       },
       aclnnAddcdiv, "out", kInvalid},
      {"InplaceAddcdiv_broadcast_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceAddcdivGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m),
                                                    a.NewTensor(ACL_FLOAT, {3}), a.Scalar(ACL_FLOAT, 1), w, e);
       },
       aclnnInplaceAddcdiv, "selfRef", kInvalid},
      {"InplaceAddcdiv_null_value",
       [=](A& a, W w, E e) {
         return aclnnInplaceAddcdivGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, m),
                                                    a.NewTensor(ACL_FLOAT, m), nullptr, w, e);
       },
       aclnnInplaceAddcdiv, "value", kNull},
      // Sum: tensors of out's dtype, one of five, broadcast to out's shape.
      {"Sum_dtype_mismatch",
       [=](A& a, W w, E e) {
         return aclnnSumGetWorkspaceSize(a.TensorList({a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT16, m)}),
                                         a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnSum, "tensors[1]", kInvalid},
      {"Sum_dtype_bf16",
       [=](A& a, W w, E e) {
         return aclnnSumGetWorkspaceSize(a.TensorList({a.NewTensor(ACL_BF16, m), a.NewTensor(ACL_BF16, m)}),
                                         a.NewTensor(ACL_BF16, m), w, e);
       },
       aclnnSum, "out", kInvalid},
      {"Sum_tensor_grows_out",
       [=](A& a, W w, E e) {
         return aclnnSumGetWorkspaceSize(a.TensorList({a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m)}),
                                         a.NewTensor(ACL_FLOAT, {3}), w, e);
       },
       aclnnSum, "tensors[1]", kInvalid},
      {"Sum_empty_list",
       [=](A& a, W w, E e) { return aclnnSumGetWorkspaceSize(a.TensorList({}), a.NewTensor(ACL_FLOAT, m), w, e); },
       aclnnSum, "tensors", kInvalid},
      {"Sum_null_out",
       [=](A& a, W w, E e) {
         return aclnnSumGetWorkspaceSize(a.TensorList({a.NewTensor(ACL_FLOAT, m)}), nullptr, w, e);
       },
       aclnnSum, "out", kNull},
      {"FmodTensor_self_s16",
       [=](A& a, W w, E e) {
         return aclnnFmodTensorGetWorkspaceSize(a.NewTensor(ACL_INT16, m), a.NewTensor(ACL_INT32, m),
                                                a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnFmodTensor, "self", kInvalid},
      {"FmodTensor_other_bool",
       [=](A& a, W w, E e) {
         return aclnnFmodTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_BOOL, m),
                                                a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnFmodTensor, "other", kInvalid},
      {"FmodTensor_float_into_s32",
       [=](A& a, W w, E e) {
         return aclnnFmodTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.NewTensor(ACL_FLOAT, m),
                                                a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnFmodTensor, "out", kInvalid},
      {"FmodTensor_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnFmodTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {4}),
                                                a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnFmodTensor, "other", kInvalid},
      {"InplaceFmodTensor_broadcast_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceFmodTensorGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnInplaceFmodTensor, "selfRef", kInvalid},
      {"FmodScalar_scalar_c64",
       [=](A& a, W w, E e) {
         return aclnnFmodScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_COMPLEX64, 1),
                                                a.NewTensor(ACL_FLOAT, m), w, e);
       },
       aclnnFmodScalar, "other", kInvalid},
      {"FmodScalar_out_shape",
       [=](A& a, W w, E e) {
         return aclnnFmodScalarGetWorkspaceSize(a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 1),
                                                a.NewTensor(ACL_FLOAT, {3, 2}), w, e);
       },
       aclnnFmodScalar, "out", kInvalid},
      {"InplaceFmodScalar_float_scalar_into_s32",
       [=](A& a, W w, E e) {
         return aclnnInplaceFmodScalarGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.Scalar(ACL_FLOAT, 1.5), w, e);
       },
       aclnnInplaceFmodScalar, "selfRef", kInvalid},
      {"BitwiseAndTensor_self_u32",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorGetWorkspaceSize(a.NewTensor(ACL_UINT32, m), a.NewTensor(ACL_INT32, m),
                                                      a.NewTensor(ACL_INT64, m), w, e);
       },
       aclnnBitwiseAndTensor, "self", kInvalid},
      {"BitwiseAndTensor_other_f32",
       [=](A& a, W w, E e) {
         return aclnnBitwiseAndTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.NewTensor(ACL_FLOAT, m),
                                                      a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnBitwiseAndTensor, "other", kInvalid},
      {"BitwiseOrTensor_result_into_bool",  // out takes any dtype the result casts to (CANN's host code)
       [=](A& a, W w, E e) {
         return aclnnBitwiseOrTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.NewTensor(ACL_INT32, m),
                                                     a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnBitwiseOrTensor, "out", kInvalid},
      {"BitwiseXorTensor_result_into_bool",
       [=](A& a, W w, E e) {
         return aclnnBitwiseXorTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, m), a.NewTensor(ACL_INT32, m),
                                                      a.NewTensor(ACL_BOOL, m), w, e);
       },
       aclnnBitwiseXorTensor, "out", kInvalid},
      {"InplaceBitwiseOrTensor_broadcast_grows_self",
       [=](A& a, W w, E e) {
         return aclnnInplaceBitwiseOrTensorGetWorkspaceSize(a.NewTensor(ACL_INT32, {3}), a.NewTensor(ACL_INT32, m), w,
                                                            e);
       },
       aclnnInplaceBitwiseOrTensor, "selfRef", kInvalid},
      {"InplaceBitwiseXorTensor_s32_into_bool",
       [=](A& a, W w, E e) {
         return aclnnInplaceBitwiseXorTensorGetWorkspaceSize(a.NewTensor(ACL_BOOL, m), a.NewTensor(ACL_INT32, m), w, e);
       },
       aclnnInplaceBitwiseXorTensor, "selfRef", kInvalid},
  };
}

class BinaryPointwiseRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(BinaryPointwiseRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, BinaryPointwiseRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
