// Harness rows of the special functions and the activations added on the
// pointwise and unary engines: Sinc, Signbit, NanToNum, RoundDecimals,
// Digamma, Lgamma, InplaceOne, Erfinv, Swish, FastGelu, SquaredRelu, Prelu,
// Glu, GeluMul, FatreluMul, Shrink, Heaviside, AddRelu. Below the rows: special
// values (NaN, infinities, poles, ties) and the documented rejections with
// CANN's codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_relu.h"
#include "aclnnop/aclnn_digamma.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_heaviside.h"
#include "aclnnop/aclnn_lgamma.h"
#include "aclnnop/aclnn_nan_to_num.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_shrink.h"
#include "aclnnop/aclnn_signbit.h"
#include "aclnnop/aclnn_sinc.h"
#include "aclnnop/aclnn_squared_relu.h"
#include "aclnnop/aclnn_swish.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;

const std::vector<aclDataType> kHalfAndSingle = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// Integer and bool inputs compute in FLOAT; floats keep their dtype.
std::optional<aclDataType> FloatOfInput(const std::vector<aclDataType>& in) {
  return IsRealFloat(in[0]) ? in[0] : ACL_FLOAT;
}
std::optional<aclDataType> SameAsFirst(const std::vector<aclDataType>& in) { return in[0]; }

// A unary row: out form and, where given, in-place form.
OpRow UnaryForms(const std::string& name, Phase1Fn out, Phase2 outPhase2, Phase1Fn inplace = nullptr,
                 Phase2 inplacePhase2 = nullptr) {
  OpRow row;
  row.name = name;
  row.out = {std::move(out), outPhase2};
  row.inplace = {std::move(inplace), inplacePhase2};
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  return row;
}

// ---- special functions ------------------------------------------------------------------------

OpRow SincRow() {
  OpRow row = UnaryForms(
      "Sinc", [](Call& c) { return aclnnSincGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
      aclnnSinc, [](Call& c) { return aclnnInplaceSincGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
      aclnnInplaceSinc);
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3, 0, 7}}};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return IsRealFloat(dc.inputs[0]); };
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT32, ACL_INT8, ACL_BOOL}),
                      Singly({{{ACL_FLOAT16}, ACL_FLOAT}, {{ACL_INT64}, ACL_DOUBLE}}));
  row.outDtype = FloatOfInput;
  row.reference = ComputedIn(
      FloatOfInput,
      [](const std::vector<Value>& x, const AttrSet&) {
        const double v = x[0].real();
        return Value(v == 0 ? 1.0 : std::sin(kPi * v) / (kPi * v));
      },
      4, 1);
  return row;
}

OpRow SignbitRow() {
  OpRow row = UnaryForms(
      "Signbit",
      [](Call& c) { return aclnnSignbitGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
      aclnnSignbit);
  row.inputs = {Arg{.name = "self", .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                                      return IsUnsigned(dtype) ? Range{0, 9} : Range{-3, 3, 0, 4};
                                    })}};
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_INT16, ACL_INT8, ACL_UINT8,
                                 ACL_DOUBLE, ACL_UINT32, ACL_UINT64, ACL_BOOL, ACL_UINT16, ACL_BF16}),
                      Singly({{{ACL_FLOAT}, ACL_FLOAT}, {{ACL_INT32}, ACL_INT8}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.reference = Unary([](Value x) { return Value(x.real() < 0 ? 1.0 : 0.0); });
  return row;
}

OpRow RoundDecimalsRow() {
  OpRow row = UnaryForms(
      "RoundDecimals",
      [](Call& c) {
        return aclnnRoundDecimalsGetWorkspaceSize(c.Tensor(0), c.IntAttr("decimals"), c.Out(), c.workspaceSize,
                                                  c.executor);
      },
      aclnnRoundDecimals,
      [](Call& c) {
        return aclnnInplaceRoundDecimalsGetWorkspaceSize(c.Tensor(0), c.IntAttr("decimals"), c.workspaceSize,
                                                         c.executor);
      },
      aclnnInplaceRoundDecimals);
  row.inputs = {Arg{.name = "self", .range = Range{-300, 300}}};
  row.dtypes = EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64});
  row.attrs = {
      {"d0", {{"decimals", int64_t{0}}}}, {"d2", {{"decimals", int64_t{2}}}}, {"dm1", {{"decimals", int64_t{-1}}}}};
  row.reference = [](const RefCall& call) {
    const int64_t d = call.attrs.Int("decimals");
    const aclDataType dtype = call.inputs[0].dtype;
    return Pointwise([d, dtype](const std::vector<Value>& x, const AttrSet&) {
      const double v = x[0].real();
      if (!IsRealFloat(dtype) && d >= 0) return Value(v);
      // In FLOAT16 and BF16 the scaled value is computed in FLOAT, as the engine does.
      const aclDataType c = IsRealFloat(dtype) && dtype != ACL_DOUBLE ? ACL_FLOAT : ACL_DOUBLE;
      const double scale = std::pow(10.0, static_cast<double>(d < 0 ? -d : d));
      if (d == 0) return Value(std::nearbyint(v));
      if (d > 0) {
        return Value(std::nearbyint(ConvertValue(v * scale, c).real()) / scale);
      }
      return Value(std::nearbyint(ConvertValue(v / scale, c).real()) * scale);
    })(call);
  };
  row.tolerance = {.ulps = 2};
  return row;
}

