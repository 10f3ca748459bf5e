// aclnnNsaCompressAttention: NSA's attention over compressed keys (TND), with
// its softmax statistics and, per query token and key head, the top-k select
// blocks by importance score (kernels/nsa_attention.h has the formulas).
// CANN's checks in order: all outputs empty is a no-op; inputLayout "TND"
// (161002); the op's dtypes (161002); then its tiling's (561002): headNum,
// the actual-length lists and the token counts they need, the head counts and
// dim, and the block sizes and count. The doc's limits that CANN's kernel
// assumes without checking (sparseMode 0 or 1, G dividing 128, qD == kD >= vD,
// CmpSkv <= 14000, the mask shapes [max Sq, max CmpSkv] and [max Sq, max
// SelSkv]) are checked too (161002), as are the ranks, the output shapes and
// dtypes and the prefix-sum lists that keep every access inside the tensors.
// actualSelSeqKvLenOptional must be given with one entry per sequence, as the
// doc says; like CANN's kernel, Canopy takes SelSkv = ceil(CmpSkv / (select /
// stride)) and does not read its values.
#include <cstring>

#include "aclnnop/aclnn_nsa_compress_attention.h"
#include "kernels/nsa_attention.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"
#include "ops/transformer/nsa_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNsaAttentionDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kMaskDtypes = {ACL_BOOL, ACL_UINT8};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kStatCopies = 8;
constexpr int64_t kMaxHeadDim = 768;
constexpr int64_t kMaxTopK = 32;
constexpr int64_t kAlignment = 16;
constexpr int64_t kMaxCompressBlock = 128, kMaxCompressStride = 64, kMaxSelectBlock = 128;
constexpr int64_t kGroupRows = 128;  // G must divide the kernel's 128 query rows per block
constexpr int64_t kMaxCompressedKv = 14000;

