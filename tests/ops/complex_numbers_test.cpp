// Real, Complex, Polar and AngleV2 through the public API against plain
// references: every A2 dtype pair (COMPLEX32 through a FLOAT16 buffer of
// [..., 2] described as COMPLEX32), strided and broadcast views, infinities
// and signed zeros, empty tensors, CANN's examples and the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "aclnnop/aclnn_angle_v2.h"
#include "aclnnop/aclnn_complex.h"
#include "aclnnop/aclnn_polar.h"
#include "aclnnop/aclnn_real.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

const std::vector<View> kViews = {View::kContiguous, View::kOffset, View::kTransposed, View::kReversed, View::kStepped};

// A COMPLEX32 tensor of `shape` over a FLOAT16 buffer of [shape..., 2] (the suite encodes no COMPLEX32).
aclTensor* Complex32Descriptor(const DeviceTensor& halves) {
  const Shape& full = halves.shape();
  const Shape shape(full.begin(), full.end() - 1);
  const Shape strides = ContiguousStrides(shape);
  return aclCreateTensor(shape.data(), shape.size(), ACL_COMPLEX32, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), halves.data());
}

// ---- Real -------------------------------------------------------------------------------------

TEST(Real, EveryDtypeAndView) {
  const std::vector<std::pair<aclDataType, aclDataType>> pairs = {
      {ACL_COMPLEX64, ACL_FLOAT}, {ACL_COMPLEX128, ACL_DOUBLE}, {ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_FLOAT16}};
  for (const auto& [in, outDtype] : pairs) {
    for (View view : kViews) {
      SCOPED_TRACE(std::string(Name(in)) + " " + ViewName(view));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(in, {3, 4, 5}, view);
      const Values values = self.FillRandom(rng, Range{-9, 9});
      DeviceTensor out(outDtype, {3, 4, 5}, view == View::kReversed ? View::kTransposed : view);
      out.Poison();
      ExpectRuns([&](OpArgs& a, uint64_t* w,
                     aclOpExecutor** e) { return aclnnRealGetWorkspaceSize(a.Tensor(self), a.Tensor(out), w, e); },
                 aclnnReal);
      Values want;
      for (const Value& v : values) want.emplace_back(v.real());
      ExpectExact(out.ReadView(), want, "Real");
    }
  }
}

TEST(Real, Complex32) {
  const auto halves = Upload(ACL_FLOAT16, {2, 3, 2}, {1.5, -2, 0.25, 7, -3, 1, 65504, -0.5, -0.0, 2, 4, -4});
  DeviceTensor out(ACL_FLOAT16, {2, 3});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensor* self = Complex32Descriptor(*halves);
        const aclnnStatus status = aclnnRealGetWorkspaceSize(self, a.Tensor(out), w, e);
        aclDestroyTensor(self);
        return status;
      },
      aclnnReal);
  ExpectExact(out.ReadView(), {1.5, 0.25, -3, 65504, -0.0, 4}, "Real c32");
}

// ---- Complex ----------------------------------------------------------------------------------

TEST(Complex, EveryDtypeAndBroadcast) {
  const std::vector<std::pair<aclDataType, aclDataType>> pairs = {{ACL_FLOAT, ACL_COMPLEX64},
                                                                  {ACL_DOUBLE, ACL_COMPLEX128}};
  struct Shapes {
    Shape real, imag, out;
  };
  const std::vector<Shapes> shapes = {{{3, 4}, {3, 4}, {3, 4}}, {{3, 1, 5}, {4, 1}, {3, 4, 5}}, {{}, {2, 3}, {2, 3}}};
  for (const auto& [in, outDtype] : pairs) {
    for (const Shapes& s : shapes) {
      for (View view : kViews) {
        SCOPED_TRACE(std::string(Name(in)) + " " + ShapeString(s.out) + " " + ViewName(view));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor real(in, s.real, view), imag(in, s.imag, View::kBroadcast);
        const Values re = real.FillRandom(rng, Range{-9, 9}), im = imag.FillRandom(rng, Range{-9, 9});
        DeviceTensor out(outDtype, s.out, view == View::kReversed ? View::kTransposed : view);
        out.Poison();
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnComplexGetWorkspaceSize(a.Tensor(real), a.Tensor(imag), a.Tensor(out), w, e);
            },
            aclnnComplex);
        Values want;
        for (int64_t k = 0; k < NumElements(s.out); ++k) {
          const Shape at = Unravel(k, s.out);
          auto pick = [&](const Values& v, const Shape& shape) {
            Shape index(shape.size());
            for (size_t d = 0; d < shape.size(); ++d) {
              index[d] = shape[d] == 1 ? 0 : at[at.size() - shape.size() + d];
            }
            return v[static_cast<size_t>(Ravel(index, shape))].real();
          };
          want.emplace_back(pick(re, s.real), pick(im, s.imag));
        }
        ExpectExact(out.ReadView(), want, "Complex");
      }
    }
  }
}

