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
//
// aclnnMoeTokenPermuteWithEp: the same sort, with the rows (and probsOptional's
// values, [tokens, topK] or [tokens] in tokens' dtype) of the sorted positions
// [start, start + n) only, to rows 0.. of permuteTokensOut and permuteProbsOut:
// rangeOptional [start, end], both in [0, slots], n = end - start, plus slots
// where that is <= 0, at most slots; rows no position reaches are left alone,
// as CANN's kernel leaves them. A null rangeOptional is MoeTokenPermute with
// numOutTokens (probsOptional and permuteProbsOut ignored), as the doc says.
// sortedIndicesOut is every slot's position. CANN has no host checks (the doc
// is a stub): dtypes are its op definition's (161002), shapes and attributes
// its tiling's (561002).
#include "aclnnop/aclnn_moe_token_permute.h"
#include "aclnnop/aclnn_moe_token_permute_with_ep.h"
#include "kernels/moe_init_routing.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTokenDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kIndexDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kIndexLimit = moe::kSortLimit;  // index values and count below it
constexpr aclnnStatus kShapeError = ACLNN_ERR_INNER_TILING_ERROR;

// permuteTokensOut [out_rows, ...] with h elements a row, sortedIndicesOut [slots] (the tiling's checks).
// The elements a row of `shape` holds (its dims after the first); -1 past int64,
// which an empty tensor's dims can reach.
int64_t RowElements(const Shape& shape) {
  int64_t row = 1;
  for (size_t i = 1; i < shape.size(); ++i) {
    if (__builtin_mul_overflow(row, shape[i], &row)) return -1;
  }
  return row;
}

aclnnStatus CheckPermutedShapes(Plan& plan, const aclTensor* permute_tokens_out, const aclTensor* sorted_indices_out,
                                int64_t out_rows, int64_t h, int64_t slots) {
  const Shape& o = permute_tokens_out->view_shape;
  if (o.size() < 2 || o[0] != out_rows || RowElements(o) != h) {
    return plan.Reject(kShapeError,
                       "argument 'permuteTokensOut' has shape %s; it must be [%lld, ...] with %lld elements a row",
                       ShapeToString(o).c_str(), static_cast<long long>(out_rows), static_cast<long long>(h));
  }
  if (sorted_indices_out->view_shape != Shape{slots}) {
    return plan.Reject(kShapeError, "argument 'sortedIndicesOut' has shape %s; it must be [%lld]",
                       ShapeToString(sorted_indices_out->view_shape).c_str(), static_cast<long long>(slots));
  }
  return ACLNN_SUCCESS;
}

// The sort-and-gather step's operands for tokens [rows, h] and indices [rows, k]; the caller binds the outputs.
kernels::MoeInitRoutingDesc PermuteDesc(Plan& plan, const char* op, const TensorRef& tokens, const TensorRef& indices,
                                        int64_t rows, int64_t k, int64_t h, int64_t out_rows) {
  kernels::MoeInitRoutingDesc desc;
  desc.op = op;
  desc.dtype = tokens.dtype;
  desc.rows = rows;
  desc.k = k;
  desc.h = h;
  desc.expanded_rows = out_rows;
  desc.x = plan.Contiguous(tokens, tokens.dtype).buffer;
  desc.expert_index = plan.Contiguous(indices, indices.dtype).buffer;
  desc.index_int64 = indices.dtype == ACL_INT64;
  desc.expert_name = "indices";
  desc.expert_limit = kIndexLimit;
  return desc;
}

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
  const int64_t h = RowElements(tokens->view_shape);
  if (h < 0) return plan.Reject(kShapeError, "argument 'tokens' has rows of more than INT64_MAX elements");
  const int64_t slots = rows * k;
  const int64_t out_rows = num_out_tokens == 0  ? slots
                           : num_out_tokens > 0 ? std::min(slots, num_out_tokens)
                                                : std::max<int64_t>(0, slots + std::max(num_out_tokens, -slots));
  CANOPY_CHECK(CheckPermutedShapes(plan, permute_tokens_out, sorted_indices_out, out_rows, h, slots));

  const TensorRef tokens_ref = plan.Input(tokens, "tokens");
  const TensorRef indices_ref = plan.Input(indices, "indices");
  const TensorRef out_ref = plan.Output(permute_tokens_out, "permuteTokensOut");
  const TensorRef sorted_ref = plan.Output(sorted_indices_out, "sortedIndicesOut");
  if (slots == 0) return ACLNN_SUCCESS;

  kernels::MoeInitRoutingDesc desc =
      PermuteDesc(plan, "aclnnMoeTokenPermute", tokens_ref, indices_ref, rows, k, h, out_rows);
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

