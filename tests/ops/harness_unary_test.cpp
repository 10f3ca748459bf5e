// Harness rows of the activations and predicates on the unary engine: Sign,
// Hardsigmoid, LeakyRelu, Softplus, Elu, Gelu, GeluV2, Threshold, LogicalNot
// and their in-place forms, with the attribute values ggml's CANN backend
// passes among others. Each row's reference is float64; its tolerance is the
// bound the op's functor declares (src/kernels/unary_accuracy.h), plus the
// rounding to the result and out dtypes. Below the rows: special values
// (NaN, infinities, signed zeros, large magnitudes) and every rejection with
// CANN's code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../../src/kernels/unary_accuracy.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_is_inf.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_isneginf.h"
#include "aclnnop/aclnn_isposinf.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_threshold.h"
#include "harness/harness.h"
#include "unary_bounds.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table
namespace accuracy = canopy::kernels::unary_accuracy;

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE, C64 = ACL_COMPLEX64,
                      C128 = ACL_COMPLEX128, S8 = ACL_INT8, U8 = ACL_UINT8, S16 = ACL_INT16, S32 = ACL_INT32,
                      S64 = ACL_INT64, BOOL = ACL_BOOL;

using unary_bounds::Bounded;
using unary_bounds::BoundedReference;
using unary_bounds::ScalarFn;

double Real(Value x) { return x.real(); }
Value Scalar(const AttrSet& attrs, const char* key) { return attrs.Scalar(key).value; }

// ---- the references ---------------------------------------------------------------------------

Value SignOf(Value x, const AttrSet&) {
  if (x.imag() != 0) return x / std::abs(x);
  const double v = Real(x);
  return (v > 0) - (v < 0);  // NaN and -0 give 0
}
Value HardsigmoidOf(Value x, const AttrSet&) {
  const double v = Real(x);
  return v >= 3 ? 1.0 : (v <= -3 ? 0.0 : v / 6 + 0.5);
}
// The slope as the device holds it: a FLOAT.
Value LeakyReluOf(Value x, const AttrSet& a) {
  const double v = Real(x), slope = static_cast<float>(Real(Scalar(a, "negativeSlope")));
  return v > 0 ? v : v * slope;
}
Value SoftplusOf(Value x, const AttrSet& a) {
  const double v = Real(x), beta = Real(Scalar(a, "beta")), threshold = Real(Scalar(a, "threshold"));
  return beta * v > threshold ? v : std::log1p(std::exp(beta * v)) / beta;
}
Value EluOf(Value x, const AttrSet& a) {
  const double v = Real(x), alpha = Real(Scalar(a, "alpha")), scale = Real(Scalar(a, "scale")),
               inputScale = Real(Scalar(a, "inputScale"));
  return v > 0 ? scale * v : alpha * scale * std::expm1(v * inputScale);
}
// The tanh form 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
// written as x / (1 + e^(-2u)): the same number without the cancellation of
// 1 + tanh(u) for negative x (which loses every digit of float64 by x = -6).
Value GeluTanhOf(Value x, const AttrSet&) {
  const double v = Real(x), u = std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v);
  return v / (1 + std::exp(-2 * u));
}
Value GeluErfOf(Value x, const AttrSet&) {
  const double v = Real(x);
  return 0.5 * v * std::erfc(-v / std::sqrt(2.0));
}
Value LogicalNotOf(Value x, const AttrSet&) { return x == Value(0) ? 1.0 : 0.0; }

// ---- rows -------------------------------------------------------------------------------------

// Every dtype of `dtypes` with out of the same dtype, and a few casts of the result into another out.
std::vector<DtypeCase> WithCasts(const std::vector<aclDataType>& dtypes, std::vector<DtypeCase> casts) {
  return Concat(EachDtype(dtypes), Singly(std::move(casts)));
}

OpRow UnaryRow(const std::string& name, std::vector<DtypeCase> dtypes, Range range) {
  OpRow row;
  row.name = name;
  row.inputs = {Arg{.name = "self", .range = range}};
  row.dtypes = std::move(dtypes);
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  return row;
}

// An in-place form whose dtype list differs from the out form's (LeakyRelu, Elu: DOUBLE in place only).
OpRow InplaceOnly(OpRow row, const std::string& name, const std::vector<aclDataType>& dtypes) {
  row.name = name;
  row.out = {};
  row.dtypes = EachDtype(dtypes);
  return row;
}

OpRow SignRow() {
  OpRow row =
      UnaryRow("Sign", EachDtype({F64, F32, F16, S32, S64, BF16, C64, C128, BOOL}), Range{-5, 5, 0, /*zeroEvery=*/4});
  row.out = {[](Call& c) { return aclnnSignGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnSign};
  row.reference = BoundedReference(SignOf, accuracy::kSign);
  return row;
}

OpRow HardsigmoidRow() {
  OpRow row = UnaryRow("Hardsigmoid", EachDtype({F32, F16, S32, BF16}), Range{-5, 5});
  row.out = {
      [](Call& c) { return aclnnHardsigmoidGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
      aclnnHardsigmoid};
  row.inplace = {
      [](Call& c) { return aclnnInplaceHardsigmoidGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
      aclnnInplaceHardsigmoid};
  row.reference = BoundedReference(HardsigmoidOf, accuracy::kHardsigmoid);
  return row;
}

// ggml passes its op's float slope (0.01 by default, 0.1 in its tests); also a
// negative slope and integral and 16-bit scalars.
std::vector<AttrSet> SlopeSets() {
  return {{"ggml", {{"negativeSlope", ScalarAttr{F32, 0.01}}}},
          {"slope_0_1", {{"negativeSlope", ScalarAttr{F32, 0.1}}}},
          {"slope_neg", {{"negativeSlope", ScalarAttr{F64, -0.3}}}},
          {"slope_s32", {{"negativeSlope", ScalarAttr{S32, 2}}}},
          {"slope_f16", {{"negativeSlope", ScalarAttr{F16, 0.25}}}}};
}

std::vector<OpRow> LeakyReluRows() {
  OpRow row =
      UnaryRow("LeakyRelu", WithCasts({F32, F16, BF16}, {{{F16}, F32}, {{F32}, F16}, {{BF16}, F32}}), Range{-6, 6});
  row.out = {[](Call& c) {
               return aclnnLeakyReluGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("negativeSlope"), c.Out(),
                                                     c.workspaceSize, c.executor);
             },
             aclnnLeakyRelu};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceLeakyReluGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("negativeSlope"),
                                                                c.workspaceSize, c.executor);
                 },
                 aclnnInplaceLeakyRelu};
  row.attrs = SlopeSets();
  row.reference = BoundedReference(LeakyReluOf, accuracy::kLeakyRelu);
  return {row, InplaceOnly(row, "InplaceLeakyRelu", {F32, F16, BF16, F64})};
}

