// aclnnFmodTensor, aclnnInplaceFmodTensor, aclnnFmodScalar,
// aclnnInplaceFmodScalar: self - trunc(self / other) * other (torch.fmod: the
// result has the dividend's sign). Each operand's dtype from CANN's A2 list,
// tensors promoted and broadcast (a scalar by the TensorScalar deduction), the
// result castable to out (or selfRef). Integers exact; a zero integer divisor,
// which CANN leaves undefined, gives self (kernels/binary_pointwise_functors.h).
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "binary_pointwise.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFmodDtypes = {ACL_DOUBLE, ACL_BF16,  ACL_FLOAT16, ACL_FLOAT,
                                  ACL_INT32,  ACL_INT64, ACL_INT8,    ACL_UINT8};
constexpr BinaryRule kRule{.op = PointwiseOp::kFmod,
                           .self = kFmodDtypes,
                           .other = kFmodDtypes,
                           .out = kFmodDtypes,
                           .inplace = kFmodDtypes,
                           .inplace_other = kFmodDtypes,
                           .policy = ResultPolicy::kPromoted};

aclnnStatus PlanFmodTensor(Plan& plan, const aclTensor* self, const aclTensor* other, const aclTensor* out) {
  return PlanBinaryTensorOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceFmodTensor(Plan& plan, const aclTensor* selfRef, const aclTensor* other) {
  return PlanBinaryTensorOp(plan, kRule, selfRef, other, selfRef, true);
}
aclnnStatus PlanFmodScalar(Plan& plan, const aclTensor* self, const aclScalar* other, const aclTensor* out) {
  return PlanBinaryScalarOp(plan, kRule, self, other, out, false);
}
aclnnStatus PlanInplaceFmodScalar(Plan& plan, const aclTensor* selfRef, const aclScalar* other) {
  return PlanBinaryScalarOp(plan, kRule, selfRef, other, selfRef, true);
}

constexpr OpTraits kTensorTraits{
    .header = "aclnnop/aclnn_fmod_tensor.h", .dtypes = kFmodDtypes, .example = "f32[2,3] f32[2,3] f32[2,3]"};
constexpr OpTraits kScalarTraits{
    .header = "aclnnop/aclnn_fmod_scalar.h", .dtypes = kFmodDtypes, .example = "f32[2,3] f32:1.5 f32[2,3]"};

}  // namespace

CANOPY_ACLNN_OP(FmodTensor, PlanFmodTensor, kTensorTraits, (const aclTensor*, self), (const aclTensor*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceFmodTensor, PlanInplaceFmodTensor, InPlace(kTensorTraits, "f32[2,3] f32[2,3]"),
                (aclTensor*, selfRef), (const aclTensor*, other))
CANOPY_ACLNN_OP(FmodScalar, PlanFmodScalar, kScalarTraits, (const aclTensor*, self), (const aclScalar*, other),
                (aclTensor*, out))
CANOPY_ACLNN_OP(InplaceFmodScalar, PlanInplaceFmodScalar, InPlace(kScalarTraits, "f32[2,3] f32:1.5"),
                (aclTensor*, selfRef), (const aclScalar*, other))
