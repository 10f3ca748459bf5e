// aclnnBitwiseAndScalar, aclnnBitwiseOrScalar, aclnnBitwiseXorScalar, their
// in-place forms, and aclnnBitwiseNot: bit by bit on integers, the logical
// operation on BOOL (torch.bitwise_and, _or, _xor, _not). The scalar promotes
// as a tensor of its dtype would; Or and Xor take an INT64 scalar whose value
// fits INT32 as INT32 (an INT8 tensor | 3 stays narrow), as CANN's A2 path
// does. The result must cast to out (a BOOL tensor & an INT32 scalar is INT32,
// so a BOOL out is rejected). Not keeps self's dtype.
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXorDtypes = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL};
constexpr DtypeSet kAndOrDtypes = kXorDtypes | DtypeSet{ACL_UINT16};
constexpr DtypeSet kOutDtypes = kXorDtypes | DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

constexpr BinaryRule kAnd{.op = PointwiseOp::kBitwiseAnd,
                          .self = kAndOrDtypes,
                          .other = kAndOrDtypes,
                          .out = kOutDtypes | DtypeSet{ACL_UINT16},
                          .inplace = kAndOrDtypes,
                          .inplace_other = kAndOrDtypes,
                          .scalar_promotion = ScalarPromotion::kTensorTensor};
constexpr BinaryRule kOr{.op = PointwiseOp::kBitwiseOr,
                         .self = kAndOrDtypes,
                         .other = kAndOrDtypes,
                         .out = kOutDtypes | DtypeSet{ACL_UINT16},
                         .inplace = kAndOrDtypes,
                         .inplace_other = kAndOrDtypes,
                         .scalar_promotion = ScalarPromotion::kInt32Narrowed};
constexpr BinaryRule kXor{.op = PointwiseOp::kBitwiseXor,
                          .self = kXorDtypes,
                          .other = kXorDtypes,
                          .out = kOutDtypes,
                          .inplace = kXorDtypes,
                          .inplace_other = kXorDtypes,
                          .scalar_promotion = ScalarPromotion::kInt32Narrowed};

template <const BinaryRule& kRule>
aclnnStatus PlanOut(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kRule, self, other, out, false);
}
template <const BinaryRule& kRule>
aclnnStatus PlanInplace(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kRule, selfRef, other, selfRef, true);
}

// ~self is self ^ all ones; on BOOL, self ^ 1.
constexpr DtypeSet kNotDtypes = {ACL_INT16, ACL_INT32, ACL_INT64, ACL_INT8, ACL_UINT8, ACL_BOOL};
aclnnStatus PlanNot(Plan& plan, const aclTensor* self, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kNotDtypes));
  if (out->dtype != self->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; it must have self's dtype %s",
                       DtypeName(out->dtype), DtypeName(self->dtype));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const TensorRef in = plan.Input(self, "self");
  const ScalarValue ones = ScalarValue::Integer(IsBool(self->dtype) ? 1 : -1);
  AddPointwise(plan, PointwiseOp::kBitwiseXor, self->dtype, self->dtype,
               {PointwiseOperand::Tensor(in), PointwiseOperand::Scalar(ones)}, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

constexpr const char* kExample = "i32[2,3] i32:6 i32[2,3]";
constexpr const char* kInplaceExample = "i32[2,3] i32:6";
constexpr OpTraits kAndTraits{
    .header = "aclnnop/aclnn_bitwise_and_scalar.h", .dtypes = kAndOrDtypes, .example = kExample};
constexpr OpTraits kOrTraits{
    .header = "aclnnop/aclnn_bitwise_or_scalar.h", .dtypes = kAndOrDtypes, .example = kExample};
constexpr OpTraits kXorTraits{
    .header = "aclnnop/aclnn_bitwise_xor_scalar.h", .dtypes = kXorDtypes, .example = kExample};

}  // namespace

CANOPY_ACLNN_OP(BitwiseAndScalar, PlanOut<kAnd>, kAndTraits, (const aclTensor*, self), (const aclScalar*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseAndScalar, PlanInplace<kAnd>, InPlace(kAndTraits, kInplaceExample),
                (const aclTensor*, selfRef), (const aclScalar*, other))
CANOPY_ACLNN_OP(BitwiseOrScalar, PlanOut<kOr>, kOrTraits, (const aclTensor*, self), (const aclScalar*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseOrScalar, PlanInplace<kOr>, InPlace(kOrTraits, kInplaceExample), (aclTensor*, selfRef),
                (const aclScalar*, other))
CANOPY_ACLNN_OP(BitwiseXorScalar, PlanOut<kXor>, kXorTraits, (const aclTensor*, self), (const aclScalar*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseXorScalar, PlanInplace<kXor>, InPlace(kXorTraits, kInplaceExample), (aclTensor*, selfRef),
                (const aclScalar*, other))
CANOPY_ACLNN_OP(BitwiseNot, PlanNot,
                (OpTraits{
                    .header = "aclnnop/aclnn_bitwise_not.h", .dtypes = kNotDtypes, .example = "i32[2,3] i32[2,3]"}),
                (const aclTensor*, self), (aclTensor*, out))
