// aclnnAddr, aclnnInplaceAddr (torch.addr): out = beta * self + alpha *
// outer(vec1, vec2), computed in the promotion of self, vec1 and vec2 and
// then cast into out (no castability check, as CANN casts unchecked). Each
// step rounds to the promoted dtype as CANN's Mul and Add kernels do: alpha *
// vec1, its product with vec2, beta * self, the sum. A BOOL promotion uses
// logical and / or instead. A missing or unit alpha or beta is no
// multiplication, and a zero beta ignores self (its NaNs too).
#include "aclnnop/aclnn_addr.h"
#include "binary_pointwise.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The Atlas A2 list of the host code (the doc's column is the same).
constexpr DtypeSet kAddrDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                  ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL, ACL_BF16};
constexpr int64_t kMaxSelfRank = 2;

bool IntegralOrBool(aclDataType dtype) { return IsIntegral(dtype) || IsBool(dtype); }

// beta and alpha: a BOOL factor only with a BOOL promotion, no floating factor for integral tensors.
aclnnStatus CheckFactor(Plan& plan, const char* name, const aclScalar* factor, aclDataType promoted,
                        bool integral_inputs) {
  if (factor == nullptr) return ACLNN_SUCCESS;
  CANOPY_CHECK(CheckScalarDtype(plan, name, factor, kAddrDtypes));
  if (IsBool(factor->dtype) && !IsBool(promoted)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a BOOL '%s' needs BOOL tensors, but they promote to %s", name,
                       DtypeName(promoted));
  }
  if (integral_inputs && !IntegralOrBool(factor->dtype)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' (%s) must not be floating point for integral tensors", name,
                       DtypeName(factor->dtype));
  }
  return ACLNN_SUCCESS;
}

// `factor`'s value as a tensor of the promoted dtype holds it.
ScalarValue FactorIn(const aclScalar& factor, aclDataType promoted) {
  const ScalarValue value = ValueOf(factor);
  if (IsBool(promoted)) return ScalarValue::Integer(value.real != 0 ? 1 : 0);
  return RoundedTo(value, promoted);
}

// dst = a * b (BOOL: a and b); b a tensor or, absent, `scalar`.
void Multiply(Plan& plan, aclDataType promoted, const TensorRef& a, const std::optional<TensorRef>& b,
              ScalarValue scalar, const TensorRef& dst) {
  if (IsBool(promoted)) {
    AddPointwise(plan, PointwiseOp::kLogicalAnd, promoted, promoted,
                 {PointwiseOperand::Tensor(a), b ? PointwiseOperand::Tensor(*b) : PointwiseOperand::Scalar(scalar)},
                 dst);
    return;
  }
  std::vector<TensorRef> inputs = {a};
  if (b) inputs.push_back(*b);
  plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(promoted), inputs, dst, ScalarValue::Integer(1), scalar);
}

