// aclnnPermute: out = self with dimension dims[i] as dimension i, one strided
// copy of the permuted view (the view algebra's Permute).
#include <vector>

#include "aclnnop/aclnn_permute.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kPermuteDtypes = {ACL_FLOAT,  ACL_FLOAT16, ACL_DOUBLE,    ACL_UINT64,     ACL_INT64,
                                     ACL_UINT32, ACL_INT32,   ACL_UINT16,    ACL_INT16,      ACL_UINT8,
                                     ACL_INT8,   ACL_BOOL,    ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

aclnnStatus PlanPermute(Plan& plan, const aclTensor* self, const aclIntArray* dims, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kPermuteDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  const int64_t rank = self->rank();
  if (static_cast<int64_t>(dims->values.size()) != rank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dims' has %zu values; self has %lld dimensions",
                       dims->values.size(), static_cast<long long>(rank));
  }
  std::vector<int64_t> order(dims->values.size());
  std::vector<bool> seen(order.size(), false);
  Shape expected(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    CANOPY_CHECK(CheckDim(plan, "dims", dims->values[i], rank, order[i]));
    if (seen[order[i]]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dims' names dimension %lld twice",
                         static_cast<long long>(order[i]));
    }
    seen[order[i]] = true;
    expected[i] = self->view_shape[order[i]];
  }
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  const TensorRef src = plan.Input(self, "self");
  plan.Copy(Permute(src, order), plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Permute, PlanPermute, (OpTraits{.header = "aclnnop/aclnn_permute.h", .dtypes = kPermuteDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dims), (aclTensor*, out))
