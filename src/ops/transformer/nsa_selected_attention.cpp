// aclnnNsaSelectedAttention: NSA's attention of each query token over the key
// and value blocks that topkIndices selects (TND), with its softmax
// statistics (kernels/nsa_attention.h has the formulas).
// CANN's checks in order: all outputs empty is a no-op; inputLayout "TND",
// query of rank 3, the head dims (qD == kD >= vD, at most 768), at most 3072
// sequences and nonzero N2 and D (161002); the op's dtypes (161002, as the
// doc says; CANN finds them when it picks the kernel); then its tiling's
// (561002): the block size and count, headNum, sparseMode 0 or 2, topkIndices'
// last dim, the ranks, the actual-length lists and the token counts they
// need, the head counts and the mask. CANN's kernel reads no mask values:
// with a mask and sparseMode 2 it masks causally by position, else nothing.
// Checked too (161002), as the kernel relies on them: value's T and N equal
// key's, N1 a multiple of N2, topkIndices [T, N2, count], the output shapes
// ([T, headNum, 8] twice, [T, N1, Dv]) and prefix-sum lists. A block size or
// count below 1 is a tiling error (CANN's matmul tiling fails on it). An
// index whose block is outside its sequence's keys fails the run.
#include <cstring>

#include "aclnnop/aclnn_nsa_selected_attention.h"
#include "kernels/nsa_attention.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"
#include "ops/transformer/nsa_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kNsaSelectedDtypes = {ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kMaskDtypes = {ACL_BOOL, ACL_UINT8};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kStatCopies = 8;
constexpr int64_t kMaxHeadDim = 768;
constexpr int64_t kMaxSequenceLists = 3072;
constexpr int64_t kMaxBatch = 1024;
constexpr int64_t kMaxBlockSize = 128, kBlockAlignment = 16, kMaxBlockCount = 32;
constexpr int64_t kNoMask = 0, kCausal = 2;

long long L(int64_t v) { return static_cast<long long>(v); }

