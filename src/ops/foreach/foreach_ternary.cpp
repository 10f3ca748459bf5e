// The Foreach ops of three lists (ops-nn foreach/): out[i] = x1[i] + s * x2[i] * x3[i]
// (Addcmul, torch.addcmul) and x1[i] + s * x2[i] / x3[i] (Addcdiv), s element i of a
// device tensor (List, ScalarList), its one element (Scalar) or a host scalar
// (ScalarV2); and Lerp, out[i] = x1[i] + w * (x2[i] - x1[i]) with w a list or a host
// scalar. Dtypes: the Atlas A2 column of each op's CANN document.
#include "aclnnop/aclnn_foreach_addcdiv_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_list.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_lerp_list.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kAddcmulDtypes = kFloats | DtypeSet{ACL_INT32};

// List and ScalarList: `scalars` holds one value per tensor, of the lists' dtype.
constexpr ForeachTernaryRule kAddcdivList{
    .op = ForeachCombine::kAddcdiv, .dtypes = kFloats, .scalar_dtypes = kFloats, .pairing = ScalarPairing::kSameAsX};
// Scalar: FLOAT16 lists a FLOAT16 scalar, FLOAT and BFLOAT16 lists a FLOAT one.
constexpr ForeachTernaryRule kAddcdivScalar{.op = ForeachCombine::kAddcdiv,
                                            .dtypes = kFloats,
                                            .scalar_dtypes = {ACL_FLOAT, ACL_FLOAT16},
                                            .pairing = ScalarPairing::kLikeX};
constexpr ForeachTernaryRule kAddcdivScalarV2{.op = ForeachCombine::kAddcdiv,
                                              .dtypes = kFloats,
                                              .scalar_dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE},
                                              .pairing = ScalarPairing::kLikeX};
constexpr ForeachTernaryRule kAddcmulList{.op = ForeachCombine::kAddcmul,
                                          .dtypes = kAddcmulDtypes,
                                          .scalar_dtypes = kAddcmulDtypes,
                                          .pairing = ScalarPairing::kSameAsX};
constexpr ForeachTernaryRule kAddcmulScalar{.op = ForeachCombine::kAddcmul,
                                            .dtypes = kAddcmulDtypes,
                                            .scalar_dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32},
                                            .pairing = ScalarPairing::kLikeX};
constexpr ForeachTernaryRule kAddcmulScalarV2{
    .op = ForeachCombine::kAddcmul,
    .dtypes = kAddcmulDtypes,
    .scalar_dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_INT64},
    .pairing = ScalarPairing::kLikeX};

template <const ForeachTernaryRule& kRule>
aclnnStatus PlanPerTensorScalars(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3,
                                 const aclTensor* scalars, const aclTensorList* out) {
  return PlanForeachTernary(plan, kRule, x1, x2, x3, scalars, nullptr, nullptr, out);
}
template <const ForeachTernaryRule& kRule>
aclnnStatus PlanOneScalar(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3,
                          const aclTensor* scalar, const aclTensorList* out) {
  return PlanForeachTernary(plan, kRule, x1, x2, x3, nullptr, scalar, nullptr, out);
}
template <const ForeachTernaryRule& kRule>
aclnnStatus PlanHostScalar(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3,
                           const aclScalar* scalar, const aclTensorList* out) {
  return PlanForeachTernary(plan, kRule, x1, x2, x3, nullptr, nullptr, scalar, out);
}

aclnnStatus PlanLerpList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* weight,
                         const aclTensorList* out) {
  return PlanForeachLerp(plan, kFloats, {}, x1, x2, weight, nullptr, out);
}
aclnnStatus PlanLerpScalar(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclScalar* weight,
                           const aclTensorList* out) {
  return PlanForeachLerp(plan, kFloats, {ACL_FLOAT, ACL_DOUBLE}, x1, x2, nullptr, weight, out);
}

constexpr const char* kPerTensorExample =
    "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4]) f32[2] (f32[2,3],f32[4])";
constexpr const char* kOneScalarExample =
    "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])";
constexpr const char* kHostScalarExample =
    "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4]) f32:0.5 (f32[2,3],f32[4])";

}  // namespace

CANOPY_ACLNN_OP(ForeachAddcdivList, PlanPerTensorScalars<kAddcdivList>,
                (OpTraits{
                    .header = "aclnnop/aclnn_foreach_addcdiv_list.h", .dtypes = kFloats, .example = kPerTensorExample}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3),
                (const aclTensor*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(
    ForeachAddcdivScalar, PlanOneScalar<kAddcdivScalar>,
    (OpTraits{.header = "aclnnop/aclnn_foreach_addcdiv_scalar.h", .dtypes = kFloats, .example = kOneScalarExample}),
    (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3), (const aclTensor*, scalar),
    (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddcdivScalarList, PlanPerTensorScalars<kAddcdivList>,
                (OpTraits{.header = "aclnnop/aclnn_foreach_addcdiv_scalar_list.h",
                          .dtypes = kFloats,
                          .example = kPerTensorExample}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3),
                (const aclTensor*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(
    ForeachAddcdivScalarV2, PlanHostScalar<kAddcdivScalarV2>,
    (OpTraits{.header = "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h", .dtypes = kFloats, .example = kHostScalarExample}),
    (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3), (const aclScalar*, scalar),
    (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddcmulList, PlanPerTensorScalars<kAddcmulList>,
                (OpTraits{.header = "aclnnop/aclnn_foreach_addcmul_list.h",
                          .dtypes = kAddcmulDtypes,
                          .example = kPerTensorExample}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3),
                (const aclTensor*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddcmulScalar, PlanOneScalar<kAddcmulScalar>,
                (OpTraits{.header = "aclnnop/aclnn_foreach_addcmul_scalar.h",
                          .dtypes = kAddcmulDtypes,
                          .example = kOneScalarExample}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3),
                (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddcmulScalarList, PlanPerTensorScalars<kAddcmulList>,
                (OpTraits{.header = "aclnnop/aclnn_foreach_addcmul_scalar_list.h",
                          .dtypes = kAddcmulDtypes,
                          .example = kPerTensorExample}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3),
                (const aclTensor*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddcmulScalarV2, PlanHostScalar<kAddcmulScalarV2>,
                (OpTraits{.header = "aclnnop/aclnn_foreach_addcmul_scalar_v2.h",
                          .dtypes = kAddcmulDtypes,
                          .example = kHostScalarExample}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, x3),
                (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachLerpList, PlanLerpList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_lerp_list.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, weight),
                (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachLerpScalar, PlanLerpScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_lerp_scalar.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32:0.25 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclScalar*, weight),
                (const aclTensorList*, out))
