// Harness rows of the pointwise ops with two or more operands (the engine in
// kernels/binary_pointwise.h): comparisons, the Clamp family, Pow,
// MaskedFill, Addcdiv. Each row gives the op's dtypes (CANN's Atlas A2
// column), its promotion and a float64 reference; the harness generates the
// dtype x view x shape x in-place x cache cases (harness/harness.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

// CANN's TensorScalar deduction: the tensor's dtype unless the scalar brings
// floating point (FLOAT) or complex (COMPLEX64) into integer or bool math.
std::optional<aclDataType> TensorScalarDtype(aclDataType tensor, aclDataType scalar) {
  if (IsComplex(tensor)) return tensor;
  if (IsComplex(scalar)) return tensor == ACL_DOUBLE ? ACL_COMPLEX128 : ACL_COMPLEX64;
  if (IsRealFloat(tensor)) return tensor;
  if (IsRealFloat(scalar)) return ACL_FLOAT;
  if (IsBool(tensor)) return Promote(tensor, scalar);
  return tensor;
}

// The dtype two operands compute in: tensor-tensor promotion, or the
// TensorScalar deduction when the second is a scalar.
aclDataType ComputeDtype(const RefCall& call, bool scalarOther) {
  const aclDataType a = call.inputs[0].dtype, b = call.inputs[1].dtype;
  return *(scalarOther ? TensorScalarDtype(a, b) : Promote(a, b));
}

// ---- comparisons --------------------------------------------------------------------------------

const std::vector<aclDataType> kEqDtypes = {ACL_DOUBLE, ACL_FLOAT16, ACL_FLOAT,     ACL_BF16,
                                            ACL_INT64,  ACL_INT32,   ACL_INT8,      ACL_UINT8,
                                            ACL_BOOL,   ACL_INT16,   ACL_COMPLEX64, ACL_COMPLEX128};
const std::vector<aclDataType> kGtDtypes = {ACL_DOUBLE, ACL_BF16,  ACL_FLOAT16, ACL_FLOAT, ACL_INT32,
                                            ACL_UINT32, ACL_INT64, ACL_UINT64,  ACL_INT16, ACL_UINT16,
                                            ACL_INT8,   ACL_UINT8, ACL_BOOL};

// A comparison's reference: both operands converted to the compute dtype, 1 or 0.
Reference Comparison(bool scalarOther, bool (*compare)(Value, Value)) {
  return [scalarOther, compare](const RefCall& call) {
    const aclDataType compute = ComputeDtype(call, scalarOther);
    return Pointwise([compute, compare](const std::vector<Value>& x, const AttrSet&) {
      return Value(compare(ConvertValue(x[0], compute), ConvertValue(x[1], compute)) ? 1.0 : 0.0);
    })(call);
  };
}

// Small integers tie often (random floats rarely do: binary_pointwise_test
// compares floats with ties, NaN and infinities).
const Range kComparisonRange{-2, 2};

// ElementwiseShapes() with both operands empty in the empty case: the in-place
// form rejects exactly one empty operand (binary_pointwise_test checks that).
std::vector<ShapeCase> BothEmptyShapes() {
  std::vector<ShapeCase> shapes = ElementwiseShapes();
  for (ShapeCase& s : shapes) {
    if (s.name == "empty") s.inputs = {{0, 3}, {0, 3}};
  }
  return shapes;
}

OpRow EqTensorRow() {
  OpRow row;
  row.name = "EqTensor";
  row.inputs = {Arg{.name = "self", .range = kComparisonRange}, Arg{.name = "other", .range = kComparisonRange}};
  row.out = {[](Call& c) {
               return aclnnEqTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnEqTensor};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceEqTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceEqTensor};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
    return dc.out == ACL_DT_UNDEFINED && Promote(dc.inputs[0], dc.inputs[1]).has_value();
  };
  // Promotion across categories, and the 1 / 0 result in a non-bool out (ggml's count_equal: s32 out).
  row.dtypes = Concat(EachDtype(kEqDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT}},
                                                    {{ACL_INT32, ACL_FLOAT}},
                                                    {{ACL_BOOL, ACL_INT8}},
                                                    {{ACL_BF16, ACL_FLOAT16}},
                                                    {{ACL_COMPLEX64, ACL_DOUBLE}},
                                                    {{ACL_INT32, ACL_INT32}, ACL_INT32},
                                                    {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT},
                                                    {{ACL_FLOAT16, ACL_FLOAT16}, ACL_FLOAT16}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.shapes = BothEmptyShapes();
  row.reference = Comparison(false, [](Value a, Value b) { return a == b; });
  return row;
}