// The host's checks (161002).
aclnnStatus CheckHost(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                      const aclIntArray* q_ends, const aclIntArray* kv_ends, const char* layout) {
  if (std::strcmp(layout, "TND") != 0) {
    return plan.Reject(kInvalid, "argument 'inputLayout' is '%s'; only \"TND\" is supported", layout);
  }
  for (const auto& [name, t] : {std::pair{"query", query}, std::pair{"key", key}, std::pair{"value", value}}) {
    if (t->rank() != 3) {
      return plan.Reject(kInvalid, "argument '%s' has rank %lld; with layout TND it must be 3", name, L(t->rank()));
    }
  }
  const int64_t dim = query->view_shape[2], key_dim = key->view_shape[2], value_dim = value->view_shape[2];
  if (dim != key_dim || dim < value_dim) {
    return plan.Reject(kInvalid, "head dims: query's (%lld) must equal key's (%lld), and value's (%lld) be at most it",
                       L(dim), L(key_dim), L(value_dim));
  }
  if (dim > kMaxHeadDim) {
    return plan.Reject(kInvalid, "argument 'query' has head dim %lld; at most %lld is supported", L(dim),
                       L(kMaxHeadDim));
  }
  if (static_cast<int64_t>(q_ends->values.size()) > kMaxSequenceLists ||
      static_cast<int64_t>(kv_ends->values.size()) > kMaxSequenceLists) {
    return plan.Reject(kInvalid,
                       "arguments 'actualSeqQLenOptional' (%zu entries) and 'actualSeqKvLenOptional' (%zu) may list "
                       "at most %lld sequences",
                       q_ends->values.size(), kv_ends->values.size(), L(kMaxSequenceLists));
  }
  if (key->view_shape[1] == 0 || dim == 0) {
    return plan.Reject(kInvalid, "key's head count (%lld) and query's head dim (%lld) must not be 0",
                       L(key->view_shape[1]), L(dim));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                        const aclTensor* indices, const aclTensor* mask, const aclTensor* softmax_max,
                        const aclTensor* softmax_sum, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("query", query->dtype, kNsaSelectedDtypes));
  for (const auto& [name, t] : {std::pair{"key", key}, std::pair{"value", value}, std::pair{"attentionOut", out}}) {
    if (t->dtype != query->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s, but query is %s: they must match", name, DtypeName(t->dtype),
                         DtypeName(query->dtype));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("topkIndices", indices->dtype, DtypeSet{ACL_INT32}));
  if (mask != nullptr) CANOPY_CHECK(plan.CheckDtype("attenMaskOptional", mask->dtype, kMaskDtypes));
  CANOPY_CHECK(plan.CheckDtype("softmaxMaxOut", softmax_max->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("softmaxSumOut", softmax_sum->dtype, DtypeSet{ACL_FLOAT}));
  return ACLNN_SUCCESS;
}

// CANN's tiling (561002).
aclnnStatus CheckTiling(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* indices,
                        const aclTensor* mask, const aclIntArray* q_ends, const aclIntArray* kv_ends, int64_t head_num,
                        int64_t sparse_mode, int64_t block_size, int64_t block_count) {
  if (block_size < 1 || block_size > kMaxBlockSize || block_size % kBlockAlignment != 0) {
    return plan.Reject(kTiling, "argument 'selectedBlockSize' is %lld; it must be a multiple of %lld in [%lld, %lld]",
                       L(block_size), L(kBlockAlignment), L(kBlockAlignment), L(kMaxBlockSize));
  }
  if (block_count < 1 || block_count > kMaxBlockCount) {
    return plan.Reject(kTiling, "argument 'selectedBlockCount' is %lld; it must be in [1, %lld]", L(block_count),
                       L(kMaxBlockCount));
  }
  if (head_num == 0) return plan.Reject(kTiling, "argument 'headNum' is 0");
  if (sparse_mode != kNoMask && sparse_mode != kCausal) {
    return plan.Reject(kTiling, "argument 'sparseMode' is %lld; only 0 and 2 are supported", L(sparse_mode));
  }
  if (indices->rank() != 3 || key->rank() != 3) {
    return plan.Reject(kTiling, "arguments 'key' (rank %lld) and 'topkIndices' (rank %lld) must have rank 3 (TND)",
                       L(key->rank()), L(indices->rank()));
  }
  if (indices->view_shape[2] != block_count) {
    return plan.Reject(kTiling, "argument 'topkIndices' has last dim %lld; it must be selectedBlockCount (%lld)",
                       L(indices->view_shape[2]), L(block_count));
  }
  if (q_ends->values.size() != kv_ends->values.size()) {
    return plan.Reject(kTiling,
                       "arguments 'actualSeqQLenOptional' (%zu entries) and 'actualSeqKvLenOptional' (%zu) must "
                       "list the same sequences",
                       q_ends->values.size(), kv_ends->values.size());
  }
  if (static_cast<int64_t>(q_ends->values.size()) > kMaxBatch) {
    return plan.Reject(kTiling, "argument 'actualSeqQLenOptional' lists %zu sequences; at most %lld are supported",
                       q_ends->values.size(), L(kMaxBatch));
  }
  const int64_t q_total = q_ends->values.empty() ? 0 : q_ends->values.back();
  const int64_t kv_total = kv_ends->values.empty() ? 0 : kv_ends->values.back();
  if (query->view_shape[0] < q_total || key->view_shape[0] < kv_total) {
    return plan.Reject(kTiling,
                       "query's T (%lld) and key's T (%lld) must be at least the sums of "
                       "'actualSeqQLenOptional' (%lld) and 'actualSeqKvLenOptional' (%lld)",
                       L(query->view_shape[0]), L(key->view_shape[0]), L(q_total), L(kv_total));
  }
  const int64_t heads = query->view_shape[1], kv_heads = key->view_shape[1];
  if (heads < kv_heads) {
    return plan.Reject(kTiling, "query's head count (%lld) must be at least key's (%lld)", L(heads), L(kv_heads));
  }
  if (head_num % kv_heads != 0) {
    return plan.Reject(kTiling, "argument 'headNum' (%lld) must be a multiple of key's head count (%lld)", L(head_num),
                       L(kv_heads));
  }
  if (mask != nullptr && mask->rank() != 2) {
    return plan.Reject(kTiling, "argument 'attenMaskOptional' has rank %lld; it must be 2", L(mask->rank()));
  }
  return ACLNN_SUCCESS;
}

// What the kernel relies on (161002).
aclnnStatus CheckShapes(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                        const aclTensor* indices, const aclTensor* softmax_max, const aclTensor* softmax_sum,
                        const aclTensor* out, int64_t head_num, int64_t block_count) {
  const int64_t tokens = query->view_shape[0], heads = query->view_shape[1], kv_heads = key->view_shape[1];
  if (value->view_shape[0] != key->view_shape[0] || value->view_shape[1] != kv_heads) {
    return plan.Reject(kInvalid, "argument 'value' has shape %s; its T and N must be key's %s",
                       ShapeToString(value->view_shape).c_str(), ShapeToString(key->view_shape).c_str());
  }
  if (heads % kv_heads != 0) {
    return plan.Reject(kInvalid, "query's head count (%lld) must be a multiple of key's (%lld)", L(heads), L(kv_heads));
  }
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "topkIndices", indices, {tokens, kv_heads, block_count}));
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "softmaxMaxOut", softmax_max, {tokens, head_num, kStatCopies}));
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "softmaxSumOut", softmax_sum, {tokens, head_num, kStatCopies}));
  if (head_num != heads) {
    return plan.Reject(kInvalid, "argument 'headNum' is %lld, but query has %lld heads", L(head_num), L(heads));
  }
  return moe::CheckShapeIs(plan, kInvalid, "attentionOut", out, {tokens, heads, value->view_shape[2]});
}