OpRow SoftplusRow() {
  OpRow row = UnaryRow("Softplus", WithCasts({F32, F16, BF16}, {{{F16}, F32}, {{F32}, BF16}}), Range{-30, 30});
  row.out = {[](Call& c) {
               return aclnnSoftplusGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("beta"), c.ScalarAttr("threshold"),
                                                    c.Out(), c.workspaceSize, c.executor);
             },
             aclnnSoftplus};
  // ggml: beta 1, threshold 20. A threshold far past where e^(beta x) overflows f32, integral scalars.
  row.attrs = {{"ggml", {{"beta", ScalarAttr{F32, 1}}, {"threshold", ScalarAttr{F32, 20}}}},
               {"beta2_thr5", {{"beta", ScalarAttr{F32, 2}}, {"threshold", ScalarAttr{F32, 5}}}},
               {"beta_half_thr200", {{"beta", ScalarAttr{F64, 0.5}}, {"threshold", ScalarAttr{F32, 200}}}},
               {"s32", {{"beta", ScalarAttr{S32, 3}}, {"threshold", ScalarAttr{S64, 10}}}}};
  row.reference = BoundedReference(SoftplusOf, accuracy::kSoftplus);
  return row;
}

std::vector<OpRow> EluRows() {
  OpRow row = UnaryRow("Elu", WithCasts({F32, F16, BF16}, {{{F16}, F32}, {{F32}, F16}}), Range{-8, 8});
  row.out = {[](Call& c) {
               return aclnnEluGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("alpha"), c.ScalarAttr("scale"),
                                               c.ScalarAttr("inputScale"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnElu};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceEluGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("alpha"), c.ScalarAttr("scale"),
                                                          c.ScalarAttr("inputScale"), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceElu};
  // ggml passes one FLOAT 1 for all three; SELU's constants; other scalings and dtypes.
  row.attrs = {
      {"ggml", {{"alpha", ScalarAttr{F32, 1}}, {"scale", ScalarAttr{F32, 1}}, {"inputScale", ScalarAttr{F32, 1}}}},
      {"selu",
       {{"alpha", ScalarAttr{F32, 1.6732632423543772}},
        {"scale", ScalarAttr{F32, 1.0507009873554805}},
        {"inputScale", ScalarAttr{F32, 1}}}},
      {"scaled",
       {{"alpha", ScalarAttr{F64, 0.5}}, {"scale", ScalarAttr{S32, 2}}, {"inputScale", ScalarAttr{F16, 0.25}}}}};
  // The scalars as the device holds them (FLOAT values).
  row.reference = BoundedReference(
      [](Value x, const AttrSet& a) {
        AttrSet f32 = a;
        for (auto& [key, value] : f32.values) {
          ScalarAttr s = std::get<ScalarAttr>(value);
          s.value = static_cast<float>(s.value.real());
          value = s;
        }
        return EluOf(x, f32);
      },
      accuracy::kElu);
  return {row, InplaceOnly(row, "InplaceElu", {F32, F16, BF16, F64})};
}

OpRow GeluRow() {
  OpRow row = UnaryRow("Gelu", EachDtype({F32, F16, BF16}), Range{-10, 10});
  row.out = {[](Call& c) { return aclnnGeluGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnGelu};
  row.reference = BoundedReference(GeluTanhOf, accuracy::kGeluTanh);
  return row;
}

// approximate: 0 none (ggml's value), 1 tanh; CANN takes any other value as none.
OpRow GeluV2Row() {
  OpRow row = UnaryRow("GeluV2", EachDtype({F32, F16, BF16}), Range{-10, 10});
  row.inputs[0].name = "x";
  row.out = {[](Call& c) {
               return aclnnGeluV2GetWorkspaceSize(c.Tensor(0), c.IntAttr("approximate"), c.Out(), c.workspaceSize,
                                                  c.executor);
             },
             aclnnGeluV2};
  row.attrs = {{"none", {{"approximate", int64_t{0}}}},
               {"tanh", {{"approximate", int64_t{1}}}},
               {"other_is_none", {{"approximate", int64_t{2}}}}};
  row.reference = [](const RefCall& call) {
    const bool tanh = call.attrs.Int("approximate") == 1;
    const Operand& x = call.inputs[0];
    return Bounded(tanh ? GeluTanhOf : GeluErfOf, tanh ? accuracy::kGeluTanh : accuracy::kGeluErf, x.values, x.dtype,
                   x.dtype, call.out, call.attrs);
  };
  return row;
}

// threshold and value are converted to self's dtype before the comparison (CANN).
Value ThresholdOf(Value x, const AttrSet& a, aclDataType self) {
  const Value threshold = ConvertValue(Scalar(a, "threshold"), self), value = ConvertValue(Scalar(a, "value"), self);
  return Real(x) > Real(threshold) ? x : value;
}

OpRow ThresholdRow() {
  const std::vector<aclDataType> dtypes = {BF16, F16, F32, S32, S8, U8, S16, S64};
  OpRow row =
      UnaryRow("Threshold", WithCasts(dtypes, {{{S32}, F32}, {{F16}, F32}, {{U8}, S64}, {{S8}, F16}}), Range{-20, 20});
  row.inputs[0].range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 40} : Range{-20, 20};
  });
  row.out = {[](Call& c) {
               return aclnnThresholdGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("threshold"), c.ScalarAttr("value"),
                                                     c.Out(), c.workspaceSize, c.executor);
             },
             aclnnThreshold};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceThresholdGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("threshold"),
                                                                c.ScalarAttr("value"), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceThreshold};
  auto signedSelf = [](const DtypeCase& dc) { return !IsUnsigned(dc.inputs[0]); };
  // ggml: InplaceThreshold(zero, zero) with FLOAT scalars. A fractional
  // threshold (truncated for integer tensors), integral scalars, a negative value.
  row.attrs = {{"ggml", {{"threshold", ScalarAttr{F32, 0}}, {"value", ScalarAttr{F32, 0}}}},
               {"thr_2_5_val_7", {{"threshold", ScalarAttr{F32, 2.5}}, {"value", ScalarAttr{F64, 7}}}},
               {"s32_val_neg", {{"threshold", ScalarAttr{S32, 3}}, {"value", ScalarAttr{S64, -4}}}, signedSelf}};
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const aclDataType dtype = self.dtype;
    return Bounded([dtype](Value x, const AttrSet& a) { return ThresholdOf(x, a, dtype); }, accuracy::kThreshold,
                   self.values, dtype, dtype, call.out, call.attrs);
  };
  return row;
}

