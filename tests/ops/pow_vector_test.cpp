// Pow's f32 vector kernels (kernels/pointwise_pow.h: SLEEF's powf on AVX-512
// or AVX2, chosen at run time; CANOPY_CPU_FEATURES=none runs the C library's
// pow): C99's special cases exactly, finite results within 2 ulps of the
// float64 pow, on lengths with vector tails, strided views, a scalar exponent
// in f32 / fp16 / bf16, and an empty tensor.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTwoUlps = 2.0;

// |got - want| in units of the dtype's spacing at want (2 u |want|, the smallest normal's below it).
double UlpsOff(double got, double want, aclDataType dtype) {
  const double smallest = dtype == ACL_FLOAT16 ? std::ldexp(1.0, -14) : std::ldexp(1.0, -126);
  const double ulp = 2 * UnitRoundoff(dtype) * std::max(std::abs(want), smallest);
  return std::abs(got - want) / ulp;
}

// The float64 pow of the operands as the dtype holds them, rounded to the dtype.
double Want(double base, double exponent, aclDataType dtype) {
  return ConvertValue(std::pow(base, exponent), dtype).real();
}

void ExpectPowClose(const Values& base, const Values& exponent, const Values& got, aclDataType dtype,
                    const std::string& what) {
  ASSERT_EQ(got.size(), base.size());
  int reported = 0;
  for (size_t i = 0; i < got.size() && reported < 5; ++i) {
    const double b = base[i].real(), e = exponent[exponent.size() == 1 ? 0 : i].real();
    const double want = Want(b, e, dtype), value = got[i].real();
    const bool ok = std::isnan(want)   ? std::isnan(value)
                    : std::isinf(want) ? value == want
                                       : std::isfinite(value) && UlpsOff(value, want, dtype) <= kTwoUlps;
    if (!ok) {
      ADD_FAILURE() << what << ": pow(" << b << ", " << e << ") = " << value << ", want " << want;
      ++reported;
    }
  }
}

aclnnStatus PowTensorTensor(const DeviceTensor& base, const DeviceTensor& exponent, const DeviceTensor& out) {
  const OpRun run = RunOp(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnPowTensorTensorGetWorkspaceSize(x.Tensor(base), x.Tensor(exponent), x.Tensor(out), w, e);
      },
      aclnnPowTensorTensor);
  return run.ok() ? ACLNN_SUCCESS : (run.phase1 != ACLNN_SUCCESS ? run.phase1 : run.phase2);
}

TEST(PowVector, SpecialCasesAsC99) {
  const std::vector<double> bases = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, kInf, -kInf, kNan, 1e-40, 3e38};
  const std::vector<double> exponents = {0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5, 2.5, kInf, -kInf, kNan, -2.0};
  Values base, exponent;
  for (double b : bases) {
    for (double e : exponents) {
      base.emplace_back(static_cast<float>(b));
      exponent.emplace_back(static_cast<float>(e));
    }
  }
  const Shape shape{static_cast<int64_t>(base.size())};
  auto b = Upload(ACL_FLOAT, shape, base), e = Upload(ACL_FLOAT, shape, exponent);
  auto out = Poisoned(ACL_FLOAT, shape);
  ASSERT_EQ(PowTensorTensor(*b, *e, *out), ACLNN_SUCCESS);
  const Values got = out->ReadView();
  for (size_t i = 0; i < got.size(); ++i) {
    const float want = std::pow(static_cast<float>(base[i].real()), static_cast<float>(exponent[i].real()));
    const double value = got[i].real();
    SCOPED_TRACE("pow(" + std::to_string(base[i].real()) + ", " + std::to_string(exponent[i].real()) + ")");
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(value)) << value;
    } else if (want == 0 || std::isinf(want) || std::abs(want) == 1) {
      EXPECT_EQ(value, want);
      EXPECT_EQ(std::signbit(value), std::signbit(want));  // pow(-0, 3) = -0, pow(-inf, -3) = -0
    } else {
      EXPECT_LE(UlpsOff(value, want, ACL_FLOAT), kTwoUlps) << value << " want " << want;
    }
  }
}

// Random bases (negative ones with integer exponents: odd powers keep the sign)
// over a length that leaves a tail in every vector width and chunk.
TEST(PowVector, RandomTensorTensorWithTails) {
  Rng rng = Rng::ForCurrentTest();
  for (int64_t n : {1, 7, 15, 17, 100003}) {
    SCOPED_TRACE(n);
    Values base = RandomValues(rng, ACL_FLOAT, n, Range{.lo = 0, .hi = 8});
    Values exponent = RandomValues(rng, ACL_FLOAT, n, Range{.lo = -6, .hi = 6});
    for (int64_t i = 0; i < n; i += 3) {  // every third: a negative base, an integer exponent
      base[i] = -base[i];
      exponent[i] = std::round(exponent[i].real());
    }
    auto b = Upload(ACL_FLOAT, {n}, base), e = Upload(ACL_FLOAT, {n}, exponent);
    auto out = Poisoned(ACL_FLOAT, {n});
    ASSERT_EQ(PowTensorTensor(*b, *e, *out), ACLNN_SUCCESS);
    ExpectPowClose(base, exponent, out->ReadView(), ACL_FLOAT, "PowTensorTensor f32");
  }
}

