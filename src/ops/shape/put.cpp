// aclnnInplacePut: torch.Tensor.put_. selfRef is read as one flat row-major
// vector; element index[i] takes source[i] (accumulate: gains it), for i over
// index's and source's elements in row-major order (their shapes may differ;
// their counts must not). Duplicates: the last wins, or all add up in order.
// As in CANN, an index is not wrapped: a negative or out-of-range one fails the
// run (checked before selfRef is written).
#include "aclnnop/aclnn_put.h"
#include "nd_index.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "shape_checks.h"
#include "view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// CANN's Atlas A2 list; with accumulate its code takes the same list without BF16.
constexpr DtypeSet kPutDtypes = {ACL_FLOAT, ACL_INT32,  ACL_INT64,     ACL_FLOAT16,    ACL_INT16, ACL_INT8,
                                 ACL_UINT8, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128, ACL_BOOL,  ACL_BF16};
constexpr DtypeSet kAccumulateDtypes = kPutDtypes.Without({ACL_BF16});

aclnnStatus PlanInplacePut(Plan& plan, const aclTensor* self, const aclTensor* index, const aclTensor* source,
                           bool accumulate) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, accumulate ? kAccumulateDtypes : kPutDtypes));
  CANOPY_CHECK(plan.CheckDtype("index", index->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "source", source, "selfRef", self));
  if (index->NumElements() != source->NumElements()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'index' has %lld elements and 'source' %lld; they must match",
                       static_cast<long long>(index->NumElements()), static_cast<long long>(source->NumElements()));
  }
  const TensorRef original = plan.Input(self, "selfRef");
  const TensorRef positions = plan.Input(index, "index");
  const TensorRef values = plan.Input(source, "source");
  const TensorRef dst = plan.Output(self, "selfRef");
  if (index->NumElements() == 0) return ACLNN_SUCCESS;
  if (self->NumElements() == 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'selfRef' is empty but 'index' has %lld elements",
                       static_cast<long long>(index->NumElements()));
  }
  // A selfRef whose view is not one flat vector is staged through one.
  const std::optional<TensorRef> flat_dst = Reshape(dst, {dst.NumElements()});
  const TensorRef staged = flat_dst ? dst : plan.Temporary(dst.dtype, dst.shape);
  if (!flat_dst) plan.Copy(original, staged);
  const TensorRef coordinates = Unsqueeze(Flat(plan, positions), 1);  // [n, 1]: one coordinate each
  PlanNdScatter(plan, accumulate ? BlockCopy::kAccumulate : BlockCopy::kScatter,
                *Reshape(staged, {staged.NumElements()}), coordinates, Flat(plan, values));
  if (!flat_dst) plan.Copy(staged, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(InplacePut, PlanInplacePut,
                (OpTraits{.header = "aclnnop/aclnn_put.h",
                          .dtypes = kPutDtypes,
                          .in_place = true,
                          .example = "f32[4,2] i64[3]{0:7} f32[3] false"}),
                (aclTensor*, selfRef), (const aclTensor*, index), (const aclTensor*, source), (bool, accumulate))