OpRow LogicalNotRow() {
  const std::vector<aclDataType> dtypes = {BOOL, U8, S8, S16, S32, S64, F32, F16, F64, BF16};
  OpRow row = UnaryRow("LogicalNot",
                       Concat(EachDtype(dtypes), Singly({{{F32}, F32}, {{S32}, F16}, {{BOOL}, S64}, {{F16}, BF16}})),
                       Range{-3, 3, 0, /*zeroEvery=*/3});
  row.outDtype = FixedDtype(BOOL);
  row.out = {[](Call& c) { return aclnnLogicalNotGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnLogicalNot};
  row.inplace = {
      [](Call& c) { return aclnnInplaceLogicalNotGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
      aclnnInplaceLogicalNot, false,
      // In place the bool result is written in selfRef's own dtype.
      [](const DtypeCase& dc, aclDataType) { return dc.out == ACL_DT_UNDEFINED; }};
  row.reference = BoundedReference(LogicalNotOf, accuracy::kLogicalNot, /*boolResult=*/true);
  return row;
}

// IsFinite, IsInf, IsNegInf, IsPosInf on random data (finite: all 0 or all 1;
// PredicateSpecialValues below gives them NaN and the infinities). Out is BOOL only.
OpRow PredicateRow(const std::string& name, std::vector<aclDataType> dtypes, Phase1Fn out, Phase2 phase2, bool finite) {
  OpRow row = UnaryRow(name, EachDtype(dtypes), Range{-1e4, 1e4});
  if (name == "IsInf") row.inputs[0].name = "x";
  row.outDtype = FixedDtype(BOOL);
  row.out = {std::move(out), phase2};
  row.reference = BoundedReference([finite](Value, const AttrSet&) { return Value(finite ? 1.0 : 0.0); }, 0, true);
  return row;
}

std::vector<OpRow> PredicateRows() {
  const std::vector<aclDataType> floats = {F32, F16, F64, BF16};
  return {
      PredicateRow(
          "IsFinite", floats,
          [](Call& c) { return aclnnIsFiniteGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
          aclnnIsFinite, true),
      PredicateRow(
          "IsInf", {F32, F16, F64, BF16, S8, S16, S32, S64, U8, BOOL},
          [](Call& c) { return aclnnIsInfGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
          aclnnIsInf, false),
      PredicateRow(
          "IsNegInf", floats,
          [](Call& c) { return aclnnIsNegInfGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
          aclnnIsNegInf, false),
      PredicateRow(
          "IsPosInf", floats,
          [](Call& c) { return aclnnIsPosInfGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
          aclnnIsPosInf, false),
  };
}
CANOPY_HARNESS_ROWS(PredicateRows);

std::vector<OpRow> ActivationRows() {
  std::vector<OpRow> rows = {SignRow(),   HardsigmoidRow(), SoftplusRow(),  GeluRow(),
                             GeluV2Row(), ThresholdRow(),   LogicalNotRow()};
  for (auto* more : {LeakyReluRows, EluRows}) {
    for (OpRow& row : more()) rows.push_back(std::move(row));
  }
  return rows;
}
CANOPY_HARNESS_ROWS(ActivationRows);

// ---- Hardtanh, Mish, Selu, Celu, LogSigmoid, Hardshrink, Softshrink ----------------------------

// The bounds converted to self's dtype (CANN converts them before clamping).
Value HardtanhOf(Value x, const AttrSet& a, aclDataType self) {
  const double lo = Real(ConvertValue(Scalar(a, "clipValueMin"), self));
  const double hi = Real(ConvertValue(Scalar(a, "clipValueMax"), self));
  const double v = Real(x);
  return v < lo ? lo : (v > hi ? hi : v);
}
Value MishOf(Value x, const AttrSet&) {
  const double v = Real(x);
  return v * std::tanh(std::log1p(std::exp(v)));
}
constexpr double kSeluAlpha = 1.6732632423543772848, kSeluScale = 1.0507009873554804934;
// The constants as the device holds them (FLOAT values).
Value SeluOf(Value x, const AttrSet&) {
  const double v = Real(x), alpha = static_cast<float>(kSeluAlpha), scale = static_cast<float>(kSeluScale);
  return v > 0 ? scale * v : scale * alpha * std::expm1(v);
}
Value CeluOf(Value x, const AttrSet& a) {
  const double v = Real(x), alpha = static_cast<float>(Real(Scalar(a, "alpha")));
  // max(0, x) + min(0, alpha (e^(x / alpha) - 1)) for any sign of alpha, NaN kept (torch.celu).
  return v > 0 ? v : alpha * std::expm1(v / alpha);
}
Value LogSigmoidOf(Value x, const AttrSet&) {
  const double v = Real(x);
  return std::min(v, 0.0) - std::log1p(std::exp(-std::abs(v)));
}
double Lambd(const AttrSet& a) { return static_cast<float>(Real(Scalar(a, "lambd"))); }
Value HardshrinkOf(Value x, const AttrSet& a) {
  const double v = Real(x), lambd = std::max(Lambd(a), 0.0);
  return std::abs(v) <= lambd ? 0.0 : v;
}
Value SoftshrinkOf(Value x, const AttrSet& a) {
  const double v = Real(x), lambd = Lambd(a);
  return v > lambd ? v - lambd : (v < -lambd ? v + lambd : 0.0);
}

std::vector<OpRow> HardtanhRows() {
  const std::vector<aclDataType> dtypes = {F16, F32, S32, S64, S16, S8, U8, F64, BF16};
  OpRow row = UnaryRow("Hardtanh", EachDtype(dtypes), Range{-8, 8});
  row.inputs[0].range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 20} : Range{-8, 8};
  });
  row.out = {[](Call& c) {
               return aclnnHardtanhGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("clipValueMin"),
                                                    c.ScalarAttr("clipValueMax"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnHardtanh};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceHardtanhGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("clipValueMin"),
                                                               c.ScalarAttr("clipValueMax"), c.workspaceSize,
                                                               c.executor);
                 },
                 aclnnInplaceHardtanh};
  auto signedSelf = [](const DtypeCase& dc) { return !IsUnsigned(dc.inputs[0]); };
  // torch's default bounds, fractional FLOAT bounds (truncated for integer
  // tensors), integral bounds of other dtypes, and min == max.
  row.attrs = {{"unit", {{"clipValueMin", ScalarAttr{F32, -1}}, {"clipValueMax", ScalarAttr{F32, 1}}}, signedSelf},
               {"frac", {{"clipValueMin", ScalarAttr{F64, -2.5}}, {"clipValueMax", ScalarAttr{F16, 3.75}}}, signedSelf},
               {"s32", {{"clipValueMin", ScalarAttr{S32, 2}}, {"clipValueMax", ScalarAttr{S64, 6}}}},
               {"equal", {{"clipValueMin", ScalarAttr{U8, 4}}, {"clipValueMax", ScalarAttr{S8, 4}}}}};
  row.reference = [](const RefCall& call) {
    const Operand& self = call.inputs[0];
    const aclDataType dtype = self.dtype;
    return Bounded([dtype](Value x, const AttrSet& a) { return HardtanhOf(x, a, dtype); }, accuracy::kHardtanh,
                   self.values, dtype, dtype, call.out, call.attrs);
  };
  return {row};
}

OpRow MishRow() {
  OpRow row = UnaryRow("Mish", EachDtype({F16, F32, BF16}), Range{-25, 25});
  row.out = {[](Call& c) { return aclnnMishGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnMish};
  row.inplace = {[](Call& c) { return aclnnInplaceMishGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
                 aclnnInplaceMish};
  row.reference = BoundedReference(MishOf, accuracy::kMish);
  return row;
}

OpRow SeluRow() {
  OpRow row = UnaryRow("Selu", WithCasts({F32, F16, S32, S8, BF16}, {{{S8}, F32}, {{F16}, F32}, {{S32}, BF16}}),
                       Range{-10, 10});
  row.out = {[](Call& c) { return aclnnSeluGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnSelu};
  row.inplace = {[](Call& c) { return aclnnInplaceSeluGetWorkspaceSize(c.Tensor(0), c.workspaceSize, c.executor); },
                 aclnnInplaceSelu};
  row.reference = BoundedReference(SeluOf, accuracy::kElu);
  return row;
}

OpRow CeluRow() {
  OpRow row = UnaryRow("Celu", WithCasts({F32, F16, BF16}, {{{F16}, F32}, {{F32}, BF16}}), Range{-8, 8});
  row.out = {[](Call& c) {
               return aclnnCeluGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("alpha"), c.Out(), c.workspaceSize,
                                                c.executor);
             },
             aclnnCelu};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceCeluGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("alpha"), c.workspaceSize,
                                                           c.executor);
                 },
                 aclnnInplaceCelu};
  // torch's default 1, a fractional and a negative alpha, an integral one.
  row.attrs = {{"alpha1", {{"alpha", ScalarAttr{F32, 1}}}},
               {"alpha_0_3", {{"alpha", ScalarAttr{F64, 0.3}}}},
               {"alpha_neg2", {{"alpha", ScalarAttr{F32, -2}}}},
               {"alpha_s32", {{"alpha", ScalarAttr{S32, 3}}}}};
  // 1 / alpha rounded to f32 moves the argument by one more unit.
  row.reference = BoundedReference(CeluOf, accuracy::kElu + 1);
  return row;
}

std::vector<OpRow> LogSigmoidRows() {
  OpRow row = UnaryRow("LogSigmoid", EachDtype({F32, F16, BF16}), Range{-30, 30});
  row.out = {[](Call& c) { return aclnnLogSigmoidGetWorkspaceSize(c.Tensor(0), c.Out(), c.workspaceSize, c.executor); },
             aclnnLogSigmoid};
  row.reference = BoundedReference(LogSigmoidOf, accuracy::kLogSigmoid);
  // The same op with its (unused, optional) buffer absent.
  OpRow forward = row;
  forward.name = "LogSigmoidForward";
  forward.out = {[](Call& c) {
                   return aclnnLogSigmoidForwardGetWorkspaceSize(c.Tensor(0), c.Out(), nullptr, c.workspaceSize,
                                                                 c.executor);
                 },
                 aclnnLogSigmoidForward};
  return {row, forward};
}

// lambd: torch's 0.5, one above the range's middle, a negative one (CANN takes it as 0), an integral one.
std::vector<AttrSet> LambdSets(bool negative) {
  std::vector<AttrSet> sets = {{"lambd_0_5", {{"lambd", ScalarAttr{F32, 0.5}}}},
                               {"lambd_1_25", {{"lambd", ScalarAttr{F64, 1.25}}}},
                               {"lambd_s32", {{"lambd", ScalarAttr{S32, 2}}}}};
  if (negative) sets.push_back({"lambd_neg", {{"lambd", ScalarAttr{F32, -1}}}});
  return sets;
}

OpRow HardshrinkRow() {
  OpRow row = UnaryRow("Hardshrink", WithCasts({BF16, F16, F32}, {{{F16}, F32}, {{F32}, BF16}}), Range{-4, 4});
  row.out = {[](Call& c) {
               return aclnnHardshrinkGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("lambd"), c.Out(), c.workspaceSize,
                                                      c.executor);
             },
             aclnnHardshrink};
  row.attrs = LambdSets(true);
  row.reference = BoundedReference(HardshrinkOf, accuracy::kHardshrink);
  return row;
}

