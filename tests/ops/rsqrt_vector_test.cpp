// Rsqrt's AVX-512 kernel (kernels/unary_math_functors.h: vrsqrt14's estimate
// and one Newton step; AVX2 and the portable path divide after the root):
// zero, -0, +inf, negative values, NaN and subnormals exactly as 1 / sqrt(x),
// and every other f32 within the documented bound (unary_accuracy.h kRsqrt
// units of 2^-24) of the float64 value over the whole exponent range, with
// vector tails; fp16 / bf16 within that plus their own rounding, for every
// fp16 and bf16 value. Sqrt of every fp16 / bf16 value is the correctly
// rounded root bit for bit (the 16-bit kernel of unary_avx512_loops.h rounds
// a Newton step to odd instead of taking vsqrtps), and Abs and Neg of every
// value are exact (the 32-element blocks' widening and rounding, bf16's
// subnormals and NaN included).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../../src/kernels/unary_accuracy.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sqrt.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Values RunRsqrt(aclDataType dtype, const Values& input) {
  const Shape shape{static_cast<int64_t>(input.size())};
  auto self = Upload(dtype, shape, input);
  auto out = Poisoned(dtype, shape);
  ExpectRuns([&](OpArgs& x, uint64_t* w,
                 aclOpExecutor** e) { return aclnnRsqrtGetWorkspaceSize(x.Tensor(*self), x.Tensor(*out), w, e); },
             aclnnRsqrt);
  return out->ReadView();
}

TEST(RsqrtVector, SpecialValuesExactly) {
  const float subnormal = std::numeric_limits<float>::denorm_min();
  const Values input = {0.0, -0.0, kInf, -kInf, kNan, -1.0, -1e-30, 1.0, 4.0, 0.25, subnormal, 1e-39, 3.4e38};
  const Values got = RunRsqrt(ACL_FLOAT, input);
  for (size_t i = 0; i < input.size(); ++i) {
    const float x = static_cast<float>(input[i].real());
    const double want = 1 / std::sqrt(static_cast<double>(x));
    const double value = got[i].real();
    SCOPED_TRACE("rsqrt(" + std::to_string(x) + ")");
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(value)) << value;
    } else if (std::isinf(want) || want == 0) {  // +-inf for +-0, 0 for +inf
      EXPECT_EQ(value, want);
      EXPECT_EQ(std::signbit(value), std::signbit(want));
    } else {
      EXPECT_LE(std::abs(value - want), canopy::kernels::unary_accuracy::kRsqrt * std::ldexp(std::abs(want), -24))
          << value << " want " << want;
    }
  }
}

// Values spread over every binade of f32 (subnormals included), lengths with tails.
TEST(RsqrtVector, EveryBinadeWithinBound) {
  Rng rng = Rng::ForCurrentTest();
  for (int64_t n : {1, 15, 17, 40001}) {
    SCOPED_TRACE(n);
    Values input(n);
    for (int64_t i = 0; i < n; ++i) {
      const double exponent = rng.Uniform(-149, 127.9);
      input[i] = static_cast<double>(static_cast<float>(std::exp2(exponent)));
      if (input[i].real() == 0) input[i] = 1e-45;
    }
    const Values got = RunRsqrt(ACL_FLOAT, input);
    int reported = 0;
    for (int64_t i = 0; i < n && reported < 5; ++i) {
      const double want = 1 / std::sqrt(input[i].real());
      const double bound = canopy::kernels::unary_accuracy::kRsqrt * std::ldexp(want, -24);
      if (!(std::abs(got[i].real() - want) <= bound)) {
        ADD_FAILURE() << "rsqrt(" << input[i].real() << ") = " << got[i].real() << ", want " << want;
        ++reported;
      }
    }
  }
}

// 16-bit storage: the f32 result rounded once more (half a unit of the dtype on top).
TEST(RsqrtVector, SixteenBitStorage) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(Name(dtype));
    const int64_t n = 4097;
    const Values input = RandomValues(rng, dtype, n, Range{.lo = 0.001, .hi = 1000});
    const Values got = RunRsqrt(dtype, input);
    for (int64_t i = 0; i < n; ++i) {
      const double want = 1 / std::sqrt(input[i].real());
      const double bound =
          (UnitRoundoff(dtype) + canopy::kernels::unary_accuracy::kRsqrt * std::ldexp(1.0, -24)) * std::abs(want);
      ASSERT_LE(std::abs(got[i].real() - want), bound) << "rsqrt(" << input[i].real() << ")";
    }
  }
}