// Infinities and signed zeros keep their place (no multiplication by j).
TEST(Complex, InfinitiesAndSignedZeros) {
  const auto real = Upload(ACL_FLOAT, {4}, {1, kInf, -0.0, kNan});
  const auto imag = Upload(ACL_FLOAT, {4}, {kInf, -2, -0.0, 3});
  DeviceTensor out(ACL_COMPLEX64, {4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnComplexGetWorkspaceSize(a.Tensor(*real), a.Tensor(*imag), a.Tensor(out), w, e);
      },
      aclnnComplex);
  const Values got = out.ReadView();
  EXPECT_EQ(got[0], Value(1, kInf));
  EXPECT_EQ(got[1], Value(kInf, -2));
  EXPECT_TRUE(std::signbit(got[2].real()) && std::signbit(got[2].imag()));
  EXPECT_TRUE(std::isnan(got[3].real()) && got[3].imag() == 3);
}

TEST(Complex, Complex32) {
  const auto real = Upload(ACL_FLOAT16, {3}, {1.5, -2, 65504});
  const auto imag = Upload(ACL_FLOAT16, {3}, {0.25, 7, -0.5});
  DeviceTensor halves(ACL_FLOAT16, {3, 2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensor* out = Complex32Descriptor(halves);
        const aclnnStatus status = aclnnComplexGetWorkspaceSize(a.Tensor(*real), a.Tensor(*imag), out, w, e);
        aclDestroyTensor(out);
        return status;
      },
      aclnnComplex);
  ExpectExact(halves.ReadView(), {1.5, 0.25, -2, 7, 65504, -0.5}, "Complex c32");
}

// CANN checks nothing when an operand is empty.
TEST(Complex, EmptyOperandSucceedsUnchecked) {
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnComplexGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {0, 3}), a.NewTensor(ACL_INT32, {2}),
                                            a.NewTensor(ACL_FLOAT, {5}), w, e);
      },
      aclnnComplex);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

// ---- Polar ------------------------------------------------------------------------------------

TEST(Polar, MatchesReference) {
  struct Shapes {
    Shape input, angle, out;
  };
  const std::vector<Shapes> shapes = {{{3, 4}, {3, 4}, {3, 4}}, {{2, 1, 3}, {4, 1}, {2, 4, 3}}, {{0, 2}, {2}, {0, 2}}};
  for (const Shapes& s : shapes) {
    for (View view : kViews) {
      SCOPED_TRACE(ShapeString(s.out) + " " + ViewName(view));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor input(ACL_FLOAT, s.input, view), angle(ACL_FLOAT, s.angle, View::kBroadcast);
      const Values magnitudes = input.FillRandom(rng, Range{0, 5});
      const Values phases = angle.FillRandom(rng, Range{-7, 7});
      DeviceTensor out(ACL_COMPLEX64, s.out, view == View::kReversed ? View::kTransposed : view);
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnPolarGetWorkspaceSize(a.Tensor(input), a.Tensor(angle), a.Tensor(out), w, e);
          },
          aclnnPolar);
      Expected want;
      for (int64_t k = 0; k < NumElements(s.out); ++k) {
        const Shape at = Unravel(k, s.out);
        auto pick = [&](const Values& v, const Shape& shape) {
          Shape index(shape.size());
          for (size_t d = 0; d < shape.size(); ++d) index[d] = shape[d] == 1 ? 0 : at[at.size() - shape.size() + d];
          return v[static_cast<size_t>(Ravel(index, shape))].real();
        };
        const double r = pick(magnitudes, s.input), t = pick(phases, s.angle);
        want.values.emplace_back(r * std::cos(t), r * std::sin(t));
        want.tolerance.push_back(4 * UnitRoundoff(ACL_FLOAT) * std::max(r, 1.0));
      }
      ExpectNear(out.ReadView(), want, "Polar");
    }
  }
}

