// aclnnFlip: out = self reversed along each of dims, one strided copy from a
// view of self with those strides negated (no kernel of its own).
#include <vector>

#include "aclnnop/aclnn_flip.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFlipDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_INT32,  ACL_INT16,     ACL_INT64,      ACL_BOOL,
                                  ACL_INT8,    ACL_UINT8, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BF16};

// `t` read from the last element of dimension `dim` to the first.
TensorRef Reversed(TensorRef t, size_t dim) {
  if (t.shape[dim] > 1) {
    t.buffer.byte_offset += (t.shape[dim] - 1) * t.strides[dim] * static_cast<int64_t>(DtypeSize(t.dtype));
    t.strides[dim] = -t.strides[dim];
  }
  return t;
}

aclnnStatus PlanFlip(Plan& plan, const aclTensor* self, const aclIntArray* dims, const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kFlipDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, self->view_shape));
  const int64_t rank = std::max<int64_t>(self->rank(), 1);  // rank 0: dims in [-1, 0]
  std::vector<bool> flipped(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < dims->values.size(); ++i) {
    int64_t d = 0;
    CANOPY_CHECK(CheckDim(plan, "dims", dims->values[i], rank, d));
    if (flipped[static_cast<size_t>(d)]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dims' names dimension %lld twice",
                         static_cast<long long>(d));
    }
    flipped[static_cast<size_t>(d)] = true;
  }
  TensorRef src = plan.Input(self, "self");
  const TensorRef dst = plan.Output(out, "out");
  if (src.NumElements() == 0) return ACLNN_SUCCESS;
  for (int64_t d = 0; d < self->rank(); ++d) {
    if (flipped[static_cast<size_t>(d)]) src = Reversed(src, static_cast<size_t>(d));
  }
  plan.Copy(src, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Flip, PlanFlip, (OpTraits{.header = "aclnnop/aclnn_flip.h", .dtypes = kFlipDtypes}),
                (const aclTensor*, self), (const aclIntArray*, dims), (aclTensor*, out))