double DigammaOf(double x) {
  if (x == 0) return -kInf;
  if (x < 0 && x == std::trunc(x)) return kNan;
  // Reflection with tan(pi r) of x's fractional part r: pi x would round by up to |x| ulps near a pole.
  if (x < 0) return DigammaOf(1 - x) - kPi / std::tan(kPi * (x - std::trunc(x)));
  double r = 0;
  while (x < 20) r -= 1 / x++;
  // The asymptotic series to x^-8 is exact to float64 from 20 up.
  const double i2 = 1 / (x * x);
  return r + std::log(x) - 0.5 / x - i2 * (1.0 / 12 - i2 * (1.0 / 120 - i2 * (1.0 / 252 - i2 / 240)));
}

OpRow GammaRow(bool digamma) {
  OpRow row =
      digamma
          ? UnaryForms(
                "Digamma",
                [](Call& c) { return aclnnDigammaGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
                aclnnDigamma)
          : UnaryForms(
                "Lgamma",
                [](Call& c) { return aclnnLgammaGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
                aclnnLgamma);
  // Away from the poles (which the special-value test below covers); negative arguments use the reflection.
  row.inputs = {Arg{.name = "self", .range = Range{-4.5, 6, 0.2}}};
  row.dtypes = EachDtype({ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16});
  row.reference = ComputedIn(
      SameAsFirst,
      [digamma](const std::vector<Value>& x, const AttrSet&) {
        const double v = x[0].real();
        if (digamma) return Value(DigammaOf(v));
        int sign = 0;
        return Value(::lgamma_r(v, &sign));
      },
      // Near a root of the function the error is relative to the terms, not the result.
      64, 1);
  return row;
}

OpRow ErfinvRow() {
  OpRow row = UnaryForms(
      "Erfinv", [](Call& c) { return aclnnErfinvGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
      aclnnErfinv, [](Call& c) { return aclnnInplaceErfinvGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
      aclnnInplaceErfinv);
  row.inputs = {Arg{.name = "self", .range = RangeRule([](aclDataType dtype, const CaseInfo&) {
                                      return IsRealFloat(dtype) ? Range{-0.99, 0.99} : Range{-1, 1};
                                    })}};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return IsRealFloat(dc.inputs[0]); };
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_BOOL, ACL_INT8, ACL_INT32}),
                      Singly({{{ACL_FLOAT}, ACL_DOUBLE}, {{ACL_INT64}, ACL_FLOAT16}}));
  row.outDtype = FloatOfInput;
  // erfinv is steep near +-1: the error follows x erfinv'(x), not the value.
  row.reference = [](const RefCall& call) {
    const aclDataType c = *FloatOfInput({call.inputs[0].dtype});
    Expected want;
    for (Value x : call.inputs[0].values) {
      const double v = x.real();
      double y = 0;
      if (v == 1 || v == -1) {
        y = v * kInf;
      } else {
        // Newton on erf from a bracketing bisection: exact to float64.
        double lo = -6, hi = 6;
        for (int i = 0; i < 200; ++i) (std::erf((lo + hi) / 2) < v ? lo : hi) = (lo + hi) / 2;
        y = (lo + hi) / 2;
      }
      want.values.push_back(ConvertValue(ConvertValue(y, c), call.out));
      const double slope = std::sqrt(kPi) / 2 * std::exp(y * y);  // d erfinv / dx
      const double u = std::max(UnitRoundoff(c), UnitRoundoff(call.out));
      want.tolerance.push_back(4 * u * (std::abs(y) + std::abs(v) * slope));
    }
    return want;
  };
  return row;
}

