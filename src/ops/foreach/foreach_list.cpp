// The Foreach ops of two lists (ops-nn foreach/): out[i] = x1[i] (op) alpha * x2[i]
// (Add and Sub, alpha a one-element tensor or, in the V2 forms, a host scalar),
// x1[i] * x2[i], x1[i] / x2[i], max, min and pow, and the in-place forms into x1.
// Dtypes: the Atlas A2 column of each op's CANN document.
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_list_inplace.h"
#include "aclnnop/aclnn_foreach_add_list_v2.h"
#include "aclnnop/aclnn_foreach_div_list.h"
#include "aclnnop/aclnn_foreach_div_list_inplace.h"
#include "aclnnop/aclnn_foreach_maximum_list.h"
#include "aclnnop/aclnn_foreach_minimum_list.h"
#include "aclnnop/aclnn_foreach_mul_list.h"
#include "aclnnop/aclnn_foreach_mul_list_inplace.h"
#include "aclnnop/aclnn_foreach_pow_list.h"
#include "aclnnop/aclnn_foreach_sub_list.h"
#include "aclnnop/aclnn_foreach_sub_list_inplace.h"
#include "aclnnop/aclnn_foreach_sub_list_v2.h"
#include "foreach.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kArith7 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8};
constexpr DtypeSet kArith4 = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr DtypeSet kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kTensorScalars = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32};
constexpr DtypeSet kHostScalars = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_DOUBLE, ACL_INT64};

// The A2 host code's list for the tensor-alpha form (the doc's table also names INT16, INT8, UINT8).
constexpr ForeachBinaryRule kAddList{
    .op = ForeachOp::kAdd, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachAddList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensor* alpha,
                               const aclTensorList* out) {
  return PlanForeachList(plan, kAddList, x1, x2, alpha, nullptr, out);
}

constexpr ForeachBinaryRule kAddListV2{
    .op = ForeachOp::kAdd, .dtypes = kArith7, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachAddListV2(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclScalar* alpha,
                                 const aclTensorList* out) {
  return PlanForeachList(plan, kAddListV2, x1, x2, nullptr, alpha, out);
}

constexpr ForeachBinaryRule kAddListInplace{
    .op = ForeachOp::kAdd, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachAddListInplace(Plan& plan, const aclTensorList* x1, const aclTensorList* x2,
                                      const aclTensor* alpha) {
  return PlanForeachList(plan, kAddListInplace, x1, x2, alpha, nullptr, nullptr);
}

constexpr ForeachBinaryRule kSubList{
    .op = ForeachOp::kSub, .dtypes = kArith7, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachSubList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensor* alpha,
                               const aclTensorList* out) {
  return PlanForeachList(plan, kSubList, x1, x2, alpha, nullptr, out);
}

constexpr ForeachBinaryRule kSubListV2{
    .op = ForeachOp::kSub, .dtypes = kArith7, .scalar_dtypes = kHostScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachSubListV2(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclScalar* alpha,
                                 const aclTensorList* out) {
  return PlanForeachList(plan, kSubListV2, x1, x2, nullptr, alpha, out);
}

constexpr ForeachBinaryRule kSubListInplace{
    .op = ForeachOp::kSub, .dtypes = kArith4, .scalar_dtypes = kTensorScalars, .pairing = ScalarPairing::kLikeX};
aclnnStatus PlanForeachSubListInplace(Plan& plan, const aclTensorList* x1, const aclTensorList* x2,
                                      const aclTensor* alpha) {
  return PlanForeachList(plan, kSubListInplace, x1, x2, alpha, nullptr, nullptr);
}

constexpr ForeachBinaryRule kMulList{.op = ForeachOp::kMul, .dtypes = kArith7};
aclnnStatus PlanForeachMulList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* out) {
  return PlanForeachList(plan, kMulList, x1, x2, nullptr, nullptr, out);
}

constexpr ForeachBinaryRule kMulListInplace{.op = ForeachOp::kMul, .dtypes = kArith4};
aclnnStatus PlanForeachMulListInplace(Plan& plan, const aclTensorList* x1, const aclTensorList* x2) {
  return PlanForeachList(plan, kMulListInplace, x1, x2, nullptr, nullptr, nullptr);
}

constexpr ForeachBinaryRule kDivList{.op = ForeachOp::kDiv, .dtypes = kFloats};
aclnnStatus PlanForeachDivList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* out) {
  return PlanForeachList(plan, kDivList, x1, x2, nullptr, nullptr, out);
}

constexpr ForeachBinaryRule kDivListInplace{.op = ForeachOp::kDiv, .dtypes = kFloats};
aclnnStatus PlanForeachDivListInplace(Plan& plan, const aclTensorList* x1, const aclTensorList* x2) {
  return PlanForeachList(plan, kDivListInplace, x1, x2, nullptr, nullptr, nullptr);
}

constexpr ForeachBinaryRule kMaximumList{.op = ForeachOp::kMaximum, .dtypes = kArith4};
aclnnStatus PlanForeachMaximumList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2,
                                   const aclTensorList* out) {
  return PlanForeachList(plan, kMaximumList, x1, x2, nullptr, nullptr, out);
}

