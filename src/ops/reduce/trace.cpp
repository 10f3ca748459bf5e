// aclnnTrace (torch.trace): the sum of the diagonal of a 2-D self into a rank-0
// out, read as a strided view of self (no copy). Integer and BOOL self sum
// into INT64 (out must be INT64); floats into out of self's dtype, the 16-bit
// ones accumulated in FLOAT. An empty self gives 0.
#include <algorithm>

#include "aclnnop/aclnn_trace.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTraceDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_INT32,
                                   ACL_INT64, ACL_INT16,   ACL_INT8,   ACL_UINT8,     ACL_BOOL,       ACL_BF16};

aclnnStatus PlanTrace(Plan& plan, const aclTensor* self, const aclTensor* out) {
  if (self->view_shape.size() != 2) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'self' has rank %zu; trace needs a matrix", self->view_shape.size());
  }
  CANOPY_CHECK(plan.CheckShape("out", out, Shape{}));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kTraceDtypes));
  const aclDataType result = IsIntegral(self->dtype) || IsBool(self->dtype) ? ACL_INT64 : self->dtype;
  if (out->dtype != result) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'out' has dtype %s; the trace of %s is %s", DtypeName(out->dtype),
                       DtypeName(self->dtype), DtypeName(result));
  }
  const TensorRef in = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  TensorRef diagonal = in;
  diagonal.shape = {std::min(in.shape[0], in.shape[1])};
  diagonal.strides = {in.strides[0] + in.strides[1]};
  PlanReduceInto(plan, kernels::ReduceKind::kSum, diagonal, {true}, false, result, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Trace, PlanTrace,
                (OpTraits{.header = "aclnnop/aclnn_trace.h", .dtypes = kTraceDtypes, .example = "f32[3,4] f32[]"}),
                (const aclTensor*, self), (aclTensor*, out))