OpRow SoftshrinkRow() {
  OpRow row = UnaryRow("Softshrink", WithCasts({F32, F16, BF16}, {{{F16}, F32}, {{BF16}, F16}}), Range{-4, 4});
  row.out = {[](Call& c) {
               return aclnnSoftshrinkGetWorkspaceSize(c.Tensor(0), c.ScalarAttr("lambd"), c.Out(), c.workspaceSize,
                                                      c.executor);
             },
             aclnnSoftshrink};
  row.attrs = LambdSets(false);
  row.reference = BoundedReference(SoftshrinkOf, accuracy::kSoftshrink);
  return row;
}

std::vector<OpRow> ShrinkAndClipRows() {
  std::vector<OpRow> rows = {MishRow(), SeluRow(), CeluRow(), HardshrinkRow(), SoftshrinkRow()};
  for (auto* more : {HardtanhRows, LogSigmoidRows}) {
    for (OpRow& row : more()) rows.push_back(std::move(row));
  }
  return rows;
}
CANOPY_HARNESS_ROWS(ShrinkAndClipRows);

// ---- special values ----------------------------------------------------------------------------

using OutCall = std::function<aclnnStatus(OpArgs& args, aclTensor* self, aclTensor* out, uint64_t*, aclOpExecutor**)>;

