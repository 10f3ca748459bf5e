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
//
// aclnnMoeTokenUnpermuteWithEp: with rangeOptional [start, end], permutedTokens
// holds the rows of the sorted positions [start, end) only (MoeTokenPermuteWithEp's
// output): a slot whose sortedIndices value v is in the range (and whose prob is
// not 0) adds probs * permutedTokens[v - start], the others nothing, as CANN's
// kernel does; topK is numTopk (probs [tokens, numTopk]). A null rangeOptional
// is MoeTokenUnpermute (numTopk ignored), as the doc says. Dtypes are the op
// definition's (161002), shapes and attributes its tiling's (561002).
#include "aclnnop/aclnn_moe_token_unpermute.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_ep.h"
#include "kernels/moe_finalize.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFloatDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kMaxTopK = 512;
constexpr aclnnStatus kShapeError = ACLNN_ERR_INNER_TILING_ERROR;

// The gather-and-sum step over permutedTokens [*, h] (desc holds the op, the token count, topK and any window):
// token-major sortedIndices, probs (null: none) as the weights; a strided out is staged.
void AddUnpermuteStep(Plan& plan, kernels::MoeFinalizeDesc desc, const TensorRef& permuted, const TensorRef& indices,
                      const TensorRef* probs, const TensorRef& out) {
  desc.dtype = permuted.dtype;
  desc.h = permuted.shape[1];
  desc.expanded_rows = permuted.shape[0];
  desc.token_major_index = true;
  desc.row_index_name = "sortedIndices";
  desc.expanded_x = plan.Contiguous(permuted, permuted.dtype).buffer;
  desc.row_index = plan.Contiguous(indices, ACL_INT32).buffer;
  if (probs != nullptr) {
    desc.has_scales = true;
    desc.scales_dtype = probs->dtype;
    desc.scales = plan.Contiguous(*probs, probs->dtype).buffer;
  }
  const TensorRef dst = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  desc.out = dst.buffer;
  plan.AddStep(kernels::MakeMoeFinalizeStep(desc));
  if (!out.IsContiguous()) plan.Copy(dst, out);
}

