// aclnnSum (ops-math accumulate_nv2): out = tensors[0] + tensors[1] + ...,
// every tensor of out's dtype and broadcast to out's shape. The sum runs in
// f32 (FLOAT16, FLOAT) or int64 (integers, wrapping into out) in one
// temporary, added to in list order, then written to out.
#include "aclnnop/aclnn_sum.h"

#include <string>

#include "binary_pointwise.h"

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
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  if (inputs.size() == 1) {
    plan.Copy(inputs[0], dst);
    return ACLNN_SUCCESS;
  }
  const bool floating = IsFloating(out->dtype);
  const TensorRef sum = plan.Temporary(floating ? ACL_FLOAT : ACL_INT64, dst.shape);
  const ComputeType compute = floating ? ComputeType::kF32 : ComputeType::kI64;
  plan.Elementwise(ElementwiseOp::kAdd, compute, {inputs[0], inputs[1]}, sum, ScalarValue::Integer(1));
  for (size_t i = 2; i < inputs.size(); ++i) {
    plan.Elementwise(ElementwiseOp::kAdd, compute, {sum, inputs[i]}, sum, ScalarValue::Integer(1));
  }
  plan.Copy(sum, dst);
  return ACLNN_SUCCESS;
}

constexpr OpTraits kTraits{.header = "aclnnop/aclnn_sum.h", .dtypes = kSumDtypes};

}  // namespace

CANOPY_ACLNN_OP(Sum, PlanSum, WithExample(kTraits, "(f32[2,2],f32[2,2]) f32[2,2]"), (const aclTensorList*, tensors),
                (aclTensor*, out))