// ---- AngleV2 ----------------------------------------------------------------------------------

TEST(AngleV2, EveryDtype) {
  const std::vector<aclDataType> dtypes = {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_COMPLEX64, ACL_BOOL,
                                           ACL_UINT8,   ACL_INT8, ACL_INT16, ACL_INT32,     ACL_INT64};
  for (aclDataType dtype : dtypes) {
    for (View view : kViews) {
      SCOPED_TRACE(std::string(Name(dtype)) + " " + ViewName(view));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor x(dtype, {4, 5}, view);
      const Values values = x.FillRandom(rng, Range{-9, 9, 0, 4});
      const aclDataType outDtype = dtype == ACL_FLOAT16 || dtype == ACL_BF16 ? dtype : ACL_FLOAT;
      DeviceTensor out(outDtype, {4, 5}, view == View::kReversed ? View::kTransposed : view);
      ExpectRuns([&](OpArgs& a, uint64_t* w,
                     aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(a.Tensor(x), a.Tensor(out), w, e); },
                 aclnnAngleV2);
      Expected want;
      for (const Value& v : values) {
        const double angle =
            dtype == ACL_COMPLEX64 ? std::atan2(v.imag(), v.real()) : (v.real() < 0 ? std::numbers::pi : 0);
        want.values.emplace_back(ConvertValue(angle, outDtype));
        want.tolerance.push_back(2 * UnitRoundoff(outDtype) * std::numbers::pi);
      }
      ExpectNear(out.ReadView(), want, "AngleV2");
    }
  }
}

TEST(AngleV2, SignedZerosInfinitiesAndNaN) {
  const auto x = Upload(ACL_FLOAT, {6}, {-0.0, 0.0, -kInf, kInf, kNan, -1e-30});
  DeviceTensor out(ACL_FLOAT, {6});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(a.Tensor(*x), a.Tensor(out), w, e); },
             aclnnAngleV2);
  const double pi = static_cast<float>(std::numbers::pi);
  ExpectExact(out.ReadView(), {0, 0, pi, 0, kNan, pi}, "AngleV2 f32 specials");

  const auto c = Upload(ACL_COMPLEX64, {4}, {Value(-1, 0), Value(-1, -0.0), Value(0, 1), Value(kInf, kInf)});
  DeviceTensor cout(ACL_FLOAT, {4});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnAngleV2GetWorkspaceSize(a.Tensor(*c), a.Tensor(cout), w, e); },
             aclnnAngleV2);
  ExpectExact(cout.ReadView(),
              {pi, -pi, static_cast<float>(std::numbers::pi / 2), static_cast<float>(std::numbers::pi / 4)},
              "AngleV2 c64 specials");
}

