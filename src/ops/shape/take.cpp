// aclnnTake: self read as one dimension in row-major order, out[i] =
// flat(self)[index[i]], out of index's shape. Index values must lie in
// [0, self's element count) (CANN takes no negative ones); they are checked at
// run time on the shared gather block, so one outside fails the stream task
// with a message and nothing is written.
#include "aclnnop/aclnn_take.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTakeDtypes = {ACL_UINT64, ACL_INT64,  ACL_UINT32,    ACL_FLOAT,      ACL_INT32,
                                  ACL_UINT16, ACL_INT16,  ACL_FLOAT16,   ACL_BF16,       ACL_INT8,
                                  ACL_UINT8,  ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL};

aclnnStatus PlanTake(Plan& plan, const aclTensor* self, const aclTensor* index, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kTakeDtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, kTakeDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckShape("out", out, index->view_shape));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef indices = plan.Input(index, "index");
  const TensorRef dst = plan.Output(out, "out");
  // One dimension of self's elements: a view where strides allow it, else a dense copy.
  const int64_t count = src.NumElements();
  std::optional<TensorRef> flat = Reshape(src, {count});
  if (!flat) flat = *Reshape(plan.Contiguous(src, src.dtype), {count});
  PlanGather(plan, *flat, 0, indices, "index", dst);  // index's shape replaces the one dimension
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Take, PlanTake, (OpTraits{.header = "aclnnop/aclnn_take.h", .dtypes = kTakeDtypes}),
                (const aclTensor*, self), (const aclTensor*, index), (aclTensor*, out))
