#include "binary_pointwise.h"

#include <type_traits>

#include "kernels/dtype_dispatch.h"

namespace canopy::ops {
namespace {

kernels::StridedOperand OperandOf(const TensorRef& t, const Shape& shape) {
  const TensorRef view = BroadcastTo(t, shape);
  kernels::StridedOperand operand;
  operand.buffer = view.buffer;
  operand.dtype = view.dtype;
  for (size_t d = 0; d < view.strides.size(); ++d) operand.strides[d] = view.strides[d];
  return operand;
}

void AddStep(Plan& plan, PointwiseOp op, ComputeType compute, bool unsigned_compute,
             const std::vector<PointwiseOperand>& operands, const TensorRef& out) {
  kernels::PointwiseDesc desc;
  desc.op = op;
  desc.compute = compute;
  desc.unsigned_compute = unsigned_compute;
  desc.num_operands = static_cast<int>(operands.size());
  desc.view.rank = static_cast<int>(out.shape.size());
  for (size_t d = 0; d < out.shape.size(); ++d) desc.view.shape[d] = out.shape[d];
  desc.view.out = OperandOf(out, out.shape);
  std::vector<TensorRef> reads;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (operands[k].tensor) {
      desc.view.inputs[desc.view.num_inputs++] = OperandOf(*operands[k].tensor, out.shape);
      reads.push_back(*operands[k].tensor);
    } else {
      desc.is_scalar[k] = true;
      desc.scalars[k] = operands[k].scalar;
    }
  }
  // Element i of out is computed from element i of each operand alone.
  plan.AddPositionwiseStep(kernels::MakePointwiseStep(desc), reads, out);
}

const char* SelfName(const BinaryRule& rule, bool in_place) { return in_place ? rule.inplace_name : rule.self_name; }
const char* OutName(const BinaryRule& rule, bool in_place) { return in_place ? rule.inplace_name : "out"; }

// What both forms check first: self's and out's dtypes.
aclnnStatus CheckSelfAndOut(Plan& plan, const BinaryRule& rule, const aclTensor* self, const aclTensor* out,
                            bool in_place) {
  if (in_place) return plan.CheckDtype(rule.inplace_name, self->dtype, rule.inplace);
  CANOPY_CHECK(plan.CheckDtype(rule.self_name, self->dtype, rule.self));
  return plan.CheckDtype("out", out->dtype, rule.out);
}

DtypeSet OtherDtypes(const BinaryRule& rule, bool in_place) { return in_place ? rule.inplace_other : rule.other; }

// The result dtype of the op on `promoted` operands, checked against out: the
// promotion within the rule's compute dtypes, the result castable to out.
aclnnStatus CheckResult(Plan& plan, const BinaryRule& rule, aclDataType promoted, const aclTensor* out, bool in_place,
                        aclDataType& result) {
  if (!rule.compute.empty() && !rule.compute.Contains(promoted)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the operands promote to %s, which this op does not compute in; "
                       "supported: %s",
                       DtypeName(promoted), rule.compute.ToString().c_str());
  }
  result = rule.policy == ResultPolicy::kBool ? ACL_BOOL : ComputeDtypeOf(rule, promoted);
  if (!rule.out_cast_checked) return ACLNN_SUCCESS;
  return plan.CheckCastable(result, OutName(rule, in_place), out->dtype);
}

}  // namespace

aclDataType ComputeDtypeOf(const BinaryRule& rule, aclDataType promoted) {
  switch (rule.policy) {
    case ResultPolicy::kFloat:
      return IsFloating(promoted) || IsComplex(promoted) ? promoted : ACL_FLOAT;
    case ResultPolicy::kBoolAsFloat:
      return IsBool(promoted) ? ACL_FLOAT : promoted;
    case ResultPolicy::kAtMostFloat:
      return promoted == ACL_FLOAT16 || promoted == ACL_BF16 ? promoted : ACL_FLOAT;
    case ResultPolicy::kPromoted:
    case ResultPolicy::kBool:
      break;
  }
  return promoted;
}

