// The Foreach ops of a list and a scalar (ops-nn foreach/): out[i] = x[i] (op) s
// with s a one-element device tensor (XxxScalar, XxxScalarInplace), a host scalar
// (XxxScalarV2) or the i-th of a scalar list (XxxScalarList); PowScalarAndTensor
// is s ^ x[i]. Dtypes and the scalar's dtype for each list dtype: the Atlas A2
// column of each op's CANN document.
#include "aclnnop/aclnn_foreach_add_scalar.h"
#include "aclnnop/aclnn_foreach_add_scalar_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_div_scalar.h"
#include "aclnnop/aclnn_foreach_div_scalar_list.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_maximum_scalar.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_list.h"
#include "aclnnop/aclnn_foreach_maximum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_minimum_scalar.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_list.h"
#include "aclnnop/aclnn_foreach_minimum_scalar_v2.h"
#include "aclnnop/aclnn_foreach_mul_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_mul_scalar_list.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_pow_scalar.h"
#include "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h"
#include "aclnnop/aclnn_foreach_pow_scalar_list.h"
#include "aclnnop/aclnn_foreach_pow_scalar_v2.h"
#include "aclnnop/aclnn_foreach_sub_scalar.h"
#include "aclnnop/aclnn_foreach_sub_scalar_inplace.h"
#include "aclnnop/aclnn_foreach_sub_scalar_list.h"
#include "aclnnop/aclnn_foreach_sub_scalar_v2.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kArith7 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
constexpr DtypeSet kArith4 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kTensorScalars = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32};
constexpr DtypeSet kHostScalars = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_INT64};
constexpr DtypeSet kHostFloatScalars = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE};
constexpr DtypeSet kListScalars = {ACL_FLOAT, ACL_INT64};
constexpr DtypeSet kListScalarsDouble = {ACL_FLOAT, ACL_INT64, ACL_DOUBLE};
constexpr DtypeSet kDivTensorScalars = {ACL_FLOAT16, ACL_FLOAT};
constexpr DtypeSet kDivListScalars = {ACL_FLOAT};
constexpr DtypeSet kPowAndTensorScalars = {ACL_FLOAT, ACL_DOUBLE, ACL_INT64};

constexpr ForeachBinaryRule kAddScalar{
    .op = ForeachOp::kAdd, .dtypes = kArith7, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachAddScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                 const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kAddScalar, x, scalar, out);
}