OpRow NanToNumRow() {
  OpRow row = UnaryForms(
      "NanToNum",
      [](Call& c) {
        return aclnnNanToNumGetWorkspaceSize(c.Tensor(0), 1.5F, 100.0F, -100.0F, c.Out(), c.workspaceSize, c.executor);
      },
      aclnnNanToNum,
      [](Call& c) {
        return aclnnInplaceNanToNumGetWorkspaceSize(c.Tensor(0), 1.5F, 100.0F, -100.0F, c.workspaceSize, c.executor);
      },
      aclnnInplaceNanToNum);
  row.inputs = {Arg{.name = "self"}};
  row.dtypes =
      EachDtype({ACL_FLOAT16, ACL_FLOAT, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL});
  row.reference = Unary([](Value x) { return x; });  // finite values pass (NaN and infinities: the test below)
  return row;
}

OpRow InplaceOneRow() {
  OpRow row;
  row.name = "InplaceOne";
  row.inputs = {Arg{.name = "selfRef"}};
  row.inplace = {[](Call& c) { return aclnnInplaceOneGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
                 aclnnInplaceOne};
  row.inplace.overwrites = true;
  row.dtypes = EachDtype(
      {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL, ACL_DOUBLE, ACL_BF16});
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.reference = Unary([](Value) { return Value(1.0); });
  return row;
}

// ---- activations --------------------------------------------------------------------------------

double SigmoidOf(double x) { return 1 / (1 + std::exp(-x)); }

OpRow SwishRow() {
  OpRow row = UnaryForms(
      "Swish",
      [](Call& c) {
        return aclnnSwishGetWorkspaceSize(c.Tensor(0), c.info().attrs.Has("beta") ? c.ScalarAttr("beta") : nullptr,
                                          c.Out(), c.workspaceSize, c.executor);
      },
      aclnnSwish);
  row.inputs = {Arg{.name = "self", .range = Range{-6, 6}}};
  row.dtypes = EachDtype(kHalfAndSingle);
  row.attrs = {{"beta_null", {}},
               {"beta_1_5", {{"beta", ScalarAttr{ACL_FLOAT, 1.5}}}},
               {"beta_s32", {{"beta", ScalarAttr{ACL_INT32, -2.0}}}}};
  row.reference = Pointwise([](const std::vector<Value>& x, const AttrSet& a) {
    const double beta = a.Has("beta") ? a.Scalar("beta").value.real() : 1.0, v = x[0].real();
    return Value(v * SigmoidOf(beta * v));
  });
  row.tolerance = {.ulps = 8, .minMagnitude = 1};
  return row;
}

OpRow FastGeluRow() {
  OpRow row = UnaryForms(
      "FastGelu",
      [](Call& c) { return aclnnFastGeluGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
      aclnnFastGelu);
  row.inputs = {Arg{.name = "self", .range = Range{-6, 6}}};
  row.dtypes = EachDtype(kHalfAndSingle);
  row.reference = Unary([](Value x) { return Value(x.real() * SigmoidOf(1.702 * x.real())); });
  row.tolerance = {.ulps = 8, .minMagnitude = 1};
  return row;
}

OpRow SquaredReluRow() {
  OpRow row = UnaryForms(
      "SquaredRelu",
      [](Call& c) { return aclnnSquaredReluGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
      aclnnSquaredRelu);
  row.inputs = {Arg{.name = "input", .range = Range{-4, 4}}};
  row.dtypes = EachDtype(kHalfAndSingle);
  row.reference = Unary([](Value x) { return Value(x.real() > 0 ? x.real() * x.real() : 0.0); });
  return row;
}

OpRow ShrinkRow() {
  OpRow row = UnaryForms(
      "Shrink",
      [](Call& c) {
        return aclnnShrinkGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("lambd"), c.ScalarAttr("bias"), c.Out(),
                                           c.workspaceSize, c.executor);
      },
      aclnnShrink);
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}};
  row.dtypes =
      Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16}), Singly({{{ACL_FLOAT16}, ACL_FLOAT}, {{ACL_FLOAT}, ACL_FLOAT16}}));
  row.attrs = {{"", {{"lambd", ScalarAttr{ACL_FLOAT, 0.5}}, {"bias", ScalarAttr{ACL_FLOAT, 0.25}}}},
               {"int_scalars", {{"lambd", ScalarAttr{ACL_INT32, 1.0}}, {"bias", ScalarAttr{ACL_INT64, -1.0}}}}};
  row.reference = ComputedIn(
      SameAsFirst,
      [](const std::vector<Value>& x, const AttrSet& a) {
        const double v = x[0].real(), lambd = a.Scalar("lambd").value.real(), bias = a.Scalar("bias").value.real();
        return Value(v > lambd ? v - bias : (v < -lambd ? v + bias : 0.0));
      },
      2);
  return row;
}