long long L(int64_t v) { return static_cast<long long>(v); }

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                        const aclTensor* mask, const aclTensor* topk_mask, const aclTensor* softmax_max,
                        const aclTensor* softmax_sum, const aclTensor* out, const aclTensor* indices) {
  CANOPY_CHECK(plan.CheckDtype("query", query->dtype, kNsaAttentionDtypes));
  for (const auto& [name, t] : {std::pair{"key", key}, std::pair{"value", value}, std::pair{"attentionOutOut", out}}) {
    if (t->dtype != query->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s, but query is %s: they must match", name, DtypeName(t->dtype),
                         DtypeName(query->dtype));
    }
  }
  if (mask != nullptr) CANOPY_CHECK(plan.CheckDtype("attenMaskOptional", mask->dtype, kMaskDtypes));
  if (topk_mask != nullptr) CANOPY_CHECK(plan.CheckDtype("topkMaskOptional", topk_mask->dtype, kMaskDtypes));
  CANOPY_CHECK(plan.CheckDtype("softmaxMaxOut", softmax_max->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("softmaxSumOut", softmax_sum->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("topkIndicesOut", indices->dtype, DtypeSet{ACL_INT32}));
  return ACLNN_SUCCESS;
}

struct Sizes {
  int64_t heads = 0, kv_heads = 0, dim = 0, value_dim = 0;
  std::vector<int64_t> q_lens, kv_lens;
  int64_t max_q = 0, max_kv = 0, min_kv = 0;
};

// CANN's tiling: the lists, the token counts, the heads and the dim (561002).
aclnnStatus CheckLayout(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                        const aclIntArray* q_ends, const aclIntArray* kv_ends, int64_t head_num, Sizes& z) {
  if (head_num == 0) return plan.Reject(kTiling, "argument 'headNum' is 0");
  if (q_ends->values.size() != kv_ends->values.size()) {
    return plan.Reject(kTiling,
                       "arguments 'actualSeqQLenOptional' (%zu entries) and 'actualCmpSeqKvLenOptional' (%zu) must "
                       "list the same sequences",
                       q_ends->values.size(), kv_ends->values.size());
  }
  CANOPY_CHECK(nsa::PrefixSumLengths(plan, "actualSeqQLenOptional", q_ends, z.q_lens));
  CANOPY_CHECK(nsa::PrefixSumLengths(plan, "actualCmpSeqKvLenOptional", kv_ends, z.kv_lens));
  const int64_t q_total = q_ends->values.empty() ? 0 : q_ends->values.back();
  const int64_t kv_total = kv_ends->values.empty() ? 0 : kv_ends->values.back();
  if (query->view_shape[0] < q_total || key->view_shape[0] < kv_total) {
    return plan.Reject(kTiling,
                       "query's T (%lld) and key's T (%lld) must be at least the sums of "
                       "'actualSeqQLenOptional' (%lld) and 'actualCmpSeqKvLenOptional' (%lld)",
                       L(query->view_shape[0]), L(key->view_shape[0]), L(q_total), L(kv_total));
  }
  z.heads = query->view_shape[1];
  z.kv_heads = key->view_shape[1];
  z.dim = query->view_shape[2];
  z.value_dim = value->view_shape[2];
  if (z.kv_heads <= 0 || z.heads <= 0 || z.heads % z.kv_heads != 0) {
    return plan.Reject(kTiling, "query's head count (%lld) must be a positive multiple of key's (%lld)", L(z.heads),
                       L(z.kv_heads));
  }
  if (head_num != z.heads) {
    return plan.Reject(kTiling, "argument 'headNum' is %lld, but query has %lld heads", L(head_num), L(z.heads));
  }
  if (z.dim <= 0 || z.dim > kMaxHeadDim) {
    return plan.Reject(kTiling, "argument 'query' has head dim %lld; it must be in [1, %lld]", L(z.dim),
                       L(kMaxHeadDim));
  }
  for (size_t b = 0; b < z.q_lens.size(); ++b) {
    z.max_q = std::max(z.max_q, z.q_lens[b]);
    z.max_kv = std::max(z.max_kv, z.kv_lens[b]);
    z.min_kv = b == 0 ? z.kv_lens[b] : std::min(z.min_kv, z.kv_lens[b]);
  }
  return ACLNN_SUCCESS;
}

// CANN's tiling: the block sizes and count (561002).
aclnnStatus CheckBlocks(Plan& plan, const Sizes& z, int64_t compress_block, int64_t stride, int64_t select_block,
                        int64_t count) {
  // CANN divides by select / stride before checking either; Canopy skips the bound where that is 0.
  const int64_t per_select = stride > 0 ? select_block / stride : 0;
  const int64_t min_select_kv = per_select > 0 ? (z.min_kv + per_select - 1) / per_select : 0;
  if (count < 1 || count > kMaxTopK || (per_select > 0 && count > min_select_kv)) {
    return plan.Reject(kTiling,
                       "argument 'selectBlockCount' is %lld; it must be in [1, %lld] and at most min(SelSkv) = %lld",
                       L(count), L(kMaxTopK), L(min_select_kv));
  }
  for (const auto& [name, size, limit] : {std::tuple{"compressBlockSize", compress_block, kMaxCompressBlock},
                                          std::tuple{"compressStride", stride, kMaxCompressStride},
                                          std::tuple{"selectBlockSize", select_block, kMaxSelectBlock}}) {
    if (size < kAlignment || size > limit || size % kAlignment != 0) {
      return plan.Reject(kTiling, "argument '%s' is %lld; it must be a multiple of %lld in [%lld, %lld]", name, L(size),
                         L(kAlignment), L(kAlignment), L(limit));
    }
  }
  if (stride > select_block || stride > compress_block || compress_block > select_block) {
    return plan.Reject(kTiling, "selectBlockSize (%lld) >= compressBlockSize (%lld) >= compressStride (%lld) must hold",
                       L(select_block), L(compress_block), L(stride));
  }
  if (select_block % stride != 0) {
    return plan.Reject(kTiling, "argument 'selectBlockSize' (%lld) must be a multiple of compressStride (%lld)",
                       L(select_block), L(stride));
  }
  return ACLNN_SUCCESS;
}

// The doc's limits CANN's kernel relies on (161002).
aclnnStatus CheckDocLimits(Plan& plan, const aclTensor* key, const aclTensor* value, const aclIntArray* sel_ends,
                           const Sizes& z) {
  const int64_t groups = z.heads / z.kv_heads;
  if (groups >= kGroupRows || kGroupRows % groups != 0) {
    return plan.Reject(kInvalid, "query's heads per key head (%lld) must divide %lld and be below it", L(groups),
                       L(kGroupRows));
  }
  if (key->view_shape[2] != z.dim || z.value_dim > z.dim) {
    return plan.Reject(kInvalid, "head dims: query's (%lld) must equal key's (%lld), and value's (%lld) be at most it",
                       L(z.dim), L(key->view_shape[2]), L(z.value_dim));
  }
  if (value->view_shape[0] != key->view_shape[0] || value->view_shape[1] != key->view_shape[1]) {
    return plan.Reject(kInvalid, "argument 'value' has shape %s; its T and N must be key's %s",
                       ShapeToString(value->view_shape).c_str(), ShapeToString(key->view_shape).c_str());
  }
  if (z.max_kv > kMaxCompressedKv) {
    return plan.Reject(kInvalid, "a sequence has %lld compressed keys; at most %lld are supported", L(z.max_kv),
                       L(kMaxCompressedKv));
  }
  if (sel_ends->values.size() != z.q_lens.size()) {
    return plan.Reject(kInvalid,
                       "argument 'actualSelSeqKvLenOptional' has %zu entries; it must have one per sequence (%zu)",
                       sel_ends->values.size(), z.q_lens.size());
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckRanks(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                       const aclTensor* mask, const aclTensor* topk_mask) {
  for (const auto& [name, t, rank] :
       {std::tuple{"query", query, 3}, std::tuple{"key", key, 3}, std::tuple{"value", value, 3},
        std::tuple{"attenMaskOptional", mask, 2}, std::tuple{"topkMaskOptional", topk_mask, 2}}) {
    if (t != nullptr && t->rank() != rank) {
      return plan.Reject(kInvalid, "argument '%s' has rank %lld; with layout TND it must be %d", name, L(t->rank()),
                         rank);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanNsaCompressAttention(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                     const aclTensor* mask, const aclTensor* topk_mask, const aclIntArray* q_ends,
                                     const aclIntArray* kv_ends, const aclIntArray* sel_ends, double scale,
                                     int64_t head_num, const char* layout, int64_t sparse_mode, int64_t compress_block,
                                     int64_t stride, int64_t select_block, int64_t count, const aclTensor* softmax_max,
                                     const aclTensor* softmax_sum, const aclTensor* out, const aclTensor* indices) {
  if (softmax_max->NumElements() == 0 && softmax_sum->NumElements() == 0 && out->NumElements() == 0 &&
      indices->NumElements() == 0) {
    return ACLNN_SUCCESS;  // CANN computes nothing when every output is empty
  }
  if (std::strcmp(layout, "TND") != 0) {
    return plan.Reject(kInvalid, "argument 'inputLayout' is '%s'; only \"TND\" is supported", layout);
  }
  if (sparse_mode != 0 && sparse_mode != 1) {
    return plan.Reject(kInvalid, "argument 'sparseMode' is %lld; only 0 and 1 are supported", L(sparse_mode));
  }
  CANOPY_CHECK(CheckDtypes(plan, query, key, value, mask, topk_mask, softmax_max, softmax_sum, out, indices));
  CANOPY_CHECK(CheckRanks(plan, query, key, value, mask, topk_mask));
  Sizes z;
  CANOPY_CHECK(CheckLayout(plan, query, key, value, q_ends, kv_ends, head_num, z));
  CANOPY_CHECK(CheckBlocks(plan, z, compress_block, stride, select_block, count));
  CANOPY_CHECK(CheckDocLimits(plan, key, value, sel_ends, z));
  const int64_t per_select = select_block / stride;
  const int64_t max_select_kv = (z.max_kv + per_select - 1) / per_select;
  if (mask != nullptr) {
    CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "attenMaskOptional", mask, {z.max_q, z.max_kv}));
  }
  if (topk_mask != nullptr) {
    CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "topkMaskOptional", topk_mask, {z.max_q, max_select_kv}));
  }
  const int64_t tokens = query->view_shape[0];
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "softmaxMaxOut", softmax_max, {tokens, z.heads, kStatCopies}));
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "softmaxSumOut", softmax_sum, {tokens, z.heads, kStatCopies}));
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "attentionOutOut", out, {tokens, z.heads, z.value_dim}));
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "topkIndicesOut", indices, {tokens, z.kv_heads, count}));

  const TensorRef query_ref = plan.Input(query, "query");
  const TensorRef key_ref = plan.Input(key, "key");
  const TensorRef value_ref = plan.Input(value, "value");
  kernels::NsaCompressAttentionDesc desc;
  if (mask != nullptr) {
    const TensorRef mask_ref = plan.Input(mask, "attenMaskOptional");
    desc.mask = plan.Contiguous(mask_ref, mask_ref.dtype).buffer;
  } else {
    plan.SkipInput();
  }
  if (topk_mask != nullptr) {
    const TensorRef topk_ref = plan.Input(topk_mask, "topkMaskOptional");
    desc.topk_mask = plan.Contiguous(topk_ref, topk_ref.dtype).buffer;
  } else {
    plan.SkipInput();
  }
  const TensorRef max_ref = plan.Output(softmax_max, "softmaxMaxOut");
  const TensorRef sum_ref = plan.Output(softmax_sum, "softmaxSumOut");
  const TensorRef out_ref = plan.Output(out, "attentionOutOut");
  const TensorRef indices_ref = plan.Output(indices, "topkIndicesOut");

  desc.dtype = query->dtype;
  desc.q_tokens = tokens;
  desc.kv_tokens = key->view_shape[0];
  desc.heads = z.heads;
  desc.kv_heads = z.kv_heads;
  desc.dim = z.dim;
  desc.value_dim = z.value_dim;
  desc.q_lens = z.q_lens;
  desc.kv_lens = z.kv_lens;
  desc.scale = static_cast<float>(scale);
  desc.blocks_per_select = per_select;
  desc.blocks_per_compress = compress_block / stride;
  desc.top_k = count;
  desc.mask_cols = z.max_kv;
  desc.topk_mask_cols = max_select_kv;
  desc.has_mask = mask != nullptr;
  desc.has_topk_mask = topk_mask != nullptr;
  desc.query = plan.Contiguous(query_ref, query_ref.dtype).buffer;
  desc.key = plan.Contiguous(key_ref, key_ref.dtype).buffer;
  desc.value = plan.Contiguous(value_ref, value_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.softmax_max = outputs.Dense(plan, max_ref);
  desc.softmax_sum = outputs.Dense(plan, sum_ref);
  desc.out = outputs.Dense(plan, out_ref);
  desc.topk_indices = outputs.Dense(plan, indices_ref);
  plan.AddStep(kernels::MakeNsaCompressAttentionStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(NsaCompressAttention, PlanNsaCompressAttention,
                (OpTraits{.header = "aclnnop/aclnn_nsa_compress_attention.h",
                          .dtypes = kNsaAttentionDtypes,
                          .example = "f16[64,4,32] f16[16,2,32] f16[16,2,32] u8[64,16]{0:0} u8[64,4]{0:0} ints[64] "
                                     "ints[16] ints[4] 0.125 4 'TND' 1 32 16 64 2 f32[64,4,8] f32[64,4,8] "
                                     "f16[64,4,32] i32[64,2,2]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, attenMaskOptional, optional), (const aclTensor*, topkMaskOptional, optional),
                (const aclIntArray*, actualSeqQLenOptional), (const aclIntArray*, actualCmpSeqKvLenOptional),
                (const aclIntArray*, actualSelSeqKvLenOptional), (double, scaleValue), (int64_t, headNum),
                (char*, inputLayout), (int64_t, sparseMode), (int64_t, compressBlockSize), (int64_t, compressStride),
                (int64_t, selectBlockSize), (int64_t, selectBlockCount), (const aclTensor*, softmaxMaxOut),
                (const aclTensor*, softmaxSumOut), (const aclTensor*, attentionOutOut),
                (const aclTensor*, topkIndicesOut))