// Both forms' dtypes (161002) and paddedMode (false only, 161002).
aclnnStatus CheckDtypesAndMode(Plan& plan, const aclTensor* permuted_tokens, const aclTensor* sorted_indices,
                               const aclTensor* probs, bool padded_mode, const aclTensor* out) {
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
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeTokenUnpermute(Plan& plan, const aclTensor* permuted_tokens, const aclTensor* sorted_indices,
                                  const aclTensor* probs, bool padded_mode, const aclIntArray* /*restore_shape*/,
                                  const aclTensor* out) {
  CANOPY_CHECK(CheckDtypesAndMode(plan, permuted_tokens, sorted_indices, probs, padded_mode, out));
  if (permuted_tokens->rank() != 2 || sorted_indices->rank() != 1 || out->rank() != 2 ||
      (probs != nullptr && probs->rank() != 2)) {
    return plan.Reject(kShapeError,
                       "permutedTokens %s, sortedIndices %s, probsOptional and out %s must be 2-D, 1-D, 2-D and 2-D",
                       ShapeToString(permuted_tokens->view_shape).c_str(),
                       ShapeToString(sorted_indices->view_shape).c_str(), ShapeToString(out->view_shape).c_str());
  }
  // The permutation's length comes from sortedIndices: permutedTokens may hold
  // any number of rows, fewer after MoeTokenPermute's numOutTokens (CANN's
  // tiling and kernel).
  const int64_t slots = sorted_indices->view_shape[0], h = permuted_tokens->view_shape[1];
  const int64_t tokens = probs != nullptr ? probs->view_shape[0] : slots;
  const int64_t k = probs != nullptr ? probs->view_shape[1] : 1;
  int64_t pairs = 0;
  if (k > kMaxTopK || __builtin_mul_overflow(tokens, k, &pairs) || pairs != slots ||
      out->view_shape != Shape{tokens, h}) {
    return plan.Reject(kShapeError,
                       "permutedTokens %s, sortedIndices %s, probsOptional [tokens, topK <= %lld] and out %s do not "
                       "match: [rows, h], [tokens * topK], [tokens, h]",
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
  desc.rows = tokens;
  desc.k = k;
  // CANN's kernel adds a slot only when its position is below permutedTokens'
  // rows and its prob is not 0: the WithEp form's window over [0, rows).
  desc.windowed = true;
  desc.window_start = 0;
  desc.window_end = permuted_tokens->view_shape[0];
  desc.index_extent = slots;
  AddUnpermuteStep(plan, desc, permuted_ref, indices_ref, probs != nullptr ? &probs_ref : nullptr, out_ref);
  return ACLNN_SUCCESS;
}

// CANN's tiling checks for WithEp's range form (561002), in its order; on success topK and the token count.
aclnnStatus CheckWithEpShapes(Plan& plan, const aclTensor* permuted_tokens, const aclTensor* sorted_indices,
                              const aclTensor* probs, int64_t num_topk, const aclIntArray* range, const aclTensor* out,
                              int64_t& k, int64_t& tokens) {
  if (range->values.size() != 2) {
    return plan.Reject(kShapeError, "argument 'rangeOptional' has %zu values; it must be [start, end]",
                       range->values.size());
  }
  if (num_topk < 1) {
    return plan.Reject(kShapeError, "argument 'numTopk' is %lld; it must be at least 1",
                       static_cast<long long>(num_topk));
  }
  if (permuted_tokens->rank() != 2 || sorted_indices->rank() != 1) {
    return plan.Reject(kShapeError, "permutedTokens (%s) and sortedIndices (%s) must be 2-D and 1-D",
                       ShapeToString(permuted_tokens->view_shape).c_str(),
                       ShapeToString(sorted_indices->view_shape).c_str());
  }
  const int64_t slots = sorted_indices->view_shape[0];
  k = num_topk;
  tokens = slots / k;
  if (probs != nullptr) {
    if (probs->rank() != 2 || probs->view_shape[1] != num_topk ||
        probs->view_shape[0] * probs->view_shape[1] != slots || num_topk > kMaxTopK) {
      return plan.Reject(kShapeError,
                         "argument 'probsOptional' has shape %s; it must be [tokens, numTopk = %lld <= %lld] with "
                         "tokens * numTopk sortedIndices' %lld",
                         ShapeToString(probs->view_shape).c_str(), static_cast<long long>(num_topk),
                         static_cast<long long>(kMaxTopK), static_cast<long long>(slots));
    }
    tokens = probs->view_shape[0];
  }
  const Shape want = {tokens, permuted_tokens->view_shape[1]};
  if (out->view_shape != want) {
    return plan.Reject(kShapeError, "argument 'out' has shape %s; it must be %s",
                       ShapeToString(out->view_shape).c_str(), ShapeToString(want).c_str());
  }
  // The sorted positions MoeTokenPermuteWithEp's range selects lie within
  // [0, slots], as there (sortedIndices' values are then compared against
  // them without overflowing).
  const int64_t start = range->values[0], end = range->values[1];
  if (start < 0 || start > slots || end < 0 || end > slots) {
    return plan.Reject(kShapeError, "the range [%lld, %lld) (rangeOptional) must be within [0, %lld]",
                       static_cast<long long>(start), static_cast<long long>(end), static_cast<long long>(slots));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMoeTokenUnpermuteWithEp(Plan& plan, const aclTensor* permuted_tokens, const aclTensor* sorted_indices,
                                        const aclTensor* probs, int64_t num_topk, const aclIntArray* range,
                                        bool padded_mode, const aclIntArray* restore_shape, const aclTensor* out) {
  if (range == nullptr) {  // MoeTokenUnpermute, numTopk ignored (the doc)
    return PlanMoeTokenUnpermute(plan, permuted_tokens, sorted_indices, probs, padded_mode, restore_shape, out);
  }
  CANOPY_CHECK(CheckDtypesAndMode(plan, permuted_tokens, sorted_indices, probs, padded_mode, out));
  int64_t k = 0, tokens = 0;
  CANOPY_CHECK(CheckWithEpShapes(plan, permuted_tokens, sorted_indices, probs, num_topk, range, out, k, tokens));

  const TensorRef permuted_ref = plan.Input(permuted_tokens, "permutedTokens");
  const TensorRef indices_ref = plan.Input(sorted_indices, "sortedIndices");
  TensorRef probs_ref;
  if (probs != nullptr) {
    probs_ref = plan.Input(probs, "probsOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef out_ref = plan.Output(out, "out");
  if (out_ref.NumElements() == 0) return ACLNN_SUCCESS;

  kernels::MoeFinalizeDesc desc;
  desc.op = "aclnnMoeTokenUnpermuteWithEp";
  desc.rows = tokens;
  desc.k = k;
  desc.windowed = true;
  desc.window_start = range->values[0];
  desc.window_end = range->values[1];
  AddUnpermuteStep(plan, desc, permuted_ref, indices_ref, probs != nullptr ? &probs_ref : nullptr, out_ref);
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

CANOPY_ACLNN_OP(MoeTokenUnpermuteWithEp, PlanMoeTokenUnpermuteWithEp,
                (OpTraits{.header = "aclnnop/aclnn_moe_token_unpermute_with_ep.h",
                          .dtypes = kAllDtypes,
                          .example = "f32[6,4] i32[6]{0:5} f32[3,2] 2 ints[0,6] false - f32[3,4]"}),
                (const aclTensor*, permutedTokens), (const aclTensor*, sortedIndices),
                (const aclTensor*, probsOptional, optional), (int64_t, numTopk),
                (const aclIntArray*, rangeOptional, optional), (bool, paddedMode),
                (const aclIntArray*, restoreShapeOptional, optional), (aclTensor*, out))