OpRow HeavisideRow() {
  OpRow row;
  row.name = "Heaviside";
  row.inputs = {Arg{.name = "input", .range = Range{-2, 2, 0, 3}}, Arg{.name = "values"}};
  row.out = {[](Call& c) {
               return aclnnHeavisideGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnHeaviside};
  row.dtypes = EachDtype(kHalfAndSingle);
  row.reference = Pointwise([](const std::vector<Value>& x, const AttrSet&) {
    const double v = x[0].real();
    return v == 0 ? x[1] : Value(v > 0 ? 1.0 : 0.0);
  });
  return row;
}

OpRow PreluRow() {
  OpRow row;
  row.name = "Prelu";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}, Arg{.name = "weight", .range = Range{-1, 1}}};
  row.out = {[](Call& c) {
               return aclnnPreluGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnPrelu};
  row.dtypes =
      Concat(EachDtype(kHalfAndSingle), Singly({{{ACL_FLOAT16, ACL_BF16}}, {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  row.outDtype = PromotedDtype();
  // One weight per channel (dim 1), one for all, and a rank-1 self.
  row.shapes = {{"typical", {{4, 3, 5}, {3}}, true},
                {"one_weight", {{2, 3, 2, 2}, {1}}},
                {"weight_2d", {{2, 6}, {2, 3}}},
                {"rank1", {{7}, {1}}},
                {"empty", {{0, 3}, {3}}}};
  row.outShape = ShapeOfInput(0);
  row.reference = [](const RefCall& call) {
    const Shape& shape = call.inputs[0].shape;
    const Values& w = call.inputs[1].values;
    const int64_t channels = shape.size() < 2 ? 1 : shape[1];
    int64_t inner = 1;
    for (size_t d = 2; d < shape.size(); ++d) inner *= shape[d];
    const aclDataType c = *Promote(call.inputs[0].dtype, call.inputs[1].dtype);
    Expected want;
    const Values& x = call.inputs[0].values;
    for (size_t i = 0; i < x.size(); ++i) {
      const auto channel = static_cast<size_t>(w.size() == 1 ? 0 : (static_cast<int64_t>(i) / inner) % channels);
      const double v = x[i].real();
      want.values.push_back(ConvertValue(ConvertValue(v > 0 ? v : w[channel].real() * v, c), call.out));
      want.tolerance.push_back(2 * std::max(UnitRoundoff(c), UnitRoundoff(call.out)) * std::abs(v));
    }
    return want;
  };
  return row;
}

// The gated units: the halves along a dim of one tensor.
Expected GatedReference(const RefCall& call, int64_t dim, double (*gate)(double a, double b), double ulps) {
  const Shape& shape = call.inputs[0].shape;
  const Values& x = call.inputs[0].values;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t half = shape[dim] / 2;
  Expected want;
  const double u = ulps * UnitRoundoff(call.out);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t h = 0; h < half; ++h) {
      for (int64_t i = 0; i < inner; ++i) {
        const double a = x[(o * 2 * half + h) * inner + i].real(), b = x[(o * 2 * half + half + h) * inner + i].real();
        const double r = gate(a, b);
        want.values.push_back(ConvertValue(r, call.out));
        want.tolerance.push_back(u * std::max(std::abs(r), std::abs(b)));
      }
    }
  }
  return want;
}

std::optional<Shape> Halved(const Shape& in, int64_t dim) {
  const auto rank = static_cast<int64_t>(in.size());
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank || in[dim] % 2 != 0) return std::nullopt;
  Shape out = in;
  out[dim] /= 2;
  return out;
}

const std::vector<ShapeCase> kGatedShapes = {
    {"typical", {{4, 6}}, true}, {"rank3", {{2, 4, 8}}}, {"large", {{3, 2050}}, true}, {"empty_rows", {{0, 4}}}};

OpRow GluRow() {
  OpRow row;
  row.name = "Glu";
  row.inputs = {Arg{.name = "self", .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               return aclnnGluGetWorkspaceSize(c.Tensor(0), c.IntAttr("dim"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnGlu};
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}), Singly({{{ACL_FLOAT}, ACL_FLOAT16}}));
  row.shapes = kGatedShapes;
  row.attrs = {{"last", {{"dim", int64_t{-1}}}}, {"dim0", {{"dim", int64_t{0}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) { return Halved(in[0], a.Int("dim")); };
  row.reference = [](const RefCall& call) {
    int64_t dim = call.attrs.Int("dim");
    if (dim < 0) dim += static_cast<int64_t>(call.inputs[0].shape.size());
    return GatedReference(
        call, dim, [](double a, double b) { return a * SigmoidOf(b); }, IsRealFloat(call.inputs[0].dtype) ? 4 : 0);
  };
  return row;
}

OpRow GeluMulRow() {
  OpRow row;
  row.name = "GeluMul";
  row.inputs = {Arg{.name = "input", .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               // approximate: 0 null, 1 "none", 2 "tanh".
               const int64_t mode = c.IntAttr("approximate");
               std::string text = mode == 2 ? "tanh" : "none";
               return aclnnGeluMulGetWorkspaceSize(c.Tensor(0), mode == 0 ? nullptr : text.data(), c.Out(),
                                                   c.workspaceSize, c.executor);
             },
             aclnnGeluMul};
  row.dtypes = EachDtype(kHalfAndSingle);
  row.shapes = kGatedShapes;
  row.attrs = {{"null", {{"approximate", int64_t{0}}}},
               {"none", {{"approximate", int64_t{1}}}},
               {"tanh", {{"approximate", int64_t{2}}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) { return Halved(in[0], -1); };
  row.reference = [](const RefCall& call) {
    const bool tanhForm = call.attrs.Int("approximate") == 2;
    const auto last = static_cast<int64_t>(call.inputs[0].shape.size()) - 1;
    if (tanhForm) {
      return GatedReference(
          call, last,
          [](double a, double b) {
            return 0.5 * a * (1 + std::tanh(std::sqrt(2 / kPi) * (a + 0.044715 * a * a * a))) * b;
          },
          4);
    }
    return GatedReference(
        call, last, [](double a, double b) { return 0.5 * a * std::erfc(-a / std::sqrt(2.0)) * b; }, 4);
  };
  return row;
}

OpRow FatreluMulRow() {
  OpRow row;
  row.name = "FatreluMul";
  row.inputs = {Arg{.name = "input", .range = Range{-3, 3, 0, 5}},
                Arg{.name = "threshold", .range = Range{-0.5, 0.5, 0, 0, true}}};
  row.out = {[](Call& c) {
               return aclnnFatreluMulGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnFatreluMul};
  row.dtypes = EachDtype(kHalfAndSingle);
  row.shapes = {
      {"typical", {{4, 6}, {1}}, true}, {"rank3_th0d", {{2, 4, 8}, {}}}, {"large", {{3, 2050}, {1, 1}}, true}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) { return Halved(in[0], -1); };
  row.reference = [](const RefCall& call) {
    const double th = call.inputs[1].values[0].real();
    const Shape& shape = call.inputs[0].shape;
    const int64_t half = shape.back() / 2;
    Expected want;
    const Values& x = call.inputs[0].values;
    for (size_t row0 = 0; row0 < x.size(); row0 += static_cast<size_t>(2 * half)) {
      for (int64_t h = 0; h < half; ++h) {
        const double a = x[row0 + h].real(), b = x[row0 + half + h].real();
        const double r = (a > th ? a : 0.0) * b;
        want.values.push_back(ConvertValue(r, call.out));
        want.tolerance.push_back(2 * UnitRoundoff(call.out) * std::abs(r));
      }
    }
    return want;
  };
  return row;
}

OpRow AddReluRow() {
  OpRow row;
  row.name = "AddRelu";
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 100} : Range{-100, 100};
  });
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "other", .range = range}};
  row.out = {[](Call& c) {
               return aclnnAddReluGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.ScalarAttr("alpha"), c.Out(),
                                                   c.workspaceSize, c.executor);
             },
             aclnnAddRelu};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceAddReluGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.ScalarAttr("alpha"),
                                                              c.workspaceSize, c.executor);
                 },
                 aclnnInplaceAddRelu};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
    const auto p = Promote(dc.inputs[0], dc.inputs.size() > 1 ? dc.inputs[1] : dc.inputs[0]);
    return dc.out == ACL_DT_UNDEFINED && p && CanCast(*p, dc.inputs[0]);
  };
  // INT8 sums wrap before the relu (100 + 100 is -56, so 0); UINT8 sums wrap and keep their value.
  row.dtypes =
      Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64}),
             Singly({{{ACL_FLOAT16, ACL_FLOAT}}, {{ACL_INT32, ACL_INT8}}, {{ACL_INT32, ACL_INT32}, ACL_FLOAT}}));
  row.outDtype = PromotedDtype();
  auto compute = [](const DtypeCase& dc) {
    return Promote(dc.inputs[0], dc.inputs.size() > 1 ? dc.inputs[1] : dc.inputs[0]).value_or(ACL_FLOAT);
  };
  row.attrs = {{"", {{"alpha", ScalarAttr{ACL_INT32, 1.0}}}},
               {"alpha_neg2",
                {{"alpha", ScalarAttr{ACL_INT32, -2.0}}},
                [compute](const DtypeCase& dc) { return !IsUnsigned(compute(dc)); }},
               {"alpha_f32", {{"alpha", ScalarAttr{ACL_FLOAT, 0.75}}}, [compute](const DtypeCase& dc) {
                  return IsRealFloat(compute(dc));
                }}};
  row.reference = [](const RefCall& call) {
    const aclDataType c = *Promote(call.inputs[0].dtype, call.inputs[1].dtype);
    const double alpha = call.attrs.Scalar("alpha").value.real();
    return ComputedIn([c](const std::vector<aclDataType>&) { return std::optional(c); },
                      [c, alpha](const std::vector<Value>& x, const AttrSet&) {
                        const double a = ConvertValue(x[0], c).real(), b = ConvertValue(x[1], c).real();
                        if (IsRealFloat(c)) return Value(std::max(a + alpha * b, 0.0));
                        const double sum =
                            Wrapped(static_cast<int64_t>(a) + static_cast<int64_t>(alpha) * static_cast<int64_t>(b), c);
                        return Value(IsUnsigned(c) ? sum : std::max(sum, 0.0));
                      },
                      // The error follows the terms (|self| + |alpha other|, up to 300), not the sum,
                      // which cancels; integers are exact either way.
                      4, 300)(call);
  };
  return row;
}