struct SpecialRow {
  const char* name;
  OutCall phase1;
  Phase2 phase2;
  ScalarFn f;
  double ulps;
  AttrSet attrs;  // the scalars the call passes, for the reference
};

std::vector<SpecialRow> SpecialRows() {
  const AttrSet none;
  const AttrSet slope{"", {{"negativeSlope", ScalarAttr{F32, 0.01}}}};
  const AttrSet softplus{"", {{"beta", ScalarAttr{F32, 1}}, {"threshold", ScalarAttr{F32, 20}}}};
  const AttrSet elu{"",
                    {{"alpha", ScalarAttr{F32, 1}}, {"scale", ScalarAttr{F32, 1}}, {"inputScale", ScalarAttr{F32, 1}}}};
  const AttrSet threshold{"", {{"threshold", ScalarAttr{F32, 0}}, {"value", ScalarAttr{F32, -1}}}};
  const AttrSet hardtanh{"", {{"clipValueMin", ScalarAttr{F32, -1}}, {"clipValueMax", ScalarAttr{F32, 1}}}};
  const AttrSet celu{"", {{"alpha", ScalarAttr{F32, 2}}}};
  const AttrSet lambd{"", {{"lambd", ScalarAttr{F32, 0.5}}}};
  return {
      {"Sign",
       [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSignGetWorkspaceSize(s, o, w, e);
       },
       aclnnSign, SignOf, accuracy::kSign, none},
      {"Hardsigmoid",
       [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardsigmoidGetWorkspaceSize(s, o, w, e);
       },
       aclnnHardsigmoid, HardsigmoidOf, accuracy::kHardsigmoid, none},
      {"LeakyRelu",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnLeakyReluGetWorkspaceSize(s, a.Scalar(F32, 0.01), o, w, e);
       },
       aclnnLeakyRelu, LeakyReluOf, accuracy::kLeakyRelu, slope},
      {"Softplus",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSoftplusGetWorkspaceSize(s, a.Scalar(F32, 1), a.Scalar(F32, 20), o, w, e);
       },
       aclnnSoftplus, SoftplusOf, accuracy::kSoftplus, softplus},
      {"Elu",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnEluGetWorkspaceSize(s, a.Scalar(F32, 1), a.Scalar(F32, 1), a.Scalar(F32, 1), o, w, e);
       },
       aclnnElu, EluOf, accuracy::kElu, elu},
      {"Gelu",
       [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnGeluGetWorkspaceSize(s, o, w, e);
       },
       aclnnGelu, GeluTanhOf, accuracy::kGeluTanh, none},
      {"GeluV2_none",
       [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnGeluV2GetWorkspaceSize(s, 0, o, w, e);
       },
       aclnnGeluV2, GeluErfOf, accuracy::kGeluErf, none},
      {"Threshold",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnThresholdGetWorkspaceSize(s, a.Scalar(F32, 0), a.Scalar(F32, -1), o, w, e);
       },
       aclnnThreshold, [](Value x, const AttrSet& a) { return ThresholdOf(x, a, F32); }, accuracy::kThreshold,
       threshold},
      {"Hardtanh",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardtanhGetWorkspaceSize(s, a.Scalar(F32, -1), a.Scalar(F32, 1), o, w, e);
       },
       aclnnHardtanh, [](Value x, const AttrSet& a) { return HardtanhOf(x, a, F32); }, accuracy::kHardtanh, hardtanh},
      {"Selu",
       [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSeluGetWorkspaceSize(s, o, w, e);
       },
       aclnnSelu, SeluOf, accuracy::kElu, none},
      {"Celu",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnCeluGetWorkspaceSize(s, a.Scalar(F32, 2), o, w, e);
       },
       aclnnCelu, CeluOf, accuracy::kElu + 1, celu},
      {"LogSigmoid",
       [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnLogSigmoidGetWorkspaceSize(s, o, w, e);
       },
       aclnnLogSigmoid, LogSigmoidOf, accuracy::kLogSigmoid, none},
      {"Hardshrink",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnHardshrinkGetWorkspaceSize(s, a.Scalar(F32, 0.5), o, w, e);
       },
       aclnnHardshrink, HardshrinkOf, accuracy::kHardshrink, lambd},
      {"Softshrink",
       [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnSoftshrinkGetWorkspaceSize(s, a.Scalar(F32, 0.5), o, w, e);
       },
       aclnnSoftshrink, SoftshrinkOf, accuracy::kSoftshrink, lambd},
  };
}

// NaN, infinities, signed zeros, huge and tiny magnitudes and the kinks of
// each function, in each float dtype the ops share, through the vector
// kernels (a contiguous run) and the strided path.
TEST(ActivationSpecialValues, MatchTheFloat64Reference) {
  const Values special = {0.0,  -0.0,  1.0, -1.0, INFINITY, -INFINITY, NAN,   80.0, -80.0, -100.0, 1e-30, -1e-30,
                          30.0, -30.0, 3.0, -3.0, 20.0,     1e30,      -1e30, 0.5,  -0.5,  1e-40,  -12.0, 12.0};
  for (const SpecialRow& row : SpecialRows()) {
    for (aclDataType dtype : {F32, F16, BF16}) {
      for (View view : {View::kContiguous, View::kStepped}) {
        Values in;
        for (Value v : special) in.push_back(ConvertValue(v, dtype));
        DeviceTensor self(dtype, {static_cast<int64_t>(in.size())}, view);
        DeviceTensor out(dtype, {static_cast<int64_t>(in.size())}, view);
        self.WriteView(in);
        out.Poison();
        const OpRun run =
            RunOp([&](OpArgs& args, uint64_t* ws,
                      aclOpExecutor** ex) { return row.phase1(args, args.Tensor(self), args.Tensor(out), ws, ex); },
                  row.phase2);
        ASSERT_TRUE(run.ok()) << row.name << " " << Describe(run);
        ExpectNear(out.ReadView(), Bounded(row.f, row.ulps, in, dtype, dtype, dtype, row.attrs),
                   std::string(row.name) + " " + Name(dtype) + " " + ViewName(view));
      }
    }
  }
}