aclnnStatus PlanNsaSelectedAttention(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                     const aclTensor* indices, const aclTensor* mask, const aclIntArray* q_ends,
                                     const aclIntArray* kv_ends, double scale, int64_t head_num, const char* layout,
                                     int64_t sparse_mode, int64_t block_size, int64_t block_count,
                                     const aclTensor* softmax_max, const aclTensor* softmax_sum, const aclTensor* out) {
  if (softmax_max->NumElements() == 0 && softmax_sum->NumElements() == 0 && out->NumElements() == 0) {
    return ACLNN_SUCCESS;  // CANN computes nothing when every output is empty
  }
  CANOPY_CHECK(CheckHost(plan, query, key, value, q_ends, kv_ends, layout));
  CANOPY_CHECK(CheckDtypes(plan, query, key, value, indices, mask, softmax_max, softmax_sum, out));
  CANOPY_CHECK(
      CheckTiling(plan, query, key, indices, mask, q_ends, kv_ends, head_num, sparse_mode, block_size, block_count));
  CANOPY_CHECK(CheckShapes(plan, query, key, value, indices, softmax_max, softmax_sum, out, head_num, block_count));
  kernels::NsaSelectedAttentionDesc desc;
  CANOPY_CHECK(nsa::PrefixSumLengths(plan, "actualSeqQLenOptional", q_ends, desc.q_lens));
  CANOPY_CHECK(nsa::PrefixSumLengths(plan, "actualSeqKvLenOptional", kv_ends, desc.kv_lens));

  const TensorRef query_ref = plan.Input(query, "query");
  const TensorRef key_ref = plan.Input(key, "key");
  const TensorRef value_ref = plan.Input(value, "value");
  const TensorRef indices_ref = plan.Input(indices, "topkIndices");
  if (mask != nullptr) {
    plan.Input(mask, "attenMaskOptional");  // CANN's kernel reads no mask values
  } else {
    plan.SkipInput();
  }
  const TensorRef max_ref = plan.Output(softmax_max, "softmaxMaxOut");
  const TensorRef sum_ref = plan.Output(softmax_sum, "softmaxSumOut");
  const TensorRef out_ref = plan.Output(out, "attentionOut");

  desc.dtype = query->dtype;
  desc.q_tokens = query->view_shape[0];
  desc.heads = query->view_shape[1];
  desc.kv_heads = key->view_shape[1];
  desc.dim = query->view_shape[2];
  desc.value_dim = value->view_shape[2];
  desc.scale = static_cast<float>(scale);
  desc.block_size = block_size;
  desc.block_count = block_count;
  desc.causal = mask != nullptr && sparse_mode == kCausal;
  desc.query = plan.Contiguous(query_ref, query_ref.dtype).buffer;
  desc.key = plan.Contiguous(key_ref, key_ref.dtype).buffer;
  desc.value = plan.Contiguous(value_ref, value_ref.dtype).buffer;
  desc.topk_indices = plan.Contiguous(indices_ref, indices_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.softmax_max = outputs.Dense(plan, max_ref);
  desc.softmax_sum = outputs.Dense(plan, sum_ref);
  desc.out = outputs.Dense(plan, out_ref);
  plan.AddStep(kernels::MakeNsaSelectedAttentionStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(NsaSelectedAttention, PlanNsaSelectedAttention,
                (OpTraits{.header = "aclnnop/aclnn_nsa_selected_attention.h",
                          .dtypes = kNsaSelectedDtypes,
                          .example = "f16[64,4,32] f16[64,2,32] f16[64,2,16] i32[64,2,2]{0:1} u8[64,64]{0:0} ints[64] "
                                     "ints[64] 0.125 4 'TND' 2 16 2 f32[64,4,8] f32[64,4,8] f16[64,4,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, topkIndices), (const aclTensor*, attenMaskOptional, optional),
                (const aclIntArray*, actualSeqQLenOptional), (const aclIntArray*, actualSeqKvLenOptional),
                (double, scaleValue), (int64_t, headNum), (char*, inputLayout), (int64_t, sparseMode),
                (int64_t, selectedBlockSize), (int64_t, selectedBlockCount), (const aclTensor*, softmaxMaxOut),
                (const aclTensor*, softmaxSumOut), (const aclTensor*, attentionOut))
