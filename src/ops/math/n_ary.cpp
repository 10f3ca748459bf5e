// The list ops of ops-math: aclnnAddN (out = the sum of tensors of out's
// shape, list_sum.h) and aclnnMaxN / aclnnMinN (the elementwise maximum or
// minimum of tensors broadcast together, folded in list order on the
// pointwise engine; NaN propagates, as torch.maximum). No promotion: every
// tensor has out's dtype.
#include <string>

#include "aclnnop/aclnn_add_n.h"
#include "aclnnop/aclnn_maxn.h"
#include "aclnnop/aclnn_minn.h"
#include "binary_pointwise.h"
#include "list_sum.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAddNDtypes = {ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16, ACL_FLOAT};
// CANN's A2 code for both (its MinN document also lists UINT8).
constexpr DtypeSet kMaxMinNDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16};

// Each element of the list has a dtype of `allowed` and out's dtype.
aclnnStatus CheckListDtypes(Plan& plan, const aclTensorList* tensors, DtypeSet allowed, const aclTensor* out) {
  for (size_t i = 0; i < tensors->tensors.size(); ++i) {
    const aclTensor* t = tensors->tensors[i];
    const std::string name = "tensors[" + std::to_string(i) + "]";
    CANOPY_CHECK(plan.CheckDtype(name.c_str(), t->dtype, allowed));
    if (t->dtype != out->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s, 'out' %s: they must be the same", name.c_str(),
                         DtypeName(t->dtype), DtypeName(out->dtype));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanAddN(Plan& plan, const aclTensorList* tensors, const aclTensor* out) {
  // (CANN's code returns success without an executor when tensors[0]'s dtype is
  // not out's, and reads tensors[0] of an empty list; here the first is 161002,
  // and an empty list, which its document allows, does nothing.)
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kAddNDtypes));
  CANOPY_CHECK(CheckListDtypes(plan, tensors, kAddNDtypes, out));
  for (size_t i = 1; i < tensors->tensors.size(); ++i) {
    const std::string name = "tensors[" + std::to_string(i) + "]";
    CANOPY_CHECK(plan.CheckShape(name.c_str(), tensors->tensors[i], tensors->tensors[0]->view_shape));
  }
  if (!tensors->tensors.empty()) CANOPY_CHECK(plan.CheckShape("out", out, tensors->tensors[0]->view_shape));
  const std::vector<TensorRef> inputs = plan.InputList(tensors, "tensors");
  PlanListSum(plan, inputs, plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

template <PointwiseOp kOp>
aclnnStatus PlanExtremeN(Plan& plan, const aclTensorList* tensors, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kMaxMinNDtypes));
  CANOPY_CHECK(CheckListDtypes(plan, tensors, kMaxMinNDtypes, out));
  if (tensors->tensors.empty()) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'tensors' is an empty list");
  Shape shape = tensors->tensors[0]->view_shape;
  for (size_t i = 1; i < tensors->tensors.size(); ++i) {
    const std::string name = "tensors[" + std::to_string(i) + "]";
    CANOPY_CHECK(
        plan.CheckBroadcast("the list so far", Shape(shape), name.c_str(), tensors->tensors[i]->view_shape, shape));
  }
  CANOPY_CHECK(plan.CheckShape("out", out, shape));
  const std::vector<TensorRef> inputs = plan.InputList(tensors, "tensors");
  const TensorRef dst = plan.Output(out, "out");
  if (dst.NumElements() == 0) return ACLNN_SUCCESS;
  if (inputs.size() == 1) {
    plan.Copy(inputs[0], dst);
    return ACLNN_SUCCESS;
  }
  // out = f(t0, t1), then out = f(out, t_i): each step on out's own view (the
  // kit stages out where it overlaps an element of the list).
  AddPointwise(plan, kOp, out->dtype, out->dtype,
               {PointwiseOperand::Tensor(inputs[0]), PointwiseOperand::Tensor(inputs[1])}, dst);
  for (size_t i = 2; i < inputs.size(); ++i) {
    AddPointwise(plan, kOp, out->dtype, out->dtype,
                 {PointwiseOperand::Tensor(dst), PointwiseOperand::Tensor(inputs[i])}, dst);
  }
  return ACLNN_SUCCESS;
}

constexpr const char* kListExample = "(f32[2,3],f32[1,3]) f32[2,3]";

}  // namespace

CANOPY_ACLNN_OP(
    AddN, PlanAddN,
    (OpTraits{.header = "aclnnop/aclnn_add_n.h", .dtypes = kAddNDtypes, .example = "(f32[4,2],f32[4,2]) f32[4,2]"}),
    (const aclTensorList*, tensors), (aclTensor*, out))
CANOPY_ACLNN_OP(MaxN, PlanExtremeN<PointwiseOp::kMaximum>,
                (OpTraits{.header = "aclnnop/aclnn_maxn.h", .dtypes = kMaxMinNDtypes, .example = kListExample}),
                (const aclTensorList*, tensors), (aclTensor*, out))
CANOPY_ACLNN_OP(MinN, PlanExtremeN<PointwiseOp::kMinimum>,
                (OpTraits{.header = "aclnnop/aclnn_minn.h", .dtypes = kMaxMinNDtypes, .example = kListExample}),
                (const aclTensorList*, tensors), (aclTensor*, out))
