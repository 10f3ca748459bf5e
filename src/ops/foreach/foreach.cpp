#include "foreach.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/dtype_dispatch.h"
#include "kernels/reduce.h"
#include "ops/math/binary_pointwise.h"

namespace canopy::ops {
namespace {

std::string ElementName(const char* list, size_t index) {
  return std::string(list) + "[" + std::to_string(index) + "]";
}

size_t LengthOf(const aclTensorList* list) { return list->tensors.size(); }

// The dtypes in `candidates` that the op also lists.
DtypeSet Within(DtypeSet allowed, std::initializer_list<aclDataType> candidates) {
  DtypeSet result;
  for (aclDataType d : candidates) {
    if (allowed.Contains(d)) result = result | DtypeSet{d};
  }
  return result;
}

// The scalar dtypes of an op and how they pair with its lists' dtype.
struct ScalarRule {
  DtypeSet scalar_dtypes;
  ScalarPairing pairing;
};

DtypeSet ScalarDtypesFor(const ScalarRule& rule, aclDataType x) {
  const bool floating = IsFloating(x);
  switch (rule.pairing) {
    case ScalarPairing::kAny:
      return rule.scalar_dtypes;
    case ScalarPairing::kLikeX:
      if (!floating) return Within(rule.scalar_dtypes, {ACL_INT32, ACL_INT64});
      return Within(rule.scalar_dtypes, {x == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT, ACL_DOUBLE});
    case ScalarPairing::kForList:
      if (!floating) return Within(rule.scalar_dtypes, {ACL_INT64, ACL_INT32});
      return Within(rule.scalar_dtypes, {ACL_FLOAT, ACL_DOUBLE});
    case ScalarPairing::kSameAsX:
      return Within(rule.scalar_dtypes, {x});
  }
  return {};
}

// A scalar-like argument (scalar, alpha, scalars[i]) of dtype `dtype` for lists of dtype `x`.
aclnnStatus CheckScalarDtypeFor(Plan& plan, const ScalarRule& rule, const char* name, aclDataType dtype,
                                aclDataType x) {
  CANOPY_CHECK(plan.CheckDtype(name, dtype, rule.scalar_dtypes));
  if (x == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;  // an empty list: nothing to pair with
  const DtypeSet paired = ScalarDtypesFor(rule, x);
  if (!paired.Contains(dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument '%s' has dtype %s; with tensors of dtype %s it must be one of %s", name,
                       DtypeName(dtype), DtypeName(x), paired.ToString().c_str());
  }
  return ACLNN_SUCCESS;
}

template <typename Rule>
ScalarRule ScalarRuleOf(const Rule& rule) {
  return {rule.scalar_dtypes, rule.pairing};
}

// A one-element device tensor standing for a scalar (scalar, alpha).
aclnnStatus CheckScalarTensor(Plan& plan, const ScalarRule& rule, const char* name, const aclTensor* tensor,
                              aclDataType x, int64_t elements = 1) {
  CANOPY_CHECK(CheckScalarDtypeFor(plan, rule, name, tensor->dtype, x));
  int64_t count = 1;
  for (int64_t extent : tensor->view_shape) count *= extent;
  if (count != elements) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must hold %lld element%s", name,
                       ShapeToString(tensor->view_shape).c_str(), static_cast<long long>(elements),
                       elements == 1 ? "" : "s, one per tensor");
  }
  return ACLNN_SUCCESS;
}

// Element `index` (row-major) of a tensor view as a rank-0 view.
TensorRef ElementView(TensorRef ref, int64_t index) {
  int64_t offset = 0;
  for (int64_t d = ref.rank() - 1; d >= 0; --d) {
    const int64_t extent = ref.shape[static_cast<size_t>(d)];
    offset += (index % extent) * ref.strides[static_cast<size_t>(d)];
    index /= extent;
  }
  ref.buffer.byte_offset += ElementByteOffset(ref.dtype, offset);
  ref.shape.clear();
  ref.strides.clear();
  return ref;
}

// The single element of a one-element tensor as a rank-0 view (broadcast by every step).
TensorRef ScalarView(TensorRef ref) {
  ref.shape.clear();
  ref.strides.clear();
  return ref;
}

// Integer tensors with a floating scalar compute in DOUBLE (the result is cast back).
aclDataType ComputeDtype(aclDataType x, bool floating_other) {
  if (!IsFloating(x) && floating_other) return ACL_DOUBLE;
  return IsFloating(x) ? x : ACL_INT64;
}

// The other operand of one element: a tensor view or a host value.
struct Other {
  std::optional<TensorRef> tensor;
  ScalarValue scalar;
};

// out = a (op) alpha * b for one list element, computed in compute_dtype's compute type.
void PlanElement(Plan& plan, ForeachOp op, aclDataType compute_dtype, const TensorRef& a, const Other& b,
                 ScalarValue alpha, const TensorRef& out, bool other_first = false) {
  if (out.NumElements() == 0) return;
  const ComputeType compute = kernels::ComputeTypeOf(compute_dtype);
  ElementwiseOp arithmetic = ElementwiseOp::kAdd;
  PointwiseOp pointwise = PointwiseOp::kMaximum;
  switch (op) {
    case ForeachOp::kAdd:
      arithmetic = ElementwiseOp::kAdd;
      break;
    case ForeachOp::kSub:
      arithmetic = ElementwiseOp::kSub;
      break;
    case ForeachOp::kMul:
      arithmetic = ElementwiseOp::kMul;
      break;
    case ForeachOp::kDiv:
      arithmetic = ElementwiseOp::kDiv;
      break;
    case ForeachOp::kMaximum:
    case ForeachOp::kMinimum:
    case ForeachOp::kPow: {
      pointwise = op == ForeachOp::kMaximum   ? PointwiseOp::kMaximum
                  : op == ForeachOp::kMinimum ? PointwiseOp::kMinimum
                                              : PointwiseOp::kPow;
      const PointwiseOperand other =
          b.tensor ? PointwiseOperand::Tensor(*b.tensor) : PointwiseOperand::Scalar(b.scalar);
      const PointwiseOperand self = PointwiseOperand::Tensor(a);
      AddPointwise(
          plan, pointwise, compute_dtype, out.dtype,
          other_first ? std::vector<PointwiseOperand>{other, self} : std::vector<PointwiseOperand>{self, other}, out);
      return;
    }
  }
  if (b.tensor) {
    plan.Elementwise(arithmetic, compute, {a, *b.tensor}, out, alpha);
  } else {
    plan.Elementwise(arithmetic, compute, {a}, out, alpha, b.scalar);
  }
}

// A host value as the compute type reads it: integers stay exact, floating compute reads a real.
ScalarValue HostValue(const aclScalar& scalar, aclDataType compute_dtype) {
  const ScalarValue value = ValueOf(scalar);
  if (IsFloating(compute_dtype)) return ScalarValue::Real(value.As<double>());
  return value.is_integer ? value : ScalarValue::Integer(kernels::Convert<int64_t>(value.real));
}

// result (one element) = reduce(every element of in) on the reduction engine.
void AddFullReduction(Plan& plan, kernels::ReduceKind kind, double p, const TensorRef& in, const TensorRef& result) {
  kernels::ReduceDesc desc;
  desc.kind = kind;
  desc.p = p;
  // Every dimension is reduced into the one element (a rank-0 tensor as [1]).
  const bool scalar = in.rank() == 0;
  desc.rank = scalar ? 1 : static_cast<int>(in.rank());
  desc.in = {in.buffer, in.dtype, {}};
  desc.out = {result.buffer, result.dtype, {}};
  for (int d = 0; d < desc.rank; ++d) {
    desc.shape[d] = scalar ? 1 : in.shape[static_cast<size_t>(d)];
    desc.in.strides[d] = scalar ? 1 : in.strides[static_cast<size_t>(d)];
    desc.reduced[d] = true;
  }
  plan.AddStep(kernels::MakeReduceStep(desc), {in}, result);
}

// The lists of a form taking x and out (out null: in place), checked.
aclnnStatus CheckInOut(Plan& plan, const char* x_name, const aclTensorList* x, const aclTensorList* out,
                       DtypeSet dtypes, aclDataType& dtype) {
  if (out == nullptr) return CheckForeachLists(plan, {{x_name, x}}, dtypes, dtype);
  return CheckForeachLists(plan, {{x_name, x}, {"out", out}}, dtypes, dtype);
}

}  // namespace