std::vector<OpRow> SpecialActivationRows() {
  return {SincRow(),      SignbitRow(),    RoundDecimalsRow(), GammaRow(true), GammaRow(false),  ErfinvRow(),
          NanToNumRow(),  InplaceOneRow(), SwishRow(),         FastGeluRow(),  SquaredReluRow(), ShrinkRow(),
          HeavisideRow(), PreluRow(),      GluRow(),           GeluMulRow(),   FatreluMulRow(),  AddReluRow()};
}
CANOPY_HARNESS_ROWS(SpecialActivationRows);

// ---- special values ---------------------------------------------------------------------------------

// NanToNum replaces NaN and the infinities with the values given, rounded to
// self's dtype (3.4e38 becomes inf in FLOAT16, as on the device).
TEST(SpecialActivationValues, NanToNumReplacesAndRounds) {
  auto x = Upload(ACL_FLOAT16, {4}, {kNan, kInf, -kInf, 2.5});
  auto out = Poisoned(ACL_FLOAT16, {4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNanToNumGetWorkspaceSize(a.Tensor(*x), 0.1F, 3.4e38F, -7.0F, a.Tensor(*out), w, e);
      },
      aclnnNanToNum);
  ExpectExact(out->ReadView(), {ConvertValue(0.1, ACL_FLOAT16), kInf, -7, 2.5}, "NanToNum f16");
}

