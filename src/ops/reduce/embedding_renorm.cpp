// aclnnEmbeddingRenorm (torch.embedding_renorm_): the rows of selfRef [rows, columns] that indices
// (INT32 / INT64, any shape of rank 0-8) names are scaled in place by maxNorm / (norm + 1e-7) where
// their normType-norm exceeds maxNorm; a NaN maxNorm scales nothing (CANN takes it as infinity).
// selfRef FLOAT, FLOAT16 or BFLOAT16 (A2). Only the named rows are read and written. An index
// outside [0, rows) fails the run.
#include <cmath>
#include <limits>

#include "aclnnop/aclnn_embedding_renorm.h"
#include "kernels/embedding_renorm.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kEmbeddingDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kTableRank = 2;

aclnnStatus PlanEmbeddingRenorm(Plan& plan, const aclTensor* self, const aclTensor* indices, double max_norm,
                                double norm_type) {
  CANOPY_CHECK(plan.CheckDtype("selfRef", self->dtype, kEmbeddingDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  if (self->rank() != kTableRank) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'selfRef' has shape %s; it must have 2 dims",
                       ShapeToString(self->view_shape).c_str());
  }
  plan.Input(self, "selfRef");  // read through the output below: only the named rows change
  const TensorRef index_ref = plan.Input(indices, "indices");
  const TensorRef table = plan.Output(self, "selfRef");
  if (self->NumElements() == 0 || indices->NumElements() == 0) return ACLNN_SUCCESS;
  kernels::EmbeddingRenormDesc desc;
  desc.op = plan.op();
  desc.rows = table.shape[0];
  desc.columns = table.shape[1];
  desc.table = table.buffer;
  desc.dtype = table.dtype;
  desc.row_stride = table.strides[0];
  desc.column_stride = table.strides[1];
  const TensorRef flat = plan.Contiguous(index_ref, index_ref.dtype);
  desc.indices = flat.buffer;
  desc.index_dtype = flat.dtype;
  desc.count = flat.NumElements();
  desc.max_norm = std::isnan(max_norm) ? std::numeric_limits<double>::infinity() : max_norm;
  desc.p = norm_type;
  plan.AddStep(kernels::MakeEmbeddingRenormStep(desc), {flat}, table);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(EmbeddingRenorm, PlanEmbeddingRenorm,
                (OpTraits{.header = "aclnnop/aclnn_embedding_renorm.h",
                          .dtypes = kEmbeddingDtypes,
                          .in_place = true,
                          .example = "f32[4,3] i64[2]{0:3} 1.0 2.0"}),
                (aclTensor*, selfRef), (const aclTensor*, indices), (double, maxNorm), (double, normType))
