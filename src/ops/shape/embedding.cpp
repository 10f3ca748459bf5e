// aclnnEmbedding: rows of the 2-D weight picked by indices (llama.cpp's token
// embedding), on the shared gather block.
#include "aclnnop/aclnn_embedding.h"
#include "gather.h"
#include "ops/framework/aclnn_op.h"
#include "shape_checks.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kEmbeddingDtypes = {ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_INT64,  ACL_INT32,     ACL_INT16,
                                       ACL_INT8, ACL_UINT8, ACL_BOOL,    ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128};

aclnnStatus PlanEmbedding(Plan& plan, const aclTensor* weight, const aclTensor* indices, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("weight", weight->dtype, kEmbeddingDtypes));
  CANOPY_CHECK(CheckSameDtype(plan, "out", out, "weight", weight));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  CANOPY_CHECK(plan.CheckRank("weight", weight, 2, 2));
  // One row of weight per index: indices' shape, then the row.
  Shape expected = indices->view_shape;
  expected.push_back(weight->view_shape[1]);
  CANOPY_CHECK(plan.CheckShape("out", out, expected));
  const TensorRef src = plan.Input(weight, "weight");
  const TensorRef index = plan.Input(indices, "indices");
  PlanGather(plan, src, 0, index, "indices", plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Embedding, PlanEmbedding, (OpTraits{.header = "aclnnop/aclnn_embedding.h", .dtypes = kEmbeddingDtypes}),
                (const aclTensor*, weight), (const aclTensor*, indices), (const aclTensor*, out))