aclnnStatus PlanAddrCommon(Plan& plan, const aclTensor* self, const aclTensor* vec1, const aclTensor* vec2,
                           const aclScalar* beta, const aclScalar* alpha, const aclTensor* out, bool in_place) {
  const char* self_name = in_place ? "selfRef" : "self";
  CANOPY_CHECK(plan.CheckDtype(self_name, self->dtype, kAddrDtypes));
  CANOPY_CHECK(plan.CheckDtype("vec1", vec1->dtype, kAddrDtypes));
  CANOPY_CHECK(plan.CheckDtype("vec2", vec2->dtype, kAddrDtypes));
  if (!in_place) CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAddrDtypes));
  const aclDataType promoted = PromoteTypes(self->dtype, PromoteTypes(vec2->dtype, vec1->dtype));
  const bool integral_inputs =
      IntegralOrBool(self->dtype) && IntegralOrBool(vec1->dtype) && IntegralOrBool(vec2->dtype);
  CANOPY_CHECK(CheckFactor(plan, "betaOptional", beta, promoted, integral_inputs));
  CANOPY_CHECK(CheckFactor(plan, "alphaOptional", alpha, promoted, integral_inputs));

  CANOPY_CHECK(plan.CheckRank("vec1", vec1, 1, 1));
  CANOPY_CHECK(plan.CheckRank("vec2", vec2, 1, 1));
  CANOPY_CHECK(plan.CheckRank(self_name, self, in_place ? kMaxSelfRank : 0, kMaxSelfRank));
  const Shape outer = {vec1->view_shape[0], vec2->view_shape[0]};
  Shape broadcast = self->view_shape;
  if (!in_place) CANOPY_CHECK(plan.CheckBroadcast(self_name, self->view_shape, "outer(vec1, vec2)", outer, broadcast));
  if (broadcast != outer) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' %s does not expand to the shape of outer(vec1, vec2) %s",
                       self_name, ShapeToString(self->view_shape).c_str(), ShapeToString(outer).c_str());
  }
  // CANN returns before looking at out when a vector is empty.
  const bool empty = outer[0] == 0 || outer[1] == 0;
  if (!in_place && !empty) CANOPY_CHECK(plan.CheckShape("out", out, outer));

  const TensorRef s = plan.Input(self, self_name);
  const TensorRef column = Unsqueeze(plan.Input(vec1, "vec1"), 1);  // [n, 1]
  const TensorRef row = Unsqueeze(plan.Input(vec2, "vec2"), 0);     // [1, m]
  const TensorRef result = plan.Output(out, in_place ? "selfRef" : "out");
  if (empty) return ACLNN_SUCCESS;

  TensorRef scaled_column = column;
  if (alpha != nullptr && ValueOf(*alpha).real != 1) {
    scaled_column = plan.Temporary(promoted, column.shape);
    Multiply(plan, promoted, column, std::nullopt, FactorIn(*alpha, promoted), scaled_column);
  }
  const bool ignore_self = beta != nullptr && ValueOf(*beta).real == 0;
  const bool staged = result.dtype != promoted;
  // The outer product goes straight into out when nothing is added to it and no cast follows.
  const TensorRef product = ignore_self && !staged ? result : plan.Temporary(promoted, outer);
  Multiply(plan, promoted, scaled_column, row, {}, product);
  if (ignore_self) {
    if (staged) plan.Copy(product, result);
    return ACLNN_SUCCESS;
  }
  TensorRef scaled_self = BroadcastTo(s, outer);
  if (beta != nullptr && ValueOf(*beta).real != 1) {
    scaled_self = plan.Temporary(promoted, outer);
    Multiply(plan, promoted, BroadcastTo(s, outer), std::nullopt, FactorIn(*beta, promoted), scaled_self);
  }
  const TensorRef sum = staged ? plan.Temporary(promoted, outer) : result;
  if (IsBool(promoted)) {
    AddPointwise(plan, PointwiseOp::kLogicalOr, promoted, promoted,
                 {PointwiseOperand::Tensor(scaled_self), PointwiseOperand::Tensor(product)}, sum);
  } else {
    plan.Elementwise(ElementwiseOp::kAdd, kernels::ComputeTypeOf(promoted), {scaled_self, product}, sum,
                     ScalarValue::Integer(1));
  }
  if (staged) plan.Copy(sum, result);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddr(Plan& plan, const aclTensor* self, const aclTensor* vec1, const aclTensor* vec2,
                     const aclScalar* beta, const aclScalar* alpha, const aclTensor* out) {
  return PlanAddrCommon(plan, self, vec1, vec2, beta, alpha, out, false);
}
aclnnStatus PlanInplaceAddr(Plan& plan, const aclTensor* selfRef, const aclTensor* vec1, const aclTensor* vec2,
                            const aclScalar* beta, const aclScalar* alpha) {
  return PlanAddrCommon(plan, selfRef, vec1, vec2, beta, alpha, selfRef, true);
}

constexpr OpTraits kAddrTraits{
    .header = "aclnnop/aclnn_addr.h", .dtypes = kAddrDtypes, .example = "f32[2,3] f32[2] f32[3] f32:1 f32:1 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(Addr, PlanAddr, kAddrTraits, (const aclTensor*, self), (const aclTensor*, vec1),
                (const aclTensor*, vec2), (const aclScalar*, betaOptional, optional),
                (const aclScalar*, alphaOptional, optional), (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceAddr, PlanInplaceAddr, InPlace(kAddrTraits, "f32[2,3] f32[2] f32[3] f32:1 f32:1"),
                (aclTensor*, selfRef), (const aclTensor*, vec1), (const aclTensor*, vec2),
                (const aclScalar*, betaOptional, optional), (const aclScalar*, alphaOptional, optional))
