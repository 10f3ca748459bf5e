// aclnnMoeTokenPermute: each token row copied once per chosen expert, the
// copies sorted by expert number (stably, in the flattened [tokens, topK]
// order): sortedIndicesOut[s] is the row slot s goes to, and
//   permuteTokensOut[sortedIndicesOut[s]] = tokens[s / topK]
// for the first numOutTokens rows (0: all; < 0: all but the last -numOutTokens,
// as a slice). tokens is [tokens, ...] (rank >= 2, the trailing dims one row),
// indices [tokens, topK] or [tokens] (topK 1), int32 or int64, values in
// [0, 16777215): one outside fails the run (507015). The sort and gather are
// MoeInitRoutingV2's drop-less form (kernels/moe_init_routing.h).
//
// Scope: f32, f16, bf16 tokens (INT8 is Ascend 950 only); paddedMode true is
// rejected as the doc says (561002).
#include "aclnnop/aclnn_moe_token_permute.h"
#include "kernels/moe_init_routing.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTokenDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kIndexLimit = 16777215;  // index values and count below it
constexpr aclnnStatus kShapeError = ACLNN_ERR_INNER_TILING_ERROR;

aclnnStatus PlanMoeTokenPermute(Plan& plan, const aclTensor* tokens, const aclTensor* indices, int64_t num_out_tokens,
                                bool padded_mode, const aclTensor* permute_tokens_out,
                                const aclTensor* sorted_indices_out) {
  CANOPY_CHECK(plan.CheckDtype("tokens", tokens->dtype, kTokenDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  if (permute_tokens_out->dtype != tokens->dtype) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'permuteTokensOut' is %s, but tokens is %s: they must match",
                       DtypeName(permute_tokens_out->dtype), DtypeName(tokens->dtype));
  }
  CANOPY_CHECK(plan.CheckDtype("sortedIndicesOut", sorted_indices_out->dtype, DtypeSet{ACL_INT32}));
  if (tokens->rank() < 2) {
    return plan.Reject(kShapeError, "argument 'tokens' has rank %lld; it must be at least 2",
                       static_cast<long long>(tokens->rank()));
  }
  if ((indices->rank() != 1 && indices->rank() != 2) || indices->view_shape[0] != tokens->view_shape[0]) {
    return plan.Reject(kShapeError, "argument 'indices' has shape %s; it must be [%lld, topK] or [%lld]",
                       ShapeToString(indices->view_shape).c_str(), static_cast<long long>(tokens->view_shape[0]),
                       static_cast<long long>(tokens->view_shape[0]));
  }
  if (padded_mode) return plan.Reject(kShapeError, "argument 'paddedMode' is true: only false is supported");
  if (indices->NumElements() >= kIndexLimit) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'indices' has %lld elements; fewer than %lld",
                       static_cast<long long>(indices->NumElements()), static_cast<long long>(kIndexLimit));
  }
  const int64_t rows = tokens->view_shape[0];
  const int64_t k = indices->rank() == 2 ? indices->view_shape[1] : 1;
  const int64_t h = rows == 0 ? 0 : tokens->NumElements() / rows;
  const int64_t slots = rows * k;
  const int64_t out_rows = num_out_tokens == 0  ? slots
                           : num_out_tokens > 0 ? std::min(slots, num_out_tokens)
                                                : std::max<int64_t>(0, slots + std::max(num_out_tokens, -slots));
  const Shape& o = permute_tokens_out->view_shape;
  int64_t out_row = 1;
  for (size_t i = 1; i < o.size(); ++i) out_row *= o[i];
  if (o.size() < 2 || o[0] != out_rows || out_row != h) {
    return plan.Reject(kShapeError,
                       "argument 'permuteTokensOut' has shape %s; it must be [%lld, ...] with %lld elements a row",
                       ShapeToString(o).c_str(), static_cast<long long>(out_rows), static_cast<long long>(h));
  }
  if (sorted_indices_out->view_shape != Shape{slots}) {
    return plan.Reject(kShapeError, "argument 'sortedIndicesOut' has shape %s; it must be [%lld]",
                       ShapeToString(sorted_indices_out->view_shape).c_str(), static_cast<long long>(slots));
  }

  const TensorRef tokens_ref = plan.Input(tokens, "tokens");
  const TensorRef indices_ref = plan.Input(indices, "indices");
  const TensorRef out_ref = plan.Output(permute_tokens_out, "permuteTokensOut");
  const TensorRef sorted_ref = plan.Output(sorted_indices_out, "sortedIndicesOut");
  if (slots == 0) return ACLNN_SUCCESS;

  kernels::MoeInitRoutingDesc desc;
  desc.op = "aclnnMoeTokenPermute";
  desc.dtype = tokens->dtype;
  desc.rows = rows;
  desc.k = k;
  desc.h = h;
  desc.expanded_rows = out_rows;
  desc.x = plan.Contiguous(tokens_ref, tokens_ref.dtype).buffer;
  desc.expert_index = plan.Contiguous(indices_ref, indices_ref.dtype).buffer;
  desc.index_int64 = indices->dtype == ACL_INT64;
  desc.expert_name = "indices";
  desc.expert_limit = kIndexLimit;
  // The kernel writes dense [rows, h] and [slots]; strided outputs are staged.
  const TensorRef dense_out = out_ref.IsContiguous() ? out_ref : plan.Temporary(out_ref.dtype, out_ref.shape);
  const TensorRef dense_sorted = sorted_ref.IsContiguous() ? sorted_ref : plan.Temporary(ACL_INT32, sorted_ref.shape);
  desc.expanded_x = dense_out.buffer;
  desc.expanded_row_index = dense_sorted.buffer;
  plan.AddStep(kernels::MakeMoeInitRoutingStep(desc));
  if (!out_ref.IsContiguous()) plan.Copy(dense_out, out_ref);
  if (!sorted_ref.IsContiguous()) plan.Copy(dense_sorted, sorted_ref);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kAllDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64};

}  // namespace

CANOPY_ACLNN_OP(MoeTokenPermute, PlanMoeTokenPermute,
                (OpTraits{.header = "aclnnop/aclnn_moe_token_permute.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[3,4] i32[3,2]{0:2} 0 false f32[6,4] i32[6]"}),
                (const aclTensor*, tokens), (const aclTensor*, indices), (int64_t, numOutTokens), (bool, paddedMode),
                (const aclTensor*, permuteTokensOut), (const aclTensor*, sortedIndicesOut))