aclDataType ScalarPromotionOf(const BinaryRule& rule, aclDataType self, const aclScalar& other) {
  switch (rule.scalar_promotion) {
    case ScalarPromotion::kTensorScalar:
      break;
    case ScalarPromotion::kTensorTensor:
      return PromoteTypes(self, other.dtype);
    case ScalarPromotion::kInt32Narrowed: {
      const ScalarValue value = ValueOf(other);
      const bool fits = other.dtype == ACL_INT64 && value.integer >= INT32_MIN && value.integer <= INT32_MAX;
      return PromoteTypes(self, fits ? ACL_INT32 : other.dtype);
    }
    case ScalarPromotion::kFloatKeepsWidth:
      if (!IsFloating(self) && !IsComplex(self) && (IsFloating(other.dtype) || IsBool(self))) {
        return PromoteTypes(self, other.dtype);
      }
      break;
  }
  return TensorScalarDtype(self, other.dtype);
}

TensorRef RoundedOperand(Plan& plan, const TensorRef& operand, aclDataType compute_dtype) {
  if (!IsHalfWidth(compute_dtype) || !IsIntegral(operand.dtype)) return operand;
  TensorRef rounded = plan.Temporary(compute_dtype, operand.shape);
  plan.Copy(operand, rounded);
  return rounded;
}

void AddPointwise(Plan& plan, PointwiseOp op, aclDataType compute_dtype, aclDataType result,
                  const std::vector<PointwiseOperand>& given, const TensorRef& out) {
  if (out.NumElements() == 0) return;
  std::vector<PointwiseOperand> operands = given;
  for (PointwiseOperand& operand : operands) {
    if (operand.tensor) operand.tensor = RoundedOperand(plan, *operand.tensor, compute_dtype);
  }
  const ComputeType compute = kernels::ComputeTypeOf(compute_dtype);
  const bool unsigned_compute = compute_dtype == ACL_UINT64;  // the only integer dtype int64 cannot hold
  if (RoundsInOwnDtype(result) && out.dtype != result) {
    const TensorRef rounded = plan.Temporary(result, out.shape);
    AddStep(plan, op, compute, unsigned_compute, operands, rounded);
    plan.Copy(rounded, out);
    return;
  }
  AddStep(plan, op, compute, unsigned_compute, operands, out);
}

aclDataType TensorScalarDtype(aclDataType tensor, aclDataType scalar) {
  if (IsComplex(tensor)) return tensor;
  if (IsComplex(scalar)) return tensor == ACL_DOUBLE ? ACL_COMPLEX128 : ACL_COMPLEX64;
  if (IsFloating(tensor)) return tensor;
  if (IsFloating(scalar)) return ACL_FLOAT;
  if (IsBool(tensor)) return PromoteTypes(tensor, scalar);
  return tensor;
}

ScalarValue RoundedTo(ScalarValue value, aclDataType dtype) {
  if (IsIntegral(dtype) || IsBool(dtype)) {
    ScalarValue stored;
    kernels::VisitStorage(dtype, [&](auto tag) {
      using Storage = decltype(tag);
      if constexpr (std::is_same_v<Storage, uint64_t>) {
        stored = ScalarValue::Unsigned(value.As<uint64_t>());
      } else {
        stored = ScalarValue::Integer(kernels::Convert<int64_t>(value.As<Storage>()));
      }
    });
    return stored;
  }
  if (!IsFloating(dtype)) return value;
  const double real = value.real;  // an integer's value (a UINT64 past INT64_MAX unwrapped)
  double rounded = real;
  kernels::VisitStorage(dtype,
                        [&](auto tag) { rounded = kernels::Convert<double>(kernels::Convert<decltype(tag)>(real)); });
  return ScalarValue::Real(rounded);
}

aclnnStatus CheckScalarDtype(Plan& plan, const char* name, const aclScalar* scalar, DtypeSet allowed) {
  if (allowed.Contains(scalar->dtype)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "scalar '%s' has dtype %s; supported: %s", name, DtypeName(scalar->dtype),
                     allowed.ToString().c_str());
}

