// aclnnGatherNd: out[b..., :] = self[indices[b..., 0], ..., indices[b..., c - 1], :]
// for indices of shape [B..., c] (ONNX / TensorFlow GatherND), on the
// advanced-indexing block (nd_index.h): the coordinates are checked at run
// time, then one block of self's trailing dimensions is copied per position.
#include "aclnnop/aclnn_gather_nd.h"
#include "nd_index.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The Atlas A2 list (CANN's code adds bf16 to the document's common list; double, int16 and the unsigned
// wide types are 950-series only).
constexpr DtypeSet kGatherNdDtypes = {ACL_FLOAT, ACL_INT32, ACL_INT64, ACL_FLOAT16,
                                      ACL_INT8,  ACL_UINT8, ACL_BOOL,  ACL_BF16};

aclnnStatus PlanGatherNd(Plan& plan, const aclTensor* self, const aclTensor* indices, bool negative_index_support,
                         const aclTensor* out) {
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "self", self));
  CANOPY_CHECK(plan.CheckDtype("self", self->dtype, kGatherNdDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckRank("self", self, 1, 8));
  CANOPY_CHECK(plan.CheckRank("indices", indices, 1, 8));
  const int64_t columns = indices->view_shape.back();
  if (columns < 1 || columns > self->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "the last extent of 'indices' (shape %s) is %lld; it must be in [1, %lld], self's rank",
                       ShapeToString(indices->view_shape).c_str(), static_cast<long long>(columns),
                       static_cast<long long>(self->rank()));
  }
  const AdvancedIndex index = NdAdvancedIndex(self->rank(), indices->view_shape);
  CANOPY_CHECK(plan.CheckShape("out", out, index.ResultShape(self->view_shape, 0)));
  const TensorRef src = plan.Input(self, "self");
  const TensorRef coordinates = plan.Input(indices, "indices");
  const TensorRef dst = plan.Output(out, "out");
  // CANN returns before its kernel when self, indices or out is empty: out (if any) keeps its bytes.
  if (out->NumElements() == 0 || self->NumElements() == 0 || indices->NumElements() == 0) return ACLNN_SUCCESS;
  // Without negativeIndexSupport the caller promises non-negative coordinates; a negative one fails the run.
  const IndexSign sign = negative_index_support ? IndexSign::kNegativeFromEnd : IndexSign::kNonNegative;
  std::optional<TensorRef> count;
  const TensorRef offsets =
      PlanIndexOffsets(plan, index, src, NdIndexColumns(coordinates), kNdIndexColumns, count, sign);
  PlanIndexedBlocks(plan, BlockCopy::kGather, index, src, offsets, count, dst);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(GatherNd, PlanGatherNd,
                (OpTraits{.header = "aclnnop/aclnn_gather_nd.h",
                          .dtypes = kGatherNdDtypes,
                          .example = "f32[2,2] i64[2,2]{-2:1} true f32[2]"}),
                (const aclTensor*, self), (const aclTensor*, indices), (bool, negativeIndexSupport), (aclTensor*, out))
