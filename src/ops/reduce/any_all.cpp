// aclnnAny / aclnnAll: whether some / every element of self over dim is
// non-zero (NaN counts as non-zero), into a BOOL or UINT8 out, on the reduction
// engine (max / min of x != 0, tested in self's accumulator: nothing rounds to 0
// first). An empty any is 0, an empty all 1.
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAnyAllDtypes = {ACL_BOOL,  ACL_INT8, ACL_UINT8,   ACL_INT16, ACL_INT32,
                                    ACL_INT64, ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE};
// CANN's documents list BOOL (Any) and BOOL, UINT8 (All); its code and both
// example programs (INT32 self, UINT8 out) take UINT8 for either.
constexpr DtypeSet kAnyAllOutDtypes = {ACL_BOOL, ACL_UINT8};

aclnnStatus PlanAnyAll(Plan& plan, kernels::ReduceKind kind, const aclTensor* self, const aclIntArray* dim,
                       bool keep_dim, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kAnyAllDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAnyAllOutDtypes));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dim", dim, self->rank(), reduced));
  return PlanReduction(plan, kind, self, reduced, keep_dim, out->dtype, out);
}

aclnnStatus PlanAny(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, const aclTensor* out) {
  return PlanAnyAll(plan, kernels::ReduceKind::kAny, self, dim, keep_dim, out);
}

aclnnStatus PlanAll(Plan& plan, const aclTensor* self, const aclIntArray* dim, bool keep_dim, const aclTensor* out) {
  return PlanAnyAll(plan, kernels::ReduceKind::kAll, self, dim, keep_dim, out);
}

}  // namespace

CANOPY_ACLNN_OP(
    Any, PlanAny,
    (OpTraits{.header = "aclnnop/aclnn_any.h", .dtypes = kAnyAllDtypes, .example = "i32[4,2] ints[0] true u8[1,2]"}),
    (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepdim), (aclTensor*, out))
CANOPY_ACLNN_OP(
    All, PlanAll,
    (OpTraits{.header = "aclnnop/aclnn_all.h", .dtypes = kAnyAllDtypes, .example = "i32[4,2] ints[0] true u8[1,2]"}),
    (const aclTensor*, self), (const aclIntArray*, dim), (bool, keepdim), (aclTensor*, out))