constexpr ForeachBinaryRule kMinimumList{.op = ForeachOp::kMinimum, .dtypes = kArith4};
aclnnStatus PlanForeachMinimumList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2,
                                   const aclTensorList* out) {
  return PlanForeachList(plan, kMinimumList, x1, x2, nullptr, nullptr, out);
}

constexpr ForeachBinaryRule kPowList{.op = ForeachOp::kPow, .dtypes = kArith4};
aclnnStatus PlanForeachPowList(Plan& plan, const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* out) {
  return PlanForeachList(plan, kPowList, x1, x2, nullptr, nullptr, out);
}

}  // namespace

CANOPY_ACLNN_OP(ForeachAddList, PlanForeachAddList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_add_list.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensor*, alpha),
                (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddListV2, PlanForeachAddListV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_add_list_v2.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclScalar*, alpha),
                (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachAddListInplace, PlanForeachAddListInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_add_list_inplace.h",
                          .dtypes = kArith4,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32[1]"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensor*, alpha))
CANOPY_ACLNN_OP(ForeachSubList, PlanForeachSubList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_list.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32[1] (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensor*, alpha),
                (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSubListV2, PlanForeachSubListV2,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_list_v2.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32:1.5 (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclScalar*, alpha),
                (aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachSubListInplace, PlanForeachSubListInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_sub_list_inplace.h",
                          .dtypes = kArith4,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) f32[1]"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensor*, alpha))
CANOPY_ACLNN_OP(ForeachMulList, PlanForeachMulList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_mul_list.h",
                          .dtypes = kArith7,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMulListInplace, PlanForeachMulListInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_mul_list_inplace.h",
                          .dtypes = kArith4,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2))
CANOPY_ACLNN_OP(ForeachDivList, PlanForeachDivList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_div_list.h",
                          .dtypes = kFloats,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachDivListInplace, PlanForeachDivListInplace,
                (OpTraits{.header = "aclnnop/aclnn_foreach_div_list_inplace.h",
                          .dtypes = kFloats,
                          .in_place = true,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2))
CANOPY_ACLNN_OP(ForeachMaximumList, PlanForeachMaximumList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_maximum_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachMinimumList, PlanForeachMinimumList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_minimum_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, out))
CANOPY_ACLNN_OP(ForeachPowList, PlanForeachPowList,
                (OpTraits{.header = "aclnnop/aclnn_foreach_pow_list.h",
                          .dtypes = kArith4,
                          .example = "(f32[2,3],f32[4]) (f32[2,3],f32[4]) (f32[2,3],f32[4])"}),
                (const aclTensorList*, x1), (const aclTensorList*, x2), (const aclTensorList*, out))