// NaN, the infinities, signed zeros, the largest finite values and
// subnormals, contiguous (vector kernels) and strided, in each float dtype.
TEST(PredicateSpecialValues, ClassifyEachValue) {
  struct Predicate {
    const char* name;
    aclnnStatus (*phase1)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
    Phase2 phase2;
    bool (*want)(double);
  };
  const std::vector<Predicate> predicates = {
      {"IsFinite",
       [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnIsFiniteGetWorkspaceSize(s, o, w, e);
       },
       aclnnIsFinite, [](double x) { return std::isfinite(x); }},
      {"IsInf",
       [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnIsInfGetWorkspaceSize(s, o, w, e);
       },
       aclnnIsInf, [](double x) { return std::isinf(x); }},
      {"IsNegInf",
       [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnIsNegInfGetWorkspaceSize(s, o, w, e);
       },
       aclnnIsNegInf, [](double x) { return x == -INFINITY; }},
      {"IsPosInf",
       [](const aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
         return aclnnIsPosInfGetWorkspaceSize(s, o, w, e);
       },
       aclnnIsPosInf, [](double x) { return x == INFINITY; }},
  };
  const Values special = {0.0,    -0.0,    1.0,   -1.0,  INFINITY, -INFINITY, NAN,      -NAN, 65504.0,   -65504.0,
                          3.0e38, -3.0e38, 1e-40, 1e300, -1e300,   0.5,       INFINITY, NAN,  -INFINITY, 7.0};
  for (const Predicate& p : predicates) {
    for (aclDataType dtype : {F32, F16, BF16, F64}) {
      for (View view : {View::kContiguous, View::kStepped}) {
        Values in, want;
        for (Value v : special) {
          in.push_back(ConvertValue(v, dtype));  // 1e300 is inf as FLOAT, 3e38 as FLOAT16
          want.push_back(p.want(in.back().real()) ? 1.0 : 0.0);
        }
        DeviceTensor self(dtype, {static_cast<int64_t>(in.size())}, view);
        DeviceTensor out(BOOL, {static_cast<int64_t>(in.size())}, view);
        self.WriteView(in);
        out.Poison();
        const OpRun run =
            RunOp([&](OpArgs& args, uint64_t* ws,
                      aclOpExecutor** ex) { return p.phase1(args.Tensor(self), args.Tensor(out), ws, ex); },
                  p.phase2);
        ASSERT_TRUE(run.ok()) << p.name << " " << Describe(run);
        ExpectExact(out.ReadView(), want, std::string(p.name) + " " + Name(dtype) + " " + ViewName(view));
      }
    }
  }
}

// ---- rejections --------------------------------------------------------------------------------

struct Rejection {
  std::string what;
  Phase1 phase1;
  Phase2 phase2;
};

// Out of place: self of `self` dtype and shape {2, 3}, out of `out` dtype and `outShape`.
template <typename Fn>
Rejection Out(std::string what, aclDataType self, aclDataType out, Fn call, Phase2 phase2, Shape outShape = {2, 3}) {
  return {std::move(what),
          [=](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return call(a, a.NewTensor(self, {2, 3}), a.NewTensor(out, outShape), w, e);
          },
          phase2};
}
template <typename Fn>
Rejection InPlace(std::string what, aclDataType self, Fn call, Phase2 phase2) {
  return {std::move(what),
          [=](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return call(a, a.NewTensor(self, {2, 3}), w, e);
          },
          phase2};
}

