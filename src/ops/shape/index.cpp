// aclnnIndex: out = self[indices], PyTorch's advanced indexing (see
// advanced_index.h): a list of int32/int64 index tensors broadcast together,
// or one bool mask; each index value is checked at run time.
#include "aclnnop/aclnn_index.h"
#include "advanced_index.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexOpDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32,
                                     ACL_INT64, ACL_INT16,   ACL_INT8, ACL_UINT8,  ACL_BOOL};

aclnnStatus PlanIndex(Plan& plan, const aclTensor* self, const aclTensorList* indices, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kIndexOpDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 8));
  AdvancedIndex index;
  CANOPY_CHECK(CheckAdvancedIndex(plan, self, indices, "indices", index));
  // A mask's selected count is out's extent there (checked against the mask at run time).
  int64_t selected = 0;
  if (index.masked && index.lead < out->rank()) selected = out->view_shape[index.lead];
  CANOPY_CHECK(plan.CheckShape("out", out, index.ResultShape(self->view_shape, selected)));
  const TensorRef src = plan.Input(self, "self");
  const std::vector<TensorRef> entries = plan.InputList(indices, "indices");
  const TensorRef dst = plan.Output(out, "out");
  std::optional<TensorRef> count;
  const TensorRef offsets = PlanIndexOffsets(plan, index, src, entries, "indices", count);
  PlanIndexedBlocks(plan, BlockCopy::kGather, index, src, offsets, count, index.IndexFirst(dst));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Index, PlanIndex,
                (OpTraits{.header = "aclnnop/aclnn_index.h",
                          .dtypes = kIndexOpDtypes,
                          .example = "f32[4,3] (i64[2]{-4:3}) f32[2,3]"}),
                (const aclTensor*, self), (const aclTensorList*, indices), (aclTensor*, out))