aclnnStatus CheckForeachShapes(Plan& plan, const ForeachList& a, const ForeachList& b) {
  if (LengthOf(a.list) != LengthOf(b.list)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "list '%s' has %zu tensors; it must have as many as '%s' (%zu)",
                       b.name, LengthOf(b.list), a.name, LengthOf(a.list));
  }
  for (size_t i = 0; i < LengthOf(a.list); ++i) {
    const aclTensor* x = a.list->tensors[i];
    const aclTensor* y = b.list->tensors[i];
    if (x->view_shape != y->view_shape) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; it must have the shape of '%s', %s",
                         ElementName(b.name, i).c_str(), ShapeToString(y->view_shape).c_str(),
                         ElementName(a.name, i).c_str(), ShapeToString(x->view_shape).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckForeachLists(Plan& plan, std::initializer_list<ForeachList> lists, DtypeSet dtypes,
                              aclDataType& dtype) {
  const ForeachList& first = *lists.begin();
  for (const ForeachList& list : lists) {
    for (size_t i = 0; i < LengthOf(list.list); ++i) {
      CANOPY_CHECK(plan.CheckDtype(ElementName(list.name, i).c_str(), list.list->tensors[i]->dtype, dtypes));
    }
  }
  for (const ForeachList& list : lists) {
    const size_t common = std::min(LengthOf(list.list), LengthOf(first.list));
    for (size_t i = 0; i < common; ++i) {
      const aclDataType mine = list.list->tensors[i]->dtype;
      const aclDataType theirs = first.list->tensors[i]->dtype;
      if (mine != theirs) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must have the dtype of '%s', %s",
                           ElementName(list.name, i).c_str(), DtypeName(mine), ElementName(first.name, i).c_str(),
                           DtypeName(theirs));
      }
    }
  }
  dtype = LengthOf(first.list) == 0 ? ACL_DT_UNDEFINED : first.list->tensors[0]->dtype;
  for (size_t i = 1; i < LengthOf(first.list); ++i) {
    if (first.list->tensors[i]->dtype != dtype) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                         "the tensors of list '%s' must share one dtype: '%s' is %s, '%s' is %s", first.name,
                         ElementName(first.name, 0).c_str(), DtypeName(dtype), ElementName(first.name, i).c_str(),
                         DtypeName(first.list->tensors[i]->dtype));
    }
  }
  for (const ForeachList& list : lists) {
    if (&list != &first) CANOPY_CHECK(CheckForeachShapes(plan, first, list));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachUnary(Plan& plan, const ForeachUnaryRule& rule, const aclTensorList* x,
                             const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckInOut(plan, "x", x, out, rule.dtypes, dtype));
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const std::vector<TensorRef> dst = out == nullptr ? plan.OutputList(x, "x") : plan.OutputList(out, "out");
  if (dtype == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  const ComputeType compute =
      rule.integers_in_float && !IsFloating(dtype) ? ComputeType::kF32 : kernels::ComputeTypeOf(dtype);
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].NumElements() != 0) plan.Unary(rule.op, compute, in[i], dst[i]);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachList(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x1, const aclTensorList* x2,
                            const aclTensor* alpha_tensor, const aclScalar* alpha_scalar, const aclTensorList* out) {
  aclDataType dtype;
  if (out == nullptr) {
    CANOPY_CHECK(CheckForeachLists(plan, {{"x1", x1}, {"x2", x2}}, rule.dtypes, dtype));
  } else {
    CANOPY_CHECK(CheckForeachLists(plan, {{"x1", x1}, {"x2", x2}, {"out", out}}, rule.dtypes, dtype));
  }
  if (alpha_tensor != nullptr) CANOPY_CHECK(CheckScalarTensor(plan, ScalarRuleOf(rule), "alpha", alpha_tensor, dtype));
  if (alpha_scalar != nullptr)
    CANOPY_CHECK(CheckScalarDtypeFor(plan, ScalarRuleOf(rule), "alpha", alpha_scalar->dtype, dtype));

  const std::vector<TensorRef> a = plan.InputList(x1, "x1");
  const std::vector<TensorRef> b = plan.InputList(x2, "x2");
  std::optional<TensorRef> alpha;
  if (alpha_tensor != nullptr) alpha = ScalarView(plan.Input(alpha_tensor, "alpha"));
  const std::vector<TensorRef> dst = out == nullptr ? plan.OutputList(x1, "x1") : plan.OutputList(out, "out");
  if (dtype == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  const aclDataType compute = ComputeDtype(dtype, false);
  const ScalarValue alpha_value = alpha_scalar != nullptr ? HostValue(*alpha_scalar, compute) : ScalarValue::Integer(1);
  for (size_t i = 0; i < a.size(); ++i) {
    if (dst[i].NumElements() == 0) continue;
    if (alpha) {
      // alpha lives on the device: scale x2 into a temporary of the compute type, then add or subtract it.
      const TensorRef scaled = plan.Temporary(IsFloating(dtype) ? ACL_FLOAT : ACL_INT64, b[i].shape);
      plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(compute), {b[i], *alpha}, scaled,
                       ScalarValue::Integer(1));
      PlanElement(plan, rule.op, compute, a[i], Other{scaled, {}}, ScalarValue::Integer(1), dst[i]);
    } else {
      PlanElement(plan, rule.op, compute, a[i], Other{b[i], {}}, alpha_value, dst[i]);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachTensorScalar(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x,
                                    const aclTensor* scalar, const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckInOut(plan, "x", x, out, rule.dtypes, dtype));
  CANOPY_CHECK(CheckScalarTensor(plan, ScalarRuleOf(rule), "scalar", scalar, dtype));
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const TensorRef value = ScalarView(plan.Input(scalar, "scalar"));
  const std::vector<TensorRef> dst = out == nullptr ? plan.OutputList(x, "x") : plan.OutputList(out, "out");
  if (dtype == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  const aclDataType compute = ComputeDtype(dtype, IsFloating(scalar->dtype));
  for (size_t i = 0; i < in.size(); ++i) {
    PlanElement(plan, rule.op, compute, in[i], Other{value, {}}, ScalarValue::Integer(1), dst[i]);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachScalar(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x,
                              const aclScalar* scalar, const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckInOut(plan, "x", x, out, rule.dtypes, dtype));
  CANOPY_CHECK(CheckScalarDtypeFor(plan, ScalarRuleOf(rule), "scalar", scalar->dtype, dtype));
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const std::vector<TensorRef> dst = out == nullptr ? plan.OutputList(x, "x") : plan.OutputList(out, "out");
  if (dtype == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  const aclDataType compute = ComputeDtype(dtype, IsFloating(scalar->dtype));
  const ScalarValue value = HostValue(*scalar, compute);
  for (size_t i = 0; i < in.size(); ++i) {
    PlanElement(plan, rule.op, compute, in[i], Other{std::nullopt, value}, ScalarValue::Integer(1), dst[i]);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachScalarList(Plan& plan, const ForeachBinaryRule& rule, const aclTensorList* x,
                                  const aclScalarList* scalars, const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckInOut(plan, "x", x, out, rule.dtypes, dtype));
  if (scalars->scalars.size() != LengthOf(x)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "list 'scalars' has %zu scalars; it must have one per tensor of 'x' (%zu)",
                       scalars->scalars.size(), LengthOf(x));
  }
  for (size_t i = 0; i < scalars->scalars.size(); ++i) {
    CANOPY_CHECK(CheckScalarDtypeFor(plan, ScalarRuleOf(rule), ElementName("scalars", i).c_str(),
                                     scalars->scalars[i]->dtype, dtype));
  }
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const std::vector<TensorRef> dst = out == nullptr ? plan.OutputList(x, "x") : plan.OutputList(out, "out");
  for (size_t i = 0; i < in.size(); ++i) {
    const aclDataType compute = ComputeDtype(dtype, IsFloating(scalars->scalars[i]->dtype));
    PlanElement(plan, rule.op, compute, in[i], Other{std::nullopt, HostValue(*scalars->scalars[i], compute)},
                ScalarValue::Integer(1), dst[i]);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachScalarAndTensor(Plan& plan, const ForeachBinaryRule& rule, const aclScalar* scalar,
                                       const aclTensorList* x, const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckInOut(plan, "x", x, out, rule.dtypes, dtype));
  CANOPY_CHECK(CheckScalarDtypeFor(plan, ScalarRuleOf(rule), "scalar", scalar->dtype, dtype));
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const std::vector<TensorRef> dst = plan.OutputList(out, "out");
  if (dtype == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  const aclDataType compute = ComputeDtype(dtype, IsFloating(scalar->dtype));
  const ScalarValue value = HostValue(*scalar, compute);
  for (size_t i = 0; i < in.size(); ++i) {
    PlanElement(plan, rule.op, compute, in[i], Other{std::nullopt, value}, ScalarValue::Integer(1), dst[i],
                /*other_first=*/true);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachTernary(Plan& plan, const ForeachTernaryRule& rule, const aclTensorList* x1,
                               const aclTensorList* x2, const aclTensorList* x3, const aclTensor* scalars,
                               const aclTensor* scalar, const aclScalar* value, const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckForeachLists(plan, {{"x1", x1}, {"x2", x2}, {"x3", x3}, {"out", out}}, rule.dtypes, dtype));
  const ScalarRule scalar_rule = ScalarRuleOf(rule);
  if (scalars != nullptr) {
    CANOPY_CHECK(CheckScalarTensor(plan, scalar_rule, "scalars", scalars, dtype, static_cast<int64_t>(LengthOf(x1))));
  }
  if (scalar != nullptr) CANOPY_CHECK(CheckScalarTensor(plan, scalar_rule, "scalar", scalar, dtype));
  if (value != nullptr) CANOPY_CHECK(CheckScalarDtypeFor(plan, scalar_rule, "scalar", value->dtype, dtype));

  const std::vector<TensorRef> a = plan.InputList(x1, "x1");
  const std::vector<TensorRef> b = plan.InputList(x2, "x2");
  const std::vector<TensorRef> c = plan.InputList(x3, "x3");
  std::optional<TensorRef> device_scalar;
  if (scalars != nullptr) device_scalar = plan.Input(scalars, "scalars");
  if (scalar != nullptr) device_scalar = plan.Input(scalar, "scalar");
  const std::vector<TensorRef> dst = plan.OutputList(out, "out");
  if (dtype == ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  // Floating lists compute in FLOAT, integer ones in INT64 (an INT32 product wraps as it is stored).
  const aclDataType compute_dtype = IsFloating(dtype) ? ACL_FLOAT : ACL_INT64;
  const ComputeType compute = kernels::ComputeTypeOf(compute_dtype);
  const ScalarValue one = ScalarValue::Integer(1);
  for (size_t i = 0; i < a.size(); ++i) {
    if (dst[i].NumElements() == 0) continue;
    const TensorRef combined = plan.Temporary(compute_dtype, a[i].shape);
    plan.Elementwise(rule.op == ForeachCombine::kAddcmul ? ElementwiseOp::kMul : ElementwiseOp::kDiv, compute,
                     {b[i], c[i]}, combined, one);
    if (value != nullptr) {
      plan.Elementwise(ElementwiseOp::kAdd, compute, {a[i], combined}, dst[i], HostValue(*value, compute_dtype));
      continue;
    }
    // The scalar lives on the device: scale the combination by it, then add.
    const TensorRef s =
        scalars != nullptr ? ElementView(*device_scalar, static_cast<int64_t>(i)) : ScalarView(*device_scalar);
    const TensorRef scaled = plan.Temporary(compute_dtype, a[i].shape);
    plan.Elementwise(ElementwiseOp::kMul, compute, {combined, s}, scaled, one);
    plan.Elementwise(ElementwiseOp::kAdd, compute, {a[i], scaled}, dst[i], one);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachLerp(Plan& plan, DtypeSet dtypes, DtypeSet weight_dtypes, const aclTensorList* x1,
                            const aclTensorList* x2, const aclTensorList* weights, const aclScalar* weight,
                            const aclTensorList* out) {
  aclDataType dtype;
  if (weights != nullptr) {
    CANOPY_CHECK(CheckForeachLists(plan, {{"x1", x1}, {"x2", x2}, {"weight", weights}, {"out", out}}, dtypes, dtype));
  } else {
    CANOPY_CHECK(CheckForeachLists(plan, {{"x1", x1}, {"x2", x2}, {"out", out}}, dtypes, dtype));
    CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, weight_dtypes));
  }
  const std::vector<TensorRef> a = plan.InputList(x1, "x1");
  const std::vector<TensorRef> b = plan.InputList(x2, "x2");
  std::vector<TensorRef> w;
  if (weights != nullptr) w = plan.InputList(weights, "weight");
  const std::vector<TensorRef> dst = plan.OutputList(out, "out");
  const ComputeType compute = ComputeType::kF32;
  const ScalarValue one = ScalarValue::Integer(1);
  for (size_t i = 0; i < a.size(); ++i) {
    if (dst[i].NumElements() == 0) continue;
    const TensorRef difference = plan.Temporary(ACL_FLOAT, a[i].shape);
    plan.Elementwise(ElementwiseOp::kSub, compute, {b[i], a[i]}, difference, one);
    if (weight != nullptr) {
      plan.Elementwise(ElementwiseOp::kAdd, compute, {a[i], difference}, dst[i], HostValue(*weight, ACL_FLOAT));
      continue;
    }
    const TensorRef scaled = plan.Temporary(ACL_FLOAT, a[i].shape);
    plan.Elementwise(ElementwiseOp::kMul, compute, {difference, w[i]}, scaled, one);
    plan.Elementwise(ElementwiseOp::kAdd, compute, {a[i], scaled}, dst[i], one);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachNorm(Plan& plan, DtypeSet dtypes, DtypeSet p_dtypes, const aclTensorList* x, const aclScalar* p,
                            const aclTensorList* out) {
  aclDataType dtype;
  CANOPY_CHECK(CheckForeachLists(plan, {{"x", x}}, dtypes, dtype));
  for (size_t i = 0; i < LengthOf(out); ++i) {
    CANOPY_CHECK(plan.CheckDtype(ElementName("out", i).c_str(), out->tensors[i]->dtype, dtypes));
  }
  CANOPY_CHECK(plan.CheckDtype("scalar", p->dtype, p_dtypes));
  if (LengthOf(out) != LengthOf(x)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "list 'out' has %zu tensors; it must have as many as 'x' (%zu)",
                       LengthOf(out), LengthOf(x));
  }
  for (size_t i = 0; i < LengthOf(x); ++i) {
    const aclTensor* o = out->tensors[i];
    if (o->dtype != x->tensors[i]->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must have the dtype of '%s', %s",
                         ElementName("out", i).c_str(), DtypeName(o->dtype), ElementName("x", i).c_str(),
                         DtypeName(x->tensors[i]->dtype));
    }
    if (o->NumElements() != 1) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; it must hold exactly one element (the norm)",
                         ElementName("out", i).c_str(), ShapeToString(o->view_shape).c_str());
    }
  }
  const ScalarValue order = ValueOf(*p);
  const double p_value = order.As<double>();
  const std::vector<TensorRef> in = plan.InputList(x, "x");
  const std::vector<TensorRef> dst = plan.OutputList(out, "out");
  for (size_t i = 0; i < in.size(); ++i) {
    const TensorRef result = ScalarView(dst[i]);  // its one element, whatever its shape
    if (in[i].NumElements() == 0) {
      plan.Fill(result, ScalarValue::Real(0));
      continue;
    }
    AddFullReduction(plan, kernels::ReduceKind::kNorm, p_value, in[i], result);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanForeachNonFiniteCheckAndUnscale(Plan& plan, DtypeSet dtypes, const aclTensorList* scaled_grads,
                                                const aclTensor* found_inf, const aclTensor* inv_scale) {
  aclDataType dtype;
  CANOPY_CHECK(CheckForeachLists(plan, {{"scaledGrads", scaled_grads}}, dtypes, dtype));
  CANOPY_CHECK(plan.CheckDtype("foundInf", found_inf->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("invScale", inv_scale->dtype, {ACL_FLOAT}));
  constexpr size_t kMaxGrads = 256;  // CANN's limit on the list
  if (LengthOf(scaled_grads) > kMaxGrads) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "list 'scaledGrads' has %zu tensors; at most %zu are supported",
                       LengthOf(scaled_grads), kMaxGrads);
  }
  for (const auto& [name, tensor] : {std::pair{"foundInf", found_inf}, std::pair{"invScale", inv_scale}}) {
    if (tensor->NumElements() != 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must hold exactly one element", name,
                         ShapeToString(tensor->view_shape).c_str());
    }
  }
  const std::vector<TensorRef> grads = plan.InputList(scaled_grads, "scaledGrads");
  const TensorRef found_in = ScalarView(plan.Input(found_inf, "foundInf"));
  const TensorRef inv = ScalarView(plan.Input(inv_scale, "invScale"));
  const std::vector<TensorRef> unscaled = plan.OutputList(scaled_grads, "scaledGrads");
  const TensorRef found_out = ScalarView(plan.Output(found_inf, "foundInf"));

  // The check reads the grads as given: x * 0 is NaN exactly where x is inf or NaN, and
  // "any non-zero" over it (NaN counts) is that grad's flag; the flags' maximum joins foundInf.
  const ScalarValue one = ScalarValue::Integer(1);
  const TensorRef any = plan.Temporary(ACL_FLOAT, {});
  plan.Fill(any, ScalarValue::Real(0));
  for (const TensorRef& g : grads) {
    if (g.NumElements() == 0) continue;
    const TensorRef zeroed = plan.Temporary(ACL_FLOAT, g.shape);
    plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {g}, zeroed, one, ScalarValue::Real(0));
    const TensorRef flag = plan.Temporary(ACL_FLOAT, {});
    AddFullReduction(plan, kernels::ReduceKind::kAny, 0, zeroed, flag);
    AddPointwise(plan, PointwiseOp::kMaximum, ACL_FLOAT, ACL_FLOAT,
                 {PointwiseOperand::Tensor(any), PointwiseOperand::Tensor(flag)}, any);
  }
  AddPointwise(plan, PointwiseOp::kMaximum, ACL_FLOAT, ACL_FLOAT,
               {PointwiseOperand::Tensor(found_in), PointwiseOperand::Tensor(any)}, found_out);
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].NumElements() != 0) {
      plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {grads[i], inv}, unscaled[i], one);
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