// ---- Rejections -------------------------------------------------------------------------------

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto t = [](A& a, aclDataType dtype, const Shape& shape) { return a.NewTensor(dtype, shape); };
  const Shape m = {2, 3};
  return {
      {"Real_double_self",
       [=](A& a, W w, E e) { return aclnnRealGetWorkspaceSize(t(a, ACL_DOUBLE, m), t(a, ACL_DOUBLE, m), w, e); },
       aclnnReal, "'self'"},
      {"Real_c64_into_f64",
       [=](A& a, W w, E e) { return aclnnRealGetWorkspaceSize(t(a, ACL_COMPLEX64, m), t(a, ACL_DOUBLE, m), w, e); },
       aclnnReal, "DOUBLE"},
      {"Real_shape",
       [=](A& a, W w, E e) {
         return aclnnRealGetWorkspaceSize(t(a, ACL_COMPLEX64, m), t(a, ACL_FLOAT, {3, 2}), w, e);
       },
       aclnnReal, "'out'"},
      {"Complex_int_parts",
       [=](A& a, W w, E e) {
         return aclnnComplexGetWorkspaceSize(t(a, ACL_INT32, m), t(a, ACL_INT32, m), t(a, ACL_COMPLEX64, m), w, e);
       },
       aclnnComplex, "'real'"},
      {"Complex_parts_differ",
       [=](A& a, W w, E e) {
         return aclnnComplexGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_DOUBLE, m), t(a, ACL_COMPLEX64, m), w, e);
       },
       aclnnComplex, "'imag'"},
      {"Complex_out_real",
       [=](A& a, W w, E e) {
         return aclnnComplexGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, m), w, e);
       },
       aclnnComplex, "'out'"},
      {"Complex_unpaired",
       [=](A& a, W w, E e) {
         return aclnnComplexGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, m), t(a, ACL_COMPLEX128, m), w, e);
       },
       aclnnComplex, "COMPLEX128"},
      {"Complex_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnComplexGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, {4}), t(a, ACL_COMPLEX64, m), w, e);
       },
       aclnnComplex, "'imag'"},
      {"Complex_out_shape",
       [=](A& a, W w, E e) {
         return aclnnComplexGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, {3}), t(a, ACL_COMPLEX64, {3}), w, e);
       },
       aclnnComplex, "'out'"},
      {"Polar_double",
       [=](A& a, W w, E e) {
         return aclnnPolarGetWorkspaceSize(t(a, ACL_DOUBLE, m), t(a, ACL_DOUBLE, m), t(a, ACL_COMPLEX128, m), w, e);
       },
       aclnnPolar, "'input'"},
      {"Polar_out_c128",
       [=](A& a, W w, E e) {
         return aclnnPolarGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, m), t(a, ACL_COMPLEX128, m), w, e);
       },
       aclnnPolar, "'out'"},
      {"Polar_angle_f16",
       [=](A& a, W w, E e) {
         return aclnnPolarGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT16, m), t(a, ACL_COMPLEX64, m), w, e);
       },
       aclnnPolar, "'angle'"},
      {"Polar_out_shape",
       [=](A& a, W w, E e) {
         return aclnnPolarGetWorkspaceSize(t(a, ACL_FLOAT, m), t(a, ACL_FLOAT, m), t(a, ACL_COMPLEX64, {3, 2}), w, e);
       },
       aclnnPolar, "'out'"},
      {"AngleV2_double",
       [=](A& a, W w, E e) { return aclnnAngleV2GetWorkspaceSize(t(a, ACL_DOUBLE, m), t(a, ACL_FLOAT, m), w, e); },
       aclnnAngleV2, "'x'"},
      {"AngleV2_bf16_into_f32",
       [=](A& a, W w, E e) { return aclnnAngleV2GetWorkspaceSize(t(a, ACL_BF16, m), t(a, ACL_FLOAT, m), w, e); },
       aclnnAngleV2, "BF16"},
      {"AngleV2_f16_into_f32",
       [=](A& a, W w, E e) { return aclnnAngleV2GetWorkspaceSize(t(a, ACL_FLOAT16, m), t(a, ACL_FLOAT, m), w, e); },
       aclnnAngleV2, "FLOAT16"},
      {"AngleV2_shape",
       [=](A& a, W w, E e) { return aclnnAngleV2GetWorkspaceSize(t(a, ACL_INT32, m), t(a, ACL_FLOAT, {6}), w, e); },
       aclnnAngleV2, "'out'"},
  };
}

class ComplexNumberRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ComplexNumberRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ComplexNumberRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
