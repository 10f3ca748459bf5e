// aclnnPowTensorScalar, aclnnInplacePowTensorScalar, aclnnPowScalarTensor
// (aclnn_pow.h) and aclnnPowTensorTensor, aclnnInplacePowTensorTensor
// (aclnn_pow_tensor_tensor.h): torch.pow. Promotion: tensors by the table, a
// scalar by the TensorScalar deduction; integer results are exact and wrap,
// a negative integer exponent in a tensor gives 1 / base truncated (torch);
// a scalar one is 161002, as CANN documents.
#include "aclnnop/aclnn_pow.h"

#include <limits>

#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kPowDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,    ACL_INT8,       ACL_INT16, ACL_INT32,
                                 ACL_INT64, ACL_UINT8,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};
// Out-of-place forms also take BOOL operands (not both) and write unsigned outs.
constexpr DtypeSet kPowInputs = kPowDtypes | DtypeSet{ACL_BOOL};
constexpr DtypeSet kPowOut = kPowInputs | DtypeSet{ACL_UINT16, ACL_UINT32, ACL_UINT64};

constexpr BinaryRule kPow{.op = PointwiseOp::kPow,
                          .self = kPowInputs,
                          .other = kPowInputs,
                          .out = kPowOut,
                          .inplace = kPowDtypes,
                          .inplace_other = kPowDtypes,
                          .other_name = "exponent"};
// A scalar exponent: CANN computes 2, 3, 0.5, -0.5, -1 and -2 with other kernels (PowScalarFn).
constexpr BinaryRule kPowScalar = [] {
  BinaryRule rule = kPow;
  rule.op = PointwiseOp::kPowScalar;
  return rule;
}();

aclnnStatus RejectBothBool(Plan& plan, aclDataType self, aclDataType exponent) {
  if (!IsBool(self) || !IsBool(exponent)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' and 'exponent' cannot both be BOOL");
}

// The largest value of an integer dtype (the promoted dtypes of Pow: s8 s16 s32 s64 u8).
int64_t IntegerMax(aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8:
      return std::numeric_limits<int8_t>::max();
    case ACL_UINT8:
      return std::numeric_limits<uint8_t>::max();
    case ACL_INT16:
      return std::numeric_limits<int16_t>::max();
    case ACL_INT32:
      return std::numeric_limits<int32_t>::max();
    default:
      return std::numeric_limits<int64_t>::max();
  }
}

// A scalar exponent of integer math must be at least 0 and fit the promoted dtype.
aclnnStatus CheckScalarExponent(Plan& plan, const aclTensor* self, const aclScalar* exponent) {
  CANOPY_CHECK(RejectBothBool(plan, self->dtype, exponent->dtype));
  const aclDataType promoted = TensorScalarDtype(self->dtype, exponent->dtype);
  if (!IsIntegral(promoted)) return ACLNN_SUCCESS;
  const ScalarValue value = ValueOf(*exponent);
  if (value.is_integer && value.integer >= 0 && value.integer <= IntegerMax(promoted)) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "'exponent' %g of integer pow in %s must be a non-negative value of that dtype",
                     value.As<double>(), DtypeName(promoted));
}

aclnnStatus PlanPowTensorScalar(Plan& plan, const aclTensor* self, const aclScalar* exponent, const aclTensor* out) {
  CANOPY_CHECK(CheckScalarExponent(plan, self, exponent));
  return PlanBinaryScalarOp(plan, kPowScalar, self, exponent, out, false);
}
aclnnStatus PlanInplacePowTensorScalar(Plan& plan, const aclTensor* selfRef, const aclScalar* exponent) {
  CANOPY_CHECK(CheckScalarExponent(plan, selfRef, exponent));
  return PlanBinaryScalarOp(plan, kPowScalar, selfRef, exponent, selfRef, true);
}
aclnnStatus PlanPowTensorTensor(Plan& plan, const aclTensor* self, const aclTensor* exponent, const aclTensor* out) {
  CANOPY_CHECK(RejectBothBool(plan, self->dtype, exponent->dtype));
  return PlanBinaryTensorOp(plan, kPow, self, exponent, out, false);
}
aclnnStatus PlanInplacePowTensorTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* exponent) {
  return PlanBinaryTensorOp(plan, kPow, selfRef, exponent, selfRef, true);
}

// A scalar base: the exponent tensor's dtype wins unless the base brings floating point or complex.
aclnnStatus PlanPowScalarTensor(Plan& plan, const aclScalar* self, const aclTensor* exponent, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("exponent", exponent->dtype, kPowDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kPowOut.Without({ACL_BOOL})));
  CANOPY_CHECK(CheckScalarDtype(plan, "self", self, kPowDtypes));
  aclDataType promoted;
  CANOPY_CHECK(CheckTensorScalarDtype(plan, "exponent", exponent->dtype, "self", self->dtype, promoted));
  CANOPY_CHECK(plan.CheckCastable(promoted, "out", out->dtype));
  CANOPY_CHECK(plan.CheckShape("out", out, exponent->view_shape));
  const TensorRef e = plan.Input(exponent, "exponent");
  AddPointwise(plan, PointwiseOp::kPow, promoted, promoted,
               {PointwiseOperand::Scalar(RoundedTo(ValueOf(*self), promoted)), PointwiseOperand::Tensor(e)},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kPowTraits{.header = "aclnnop/aclnn_pow.h", .dtypes = kPowInputs};
constexpr OpTraits kPowTensorTraits{.header = "aclnnop/aclnn_pow_tensor_tensor.h", .dtypes = kPowInputs};

}  // namespace

CANOPY_ACLNN_OP(PowTensorScalar, PlanPowTensorScalar, kPowTraits, (const aclTensor*, self),
                (const aclScalar*, exponent), (const aclTensor*, out))
// CANN's prototypes call the in-place tensor `self`; the kit names every in-place tensor selfRef.
CANOPY_ACLNN_OP(InplacePowTensorScalar, PlanInplacePowTensorScalar, InPlace(kPowTraits), (const aclTensor*, selfRef),
                (const aclScalar*, exponent))
CANOPY_ACLNN_OP(PowScalarTensor, PlanPowScalarTensor, kPowTraits, (const aclScalar*, self),
                (const aclTensor*, exponent), (const aclTensor*, out))
CANOPY_ACLNN_OP(PowTensorTensor, PlanPowTensorTensor, kPowTensorTraits, (const aclTensor*, self),
                (const aclTensor*, exponent), (aclTensor*, out))
CANOPY_ACLNN_OP(InplacePowTensorTensor, PlanInplacePowTensorTensor, InPlace(kPowTensorTraits),
                (const aclTensor*, selfRef), (const aclTensor*, exponent))