// Poles and special arguments: digamma -inf at 0 and NaN at negative integers,
// lgamma +inf at the poles, erfinv +-inf at +-1 and NaN outside, sinc 1 at 0,
// signbit 0 for -0.0 and NaN (CANN's A2 path compares with 0).
TEST(SpecialActivationValues, PolesAndEdges) {
  auto x = Upload(ACL_DOUBLE, {5}, {0, -2, 1, 2, kNan});
  auto digamma = Poisoned(ACL_DOUBLE, {5});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnDigammaGetWorkspaceSize(a.Tensor(*x), a.Tensor(*digamma), w, e); },
             aclnnDigamma);
  ExpectNear(digamma->ReadView(),
             {{-kInf, kNan, -0.57721566490153286, 0.42278433509846714, kNan}, {0, 0, 1e-15, 1e-15, 0}}, "Digamma");
  auto lgamma = Poisoned(ACL_DOUBLE, {5});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnLgammaGetWorkspaceSize(a.Tensor(*x), a.Tensor(*lgamma), w, e); },
             aclnnLgamma);
  ExpectExact(lgamma->ReadView(), {kInf, kInf, 0, 0, kNan}, "Lgamma");

  auto p = Upload(ACL_FLOAT, {5}, {1, -1, 1.5, 0, -0.0});
  auto erfinv = Poisoned(ACL_FLOAT, {5});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnErfinvGetWorkspaceSize(a.Tensor(*p), a.Tensor(*erfinv), w, e); },
             aclnnErfinv);
  ExpectExact(erfinv->ReadView(), {kInf, -kInf, kNan, 0, -0.0}, "Erfinv");
  auto sinc = Poisoned(ACL_FLOAT, {5});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnSincGetWorkspaceSize(a.Tensor(*p), a.Tensor(*sinc), w, e); },
             aclnnSinc);
  ExpectNear(sinc->ReadView(), {{0, 0, -2 / (3 * kPi), 1, 1}, {1e-7, 1e-7, 1e-7, 0, 0}}, "Sinc");

  auto s = Upload(ACL_FLOAT, {4}, {-0.0, kNan, -kInf, -1e-30});
  auto signbit = Poisoned(ACL_BOOL, {4});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnSignbitGetWorkspaceSize(a.Tensor(*s), a.Tensor(*signbit), w, e); },
             aclnnSignbit);
  ExpectExact(signbit->ReadView(), {0, 0, 1, 1}, "Signbit");
}

