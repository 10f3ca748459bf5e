// aclnnScatterNd: out = data, then out[indices[b..., 0], ..., indices[b..., c - 1], :] = updates[b..., :]
// for indices of shape [B..., c] (ONNX ScatterND without reduction), on the
// advanced-indexing block (nd_index.h). The coordinates (non-negative, as
// CANN documents) are checked at run time before out is written; updates
// apply in B's row-major order, so with duplicates the last one wins.
#include "aclnnop/aclnn_scatter_nd.h"
#include "nd_index.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kScatterNdDtypes = {ACL_FLOAT16, ACL_FLOAT, ACL_BOOL, ACL_BF16};

// updates must be indices.shape[:-1] + data.shape[c:].
aclnnStatus CheckScatterNdShapes(Plan& plan, const aclTensor* data, const aclTensor* indices, const aclTensor* updates,
                                 const aclTensor* out) {
  CANOPY_CHECK(plan.CheckRank("data", data, 1, 8));
  CANOPY_CHECK(plan.CheckRank("indices", indices, 1, 8));
  CANOPY_CHECK(plan.CheckRank("updates", updates, 1, 8));
  CANOPY_CHECK(plan.CheckShape("out", out, data->view_shape));
  const int64_t columns = indices->view_shape.back();
  if (columns > data->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the last extent of 'indices' (shape %s) is %lld; it must be at most data's rank %lld",
                       ShapeToString(indices->view_shape).c_str(), static_cast<long long>(columns),
                       static_cast<long long>(data->rank()));
  }
  const Shape expected = NdAdvancedIndex(data->rank(), indices->view_shape).ResultShape(data->view_shape, 0);
  if (updates->view_shape != expected) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'updates' has shape %s; indices %s into data %s need indices.shape[:-1] + "
                       "data.shape[%lld:] = %s",
                       ShapeToString(updates->view_shape).c_str(), ShapeToString(indices->view_shape).c_str(),
                       ShapeToString(data->view_shape).c_str(), static_cast<long long>(columns),
                       ShapeToString(expected).c_str());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanScatterNd(Plan& plan, const aclTensor* data, const aclTensor* indices, const aclTensor* updates,
                          const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("data", data->dtype, kScatterNdDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "updates", updates, "data", data));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "data", data));
  CANOPY_CHECK(CheckScatterNdShapes(plan, data, indices, updates, out));
  const AdvancedIndex index = NdAdvancedIndex(data->rank(), indices->view_shape);
  const TensorRef original = plan.Input(data, "data");
  const TensorRef coordinates = plan.Input(indices, "indices");
  const TensorRef source = plan.Input(updates, "updates");
  const TensorRef dst = plan.Output(out, "out");
  // Nothing to update (an empty out, no coordinates, c = 0 as CANN treats it, or empty blocks): out is data.
  if (out->NumElements() == 0 || indices->NumElements() == 0 || updates->NumElements() == 0) {
    plan.Copy(original, dst);
    return ACLNN_SUCCESS;
  }
  std::optional<TensorRef> count;
  const TensorRef offsets =
      PlanIndexOffsets(plan, index, dst, NdIndexColumns(coordinates), kNdIndexColumns, count, IndexSign::kNonNegative);
  plan.Copy(original, dst);  // after the check: a failed one leaves out as it was
  PlanIndexedBlocks(plan, BlockCopy::kScatter, index, dst, offsets, count, source);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ScatterNd, PlanScatterNd,
                (OpTraits{.header = "aclnnop/aclnn_scatter_nd.h",
                          .dtypes = kScatterNdDtypes,
                          .example = "f32[8] i32[4,1]{0:7} f32[4] f32[8]"}),
                (const aclTensor*, data), (const aclTensor*, indices), (const aclTensor*, updates), (aclTensor*, out))