using moe::kMaxTopK;

// CANN's tiling checks for WithEp, in its order; on success the window's start and row count.
aclnnStatus CheckWithEpShapes(Plan& plan, const aclTensor* tokens, const aclTensor* indices, const aclTensor* probs,
                              const aclIntArray* range, bool padded_mode, int64_t& start, int64_t& out_rows) {
  if (range->values.size() != 2) {
    return plan.Reject(kShapeError, "argument 'rangeOptional' has %zu values; it must be [start, end]",
                       range->values.size());
  }
  start = range->values[0];
  const int64_t end = range->values[1];
  if (padded_mode) return plan.Reject(kShapeError, "argument 'paddedMode' is true: only false is supported");
  if (indices->rank() != 1 && indices->rank() != 2) {
    return plan.Reject(kShapeError, "argument 'indices' has rank %lld; it must be 1 or 2",
                       static_cast<long long>(indices->rank()));
  }
  if (tokens->rank() == 0 || tokens->view_shape[0] != indices->view_shape[0]) {
    return plan.Reject(kShapeError, "tokens (%s) and indices (%s) must have the same first dim",
                       ShapeToString(tokens->view_shape).c_str(), ShapeToString(indices->view_shape).c_str());
  }
  if (probs != nullptr && (probs->rank() != indices->rank() || probs->view_shape[0] != indices->view_shape[0] ||
                           (probs->rank() == 2 && probs->view_shape[1] != indices->view_shape[1]))) {
    return plan.Reject(kShapeError, "argument 'probsOptional' has shape %s; it must be indices' %s",
                       ShapeToString(probs->view_shape).c_str(), ShapeToString(indices->view_shape).c_str());
  }
  const int64_t k = indices->rank() == 2 ? indices->view_shape[1] : 1;
  if (k < 1 || k > kMaxTopK) {
    return plan.Reject(kShapeError, "indices' topK is %lld; it must be in [1, %lld]", static_cast<long long>(k),
                       static_cast<long long>(kMaxTopK));
  }
  const int64_t slots = indices->view_shape[0] * k;
  if (slots >= kIndexLimit) {
    return plan.Reject(kShapeError, "argument 'indices' has %lld elements; fewer than %lld",
                       static_cast<long long>(slots), static_cast<long long>(kIndexLimit));
  }
  if (start < 0 || start > slots || end < 0 || end > slots) {
    return plan.Reject(kShapeError,
                       "the range [%lld, %lld) (rangeOptional, or 0 and numOutTokens) must be within [0, %lld]",
                       static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(slots));
  }
  out_rows = end - start <= 0 ? end - start + slots : end - start;
  out_rows = std::clamp<int64_t>(out_rows, 0, slots);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeTokenPermuteWithEp(Plan& plan, const aclTensor* tokens, const aclTensor* indices,
                                      const aclTensor* probs, const aclIntArray* range, int64_t num_out_tokens,
                                      bool padded_mode, const aclTensor* permute_tokens_out,
                                      const aclTensor* sorted_indices_out, const aclTensor* permute_probs_out) {
  CANOPY_CHECK(plan.CheckDtype("tokens", tokens->dtype, kTokenDtypes));
  CANOPY_CHECK(plan.CheckDtype("indices", indices->dtype, kIndexDtypes));
  // The op definition pairs probs and both float outputs with tokens' dtype.
  for (const auto& [name, t] : {std::pair{"probsOptional", probs}, std::pair{"permuteTokensOut", permute_tokens_out},
                                std::pair{"permuteProbsOut", permute_probs_out}}) {
    if (t != nullptr && t->dtype != tokens->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but tokens is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(tokens->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("sortedIndicesOut", sorted_indices_out->dtype, DtypeSet{ACL_INT32}));
  if (range == nullptr) {  // MoeTokenPermute, probsOptional and permuteProbsOut left alone (the doc)
    return PlanMoeTokenPermute(plan, tokens, indices, num_out_tokens, padded_mode, permute_tokens_out,
                               sorted_indices_out);
  }
  int64_t start = 0, out_rows = 0;
  CANOPY_CHECK(CheckWithEpShapes(plan, tokens, indices, probs, range, padded_mode, start, out_rows));
  const int64_t rows = tokens->view_shape[0];
  const int64_t k = indices->rank() == 2 ? indices->view_shape[1] : 1;
  const int64_t slots = rows * k;
  const int64_t h = RowElements(tokens->view_shape);
  if (h < 0) return plan.Reject(kShapeError, "argument 'tokens' has rows of more than INT64_MAX elements");
  CANOPY_CHECK(CheckPermutedShapes(plan, permute_tokens_out, sorted_indices_out, out_rows, h, slots));
  if (probs != nullptr && permute_probs_out->view_shape != Shape{out_rows}) {
    return plan.Reject(kShapeError, "argument 'permuteProbsOut' has shape %s; it must be [%lld]",
                       ShapeToString(permute_probs_out->view_shape).c_str(), static_cast<long long>(out_rows));
  }

  const TensorRef tokens_ref = plan.Input(tokens, "tokens");
  const TensorRef indices_ref = plan.Input(indices, "indices");
  TensorRef probs_ref;
  if (probs != nullptr) {
    probs_ref = plan.Input(probs, "probsOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(permute_tokens_out, "permuteTokensOut");
  const TensorRef sorted_ref = plan.Output(sorted_indices_out, "sortedIndicesOut");
  TensorRef probs_out_ref;
  if (probs != nullptr) {
    probs_out_ref = plan.Output(permute_probs_out, "permuteProbsOut");
  } else {
    plan.SkipOutput();  // without probs it is left alone
  }
  if (slots == 0) return ACLNN_SUCCESS;

  kernels::MoeInitRoutingDesc desc =
      PermuteDesc(plan, "aclnnMoeTokenPermuteWithEp", tokens_ref, indices_ref, rows, k, h, out_rows);
  desc.expanded_start = start;
  moe::DenseOutputs outputs;
  desc.expanded_x = outputs.DenseKeeping(plan, out_ref);
  desc.expanded_row_index = outputs.Dense(plan, sorted_ref);
  plan.AddStep(kernels::MakeMoeInitRoutingStep(desc));
  if (probs != nullptr) {
    // The probabilities the same way: one value a slot, each its own row (k 1, the same flattened order).
    kernels::MoeInitRoutingDesc probs_desc = desc;
    probs_desc.rows = slots;
    probs_desc.k = 1;
    probs_desc.h = 1;
    probs_desc.x = plan.Contiguous(probs_ref, probs_ref.dtype).buffer;
    probs_desc.expanded_x = outputs.DenseKeeping(plan, probs_out_ref);
    probs_desc.expanded_row_index = plan.Temporary(ACL_INT32, {slots}).buffer;
    plan.AddStep(kernels::MakeMoeInitRoutingStep(probs_desc));
  }
  outputs.Finish(plan);
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

CANOPY_ACLNN_OP(MoeTokenPermuteWithEp, PlanMoeTokenPermuteWithEp,
                (OpTraits{.header = "aclnnop/aclnn_moe_token_permute_with_ep.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[3,4] i32[3,2]{0:3} f32[3,2] ints[0,6] 6 false f32[6,4] i32[6] f32[6]"}),
                (const aclTensor*, tokens), (const aclTensor*, indices), (const aclTensor*, probsOptional, optional),
                (const aclIntArray*, rangeOptional, optional), (int64_t, numOutTokens), (bool, paddedMode),
                (const aclTensor*, permuteTokensOut), (const aclTensor*, sortedIndicesOut),
                (const aclTensor*, permuteProbsOut))