OpRow GtScalarRow() {
  OpRow row;
  row.name = "GtScalar";
  row.inputs = {Arg{.name = "self", .range = kComparisonRange},
                Arg{.name = "other", .kind = ArgKind::kScalar, .range = kComparisonRange}};
  row.out = {[](Call& c) {
               return aclnnGtScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnGtScalar};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceGtScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceGtScalar};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return dc.out == ACL_DT_UNDEFINED; };
  // A float scalar against integers compares in FLOAT; against FLOAT16 it is rounded to FLOAT16 first (ggml's step: f32
  // 0).
  row.dtypes = Concat(EachDtype(kGtDtypes), Singly({{{ACL_INT32, ACL_FLOAT}},
                                                    {{ACL_FLOAT16, ACL_DOUBLE}},
                                                    {{ACL_BF16, ACL_FLOAT}},
                                                    {{ACL_BOOL, ACL_INT32}},
                                                    {{ACL_UINT8, ACL_INT64}},
                                                    {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT},
                                                    {{ACL_FLOAT16, ACL_FLOAT}, ACL_FLOAT16},
                                                    {{ACL_INT64, ACL_INT64}, ACL_COMPLEX64}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.reference = Comparison(true, [](Value a, Value b) { return a.real() > b.real(); });
  return row;
}

// ---- the Clamp family ---------------------------------------------------------------------------

const std::vector<aclDataType> kClampDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT8, ACL_UINT8,
                                               ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BF16};

// Self's values and the bounds' (min below max, so both bounds bite); unsigned
// dtypes shifted up.
enum class ClampArg { kSelf, kMin, kMax };
RangeRule ClampRange(ClampArg arg) {
  return RangeRule([arg](aclDataType dtype, const CaseInfo&) {
    const double shift = IsUnsigned(dtype) ? 3 : 0;
    switch (arg) {
      case ClampArg::kSelf:
        return Range{-3 + shift, 3 + shift};
      case ClampArg::kMin:
        return Range{-2 + shift, -1 + shift};
      case ClampArg::kMax:
        return Range{1 + shift, 2 + shift};
    }
    return Range{};
  });
}

double ClampValue(double x, std::optional<double> lo, std::optional<double> hi) {
  if (std::isnan(x)) return x;
  if (lo && x < *lo) x = *lo;
  if (hi && x > *hi) x = *hi;
  return x;
}

// The promotion of every operand: tensors by the table, scalars by the TensorScalar deduction.
aclDataType ClampCompute(const RefCall& call, bool scalarBounds) {
  aclDataType compute = call.inputs[0].dtype;
  for (size_t k = 1; k < call.inputs.size(); ++k) {
    compute =
        *(scalarBounds ? TensorScalarDtype(compute, call.inputs[k].dtype) : Promote(compute, call.inputs[k].dtype));
  }
  return compute;
}

// In place, the promoted dtype is cast into selfRef.
bool PromotedFitsSelf(const DtypeCase& dc, aclDataType) {
  const auto promoted = Promote(dc.inputs[0], dc.inputs.size() > 1 ? dc.inputs[1] : dc.inputs[0]);
  return dc.out == ACL_DT_UNDEFINED && promoted && CanCast(*promoted, dc.inputs[0]);
}

const std::vector<DtypeCase> kClampMixed = {{{ACL_FLOAT16, ACL_FLOAT}}, {{ACL_INT32, ACL_FLOAT}},
                                            {{ACL_INT8, ACL_INT64}},    {{ACL_BF16, ACL_FLOAT16}},
                                            {{ACL_INT16, ACL_BOOL}},    {{ACL_FLOAT, ACL_FLOAT}, ACL_DOUBLE}};

// ClampMin / ClampMax / ClampMinTensor / ClampMaxTensor: self and one bound (input 1).
OpRow ClampBoundRow(const std::string& name, bool isMin, bool scalarBound, Phase1Fn out, Phase2 outPhase2,
                    Phase1Fn inplace = {}, Phase2 inplacePhase2 = nullptr) {
  OpRow row;
  row.name = name;
  row.inputs = {Arg{.name = "self", .range = ClampRange(ClampArg::kSelf)},
                Arg{.name = isMin ? "clipValueMin" : "clipValueMax",
                    .kind = scalarBound ? ArgKind::kScalar : ArgKind::kTensor,
                    .range = ClampRange(isMin ? ClampArg::kMin : ClampArg::kMax)}};
  row.out = {std::move(out), outPhase2};
  if (inplace) {
    row.inplace = {std::move(inplace), inplacePhase2};
    row.inplace.accepts = PromotedFitsSelf;
  }
  // A float scalar on integers computes in FLOAT, which an integer out cannot hold: those go to a float out.
  std::vector<DtypeCase> mixed = kClampMixed;
  if (scalarBound) mixed[1].out = ACL_FLOAT;
  row.dtypes = Concat(EachDtype(kClampDtypes), Singly(mixed));
  row.outDtype = [scalarBound](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    return scalarBound ? TensorScalarDtype(in[0], in[1]) : Promote(in[0], in[1]);
  };
  row.reference = [isMin, scalarBound](const RefCall& call) {
    const aclDataType compute = ClampCompute(call, scalarBound);
    return Pointwise([isMin, compute](const std::vector<Value>& x, const AttrSet&) {
      const double v = ConvertValue(x[0], compute).real(), bound = ConvertValue(x[1], compute).real();
      return Value(isMin ? ClampValue(v, bound, std::nullopt) : ClampValue(v, std::nullopt, bound));
    })(call);
  };
  return row;
}

// Clamp (scalar bounds) and ClampTensor (tensor bounds), each bound present or null.
OpRow ClampBothRow(bool scalarBounds) {
  OpRow row;
  row.name = scalarBounds ? "Clamp" : "ClampTensor";
  const ArgKind kind = scalarBounds ? ArgKind::kScalar : ArgKind::kTensor;
  row.inputs = {Arg{.name = "self", .range = ClampRange(ClampArg::kSelf)},
                Arg{.name = "clipValueMin", .kind = kind, .range = ClampRange(ClampArg::kMin)},
                Arg{.name = "clipValueMax", .kind = kind, .range = ClampRange(ClampArg::kMax)}};
  // "bounds" picks which bounds are passed (the other is null): 3 both, 1 min, 2 max.
  auto pass = [](Call& c, int64_t bit) { return (c.IntAttr("bounds") & bit) != 0; };
  if (scalarBounds) {
    row.out = {[pass](Call& c) {
                 return aclnnClampGetWorkspaceSize(c.Tensor(0), pass(c, 1) ? c.Scalar(1) : nullptr,
                                                   pass(c, 2) ? c.Scalar(2) : nullptr, c.Out(), c.workspaceSize,
                                                   c.executor);
               },
               aclnnClamp};
  } else {
    row.out = {[pass](Call& c) {
                 return aclnnClampTensorGetWorkspaceSize(c.Tensor(0), pass(c, 1) ? c.Tensor(1) : nullptr,
                                                         pass(c, 2) ? c.Tensor(2) : nullptr, c.Out(), c.workspaceSize,
                                                         c.executor);
               },
               aclnnClampTensor};
  }
  row.attrs = {{"both", {{"bounds", int64_t{3}}}},
               {"min_only", {{"bounds", int64_t{1}}}},
               {"max_only", {{"bounds", int64_t{2}}}}};
  std::vector<DtypeCase> mixed = {{{ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}},  // ggml's clamp: f16 data, f32 bounds
                                  {{ACL_BF16, ACL_FLOAT16, ACL_FLOAT16}},
                                  {{ACL_INT32, ACL_INT8, ACL_INT64}},
                                  {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}};
  row.dtypes = Concat(EachDtype(kClampDtypes), Singly(mixed));
  row.outDtype = [scalarBounds](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    std::optional<aclDataType> d = in[0];
    for (size_t k = 1; k < in.size() && d; ++k) d = scalarBounds ? TensorScalarDtype(*d, in[k]) : Promote(*d, in[k]);
    return d;
  };
  row.reference = [scalarBounds](const RefCall& call) {
    const int64_t bounds = call.attrs.Int("bounds");
    // The dtype of the bounds actually passed.
    std::vector<Operand> passed = {call.inputs[0]};
    if (bounds & 1) passed.push_back(call.inputs[1]);
    if (bounds & 2) passed.push_back(call.inputs[2]);
    const aclDataType compute =
        ClampCompute(RefCall{passed, call.attrs, call.out, call.outShape, call.inplace}, scalarBounds);
    return Pointwise([bounds, compute](const std::vector<Value>& x, const AttrSet&) {
      std::optional<double> lo, hi;
      if (bounds & 1) lo = ConvertValue(x[1], compute).real();
      if (bounds & 2) hi = ConvertValue(x[2], compute).real();
      return Value(ClampValue(ConvertValue(x[0], compute).real(), lo, hi));
    })(call);
  };
  return row;
}

std::vector<OpRow> ClampRows() {
  return {
      ClampBothRow(true),
      ClampBothRow(false),
      ClampBoundRow(
          "ClampMin", true, true,
          [](Call& c) {
            return aclnnClampMinGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnClampMin),
      ClampBoundRow(
          "ClampMax", false, true,
          [](Call& c) {
            return aclnnClampMaxGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnClampMax,
          [](Call& c) {
            return aclnnInplaceClampMaxGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize, c.executor);
          },
          aclnnInplaceClampMax),
      ClampBoundRow(
          "ClampMinTensor", true, false,
          [](Call& c) {
            return aclnnClampMinTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnClampMinTensor,
          [](Call& c) {
            return aclnnInplaceClampMinTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor);
          },
          aclnnInplaceClampMinTensor),
      ClampBoundRow(
          "ClampMaxTensor", false, false,
          [](Call& c) {
            return aclnnClampMaxTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
          },
          aclnnClampMaxTensor,
          [](Call& c) {
            return aclnnInplaceClampMaxTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor);
          },
          aclnnInplaceClampMaxTensor),
  };
}

// ---- Pow ---------------------------------------------------------------------------------------

const std::vector<aclDataType> kPowDtypes = {ACL_FLOAT,     ACL_FLOAT16,    ACL_DOUBLE, ACL_INT8,
                                             ACL_INT16,     ACL_INT32,      ACL_INT64,  ACL_UINT8,
                                             ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

// Bases away from 0 (negative exponents) and integer powers that stay inside s8.
RangeRule PowRange(bool exponent) {
  return RangeRule([exponent](aclDataType dtype, const CaseInfo&) {
    if (IsIntegral(dtype) || IsBool(dtype)) return exponent ? Range{0, 4} : Range{IsUnsigned(dtype) ? 0.0 : -3, 3};
    return exponent ? Range{-2, 3} : Range{0.25, 3};
  });
}

// base ^ exponent in the compute dtype: integers exactly (wrapped by the out
// conversion), floats in double.
Value PowValue(Value base, Value exponent, aclDataType compute) {
  base = ConvertValue(base, compute);
  exponent = ConvertValue(exponent, compute);
  if (IsComplex(compute)) return std::pow(base, exponent);
  if (!IsRealFloat(compute)) {
    int64_t result = 1;
    for (int64_t e = static_cast<int64_t>(exponent.real()); e > 0; --e) result *= static_cast<int64_t>(base.real());
    return ConvertValue(static_cast<double>(result), compute);
  }
  return std::pow(base.real(), exponent.real());
}

enum class PowForm { kTensorScalar, kTensorTensor, kScalarTensor };

OpRow PowRow(PowForm form) {
  OpRow row;
  const bool scalarBase = form == PowForm::kScalarTensor, scalarExponent = form == PowForm::kTensorScalar;
  row.name = form == PowForm::kTensorScalar   ? "PowTensorScalar"
             : form == PowForm::kTensorTensor ? "PowTensorTensor"
                                              : "PowScalarTensor";
  row.inputs = {
      Arg{.name = "self", .kind = scalarBase ? ArgKind::kScalar : ArgKind::kTensor, .range = PowRange(false)},
      Arg{.name = "exponent", .kind = scalarExponent ? ArgKind::kScalar : ArgKind::kTensor, .range = PowRange(true)}};
  switch (form) {
    case PowForm::kTensorScalar:
      row.out = {[](Call& c) {
                   return aclnnPowTensorScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize,
                                                               c.executor);
                 },
                 aclnnPowTensorScalar};
      row.inplace = {[](Call& c) {
                       return aclnnInplacePowTensorScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize,
                                                                          c.executor);
                     },
                     aclnnInplacePowTensorScalar};
      break;
    case PowForm::kTensorTensor:
      row.out = {[](Call& c) {
                   return aclnnPowTensorTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                               c.executor);
                 },
                 aclnnPowTensorTensor};
      row.inplace = {[](Call& c) {
                       return aclnnInplacePowTensorTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize,
                                                                          c.executor);
                     },
                     aclnnInplacePowTensorTensor};
      break;
    case PowForm::kScalarTensor:
      row.out = {[](Call& c) {
                   return aclnnPowScalarTensorGetWorkspaceSize(c.Scalar(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                               c.executor);
                 },
                 aclnnPowScalarTensor};
      break;
  }
  auto compute = [form](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    switch (form) {
      case PowForm::kTensorScalar:
        return TensorScalarDtype(in[0], in[1]);
      case PowForm::kTensorTensor:
        return Promote(in[0], in[1]);
      case PowForm::kScalarTensor:
        return TensorScalarDtype(in[1], in[0]);
    }
    return std::nullopt;
  };
  if (row.inplace.phase1) {
    row.inplace.accepts = [compute](const DtypeCase& dc, aclDataType) {
      const auto promoted = compute({dc.inputs[0], dc.inputs.size() > 1 ? dc.inputs[1] : dc.inputs[0]});
      return dc.out == ACL_DT_UNDEFINED && !IsBool(dc.inputs[0]) && promoted && CanCast(*promoted, dc.inputs[0]);
    };
  }
  // bool ^ integer, integer ^ float, f16 ^ f32 and ggml's f32 ^ f32 slopes; integers into an unsigned out.
  std::vector<DtypeCase> mixed = {{{ACL_BOOL, ACL_INT32}},
                                  {{ACL_INT32, ACL_FLOAT}},
                                  {{ACL_FLOAT16, ACL_FLOAT}},
                                  {{ACL_BF16, ACL_DOUBLE}},
                                  {{ACL_UINT8, ACL_INT8}},
                                  {{ACL_UINT8, ACL_UINT8}, ACL_UINT32},
                                  {{ACL_FLOAT, ACL_FLOAT}, ACL_DOUBLE}};
  if (scalarBase) mixed.erase(mixed.begin());  // PowScalarTensor takes no BOOL
  row.dtypes = Concat(EachDtype(kPowDtypes), Singly(mixed));
  row.outDtype = compute;
  row.shapes = scalarBase ? SameShapes() : ElementwiseShapes();
  if (scalarBase) row.outShape = ShapeOfInput(1);
  row.reference = [compute](const RefCall& call) {
    const aclDataType c = *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    Expected want =
        Pointwise([c](const std::vector<Value>& x, const AttrSet&) { return PowValue(x[0], x[1], c); })(call);
    // Computed in a narrower float than out (f32 into f64): the compute dtype's roundoff.
    if (IsFloating(c) && UnitRoundoff(c) > UnitRoundoff(call.out)) {
      for (Value& v : want.values) {
        v = ConvertValue(v, c);
        want.tolerance.push_back(4 * UnitRoundoff(c) * std::abs(v));
      }
    }
    return want;
  };
  row.tolerance = {.ulps = 4};
  return row;
}

