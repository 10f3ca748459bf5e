// aclnnBitwiseAndTensor, aclnnBitwiseOrTensor, aclnnBitwiseXorTensor and their
// in-place forms: self & | ^ other bit by bit (torch.bitwise_and, _or, _xor; on
// BOOL the logical operation). self and other broadcast and promote; the
// result must be castable to out (or selfRef), which takes any dtype it casts
// to (CANN's host code checks castability only; the And and Or documents list
// integer outs). Operand dtypes: each document's Atlas A2 column (And takes no
// UINT32 / UINT64 operands, Xor no UINT16 / 32 / 64). aclnnBitwiseAndTensorOut and its in-place form
// are BitwiseAndTensor that also require self, other and out to share one
// storage format (CANN's host code; its document marks them Ascend 950 only,
// but the A2 path runs them on the same kernels as BitwiseAndTensor).
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwiseand.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAndDtypes = {ACL_BOOL, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_UINT16};
constexpr DtypeSet kIntegerDtypes = kAndDtypes | DtypeSet{ACL_UINT32, ACL_UINT64};
// Xor's A2 list (CANN's default, the wider one is the 950's): no UINT16 / 32 / 64.
constexpr DtypeSet kXorDtypes = kAndDtypes.Without({ACL_UINT16});
constexpr DtypeSet kXorOutDtypes =
    kIntegerDtypes | DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_COMPLEX64, ACL_COMPLEX128};

// out: CANN's host code of all three checks only that the promoted dtype casts
// to it (no list), so integer results also go into floating and complex outs.
constexpr BinaryRule kAnd{.op = PointwiseOp::kBitwiseAnd,
                          .self = kAndDtypes,
                          .other = kAndDtypes,
                          .out = kXorOutDtypes,
                          .inplace = kAndDtypes,
                          .inplace_other = kAndDtypes};
constexpr BinaryRule kOr{.op = PointwiseOp::kBitwiseOr,
                         .self = kIntegerDtypes,
                         .other = kIntegerDtypes,
                         .out = kXorOutDtypes,
                         .inplace = kIntegerDtypes,
                         .inplace_other = kIntegerDtypes};
constexpr BinaryRule kXor{.op = PointwiseOp::kBitwiseXor,
                          .self = kXorDtypes,
                          .other = kXorDtypes,
                          .out = kXorOutDtypes,
                          .inplace = kXorDtypes,
                          .inplace_other = kXorDtypes};

template <const BinaryRule& kRule>
aclnnStatus PlanOut(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}
template <const BinaryRule& kRule>
aclnnStatus PlanInplace(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kRule, selfRef, other, selfRef, true);
}

// TensorOut's one extra check, made first (CANN makes it after the dtype checks, with the same code).
aclnnStatus CheckOneFormat(Plan& plan, const char* self_name, const aclTensor* self, const aclTensor* other,
                           const aclTensor* out) {
  if (self->format == other->format && self->format == out->format) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "'%s' (format %d), 'other' (%d) and the output (%d) must share one format", self_name,
                     static_cast<int>(self->format), static_cast<int>(other->format), static_cast<int>(out->format));
}

aclnnStatus PlanAndOut(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  CANOPY_CHECK(CheckOneFormat(plan, "self", self, other, out));
  return PlanBinaryTensorOp(plan, kAnd, self, other, out, false);
}
aclnnStatus PlanInplaceAndOut(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  CANOPY_CHECK(CheckOneFormat(plan, "selfRef", selfRef, other, selfRef));
  return PlanBinaryTensorOp(plan, kAnd, selfRef, other, selfRef, true);
}

constexpr const char* kExample = "i32[2,3] i32[2,3] i32[2,3]";
constexpr const char* kInplaceExample = "i32[2,3] i32[2,3]";
constexpr OpTraits kAndTraits{
    .header = "aclnnop/aclnn_bitwise_and_tensor.h", .dtypes = kAndDtypes, .example = kExample};
constexpr OpTraits kAndOutTraits{.header = "aclnnop/aclnn_bitwiseand.h", .dtypes = kAndDtypes, .example = kExample};
constexpr OpTraits kOrTraits{
    .header = "aclnnop/aclnn_bitwise_or_tensor.h", .dtypes = kIntegerDtypes, .example = kExample};
constexpr OpTraits kXorTraits{
    .header = "aclnnop/aclnn_bitwise_xor_tensor.h", .dtypes = kIntegerDtypes, .example = kExample};

}  // namespace

CANOPY_ACLNN_OP(BitwiseAndTensor, PlanOut<kAnd>, kAndTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseAndTensor, PlanInplace<kAnd>, InPlace(kAndTraits, kInplaceExample),
                (const aclTensor*, selfRef), (const aclTensor*, other))
CANOPY_ACLNN_OP(BitwiseOrTensor, PlanOut<kOr>, kOrTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseOrTensor, PlanInplace<kOr>, InPlace(kOrTraits, kInplaceExample), (aclTensor*, selfRef),
                (const aclTensor*, other))
CANOPY_ACLNN_OP(BitwiseXorTensor, PlanOut<kXor>, kXorTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseXorTensor, PlanInplace<kXor>, InPlace(kXorTraits, kInplaceExample), (aclTensor*, selfRef),
                (const aclTensor*, other))
CANOPY_ACLNN_OP(BitwiseAndTensorOut, PlanAndOut, kAndOutTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceBitwiseAndTensorOut, PlanInplaceAndOut, InPlace(kAndOutTraits, kInplaceExample),
                (const aclTensor*, selfRef), (const aclTensor*, other))
