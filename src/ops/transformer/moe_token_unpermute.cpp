// aclnnMoeTokenUnpermute: MoeTokenPermute undone. Each token's topK expert
// copies are gathered back through sortedIndices (token-major: slot i * topK + j)
// and summed, weighted by probs when given:
//   out[i, :] = sum_j probs[i, j] * permutedTokens[sortedIndices[i * topK + j], :]
// (no probs: topK 1, out[i] = permutedTokens[sortedIndices[i]]). permutedTokens
// [tokens * topK, h], out [tokens, h] of one float dtype, probs [tokens, topK]
// f32 f16 or bf16, topK at most 512. In f32 on MoeFinalizeRouting's kernel
// (kernels/moe_finalize.h); an index outside [0, tokens * topK) fails the run
// (507015) with out untouched. Shape errors are 561002 as the doc says;
// paddedMode true (restoreShapeOptional) is not supported (161002, as the doc: false only).
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "kernels/moe_finalize.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxTopK = 512;
constexpr aclnnStatus kShapeError = ACLNN_ERR_INNER_TILING_ERROR;

aclnnStatus PlanMoeTokenUnpermute(Plan& plan, const aclTensor* permuted_tokens, const aclTensor* sorted_indices,
                                  const aclTensor* probs, bool padded_mode, const aclIntArray* /*restore_shape*/,
                                  const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("permutedTokens", permuted_tokens->dtype, kFloatDtypes));
  CANOPY_CHECK(plan.CheckDtype("sortedIndices", sorted_indices->dtype, DtypeSet{ACL_INT32}));
  if (probs != nullptr) CANOPY_CHECK(plan.CheckDtype("probsOptional", probs->dtype, kFloatDtypes));
  if (out->dtype != permuted_tokens->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'out' is %s, but permutedTokens is %s: they must match",
                       DtypeName(out->dtype), DtypeName(permuted_tokens->dtype));
  }
  if (padded_mode) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'paddedMode' is true; only false is supported");
  }
  if (permuted_tokens->rank() != 2 || sorted_indices->rank() != 1 || out->rank() != 2 ||
      (probs != nullptr && probs->rank() != 2)) {
    return plan.Reject(kShapeError,
                       "permutedTokens %s, sortedIndices %s, probsOptional and out %s must be 2-D, 1-D, 2-D and 2-D",
                       ShapeToString(permuted_tokens->view_shape).c_str(),
                       ShapeToString(sorted_indices->view_shape).c_str(), ShapeToString(out->view_shape).c_str());
  }
  const int64_t slots = permuted_tokens->view_shape[0], h = permuted_tokens->view_shape[1];
  const int64_t tokens = probs != nullptr ? probs->view_shape[0] : slots;
  const int64_t k = probs != nullptr ? probs->view_shape[1] : 1;
  if (k > kMaxTopK || tokens * k != slots || sorted_indices->view_shape[0] != slots ||
      out->view_shape != Shape{tokens, h}) {
    return plan.Reject(kShapeError,
                       "permutedTokens %s, sortedIndices %s, probsOptional [tokens, topK <= %lld] and out %s do not "
                       "match: [tokens * topK, h], [tokens * topK], [tokens, h]",
                       ShapeToString(permuted_tokens->view_shape).c_str(),
                       ShapeToString(sorted_indices->view_shape).c_str(), static_cast<long long>(kMaxTopK),
                       ShapeToString(out->view_shape).c_str());
  }

  const TensorRef permuted_ref = plan.Input(permuted_tokens, "permutedTokens");
  const TensorRef indices_ref = plan.Input(sorted_indices, "sortedIndices");
  TensorRef probs_ref;
  if (probs != nullptr) {
    probs_ref = plan.Input(probs, "probsOptional");
  } else {
    plan.SkipInput();
  }
  plan.SkipInput();  // restoreShapeOptional: paddedMode only
  const TensorRef out_ref = plan.Output(out, "out");
  if (out_ref.NumElements() == 0) return ACLNN_SUCCESS;

  kernels::MoeFinalizeDesc desc;
  desc.op = "aclnnMoeTokenUnpermute";
  desc.dtype = permuted_tokens->dtype;
  desc.rows = tokens;
  desc.h = h;
  desc.k = k;
  desc.expanded_rows = slots;
  desc.token_major_index = true;
  desc.row_index_name = "sortedIndices";
  desc.expanded_x = plan.Contiguous(permuted_ref, permuted_ref.dtype).buffer;
  desc.row_index = plan.Contiguous(indices_ref, ACL_INT32).buffer;
  if (probs != nullptr) {
    desc.has_scales = true;
    desc.scales_dtype = probs->dtype;
    desc.scales = plan.Contiguous(probs_ref, probs_ref.dtype).buffer;
  }
  const TensorRef dst = out_ref.IsContiguous() ? out_ref : plan.Temporary(out_ref.dtype, out_ref.shape);
  desc.out = dst.buffer;
  plan.AddStep(kernels::MakeMoeFinalizeStep(desc));
  if (!out_ref.IsContiguous()) plan.Copy(dst, out_ref);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};

}  // namespace

CANOPY_ACLNN_OP(MoeTokenUnpermute, PlanMoeTokenUnpermute,
                (OpTraits{.header = "aclnnop/aclnn_moe_token_unpermute.h",
                          .dtypes = kAllDtypes,
                          .max_rank = 2,
                          .example = "f32[6,4] i32[6]{0:5} f32[6,1] false - f32[6,4]"}),
                (const aclTensor*, permutedTokens), (const aclTensor*, sortedIndices),
                (const aclTensor*, probsOptional, optional), (bool, paddedMode),
                (const aclIntArray*, restoreShapeOptional, optional), (aclTensor*, out))