// ---- MaskedFill, Addcdiv ------------------------------------------------------------------------

OpRow MaskedFillRow() {
  OpRow row;
  row.name = "InplaceMaskedFillScalar";
  row.inputs = {Arg{.name = "selfRef"}, Arg{.name = "mask", .range = Range{0, 1, 0, 0, true}, .dtypes = {ACL_BOOL}},
                Arg{.name = "value", .kind = ArgKind::kScalar, .range = Range{-3, 3}}};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceMaskedFillScalarGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Scalar(2),
                                                                       c.workspaceSize, c.executor);
                 },
                 aclnnInplaceMaskedFillScalar};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return dc.out == ACL_DT_UNDEFINED; };
  // A value of another dtype that casts to selfRef's (an integer into FLOAT16, bool into s32).
  row.dtypes = Concat(EachDtype({ACL_BOOL, ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}),
                      Singly({{{ACL_FLOAT16, ACL_BOOL, ACL_INT32}},
                              {{ACL_INT32, ACL_BOOL, ACL_BOOL}},
                              {{ACL_BF16, ACL_BOOL, ACL_FLOAT}}}));
  row.reference = [](const RefCall& call) {
    const aclDataType self = call.inputs[0].dtype;
    return Pointwise([self](const std::vector<Value>& x, const AttrSet&) {
      return x[1].real() != 0 ? ConvertValue(x[2], self) : x[0];
    })(call);
  };
  return row;
}