// A transposed base and a stepped exponent: the kernel reads the engine's
// gathered chunks; the output's view is written and nothing around it.
TEST(PowVector, StridedViews) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape{37, 41};
  DeviceTensor base(ACL_FLOAT, shape, View::kTransposed), exponent(ACL_FLOAT, shape, View::kStepped);
  DeviceTensor out(ACL_FLOAT, shape, View::kStepped);
  const Values b = base.FillRandom(rng, Range{.lo = 0.25, .hi = 4});
  const Values e = exponent.FillRandom(rng, Range{.lo = -3, .hi = 3});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  ASSERT_EQ(PowTensorTensor(base, exponent, out), ACLNN_SUCCESS);
  ExpectPowClose(b, e, out.ReadView(), ACL_FLOAT, "PowTensorTensor strided");
  ExpectOutsideViewUnchanged(out, before, "PowTensorTensor strided out");
}

// The form llama.cpp-style callers use: a tensor to a scalar power, in every float storage.
TEST(PowVector, TensorScalarEachFloatDtype) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (double power : {2.5, -1.5, 3.0}) {
      SCOPED_TRACE(std::string(Name(dtype)) + " ^ " + std::to_string(power));
      const int64_t n = 4099;
      const Values base = RandomValues(rng, dtype, n, Range{.lo = 0, .hi = 6});
      auto b = Upload(dtype, {n}, base);
      auto out = Poisoned(dtype, {n});
      ExpectRuns(
          [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
            return aclnnPowTensorScalarGetWorkspaceSize(x.Tensor(*b), x.Scalar(ACL_FLOAT, power), x.Tensor(*out), w, e);
          },
          aclnnPowTensorScalar);
      // fp16 / bf16 compute in f32 and round once more: within 2 ulps of the dtype.
      ExpectPowClose(base, {Value(power)}, out->ReadView(), dtype, "PowTensorScalar");
    }
  }
}

// The exponents CANN's A2 host code sends to its Pows kernel (FLOAT16 / FLOAT /
// BF16, computed in f32) and, for the other dtypes, to Square: the results are
// those formulas' bits, not pow's (within an ulp of them), in the out and the
// in-place forms; sqrt's signed zero and NaN of -inf included.
TEST(PowVector, TensorScalarSpecialExponentsAsCann) {
  Rng rng = Rng::ForCurrentTest();
  const auto formula = [](float x, double e) -> float {
    if (e == 2) return x * x;
    if (e == 3) return x * x * x;
    if (e == 0.5) return std::sqrt(x);
    if (e == -0.5) return 1.0f / std::sqrt(x);
    if (e == -1) return 1.0f / x;
    return 1.0f / (x * x);
  };
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (double power : {2.0, 3.0, 0.5, -0.5, -1.0, -2.0}) {
      SCOPED_TRACE(std::string(Name(dtype)) + " ^ " + std::to_string(power));
      const int64_t n = 1031;
      Values base = RandomValues(rng, dtype, n, Range{.lo = -3, .hi = 3});
      base[0] = Value(-0.0);
      base[1] = Value(-kInf);
      base[2] = Value(kInf);
      auto b = Upload(dtype, {n}, base);
      auto out = Poisoned(dtype, {n});
      ExpectRuns(
          [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
            return aclnnPowTensorScalarGetWorkspaceSize(x.Tensor(*b), x.Scalar(ACL_FLOAT, power), x.Tensor(*out), w, e);
          },
          aclnnPowTensorScalar);
      auto in_place = Upload(dtype, {n}, base);
      ExpectRuns(
          [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
            return aclnnInplacePowTensorScalarGetWorkspaceSize(x.Tensor(*in_place), x.Scalar(ACL_DOUBLE, power), w, e);
          },
          aclnnInplacePowTensorScalar);
      const Values got = out->ReadView(), got_in_place = in_place->ReadView();
      for (int64_t i = 0; i < n; ++i) {
        const double want = ConvertValue(Value(formula(static_cast<float>(base[i].real()), power)), dtype).real();
        const double value = got[i].real();
        SCOPED_TRACE("x = " + std::to_string(base[i].real()));
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(value)) << value;
        } else {
          EXPECT_EQ(value, want);
          EXPECT_EQ(std::signbit(value), std::signbit(want));  // sqrt(-0) = -0, 1 / sqrt(-0) = -inf
        }
        EXPECT_TRUE(std::isnan(want) ? std::isnan(got_in_place[i].real()) : got_in_place[i].real() == value);
      }
    }
  }
  // Square in the other float dtypes: DOUBLE x * x.
  const Values base = RandomValues(rng, ACL_DOUBLE, 257, Range{.lo = -1e3, .hi = 1e3});
  auto b = Upload(ACL_DOUBLE, {257}, base);
  auto out = Poisoned(ACL_DOUBLE, {257});
  ExpectRuns(
      [&](OpArgs& x, uint64_t* w, aclOpExecutor** e) {
        return aclnnPowTensorScalarGetWorkspaceSize(x.Tensor(*b), x.Scalar(ACL_INT64, Value(2.0)), x.Tensor(*out), w,
                                                    e);
      },
      aclnnPowTensorScalar);
  const Values got = out->ReadView();
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].real(), base[i].real() * base[i].real());
}

TEST(PowVector, EmptyTensor) {
  auto b = Upload(ACL_FLOAT, {0, 5}, {}), e = Upload(ACL_FLOAT, {0, 5}, {});
  auto out = Poisoned(ACL_FLOAT, {0, 5});
  EXPECT_EQ(PowTensorTensor(*b, *e, *out), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace canopy_test