// (self, out) ops: aclnnSqrt, aclnnAbs, aclnnNeg.
using GetWorkspace = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using Execute = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

Values RunSelfOut(GetWorkspace phase1, Execute phase2, aclDataType dtype, const Values& input) {
  const Shape shape{static_cast<int64_t>(input.size())};
  auto self = Upload(dtype, shape, input);
  auto out = Poisoned(dtype, shape);
  ExpectRuns([&](OpArgs& x, uint64_t* w, aclOpExecutor** e) { return phase1(x.Tensor(*self), x.Tensor(*out), w, e); },
             phase2);
  return out->ReadView();
}

// Five ordinary values, then every bit pattern of the dtype: the 32-element
// blocks straddle the ends of the subnormal and NaN ranges, and a tail of 5 remains.
Values EveryValue(aclDataType dtype) {
  Values values = {1.0, -2.5, 0.375, 3.0, -0.125};
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const auto b = static_cast<uint16_t>(bits);
    values.emplace_back(dtype == ACL_FLOAT16 ? HalfToDouble(b) : Bf16ToDouble(b));
  }
  return values;
}

double RoundTo(aclDataType dtype, double value) {
  return dtype == ACL_FLOAT16 ? HalfToDouble(DoubleToHalf(value)) : Bf16ToDouble(DoubleToBf16(value));
}

// got is want exactly: the same value and sign, or both NaN.
bool SameValue(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

TEST(SixteenBitKernels, SqrtOfEveryValueCorrectlyRounded) {
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(Name(dtype));
    const Values input = EveryValue(dtype);
    const Values got = RunSelfOut(aclnnSqrtGetWorkspaceSize, aclnnSqrt, dtype, input);
    int reported = 0;
    for (size_t i = 0; i < input.size() && reported < 5; ++i) {
      // The float64 root rounded once to the dtype is the correctly rounded root (53 >= 2 p + 2).
      const double want = RoundTo(dtype, std::sqrt(input[i].real()));
      if (!SameValue(got[i].real(), want)) {
        ADD_FAILURE() << "sqrt(" << input[i].real() << ") = " << got[i].real() << ", want " << want;
        ++reported;
      }
    }
  }
}

TEST(SixteenBitKernels, RsqrtOfEveryValueWithinBound) {
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(Name(dtype));
    const Values input = EveryValue(dtype);
    const Values got = RunRsqrt(dtype, input);
    int reported = 0;
    for (size_t i = 0; i < input.size() && reported < 5; ++i) {
      const double x = input[i].real(), value = got[i].real();
      const double want = 1 / std::sqrt(x);
      bool ok = false;
      if (std::isnan(want) || std::isinf(want) || want == 0) {  // NaN below 0, +-inf at +-0, +0 at +inf
        ok = SameValue(value, want);
      } else {
        const double bound =
            (UnitRoundoff(dtype) + canopy::kernels::unary_accuracy::kRsqrt * std::ldexp(1.0, -24)) * want;
        ok = std::abs(value - want) <= bound;
      }
      if (!ok) {
        ADD_FAILURE() << "rsqrt(" << x << ") = " << value << ", want " << want;
        ++reported;
      }
    }
  }
}

TEST(SixteenBitKernels, AbsAndNegOfEveryValueExact) {
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(Name(dtype));
    const Values input = EveryValue(dtype);
    const Values abs = RunSelfOut(aclnnAbsGetWorkspaceSize, aclnnAbs, dtype, input);
    const Values neg = RunSelfOut(aclnnNegGetWorkspaceSize, aclnnNeg, dtype, input);
    int reported = 0;
    for (size_t i = 0; i < input.size() && reported < 5; ++i) {
      const double x = input[i].real();
      if (!SameValue(abs[i].real(), std::fabs(x)) || !SameValue(neg[i].real(), -x)) {
        ADD_FAILURE() << "x = " << x << ": abs " << abs[i].real() << ", neg " << neg[i].real();
        ++reported;
      }
    }
  }
}

}  // namespace
}  // namespace canopy_test