// RoundDecimals rounds halves to even: 0.125 at 2 decimals is 0.12, 25 at -1 is 20.
TEST(SpecialActivationValues, RoundDecimalsHalvesToEven) {
  auto f = Upload(ACL_DOUBLE, {3}, {0.125, 0.375, -2.5});
  auto fout = Poisoned(ACL_DOUBLE, {3});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRoundDecimalsGetWorkspaceSize(a.Tensor(*f), 2, a.Tensor(*fout), w, e);
      },
      aclnnRoundDecimals);
  ExpectExact(fout->ReadView(), {0.12, 0.38, -2.5}, "RoundDecimals f64 d2");
  auto i = Upload(ACL_INT32, {4}, {25, 35, -25, 14});
  auto iout = Poisoned(ACL_INT32, {4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRoundDecimalsGetWorkspaceSize(a.Tensor(*i), -1, a.Tensor(*iout), w, e);
      },
      aclnnRoundDecimals);
  ExpectExact(iout->ReadView(), {20, 40, -20, 10}, "RoundDecimals s32 d-1");
}

// ---- rejections -----------------------------------------------------------------------------------

using Rejection = RejectionCase;

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

std::vector<Rejection> Rejections() {
  const Shape m = {2, 4};
  auto t = [m](A& a, aclDataType dtype) { return a.NewTensor(dtype, m); };
  return {
      {"Sinc_out_s32",
       [=](A& a, W w, E e) { return aclnnSincGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_INT32), w, e); }, aclnnSinc,
       "out", kInvalid},
      {"InplaceSinc_s32", [=](A& a, W w, E e) { return aclnnInplaceSincGetWorkspaceSize(t(a, ACL_INT32), w, e); },
       aclnnInplaceSinc, "selfRef", kInvalid},
      {"NanToNum_out_dtype",
       [=](A& a, W w, E e) {
         return aclnnNanToNumGetWorkspaceSize(t(a, ACL_FLOAT), 0, 1, -1, t(a, ACL_FLOAT16), w, e);
       },
       aclnnNanToNum, "out", kInvalid},
      {"NanToNum_double",
       [=](A& a, W w, E e) {
         return aclnnNanToNumGetWorkspaceSize(t(a, ACL_DOUBLE), 0, 1, -1, t(a, ACL_DOUBLE), w, e);
       },
       aclnnNanToNum, "self", kInvalid},
      {"RoundDecimals_out_dtype",
       [=](A& a, W w, E e) { return aclnnRoundDecimalsGetWorkspaceSize(t(a, ACL_FLOAT), 1, t(a, ACL_DOUBLE), w, e); },
       aclnnRoundDecimals, "out", kInvalid},
      {"Digamma_bf16",
       [=](A& a, W w, E e) { return aclnnDigammaGetWorkspaceSize(t(a, ACL_BF16), t(a, ACL_BF16), w, e); }, aclnnDigamma,
       "self", kInvalid},
      {"Lgamma_out_dtype",
       [=](A& a, W w, E e) { return aclnnLgammaGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_DOUBLE), w, e); },
       aclnnLgamma, "out", kInvalid},
      {"InplaceOne_u16", [=](A& a, W w, E e) { return aclnnInplaceOneGetWorkspaceSize(t(a, ACL_UINT16), w, e); },
       aclnnInplaceOne, "selfRef", kInvalid},
      {"Erfinv_out_s32",
       [=](A& a, W w, E e) { return aclnnErfinvGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_INT32), w, e); }, aclnnErfinv,
       "out", kInvalid},
      {"Swish_out_dtype",
       [=](A& a, W w, E e) { return aclnnSwishGetWorkspaceSize(t(a, ACL_FLOAT), nullptr, t(a, ACL_FLOAT16), w, e); },
       aclnnSwish, "out", kInvalid},
      {"Swish_beta_complex",
       [=](A& a, W w, E e) {
         return aclnnSwishGetWorkspaceSize(t(a, ACL_FLOAT), a.Scalar(ACL_COMPLEX64, 1.0), t(a, ACL_FLOAT), w, e);
       },
       aclnnSwish, "betaOptional", kInvalid},
      {"FastGelu_double",
       [=](A& a, W w, E e) { return aclnnFastGeluGetWorkspaceSize(t(a, ACL_DOUBLE), t(a, ACL_DOUBLE), w, e); },
       aclnnFastGelu, "self", kInvalid},
      {"SquaredRelu_out_dtype",
       [=](A& a, W w, E e) { return aclnnSquaredReluGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_BF16), w, e); },
       aclnnSquaredRelu, "out", kInvalid},
      {"Prelu_weight_count",
       [=](A& a, W w, E e) {
         return aclnnPreluGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 3, 4}), a.NewTensor(ACL_FLOAT, {4}),
                                           a.NewTensor(ACL_FLOAT, {2, 3, 4}), w, e);
       },
       aclnnPrelu, "weight", kInvalid},
      {"Glu_odd_dim",
       [=](A& a, W w, E e) {
         return aclnnGluGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 3}), -1, a.NewTensor(ACL_FLOAT, {2, 1}), w, e);
       },
       aclnnGlu, "self", kInvalid},
      {"Glu_dim_out_of_range",
       [=](A& a, W w, E e) {
         return aclnnGluGetWorkspaceSize(t(a, ACL_FLOAT), 2, a.NewTensor(ACL_FLOAT, {2, 2}), w, e);
       },
       aclnnGlu, "dim", kInvalid},
      {"Glu_rank0",
       [=](A& a, W w, E e) {
         return aclnnGluGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {}), 0, a.NewTensor(ACL_FLOAT, {}), w, e);
       },
       aclnnGlu, "self", kInvalid},
      {"GeluMul_mode",
       [=](A& a, W w, E e) {
         char mode[] = "erf";
         return aclnnGeluMulGetWorkspaceSize(t(a, ACL_FLOAT), mode, a.NewTensor(ACL_FLOAT, {2, 2}), w, e);
       },
       aclnnGeluMul, "approximate", kTiling},
      {"GeluMul_rank1",
       [=](A& a, W w, E e) {
         return aclnnGeluMulGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {4}), nullptr, a.NewTensor(ACL_FLOAT, {2}), w, e);
       },
       aclnnGeluMul, "input", kTiling},
      {"FatreluMul_threshold_count",
       [=](A& a, W w, E e) {
         return aclnnFatreluMulGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {2}),
                                                a.NewTensor(ACL_FLOAT, {2, 2}), w, e);
       },
       aclnnFatreluMul, "threshold", kTiling},
      {"Shrink_negative_lambd",
       [=](A& a, W w, E e) {
         return aclnnShrinkGetWorkspaceSize(t(a, ACL_FLOAT), a.Scalar(ACL_FLOAT, -0.5), a.Scalar(ACL_FLOAT, 0),
                                            t(a, ACL_FLOAT), w, e);
       },
       aclnnShrink, "lambd", kInvalid},
      {"Heaviside_mixed_dtypes",
       [=](A& a, W w, E e) {
         return aclnnHeavisideGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT16), t(a, ACL_FLOAT), w, e);
       },
       aclnnHeaviside, "values", kInvalid},
      {"AddRelu_float_alpha_on_integers",
       [=](A& a, W w, E e) {
         return aclnnAddReluGetWorkspaceSize(t(a, ACL_INT32), t(a, ACL_INT32), a.Scalar(ACL_FLOAT, 0.5),
                                             t(a, ACL_INT32), w, e);
       },
       aclnnAddRelu, "alpha", kInvalid},
  };
}

class SpecialActivationRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(SpecialActivationRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, SpecialActivationRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