constexpr ForeachBinaryRule kAddScalarV2{
    .op = ForeachOp::kAdd, .dtypes = kArith7, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachAddScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                   const aclTensorList* out) {
  return PlanForeachScalar(plan, kAddScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kAddScalarList{
    .op = ForeachOp::kAdd, .dtypes = kArith4, .scalar_dtypes = kListScalars, .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachAddScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                     const aclTensorList* out) {
  return PlanForeachScalarList(plan, kAddScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kSubScalar{
    .op = ForeachOp::kSub, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachSubScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                 const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kSubScalar, x, scalar, out);
}

constexpr ForeachBinaryRule kSubScalarV2{
    .op = ForeachOp::kSub, .dtypes = kArith4, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachSubScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                   const aclTensorList* out) {
  return PlanForeachScalar(plan, kSubScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kSubScalarList{
    .op = ForeachOp::kSub, .dtypes = kArith4, .scalar_dtypes = kListScalars, .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachSubScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                     const aclTensorList* out) {
  return PlanForeachScalarList(plan, kSubScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kSubScalarInplace{
    .op = ForeachOp::kSub, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachSubScalarInplace(Plan& plan, const aclTensorList* x, const aclTensor* scalar) {
  return PlanForeachTensorScalar(plan, kSubScalarInplace, x, scalar, nullptr);
}

constexpr ForeachBinaryRule kMulScalar{
    .op = ForeachOp::kMul, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachMulScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                 const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kMulScalar, x, scalar, out);
}

constexpr ForeachBinaryRule kMulScalarV2{
    .op = ForeachOp::kMul, .dtypes = kArith4, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachMulScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                   const aclTensorList* out) {
  return PlanForeachScalar(plan, kMulScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kMulScalarList{
    .op = ForeachOp::kMul, .dtypes = kArith4, .scalar_dtypes = kListScalars, .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachMulScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                     const aclTensorList* out) {
  return PlanForeachScalarList(plan, kMulScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kMulScalarInplace{
    .op = ForeachOp::kMul, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kAny};
aclnnStatus PlanForeachMulScalarInplace(Plan& plan, const aclTensorList* x, const aclTensor* scalar) {
  return PlanForeachTensorScalar(plan, kMulScalarInplace, x, scalar, nullptr);
}

constexpr ForeachBinaryRule kDivScalar{
    .op = ForeachOp::kDiv, .dtypes = kFloats, .scalar_dtypes = kDivTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachDivScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                 const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kDivScalar, x, scalar, out);
}

constexpr ForeachBinaryRule kDivScalarV2{
    .op = ForeachOp::kDiv, .dtypes = kFloats, .scalar_dtypes = kHostFloatScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachDivScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                   const aclTensorList* out) {
  return PlanForeachScalar(plan, kDivScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kDivScalarList{
    .op = ForeachOp::kDiv, .dtypes = kFloats, .scalar_dtypes = kDivListScalars, .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachDivScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                     const aclTensorList* out) {
  return PlanForeachScalarList(plan, kDivScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kMaximumScalar{
    .op = ForeachOp::kMaximum, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachMaximumScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                     const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kMaximumScalar, x, scalar, out);
}

constexpr ForeachBinaryRule kMaximumScalarV2{
    .op = ForeachOp::kMaximum, .dtypes = kArith4, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachMaximumScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                       const aclTensorList* out) {
  return PlanForeachScalar(plan, kMaximumScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kMaximumScalarList{.op = ForeachOp::kMaximum,
                                               .dtypes = kArith4,
                                               .scalar_dtypes = kListScalarsDouble,
                                               .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachMaximumScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                         const aclTensorList* out) {
  return PlanForeachScalarList(plan, kMaximumScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kMinimumScalar{
    .op = ForeachOp::kMinimum, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachMinimumScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                     const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kMinimumScalar, x, scalar, out);
}

constexpr ForeachBinaryRule kMinimumScalarV2{
    .op = ForeachOp::kMinimum, .dtypes = kArith4, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachMinimumScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                       const aclTensorList* out) {
  return PlanForeachScalar(plan, kMinimumScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kMinimumScalarList{.op = ForeachOp::kMinimum,
                                               .dtypes = kArith4,
                                               .scalar_dtypes = kListScalarsDouble,
                                               .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachMinimumScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                         const aclTensorList* out) {
  return PlanForeachScalarList(plan, kMinimumScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kPowScalar{
    .op = ForeachOp::kPow, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachPowScalar(Plan& plan, const aclTensorList* x, const aclTensor* scalar,
                                 const aclTensorList* out) {
  return PlanForeachTensorScalar(plan, kPowScalar, x, scalar, out);
}

// CANN's A2 host code and kernel take INT32 lists too (INT32 / INT64 scalars); the doc's table lists the floats.
constexpr ForeachBinaryRule kPowScalarV2{
    .op = ForeachOp::kPow, .dtypes = kArith4, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachPowScalarV2(Plan& plan, const aclTensorList* x, const aclScalar* scalar,
                                   const aclTensorList* out) {
  return PlanForeachScalar(plan, kPowScalarV2, x, scalar, out);
}

constexpr ForeachBinaryRule kPowScalarList{
    .op = ForeachOp::kPow, .dtypes = kArith4, .scalar_dtypes = kListScalars, .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachPowScalarList(Plan& plan, const aclTensorList* x, const aclScalarList* scalars,
                                     const aclTensorList* out) {
  return PlanForeachScalarList(plan, kPowScalarList, x, scalars, out);
}

constexpr ForeachBinaryRule kPowScalarAndTensor{.op = ForeachOp::kPow,
                                                .dtypes = kArith4,
                                                .scalar_dtypes = kPowAndTensorScalars,
                                                .pairing = ScalarPairing::kForList};
aclnnStatus PlanForeachPowScalarAndTensor(Plan& plan, const aclScalar* scalar, const aclTensorList* x,
                                          const aclTensorList* out) {
  return PlanForeachScalarAndTensor(plan, kPowScalarAndTensor, scalar, x, out);
}

}  // namespace

CANOPY_ACLNN_OP(ForeachAddScalar, PlanForeachAddScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_add_scalar.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddScalarV2, PlanForeachAddScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_add_scalar_v2.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddScalarList, PlanForeachAddScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_add_scalar_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSubScalar, PlanForeachSubScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_scalar.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSubScalarV2, PlanForeachSubScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_scalar_v2.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSubScalarList, PlanForeachSubScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_scalar_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSubScalarInplace, PlanForeachSubScalarInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_scalar_inplace.h",
                          .dtypes = kArith4,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) f32[1]"}),
                (const aclTensorList*, x), (const aclTensor*, scalar))
CANOPY_ACLNN_OP(ForeachMulScalar, PlanForeachMulScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_mul_scalar.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMulScalarV2, PlanForeachMulScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_mul_scalar_v2.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMulScalarList, PlanForeachMulScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_mul_scalar_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMulScalarInplace, PlanForeachMulScalarInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_mul_scalar_inplace.h",
                          .dtypes = kArith4,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) f32[1]"}),
                (const aclTensorList*, x), (const aclTensor*, scalar))
CANOPY_ACLNN_OP(ForeachDivScalar, PlanForeachDivScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_div_scalar.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachDivScalarV2, PlanForeachDivScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_div_scalar_v2.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachDivScalarList, PlanForeachDivScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_div_scalar_list.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMaximumScalar, PlanForeachMaximumScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_maximum_scalar.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMaximumScalarV2, PlanForeachMaximumScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_maximum_scalar_v2.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMaximumScalarList, PlanForeachMaximumScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_maximum_scalar_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMinimumScalar, PlanForeachMinimumScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_minimum_scalar.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMinimumScalarV2, PlanForeachMinimumScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_minimum_scalar_v2.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMinimumScalarList, PlanForeachMinimumScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_minimum_scalar_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachPowScalar, PlanForeachPowScalar,
                (OpTraits{.header = "aclnnop/aclnn_foreach_pow_scalar.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclTensor*, scalar), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachPowScalarV2, PlanForeachPowScalarV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_pow_scalar_v2.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalar*, scalar), (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachPowScalarList, PlanForeachPowScalarList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_pow_scalar_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32:1.5,f32:-2) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x), (const aclScalarList*, scalars), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachPowScalarAndTensor, PlanForeachPowScalarAndTensor,
                (OpTraits{.header = "aclnnop/aclnn_foreach_pow_scalar_and_tensor.h",
                          .dtypes = kArith4,
                          .example = "f32:1.5 (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclScalar*, scalar), (const aclTensorList*, x), (const aclTensorList*, out))
