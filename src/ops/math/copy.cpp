// aclnnInplaceCopy: selfRef = src, converted to selfRef's dtype and broadcast to its shape.
#include "aclnnop/aclnn_copy.h"

#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kCopyDtypes = {ACL_INT8,       ACL_INT16,  ACL_INT32,  ACL_INT64,  ACL_UINT8,
                                  ACL_FLOAT16,    ACL_FLOAT,  ACL_BOOL,   ACL_DOUBLE, ACL_COMPLEX64,
                                  ACL_COMPLEX128, ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_BF16};

aclnnStatus PlanInplaceCopy(Plan& plan, const aclTensor* self, const aclTensor* src) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kCopyDtypes));
  CANOPY_CHECK(plan.CheckDtype("src", src->dtype, kCopyDtypes));
  Shape shape;
  CANOPY_CHECK(plan.CheckBroadcast("selfRef", self->view_shape, "src", src->view_shape, shape));
  if (shape != self->view_shape) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "src of shape %s cannot be broadcast to selfRef's shape %s",
                       ShapeToString(src->view_shape).c_str(), ShapeToString(self->view_shape).c_str());
  }
  // Prototype order: selfRef is input 0 (and output 0), src input 1.
  plan.Input(self, "selfRef");
  const TensorRef from = plan.Input(src, "src");
  const TensorRef to = plan.Output(self, "selfRef");
  plan.Copy(from, to);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplaceCopy, PlanInplaceCopy,
                (OpTraits{.header = "aclnnop/aclnn_copy.h", .dtypes = kCopyDtypes, .in_place = true}),
                (aclTensor*, selfRef), (const aclTensor*, src))
