// aclnnIndexPutImpl: selfRef[indices] = values, or += values with accumulate
// (torch.index_put_), on the advanced-indexing block of advanced_index.h.
// values broadcast to the indexed shape; each index value is checked at run
// time whatever `unsafe` says, so an index outside self is a stream error,
// never a write outside it. Duplicates: the last write wins, sums add up in
// index order (deterministic either way).
#include "aclnnop/aclnn_index_put_impl.h"
#include "advanced_index.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kIndexPutDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64,  ACL_FLOAT16, ACL_INT16,
                                      ACL_INT8,  ACL_UINT8, ACL_DOUBLE, ACL_BOOL,    ACL_BF16};

aclnnStatus PlanIndexPutImpl(Plan& plan, const aclTensor* self, const aclTensorList* indices, const aclTensor* values,
                             bool accumulate, bool /*unsafe: indices are always checked*/) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kIndexPutDtypes));
  CANOPY_CHECK(plan.CheckDtype("values", values->dtype, kIndexPutDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "values", values, "selfRef", self));
  CANOPY_CHECK(plan.CheckRank("selfRef", self, 1, 8));
  AdvancedIndex index;
  CANOPY_CHECK(CheckAdvancedIndex(plan, self, indices, "indices", index));
  // With a mask, values' extent at B's place (1 when absent) is the count it
  // brings; the run time checks it against the mask unless it is 1.
  const auto result_rank = static_cast<int64_t>(index.ResultShape(self->view_shape, 1).size());
  int64_t selected = 1;
  const int64_t at = index.lead - (result_rank - values->rank());
  if (index.masked && at >= 0 && at < values->rank()) selected = values->view_shape[at];
  const Shape target = index.ResultShape(self->view_shape, selected);
  Shape broadcast;
  if (!BroadcastShapes(values->view_shape, target, broadcast) || broadcast != target) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'values' of shape %s cannot broadcast to the indexed shape %s",
                       ShapeToString(values->view_shape).c_str(), ShapeToString(target).c_str());
  }
  plan.Input(self, "selfRef");
  const std::vector<TensorRef> entries = plan.InputList(indices, "indices");
  const TensorRef source = plan.Input(values, "values");
  const TensorRef dst = plan.Output(self, "selfRef");
  std::optional<TensorRef> count;
  const TensorRef offsets = PlanIndexOffsets(plan, index, dst, entries, "indices", count);
  PlanIndexedBlocks(plan, accumulate ? BlockCopy::kAccumulate : BlockCopy::kScatter, index, dst, offsets, count,
                    index.IndexFirst(BroadcastTo(source, target)));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(IndexPutImpl, PlanIndexPutImpl,
                (OpTraits{.header = "aclnnop/aclnn_index_put_impl.h",
                          .dtypes = kIndexPutDtypes,
                          .in_place = true,
                          .example = "f32[4,3] (i64[2]{-4:3}) f32[2,3] false false"}),
                (aclTensor*, selfRef), (const aclTensorList*, indices), (const aclTensor*, values),
                (const bool, accumulate), (const bool, unsafe))
