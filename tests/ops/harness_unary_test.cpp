// Harness rows of the activations and predicates on the unary engine: Sign,
// Hardsigmoid, LeakyRelu, Softplus, Elu, Gelu, GeluV2, Threshold, LogicalNot
// and their in-place forms, with the attribute values ggml's CANN backend
// passes among others. Each row's reference is float64; its tolerance is the
// bound the op's functor declares (src/kernels/unary_accuracy.h), plus the
// rounding to the result and out dtypes. Below the rows: special values
// (NaN, infinities, signed zeros, large magnitudes) and every rejection with
// CANN's code.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../../src/kernels/unary_accuracy.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_softplus.h"
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

std::vector<OpRow> ActivationRows() {
  std::vector<OpRow> rows = {SignRow(),   HardsigmoidRow(), SoftplusRow(),  GeluRow(),
                             GeluV2Row(), ThresholdRow(),   LogicalNotRow()};
  for (auto* more : {LeakyReluRows, EluRows}) {
    for (OpRow& row : more()) rows.push_back(std::move(row));
  }
  return rows;
}
CANOPY_HARNESS_ROWS(ActivationRows);

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
  };
}

TEST(ActivationRejections, EachWithCannsCode) {
  for (const Rejection& r : Rejections()) {
    const OpRun run = RunOp(r.phase1, r.phase2);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << r.what << ": " << Describe(run);
  }
}

}  // namespace
}  // namespace canopy_test