const std::vector<aclDataType> kAddcdivDtypes = {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_INT64};

OpRow AddcdivRow() {
  OpRow row;
  row.name = "Addcdiv";
  row.inputs = {Arg{.name = "self"}, Arg{.name = "tensor1"}, Arg{.name = "tensor2", .range = Range{-3, 3, 0.5}},
                Arg{.name = "value", .kind = ArgKind::kScalar, .range = Range{-2, 2, 0.25}}};
  row.out = {[](Call& c) {
               return aclnnAddcdivGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Scalar(3), c.Out(),
                                                   c.workspaceSize, c.executor);
             },
             aclnnAddcdiv};
  row.inplace = {[](Call& c) {
                   return aclnnInplaceAddcdivGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.Scalar(3),
                                                              c.workspaceSize, c.executor);
                 },
                 aclnnInplaceAddcdiv};
  auto promoted = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const auto q = Promote(in[1 % in.size()], in[2 % in.size()]);
    return q ? Promote(in[0], *q) : std::nullopt;
  };
  row.inplace.accepts = [promoted](const DtypeCase& dc, aclDataType) {
    const auto p = promoted(dc.inputs);
    return dc.out == ACL_DT_UNDEFINED && p && CanCast(*p, dc.inputs[0]);
  };
  // Mixed operands (ggml's optimizer: f32 throughout; f16 state with f32 gradients), a FLOAT value on FLOAT16 data.
  row.dtypes = Concat(EachDtype(kAddcdivDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}},
                                                         {{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_FLOAT}},
                                                         {{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT}},
                                                         {{ACL_INT64, ACL_INT64, ACL_INT64, ACL_INT64}, ACL_DOUBLE},
                                                         {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  row.outDtype = promoted;
  row.reference = [promoted](const RefCall& call) {
    const aclDataType p = *promoted({call.inputs[0].dtype, call.inputs[1].dtype, call.inputs[2].dtype});
    Expected want;
    const Values s = BroadcastTo(call.inputs[0].values, call.inputs[0].shape, call.outShape);
    const Values t1 = BroadcastTo(call.inputs[1].values, call.inputs[1].shape, call.outShape);
    const Values t2 = BroadcastTo(call.inputs[2].values, call.inputs[2].shape, call.outShape);
    const double value = ConvertValue(call.inputs[3].values[0], p).real();
    // The terms' roundoff in the wider of the promoted and the out dtype (f16 compute rounds once, in f32).
    const double u = IsFloating(p) ? std::max(UnitRoundoff(p), UnitRoundoff(call.out)) : 0;
    for (size_t i = 0; i < s.size(); ++i) {
      const double a = ConvertValue(s[i], p).real(), b = ConvertValue(t1[i], p).real();
      const double c = ConvertValue(t2[i], p).real();
      const double term = value * (b / c);
      double r = a + term;
      if (!IsFloating(p)) r = ConvertValue(std::trunc(r), p).real();
      want.values.push_back(ConvertValue(r, call.out));
      want.tolerance.push_back(4 * u * (std::abs(a) + std::abs(term)) + 0.5 * UnitRoundoff(call.out) * 4 * std::abs(r));
    }
    return want;
  };
  return row;
}

