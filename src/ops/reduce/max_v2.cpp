// aclnnMaxV2 (ONNX ReduceMax): out (self's dtype) = the maximum of self over
// dims (NaN propagates); an empty dims reduces everything, or with
// noopWithEmptyDims copies self. BOOL is reduced as FLOAT, as CANN does.
#include "aclnnop/aclnn_max_v2.h"
#include "ops/framework/tensor_view.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kMaxV2Dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_UINT8,  ACL_INT8, ACL_INT16,
                                   ACL_INT32, ACL_INT64,   ACL_DOUBLE, ACL_BOOL, ACL_BF16};

aclnnStatus PlanMaxV2(Plan& plan, const aclTensor* self, const aclIntArray* dims, bool keep_dims, bool noop_with_empty,
                      const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{self->dtype}));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kMaxV2Dtypes));
  std::vector<bool> reduced;
  CANOPY_CHECK(NormalizeDims(plan, "dims", dims, self->rank(), reduced));
  const bool copy = dims->values.empty() && noop_with_empty;
  for (int64_t d = 0; d < self->rank() && !copy; ++d) {
    if (reduced[static_cast<size_t>(d)] && self->view_shape[static_cast<size_t>(d)] == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "dimension %lld of self %s has no elements to take the maximum of",
                         static_cast<long long>(d), ShapeToString(self->view_shape).c_str());
    }
  }
  if (copy || self->rank() == 0) {
    CANOPY_CHECK(CheckReducedOut(plan, "out", out, self->view_shape));
    const TensorRef src = plan.Input(self, "self");
    const TensorRef dst = plan.Output(out, "out");
    if (dst.NumElements() > 0) plan.Copy(*Reshape(src, dst.shape), dst);
    return ACLNN_SUCCESS;
  }
  const aclDataType compute = self->dtype == ACL_BOOL ? ACL_FLOAT : self->dtype;
  return PlanReduction(plan, kernels::ReduceKind::kMax, self, reduced, keep_dims, compute, out);
}

}  // namespace

CANOPY_ACLNN_OP(MaxV2, PlanMaxV2,
                (OpTraits{.header = "aclnnop/aclnn_max_v2.h",
                          .dtypes = kMaxV2Dtypes,
                          .example = "f32[4,2] ints[0] false false f32[2]"}),
                (const aclTensor*, self), (const aclIntArray*, dims), (bool, keepDims), (bool, noopWithEmptyDims),
                (aclTensor*, out))