std::vector<Rejection> Rejections() {
  auto sign = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnSignGetWorkspaceSize(s, o, w, e);
  };
  auto hardsigmoid = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnHardsigmoidGetWorkspaceSize(s, o, w, e);
  };
  auto inplaceHardsigmoid = [](OpArgs&, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceHardsigmoidGetWorkspaceSize(s, w, e);
  };
  auto leakyRelu = [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnLeakyReluGetWorkspaceSize(s, a.Scalar(F32, 0.01), o, w, e);
  };
  auto inplaceLeakyRelu = [](OpArgs& a, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceLeakyReluGetWorkspaceSize(s, a.Scalar(F32, 0.01), w, e);
  };
  auto softplus = [](aclDataType betaDtype, aclDataType thresholdDtype) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnSoftplusGetWorkspaceSize(s, a.Scalar(betaDtype, 1), a.Scalar(thresholdDtype, 20), o, w, e);
    };
  };
  auto elu = [](aclDataType alpha, aclDataType scale, aclDataType inputScale) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnEluGetWorkspaceSize(s, a.Scalar(alpha, 1), a.Scalar(scale, 1), a.Scalar(inputScale, 1), o, w, e);
    };
  };
  auto inplaceElu = [](aclDataType alpha) {
    return [=](OpArgs& a, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceEluGetWorkspaceSize(s, a.Scalar(alpha, 1), a.Scalar(F32, 1), a.Scalar(F32, 1), w, e);
    };
  };
  auto gelu = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnGeluGetWorkspaceSize(s, o, w, e);
  };
  auto geluV2 = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnGeluV2GetWorkspaceSize(s, 0, o, w, e);
  };
  auto threshold = [](aclDataType scalar) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnThresholdGetWorkspaceSize(s, a.Scalar(scalar, 0), a.Scalar(F32, 0), o, w, e);
    };
  };
  auto inplaceThreshold = [](OpArgs& a, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceThresholdGetWorkspaceSize(s, a.Scalar(F32, 0), a.Scalar(F32, 0), w, e);
  };
  auto logicalNot = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnLogicalNotGetWorkspaceSize(s, o, w, e);
  };
  auto inplaceLogicalNot = [](OpArgs&, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceLogicalNotGetWorkspaceSize(s, w, e);
  };
  auto isFinite = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnIsFiniteGetWorkspaceSize(s, o, w, e);
  };
  auto isInf = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnIsInfGetWorkspaceSize(s, o, w, e);
  };
  auto isNegInf = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnIsNegInfGetWorkspaceSize(s, o, w, e);
  };
  auto isPosInf = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnIsPosInfGetWorkspaceSize(s, o, w, e);
  };
  return {
      Out("Sign self u8", U8, U8, sign, aclnnSign),
      Out("Sign self s16", S16, S16, sign, aclnnSign),
      Out("Sign result of another dtype", F32, F16, sign, aclnnSign),
      Out("Sign shapes differ", F32, F32, sign, aclnnSign, {3, 2}),
      Out("Hardsigmoid self f64", F64, F64, hardsigmoid, aclnnHardsigmoid),
      Out("Hardsigmoid out of another dtype", F32, F16, hardsigmoid, aclnnHardsigmoid),
      Out("Hardsigmoid shapes differ", F32, F32, hardsigmoid, aclnnHardsigmoid, {6}),
      InPlace("InplaceHardsigmoid f64", F64, inplaceHardsigmoid, aclnnInplaceHardsigmoid),
      Out("LeakyRelu self f64", F64, F64, leakyRelu, aclnnLeakyRelu),
      Out("LeakyRelu self s32", S32, F32, leakyRelu, aclnnLeakyRelu),
      Out("LeakyRelu out s32", F32, S32, leakyRelu, aclnnLeakyRelu),
      Out("LeakyRelu shapes differ", F32, F32, leakyRelu, aclnnLeakyRelu, {2, 4}),
      InPlace("InplaceLeakyRelu s32", S32, inplaceLeakyRelu, aclnnInplaceLeakyRelu),
      Out("Softplus self f64", F64, F64, softplus(F32, F32), aclnnSoftplus),
      Out("Softplus beta c64", F32, F32, softplus(C64, F32), aclnnSoftplus),
      Out("Softplus threshold c64", F16, F16, softplus(F32, C64), aclnnSoftplus),
      Out("Softplus out s32", F32, S32, softplus(F32, F32), aclnnSoftplus),
      Out("Softplus shapes differ", F32, F32, softplus(F32, F32), aclnnSoftplus, {3, 2}),
      Out("Elu self f64", F64, F64, elu(F32, F32, F32), aclnnElu),
      Out("Elu alpha c64", F32, F32, elu(C64, F32, F32), aclnnElu),
      Out("Elu scale c128", F32, F32, elu(F32, C128, F32), aclnnElu),
      Out("Elu inputScale c64", F32, F32, elu(F32, F32, C64), aclnnElu),
      Out("Elu out s32", F32, S32, elu(F32, F32, F32), aclnnElu),
      Out("Elu shapes differ", F32, F32, elu(F32, F32, F32), aclnnElu, {3, 2}),
      InPlace("InplaceElu s32", S32, inplaceElu(F32), aclnnInplaceElu),
      InPlace("InplaceElu alpha c64", F32, inplaceElu(C64), aclnnInplaceElu),
      Out("Gelu self f64", F64, F64, gelu, aclnnGelu),
      Out("Gelu out of another dtype", F32, F16, gelu, aclnnGelu),
      Out("Gelu shapes differ", F32, F32, gelu, aclnnGelu, {3, 2}),
      Out("GeluV2 x s32", S32, S32, geluV2, aclnnGeluV2),
      Out("GeluV2 y of another dtype", F16, F32, geluV2, aclnnGeluV2),
      Out("GeluV2 shapes differ", F32, F32, geluV2, aclnnGeluV2, {2, 3, 1}),
      Out("Threshold self f64", F64, F64, threshold(F32), aclnnThreshold),
      Out("Threshold self bool", BOOL, BOOL, threshold(F32), aclnnThreshold),
      Out("Threshold out f64", F32, F64, threshold(F32), aclnnThreshold),
      Out("Threshold f32 into s32", F32, S32, threshold(F32), aclnnThreshold),
      Out("Threshold threshold u16", S8, S8, threshold(ACL_UINT16), aclnnThreshold),
      Out("Threshold shapes differ", F32, F32, threshold(F32), aclnnThreshold, {3, 2}),
      InPlace("InplaceThreshold f64", F64, inplaceThreshold, aclnnInplaceThreshold),
      Out("LogicalNot self u16", ACL_UINT16, BOOL, logicalNot, aclnnLogicalNot),
      Out("LogicalNot self c64", C64, BOOL, logicalNot, aclnnLogicalNot),
      Out("LogicalNot out c64", F32, C64, logicalNot, aclnnLogicalNot),
      Out("LogicalNot shapes differ", BOOL, BOOL, logicalNot, aclnnLogicalNot, {3, 2}),
      InPlace("InplaceLogicalNot c64", C64, inplaceLogicalNot, aclnnInplaceLogicalNot),
      Out("IsFinite self s32", S32, BOOL, isFinite, aclnnIsFinite),
      Out("IsFinite out f32", F32, F32, isFinite, aclnnIsFinite),
      Out("IsFinite shapes differ", F32, BOOL, isFinite, aclnnIsFinite, {3, 2}),
      Out("IsInf x c64", C64, BOOL, isInf, aclnnIsInf),
      Out("IsInf x u16", ACL_UINT16, BOOL, isInf, aclnnIsInf),
      Out("IsInf out s32", F32, S32, isInf, aclnnIsInf),
      Out("IsNegInf self s64", S64, BOOL, isNegInf, aclnnIsNegInf),
      Out("IsNegInf out f16", F16, F16, isNegInf, aclnnIsNegInf),
      Out("IsPosInf self bool", BOOL, BOOL, isPosInf, aclnnIsPosInf),
      Out("IsPosInf out u8", F32, U8, isPosInf, aclnnIsPosInf),
  };
}

TEST(ActivationRejections, EachWithCannsCode) {
  for (const Rejection& r : Rejections()) {
    const OpRun run = RunOp(r.phase1, r.phase2);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << r.what << ": " << Describe(run);
  }
}