// The other comparisons, tensor and scalar forms: each with its CANN dtype
// list, a few mixed-category cases, and its document's example calls (DOUBLE
// data into a DOUBLE out, in place with an INT32 other).
const std::vector<aclDataType> kOrderedDtypes = kGtDtypes;
const std::vector<aclDataType> kLeDtypes = {ACL_DOUBLE, ACL_BF16,   ACL_FLOAT16, ACL_FLOAT, ACL_INT32, ACL_INT64,
                                            ACL_INT16,  ACL_UINT16, ACL_INT8,    ACL_UINT8, ACL_BOOL};
// Ne and Eq: CANN's A2 (910B) lists, no unsigned dtype but UINT8.
const std::vector<aclDataType> kNeDtypes = {ACL_DOUBLE, ACL_FLOAT16, ACL_FLOAT,     ACL_BF16,
                                            ACL_INT64,  ACL_INT32,   ACL_INT8,      ACL_UINT8,
                                            ACL_BOOL,   ACL_INT16,   ACL_COMPLEX64, ACL_COMPLEX128};

struct ComparisonForms {
  Phase1Fn out;
  Phase2 outPhase2;
  Phase1Fn inplace;
  Phase2 inplacePhase2;
};

#define TENSOR_COMPARISON(op)                                                                               \
  ComparisonForms {                                                                                         \
    [](Call& c) {                                                                                           \
      return aclnn##op##GetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);   \
    },                                                                                                      \
        aclnn##op,                                                                                          \
        [](Call& c) {                                                                                       \
          return aclnnInplace##op##GetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize, c.executor); \
        },                                                                                                  \
        aclnnInplace##op                                                                                    \
  }