aclnnStatus CheckTensorScalarDtype(Plan& plan, const char* tensor_name, aclDataType tensor, const char* scalar_name,
                                   aclDataType scalar, aclDataType& result) {
  result = TensorScalarDtype(tensor, scalar);
  if (result != ACL_DT_UNDEFINED) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dtypes of '%s' (%s) and scalar '%s' (%s) cannot be promoted",
                     tensor_name, DtypeName(tensor), scalar_name, DtypeName(scalar));
}

aclnnStatus CheckBroadcastInto(Plan& plan, const char* self_name, const Shape& self, const char* other_name,
                               const Shape& other) {
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast(self_name, self, other_name, other, shape));
  if (shape == self) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' %s and '%s' %s broadcast to %s, not to '%s''s own shape", self_name,
                     ShapeToString(self).c_str(), other_name, ShapeToString(other).c_str(),
                     ShapeToString(shape).c_str(), self_name);
}

aclnnStatus PlanBinaryTensorOp(Plan& plan, const BinaryRule& rule, const aclTensor* self, const aclTensor* other,
                               const aclTensor* out, bool in_place) {
  const char* self_name = SelfName(rule, in_place);
  const char* out_name = OutName(rule, in_place);
  CANOPY_CHECK(CheckSelfAndOut(plan, rule, self, out, in_place));
  CANOPY_CHECK(plan.CheckDtype(rule.other_name, other->dtype, OtherDtypes(rule, in_place)));
  aclDataType promoted;
  CANOPY_CHECK(plan.CheckPromotable(self_name, self->dtype, rule.other_name, other->dtype, promoted));
  aclDataType result;
  CANOPY_CHECK(CheckResult(plan, rule, promoted, out, in_place, result));
  if (in_place) {
    CANOPY_CHECK(CheckBroadcastInto(plan, self_name, self->view_shape, rule.other_name, other->view_shape));
    const bool self_empty = self->NumElements() == 0, other_empty = other->NumElements() == 0;
    if (rule.inplace_rejects_one_empty && self_empty != other_empty) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "exactly one of '%s' and '%s' is empty", self_name, rule.other_name);
    }
  } else {
    Shape shape;
    CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, rule.other_name, other->view_shape, shape));
    CANOPY_CHECK(plan.CheckShape(out_name, out, shape));
  }

  const TensorRef a = plan.Input(self, self_name);
  const TensorRef b = plan.Input(other, rule.other_name);
  const TensorRef dst = plan.Output(out, out_name);
  AddPointwise(plan, rule.op, ComputeDtypeOf(rule, promoted), result,
               {PointwiseOperand::Tensor(a), PointwiseOperand::Tensor(b)}, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanBinaryScalarOp(Plan& plan, const BinaryRule& rule, const aclTensor* self, const aclScalar* other,
                               const aclTensor* out, bool in_place) {
  const char* self_name = SelfName(rule, in_place);
  const char* out_name = OutName(rule, in_place);
  CANOPY_CHECK(CheckSelfAndOut(plan, rule, self, out, in_place));
  CANOPY_CHECK(CheckScalarDtype(plan, rule.other_name, other, OtherDtypes(rule, in_place)));
  const aclDataType promoted = ScalarPromotionOf(rule, self->dtype, *other);
  if (promoted == ACL_DT_UNDEFINED) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dtypes of '%s' (%s) and scalar '%s' (%s) cannot be promoted",
                       self_name, DtypeName(self->dtype), rule.other_name, DtypeName(other->dtype));
  }
  aclDataType result;
  CANOPY_CHECK(CheckResult(plan, rule, promoted, out, in_place, result));
  if (!in_place) CANOPY_CHECK(plan.CheckShape(out_name, out, self->view_shape));

  const TensorRef a = plan.Input(self, self_name);
  const TensorRef dst = plan.Output(out, out_name);
  const aclDataType compute = ComputeDtypeOf(rule, promoted);
  AddPointwise(plan, rule.op, compute, result,
               {PointwiseOperand::Tensor(a), PointwiseOperand::Scalar(RoundedTo(ValueOf(*other), compute))}, dst);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
