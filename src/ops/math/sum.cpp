// aclnnSum (ops-math accumulate_nv2): out = tensors[0] + tensors[1] + ...,
// every tensor of out's dtype and broadcast to out's shape (list_sum.h).
#include "aclnnop/aclnn_sum.h"

#include <string>

#include "binary_pointwise.h"
#include "list_sum.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSumDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_UINT8};

aclnnStatus PlanSum(Plan& plan, const aclTensorList* tensors, const aclTensor* out) {
  if (tensors->tensors.empty()) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'tensors' is an empty list");
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kSumDtypes));
  for (size_t i = 0; i < tensors->tensors.size(); ++i) {
    const aclTensor* t = tensors->tensors[i];
    const std::string name = "tensors[" + std::to_string(i) + "]";
    CANOPY_CHECK(plan.CheckDtype(name.c_str(), t->dtype, kSumDtypes));
    if (t->dtype != out->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s, 'out' %s: they must be the same", name.c_str(),
                         DtypeName(t->dtype), DtypeName(out->dtype));
    }
    CANOPY_CHECK(CheckBroadcastInto(plan, "out", out->view_shape, name.c_str(), t->view_shape));
  }

  const std::vector<TensorRef> inputs = plan.InputList(tensors, "tensors");
  PlanListSum(plan, inputs, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_sum.h", .dtypes = kSumDtypes};

}  // namespace

CANOPY_ACLNN_OP(Sum, PlanSum, WithExample(kTraits, "(f32[2,2],f32[2,2]) f32[2,2]"), (const aclTensorList*, tensors),
                (aclTensor*, out))