#define SCALAR_COMPARISON(op)                                                                               \
  ComparisonForms {                                                                                         \
    [](Call& c) {                                                                                           \
      return aclnn##op##GetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);   \
    },                                                                                                      \
        aclnn##op,                                                                                          \
        [](Call& c) {                                                                                       \
          return aclnnInplace##op##GetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize, c.executor); \
        },                                                                                                  \
        aclnnInplace##op                                                                                    \
  }

OpRow ComparisonRow(const std::string& name, bool scalarOther, ComparisonForms forms,
                    const std::vector<aclDataType>& dtypes, bool (*compare)(Value, Value)) {
  OpRow row;
  row.name = name;
  row.inputs = {
      Arg{.name = "self", .range = kComparisonRange},
      Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = kComparisonRange}};
  row.out = {forms.out, forms.outPhase2};
  row.inplace = {forms.inplace, forms.inplacePhase2};
  row.inplace.accepts = [scalarOther](const DtypeCase& dc, aclDataType) {
    return dc.out == ACL_DT_UNDEFINED && (scalarOther || Promote(dc.inputs[0], dc.inputs[1]).has_value());
  };
  row.dtypes = Concat(EachDtype(dtypes), Singly({{{ACL_INT32, ACL_FLOAT}},
                                                 {{ACL_FLOAT16, ACL_DOUBLE}},
                                                 {{ACL_BOOL, ACL_INT32}},
                                                 {{ACL_DOUBLE, ACL_INT32}},
                                                 {{ACL_DOUBLE, ACL_DOUBLE}, ACL_DOUBLE},
                                                 {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT},
                                                 {{ACL_FLOAT16, ACL_FLOAT16}, ACL_INT32}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.reference = Comparison(scalarOther, compare);
  return row;
}

std::vector<OpRow> ComparisonRows() {
  auto gt = [](Value a, Value b) { return a.real() > b.real(); };
  auto ge = [](Value a, Value b) { return a.real() >= b.real(); };
  auto lt = [](Value a, Value b) { return a.real() < b.real(); };
  auto le = [](Value a, Value b) { return a.real() <= b.real(); };
  auto ne = [](Value a, Value b) { return a != b; };
  auto eq = [](Value a, Value b) { return a == b; };
  return {ComparisonRow("GtTensor", false, TENSOR_COMPARISON(GtTensor), kOrderedDtypes, gt),
          ComparisonRow("GeScalar", true, SCALAR_COMPARISON(GeScalar), kOrderedDtypes, ge),
          ComparisonRow("GeTensor", false, TENSOR_COMPARISON(GeTensor), kOrderedDtypes, ge),
          ComparisonRow("LtScalar", true, SCALAR_COMPARISON(LtScalar), kOrderedDtypes, lt),
          ComparisonRow("LtTensor", false, TENSOR_COMPARISON(LtTensor), kOrderedDtypes, lt),
          ComparisonRow("LeScalar", true, SCALAR_COMPARISON(LeScalar), kLeDtypes, le),
          ComparisonRow("LeTensor", false, TENSOR_COMPARISON(LeTensor), kLeDtypes, le),
          ComparisonRow("NeScalar", true, SCALAR_COMPARISON(NeScalar), kNeDtypes, ne),
          ComparisonRow("NeTensor", false, TENSOR_COMPARISON(NeTensor), kNeDtypes, ne),
          ComparisonRow("EqScalar", true, SCALAR_COMPARISON(EqScalar), kNeDtypes, eq)};
}

// Maximum and Minimum: promoted like Add, NaN from either operand; random
// small integers tie often (equal operands give that value).
const std::vector<aclDataType> kMaxMinDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64,
                                                ACL_INT16, ACL_INT8,    ACL_UINT8,  ACL_BOOL,  ACL_BF16};

OpRow MaxMinRow(bool isMax) {
  OpRow row;
  row.name = isMax ? "Maximum" : "Minimum";
  row.inputs = {Arg{.name = "self", .range = kComparisonRange}, Arg{.name = "other", .range = kComparisonRange}};
  if (isMax) {
    row.out = {[](Call& c) {
                 return aclnnMaximumGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnMaximum};
  } else {
    row.out = {[](Call& c) {
                 return aclnnMinimumGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnMinimum};
  }
  row.dtypes = Concat(EachDtype(kMaxMinDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT}},
                                                        {{ACL_INT32, ACL_FLOAT}},
                                                        {{ACL_BOOL, ACL_INT8}},
                                                        {{ACL_UINT8, ACL_INT8}},
                                                        {{ACL_BF16, ACL_FLOAT16}},
                                                        {{ACL_INT32, ACL_INT32}, ACL_FLOAT},
                                                        {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  row.outDtype = PromotedDtype();
  row.reference = [isMax](const RefCall& call) {
    const aclDataType compute = ComputeDtype(call, false);
    return Pointwise([isMax, compute](const std::vector<Value>& x, const AttrSet&) {
      const double a = ConvertValue(x[0], compute).real(), b = ConvertValue(x[1], compute).real();
      if (std::isnan(a) || std::isnan(b)) return Value(std::nan(""));
      return Value(isMax ? std::max(a, b) : std::min(a, b));
    })(call);
  };
  return row;
}

// LogicalAnd / Or / Xor: truth values of any dtype (complex included), a 1 / 0 result in any listed out dtype.
const std::vector<aclDataType> kLogicalDtypes = {ACL_FLOAT, ACL_FLOAT16,   ACL_DOUBLE,     ACL_INT32,
                                                 ACL_INT64, ACL_INT16,     ACL_INT8,       ACL_UINT8,
                                                 ACL_BOOL,  ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

OpRow LogicalRow(const std::string& name, ComparisonForms forms, bool (*fn)(bool, bool), bool inplace) {
  OpRow row;
  row.name = name;
  row.inputs = {Arg{.name = "self", .range = Range{-2, 2, 0, /*zeroEvery=*/3}},
                Arg{.name = "other", .range = Range{-2, 2, 0, /*zeroEvery=*/2}}};
  row.out = {forms.out, forms.outPhase2};
  if (inplace) {
    row.inplace = {forms.inplace, forms.inplacePhase2};
    row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
      return dc.out == ACL_DT_UNDEFINED && Promote(dc.inputs[0], dc.inputs[1]).has_value();
    };
  }
  row.dtypes = Concat(EachDtype(kLogicalDtypes), Singly({{{ACL_FLOAT16, ACL_FLOAT}},
                                                         {{ACL_INT32, ACL_BOOL}},
                                                         {{ACL_COMPLEX64, ACL_FLOAT}},
                                                         {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT},
                                                         {{ACL_INT8, ACL_INT8}, ACL_INT32}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.reference = Pointwise([fn](const std::vector<Value>& x, const AttrSet&) {
    return Value(fn(x[0] != Value(0), x[1] != Value(0)) ? 1.0 : 0.0);
  });
  return row;
}

std::vector<OpRow> MoreBinaryRows() {
  ComparisonForms xorForms{[](Call& c) {
                             return aclnnLogicalXorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize,
                                                                    c.executor);
                           },
                           aclnnLogicalXor,
                           {},
                           nullptr};
  return {MaxMinRow(true), MaxMinRow(false),
          LogicalRow(
              "LogicalAnd", TENSOR_COMPARISON(LogicalAnd), [](bool a, bool b) { return a && b; }, true),
          LogicalRow(
              "LogicalOr", TENSOR_COMPARISON(LogicalOr), [](bool a, bool b) { return a || b; }, true),
          LogicalRow(
              "LogicalXor", xorForms, [](bool a, bool b) { return a != b; }, false)};
}

// FmodTensor / FmodScalar: the dividend's sign; divisors include 0 (NaN for
// floats, self for integers: Canopy's defined value where CANN's is undefined).
const std::vector<aclDataType> kFmodDtypes = {ACL_DOUBLE, ACL_BF16,  ACL_FLOAT16, ACL_FLOAT,
                                              ACL_INT32,  ACL_INT64, ACL_INT8,    ACL_UINT8};

Value FmodValue(Value a, Value b, aclDataType compute) {
  const double x = ConvertValue(a, compute).real(), y = ConvertValue(b, compute).real();
  if (IsRealFloat(compute)) return std::fmod(x, y);
  const auto i = static_cast<int64_t>(x), j = static_cast<int64_t>(y);
  if (j == 0) return static_cast<double>(i);
  if (j == -1) return 0.0;
  return static_cast<double>(i % j);
}

OpRow FmodRow(bool scalarOther) {
  OpRow row;
  row.name = scalarOther ? "FmodScalar" : "FmodTensor";
  auto range = [](bool divisor) {
    return RangeRule([divisor](aclDataType dtype, const CaseInfo&) {
      const double lo = IsUnsigned(dtype) ? 0 : (divisor ? -6 : -20);
      return Range{lo, divisor ? 6.0 : 20.0, 0, divisor ? 5 : 0};
    });
  };
  row.inputs = {Arg{.name = "self", .range = range(false)},
                Arg{.name = "other", .kind = scalarOther ? ArgKind::kScalar : ArgKind::kTensor, .range = range(true)}};
  if (scalarOther) {
    row.out = {[](Call& c) {
                 return aclnnFmodScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnFmodScalar};
    row.inplace = {[](Call& c) {
                     return aclnnInplaceFmodScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.workspaceSize,
                                                                   c.executor);
                   },
                   aclnnInplaceFmodScalar};
    row.shapes = SameShapes();
    row.outShape = ShapeOfInput(0);
  } else {
    row.out = {[](Call& c) {
                 return aclnnFmodTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnFmodTensor};
    row.inplace = {[](Call& c) {
                     return aclnnInplaceFmodTensorGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.workspaceSize,
                                                                   c.executor);
                   },
                   aclnnInplaceFmodTensor};
  }
  auto compute = [scalarOther](const std::vector<aclDataType>& in) -> std::optional<aclDataType> {
    const aclDataType other = in.size() > 1 ? in[1] : in[0];
    return scalarOther ? TensorScalarDtype(in[0], other) : Promote(in[0], other);
  };
  row.inplace.accepts = [compute](const DtypeCase& dc, aclDataType) {
    const auto promoted = compute(dc.inputs);
    return dc.out == ACL_DT_UNDEFINED && promoted && CanCast(*promoted, dc.inputs[0]);
  };
  row.dtypes = Concat(EachDtype(kFmodDtypes), Singly({{{ACL_INT32, ACL_FLOAT}},
                                                      {{ACL_FLOAT16, ACL_FLOAT}},
                                                      {{ACL_INT8, ACL_INT64}},
                                                      {{ACL_UINT8, ACL_INT32}},
                                                      {{ACL_INT32, ACL_INT32}, ACL_DOUBLE},
                                                      {{ACL_FLOAT, ACL_FLOAT}, ACL_BF16}}));
  row.outDtype = compute;
  row.reference = [compute](const RefCall& call) {
    const aclDataType c = *compute({call.inputs[0].dtype, call.inputs[1].dtype});
    return Pointwise([c](const std::vector<Value>& x, const AttrSet&) { return FmodValue(x[0], x[1], c); })(call);
  };
  return row;
}

// BitwiseAnd / Or / Xor Tensor: exact on the promoted integers; bool gives the logical result.
const std::vector<aclDataType> kBitwiseAndDtypes = {ACL_BOOL,  ACL_INT8,  ACL_INT16, ACL_INT32,
                                                    ACL_INT64, ACL_UINT8, ACL_UINT16};

OpRow BitwiseRow(const std::string& name, ComparisonForms forms, std::vector<aclDataType> dtypes,
                 int64_t (*fn)(int64_t, int64_t), std::vector<DtypeCase> mixed) {
  OpRow row;
  row.name = name;
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsUnsigned(dtype) ? Range{0, 250} : Range{-100, 100};
  });
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "other", .range = range}};
  row.out = {forms.out, forms.outPhase2};
  row.inplace = {forms.inplace, forms.inplacePhase2};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) {
    const auto promoted = Promote(dc.inputs[0], dc.inputs.size() > 1 ? dc.inputs[1] : dc.inputs[0]);
    return dc.out == ACL_DT_UNDEFINED && promoted && CanCast(*promoted, dc.inputs[0]);
  };
  row.dtypes = Concat(EachDtype(dtypes), Singly(std::move(mixed)));
  row.outDtype = PromotedDtype();
  row.reference = Pointwise([fn](const std::vector<Value>& x, const AttrSet&) {
    return Value(static_cast<double>(fn(static_cast<int64_t>(x[0].real()), static_cast<int64_t>(x[1].real()))));
  });
  return row;
}

std::vector<OpRow> BitwiseRows() {
  std::vector<aclDataType> wide = kBitwiseAndDtypes;
  wide.push_back(ACL_UINT32);
  wide.push_back(ACL_UINT64);
  const std::vector<DtypeCase> mixed = {
      {{ACL_INT8, ACL_INT32}},
      {{ACL_BOOL, ACL_INT32}},
      {{ACL_UINT8, ACL_INT8}, ACL_INT16},  // in place a negative s16 would wrap into u8
      {{ACL_INT32, ACL_INT32}, ACL_INT64},
      {{ACL_BOOL, ACL_BOOL}, ACL_UINT8}};
  std::vector<aclDataType> xorDtypes;  // A2: no UINT16 / 32 / 64
  for (aclDataType d : kBitwiseAndDtypes) {
    if (d != ACL_UINT16) xorDtypes.push_back(d);
  }
  std::vector<DtypeCase> xorMixed = mixed;
  xorMixed.push_back({{ACL_INT32, ACL_INT32}, ACL_FLOAT});
  return {BitwiseRow(
              "BitwiseAndTensor", TENSOR_COMPARISON(BitwiseAndTensor), kBitwiseAndDtypes,
              [](int64_t a, int64_t b) { return a & b; }, mixed),
          BitwiseRow(
              "BitwiseAndTensorOut", TENSOR_COMPARISON(BitwiseAndTensorOut), kBitwiseAndDtypes,
              [](int64_t a, int64_t b) { return a & b; }, mixed),
          BitwiseRow(
              "BitwiseOrTensor", TENSOR_COMPARISON(BitwiseOrTensor), wide, [](int64_t a, int64_t b) { return a | b; },
              mixed),
          BitwiseRow(
              "BitwiseXorTensor", TENSOR_COMPARISON(BitwiseXorTensor), xorDtypes,
              [](int64_t a, int64_t b) { return a ^ b; }, xorMixed)};
}

std::vector<OpRow> BinaryPointwiseRows() {
  std::vector<OpRow> rows = {EqTensorRow(),
                             GtScalarRow(),
                             PowRow(PowForm::kTensorScalar),
                             PowRow(PowForm::kTensorTensor),
                             PowRow(PowForm::kScalarTensor),
                             MaskedFillRow(),
                             AddcdivRow(),
                             FmodRow(false),
                             FmodRow(true)};
  for (OpRow& row : ClampRows()) rows.push_back(std::move(row));
  for (OpRow& row : ComparisonRows()) rows.push_back(std::move(row));
  for (OpRow& row : MoreBinaryRows()) rows.push_back(std::move(row));
  for (OpRow& row : BitwiseRows()) rows.push_back(std::move(row));
  return rows;
}
CANOPY_HARNESS_ROWS(BinaryPointwiseRows);

}  // namespace
}  // namespace canopy_test