// Hardtanh, Mish, Selu, Celu, LogSigmoid, Hardshrink, Softshrink.
std::vector<Rejection> ShrinkAndClipRejections() {
  auto hardtanh = [](aclDataType bound, double lo, double hi) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnHardtanhGetWorkspaceSize(s, a.Scalar(bound, lo), a.Scalar(bound, hi), o, w, e);
    };
  };
  auto inplaceHardtanh = [](aclDataType bound, double lo, double hi) {
    return [=](OpArgs& a, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceHardtanhGetWorkspaceSize(s, a.Scalar(bound, lo), a.Scalar(bound, hi), w, e);
    };
  };
  auto mish = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnMishGetWorkspaceSize(s, o, w, e);
  };
  auto inplaceMish = [](OpArgs&, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceMishGetWorkspaceSize(s, w, e);
  };
  auto selu = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnSeluGetWorkspaceSize(s, o, w, e);
  };
  auto inplaceSelu = [](OpArgs&, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceSeluGetWorkspaceSize(s, w, e);
  };
  auto celu = [](aclDataType dtype, double alpha) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnCeluGetWorkspaceSize(s, a.Scalar(dtype, alpha), o, w, e);
    };
  };
  auto inplaceCelu = [](aclDataType dtype, double alpha) {
    return [=](OpArgs& a, aclTensor* s, uint64_t* w, aclOpExecutor** e) {
      return aclnnInplaceCeluGetWorkspaceSize(s, a.Scalar(dtype, alpha), w, e);
    };
  };
  auto logSigmoid = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnLogSigmoidGetWorkspaceSize(s, o, w, e);
  };
  auto logSigmoidForward = [](OpArgs&, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
    return aclnnLogSigmoidForwardGetWorkspaceSize(s, o, nullptr, w, e);
  };
  auto hardshrink = [](aclDataType dtype) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnHardshrinkGetWorkspaceSize(s, a.Scalar(dtype, 0.5), o, w, e);
    };
  };
  auto softshrink = [](aclDataType dtype, double lambd) {
    return [=](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
      return aclnnSoftshrinkGetWorkspaceSize(s, a.Scalar(dtype, lambd), o, w, e);
    };
  };
  return {
      Out("Hardtanh self bool", BOOL, BOOL, hardtanh(F32, -1, 1), aclnnHardtanh),
      Out("Hardtanh self c64", C64, C64, hardtanh(F32, -1, 1), aclnnHardtanh),
      Out("Hardtanh clipValueMin bool (CANN's code)", F32, F32, hardtanh(BOOL, 0, 1), aclnnHardtanh),
      Out(
          "Hardtanh clipValueMax c64", F32, F32,
          [](OpArgs& a, aclTensor* s, aclTensor* o, uint64_t* w, aclOpExecutor** e) {
            return aclnnHardtanhGetWorkspaceSize(s, a.Scalar(F32, -1), a.Scalar(C64, 1), o, w, e);
          },
          aclnnHardtanh),
      Out("Hardtanh out of another dtype", F32, F16, hardtanh(F32, -1, 1), aclnnHardtanh),
      Out("Hardtanh shapes differ", F32, F32, hardtanh(F32, -1, 1), aclnnHardtanh, {3, 2}),
      Out("Hardtanh min above max", F32, F32, hardtanh(F32, 1.5, 1), aclnnHardtanh),
      Out("Hardtanh integer min above max", S32, S32, hardtanh(S32, 3, 2), aclnnHardtanh),
      InPlace("InplaceHardtanh min above max", F16, inplaceHardtanh(F64, 0.5, 0.25), aclnnInplaceHardtanh),
      InPlace("InplaceHardtanh selfRef bool", BOOL, inplaceHardtanh(F32, -1, 1), aclnnInplaceHardtanh),
      Out("Mish self f64", F64, F64, mish, aclnnMish),
      Out("Mish out of another dtype", F32, F16, mish, aclnnMish),
      Out("Mish shapes differ", F32, F32, mish, aclnnMish, {3, 2}),
      InPlace("InplaceMish s32", S32, inplaceMish, aclnnInplaceMish),
      Out("Selu self f64", F64, F64, selu, aclnnSelu),
      Out("Selu self s64", S64, S64, selu, aclnnSelu),
      Out("Selu out s16", F32, S16, selu, aclnnSelu),
      Out("Selu f32 into s32", F32, S32, selu, aclnnSelu),
      Out("Selu shapes differ", F32, F32, selu, aclnnSelu, {6}),
      InPlace("InplaceSelu s16", S16, inplaceSelu, aclnnInplaceSelu),
      Out("Celu alpha 0", F32, F32, celu(F32, 0), aclnnCelu),
      Out("Celu alpha c64", F32, F32, celu(C64, 1), aclnnCelu),
      Out("Celu self f64", F64, F64, celu(F32, 1), aclnnCelu),
      Out("Celu out s32", F32, S32, celu(F32, 1), aclnnCelu),
      Out("Celu shapes differ", F32, F32, celu(F32, 1), aclnnCelu, {3, 2}),
      InPlace("InplaceCelu alpha 0", F32, inplaceCelu(S32, 0), aclnnInplaceCelu),
      InPlace("InplaceCelu selfRef f64", F64, inplaceCelu(F32, 1), aclnnInplaceCelu),
      Out("LogSigmoid self f64", F64, F64, logSigmoid, aclnnLogSigmoid),
      Out("LogSigmoid out of another dtype", F32, F16, logSigmoid, aclnnLogSigmoid),
      Out("LogSigmoid shapes differ", F32, F32, logSigmoid, aclnnLogSigmoid, {3, 2}),
      Out("LogSigmoidForward out of another dtype", F16, F32, logSigmoidForward, aclnnLogSigmoidForward),
      Out("Hardshrink self f64", F64, F64, hardshrink(F32), aclnnHardshrink),
      Out("Hardshrink lambd c64", F32, F32, hardshrink(C64), aclnnHardshrink),
      Out("Hardshrink out s32", F32, S32, hardshrink(F32), aclnnHardshrink),
      Out("Hardshrink shapes differ", F32, F32, hardshrink(F32), aclnnHardshrink, {3, 2}),
      Out("Softshrink lambd below 0", F32, F32, softshrink(F32, -0.5), aclnnSoftshrink),
      Out("Softshrink lambd c64", F32, F32, softshrink(C64, 0.5), aclnnSoftshrink),
      Out("Softshrink self s32", S32, S32, softshrink(F32, 0.5), aclnnSoftshrink),
      Out("Softshrink out f64", F32, F64, softshrink(F32, 0.5), aclnnSoftshrink),
      Out("Softshrink shapes differ", F32, F32, softshrink(F32, 0.5), aclnnSoftshrink, {3, 2}),
  };
}

TEST(ShrinkAndClipRejections, EachWithCannsCode) {
  for (const Rejection& r : ShrinkAndClipRejections()) {
    const OpRun run = RunOp(r.phase1, r.phase2);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << r.what << ": " << Describe(run);
  }
}

}  // namespace
}  // namespace canopy_test
