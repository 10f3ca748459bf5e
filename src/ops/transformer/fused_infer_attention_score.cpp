// aclnnFusedInferAttentionScore (V1) / V2 / V3 / V4: softmax(scale * Q K^T + pseShift,
// masked) V for each batch and query head, in the BSH, BSND, BNSD,
// BNSD_BSND, TND and NTD_TND layouts, with grouped-query attention (numKeyValueHeads), an
// attention mask with the sparse modes 0-3, per-batch actual sequence lengths,
// key/value tensor lists (one tensor, or one per batch) and the optional
// softmax LSE output. V1 is V2 without the per-key/value antiquantisation and
// shared prefixes, its arguments named without "Optional". V3 adds the rope-split query/key heads (MLA), V4 a
// quantised query and attention sinks; the planner is shared with PromptFlashAttention and
// IncreFlashAttention (attention_plan.h).
//
// Scope: query and attentionOut f16 or bf16 (the doc has no f32); key and
// value as the query, or INT8 with one query row (decode: KV antiquantisation,
// attention_plan.cpp): the combined antiquantScale / antiquantOffset ([2, ...],
// key then value) with antiquantMode 0 (per channel [2, N, 1, D], [2, 1, N, D],
// [2, N, D], [2, H], or per tensor [2], in the query's dtype) or 1 (per token
// [2, B, S], FLOAT32); V2+ also the separate key / value parameters (which win)
// with keyAntiquantMode / valueAntiquantMode 0, 1, 2 (per tensor and head [N]),
// 3 (per token and head [B, N, S]) or key 0 with value 1 (f16 query only);
// key = (int8 + offset) * scale in f32 as each block is loaded; CANN's checks
// fail with 561002. INT8 key / value with more than one query row or layout
// TND, INT4 key / value, modes 4 and 5 (block-table managed parameters),
// combined mode 2, INT8 query or output with quant scales, left padding,
// shared prefixes, the rope-split heads and sparse mode 4 (band) are rejected
// as not supported by Canopy (561003, ACLNN_ERR_INNER_FIND_KERNEL_ERROR: no
// kernel for the combination) instead of being computed some other way. A
// query row with no key taking part gives zeros (CANN's row-invalid
// correction, innerPrecise 2/3, done always) and an LSE of -inf.
//
// The variable-length layouts TND and NTD_TND (every version; attention_plan.h)
// follow CANN's Atlas A2 tiling for them without rope heads (its PFA path,
// prompt_flash_attention_tiling.cpp CheckInputShapeWhenLayoutIsTND /
// CheckActSeqWhenLayoutIsTND, and FIA's CheckOutShape): bf16 only; Q, K, V D
// equal and 64, 128 or 192; one key/value tensor, no pse; actualSeqLengths(Kv)
// the cumulative ends, required, as many as each other; sparse mode 0 without
// a mask or 3 with one; paged caches (actualSeqLengthsKv then per-batch
// lengths, blockSize a multiple of 128 up to 1024); each failure 561002. A
// value D of 128 under a 192 query/key D is 561003 here.
//
// V4's learnableSinkOptional (attention sinks), as CANN's code has it (after
// dequantScaleQueryOptional; its doc's prototype lacks it, its doc's program
// passes it):
// * op definition (fused_infer_attention_score_def.cpp): BFLOAT16 only, so any
//   other dtype is 161002; an empty tensor means none (hasLearnableSink needs a
//   non-empty shape in the tiling).
// * Atlas A2 tiling: only with layout TND or NTD_TND and D 64 or 128 (FIA's
//   CheckOutShape), rank 1 and [numHeads] (PFA's
//   CheckLearnableSinkWhenLayoutIsTND); each failure 561002.
// * semantics (prompt_flash_attention_s1s2_bns1_mla_baseapi.h Bmm2ResultDiv):
//   after the last key block the kernel adds exp(sink[n] - rowmax) to the
//   row's softmax sum in f32 and divides the output by that sum: the sink is a
//   logit of head n, not scaled by scaleValue, that joins the denominator and
//   carries no value. The LSE is written from the sum before that addition
//   (ProcessVec1 runs before Bmm2ResultDiv on the last block), so it leaves the
//   sink out. Canopy folds the sink in the same place, in f32, relative to
//   max(rowmax, sink) so that nothing overflows; a row with no key stays zeros.
//   IFA (decode) kernels have no sink in CANN's tree, but with these layouts
//   FIA tiles every D below 512 on the PFA path, one query row included.
#include <cstring>
#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v3.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v4.h"

#include "attention_plan.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAttentionDtypes = {ACL_FLOAT16, ACL_BF16};

// The arguments V2, V3 and V4 share; `extra` are the later versions' optional
// tensors (rope-split heads, query dequantisation), none supported.
AttentionCall FusedCall(const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
                        const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
                        const aclIntArray* actual_seq_lengths_kv,
                        std::vector<std::pair<const char*, const void*>> unsupported, int64_t num_heads,
                        double scale_value, int64_t pre_tokens, int64_t next_tokens, char* input_layout,
                        int64_t num_key_value_heads, int64_t sparse_mode, int64_t inner_precise, int64_t block_size,
                        bool softmax_lse_flag, const aclTensor* attention_out, const aclTensor* softmax_lse,
                        int64_t antiquant_mode = 0, int64_t key_antiquant_mode = 0, int64_t value_antiquant_mode = 0) {
  AttentionCall call;
  call.antiquant_mode = antiquant_mode;
  call.key_antiquant_mode = key_antiquant_mode;
  call.value_antiquant_mode = value_antiquant_mode;
  // The block table (paged attention) and V4's learnable sinks are supported: taken out of the list, their
  // input positions kept. An empty sink tensor means none, as in CANN's tiling.
  // The KV antiquantisation parameters likewise (V1 names them without "Optional").
  const std::pair<const char*, AttentionCall::QuantArg*> antiquant[] = {
      {"antiquantScale", &call.antiquant_scale},
      {"antiquantOffset", &call.antiquant_offset},
      {"keyAntiquantScale", &call.key_antiquant_scale},
      {"keyAntiquantOffset", &call.key_antiquant_offset},
      {"valueAntiquantScale", &call.value_antiquant_scale},
      {"valueAntiquantOffset", &call.value_antiquant_offset}};
  for (size_t i = 0; i < unsupported.size(); ++i) {
    bool taken = false;
    for (const auto& [prefix, arg] : antiquant) {
      const char* name = unsupported[i].first;
      const size_t length = std::strlen(prefix);
      if (std::strncmp(name, prefix, length) == 0 &&
          (name[length] == '\0' || std::strcmp(name + length, "Optional") == 0)) {
        *arg = {static_cast<const aclTensor*>(unsupported[i].second), name, 2 + static_cast<int>(i)};
        unsupported[i].second = nullptr;
        taken = true;
      }
    }
    if (taken) continue;
    if (std::strncmp(unsupported[i].first, "blockTable", std::strlen("blockTable")) == 0) {
      call.block_table = static_cast<const aclTensor*>(unsupported[i].second);
      call.block_table_name = unsupported[i].first;
      call.block_table_input = 2 + static_cast<int>(i);  // after actualSeqLengths(Kv)
      unsupported[i].second = nullptr;
    } else if (std::strcmp(unsupported[i].first, "learnableSinkOptional") == 0) {
      const auto* sink = static_cast<const aclTensor*>(unsupported[i].second);
      call.sink = sink != nullptr && sink->NumElements() != 0 ? sink : nullptr;
      call.sink_input = 2 + static_cast<int>(i);
      unsupported[i].second = nullptr;
    }
  }
  call.allow_tnd = true;
  call.block_size = block_size;
  call.query = query;
  call.key_list = key;
  call.value_list = value;
  call.pse = pse_shift;
  call.pse_name = "pseShiftOptional";
  call.mask = atten_mask;
  call.mask_name = "attenMaskOptional";
  call.query_lengths = actual_seq_lengths;
  call.query_lengths_name = "actualSeqLengthsOptional";
  call.kv_lengths = actual_seq_lengths_kv;
  call.kv_lengths_name = "actualSeqLengthsKvOptional";
  call.inputs_after_mask = 2 + static_cast<int>(unsupported.size());
  call.unsupported = std::move(unsupported);
  call.num_heads = num_heads;
  call.scale = scale_value;
  call.pre_tokens = pre_tokens;
  call.next_tokens = next_tokens;
  call.layout = input_layout;
  call.num_kv_heads = num_key_value_heads;
  call.sparse_mode = sparse_mode;
  call.inner_precise = inner_precise;
  call.out = attention_out;
  call.has_lse_output = true;
  call.lse_flag = softmax_lse_flag;
  call.lse = softmax_lse;
  return call;
}

// V2's optional tensors of unsupported forms, in prototype order.
std::vector<std::pair<const char*, const void*>> V2Unsupported(
    const aclTensor* deq_scale1, const aclTensor* quant_scale1, const aclTensor* deq_scale2,
    const aclTensor* quant_scale2, const aclTensor* quant_offset2, const aclTensor* antiquant_scale,
    const aclTensor* antiquant_offset, const aclTensor* block_table, const aclTensor* query_padding_size,
    const aclTensor* kv_padding_size, const aclTensor* key_antiquant_scale, const aclTensor* key_antiquant_offset,
    const aclTensor* value_antiquant_scale, const aclTensor* value_antiquant_offset, const aclTensor* key_shared_prefix,
    const aclTensor* value_shared_prefix, const aclIntArray* actual_shared_prefix_len) {
  return {{"deqScale1Optional", deq_scale1},
          {"quantScale1Optional", quant_scale1},
          {"deqScale2Optional", deq_scale2},
          {"quantScale2Optional", quant_scale2},
          {"quantOffset2Optional", quant_offset2},
          {"antiquantScaleOptional", antiquant_scale},
          {"antiquantOffsetOptional", antiquant_offset},
          {"blockTableOptional", block_table},
          {"queryPaddingSizeOptional", query_padding_size},
          {"kvPaddingSizeOptional", kv_padding_size},
          {"keyAntiquantScaleOptional", key_antiquant_scale},
          {"keyAntiquantOffsetOptional", key_antiquant_offset},
          {"valueAntiquantScaleOptional", value_antiquant_scale},
          {"valueAntiquantOffsetOptional", value_antiquant_offset},
          {"keySharedPrefixOptional", key_shared_prefix},
          {"valueSharedPrefixOptional", value_shared_prefix},
          {"actualSharedPrefixLenOptional", actual_shared_prefix_len}};
}

// V1: the same arguments as V2's first ones, named as V1's prototype names them.
aclnnStatus PlanFusedInferAttentionScore(
    Plan& plan, const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
    const aclIntArray* actual_seq_lengths_kv, const aclTensor* deq_scale1, const aclTensor* quant_scale1,
    const aclTensor* deq_scale2, const aclTensor* quant_scale2, const aclTensor* quant_offset2,
    const aclTensor* antiquant_scale, const aclTensor* antiquant_offset, const aclTensor* block_table,
    const aclTensor* query_padding_size, const aclTensor* kv_padding_size, int64_t num_heads, double scale_value,
    int64_t pre_tokens, int64_t next_tokens, char* input_layout, int64_t num_key_value_heads, int64_t sparse_mode,
    int64_t inner_precise, int64_t block_size, int64_t antiquant_mode, bool softmax_lse_flag,
    const aclTensor* attention_out, const aclTensor* softmax_lse) {
  AttentionCall call = FusedCall(query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv,
                                 {{"deqScale1", deq_scale1},
                                  {"quantScale1", quant_scale1},
                                  {"deqScale2", deq_scale2},
                                  {"quantScale2", quant_scale2},
                                  {"quantOffset2", quant_offset2},
                                  {"antiquantScale", antiquant_scale},
                                  {"antiquantOffset", antiquant_offset},
                                  {"blockTable", block_table},
                                  {"queryPaddingSize", query_padding_size},
                                  {"kvPaddingSize", kv_padding_size}},
                                 num_heads, scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads,
                                 sparse_mode, inner_precise, block_size, softmax_lse_flag, attention_out, softmax_lse);
  call.pse_name = "pseShift";
  call.mask_name = "attenMask";
  call.query_lengths_name = "actualSeqLengths";
  call.kv_lengths_name = "actualSeqLengthsKv";
  call.antiquant_mode = antiquant_mode;
  return PlanAttention(plan, call);
}

aclnnStatus PlanFusedInferAttentionScoreV2(
    Plan& plan, const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
    const aclIntArray* actual_seq_lengths_kv, const aclTensor* deq_scale1, const aclTensor* quant_scale1,
    const aclTensor* deq_scale2, const aclTensor* quant_scale2, const aclTensor* quant_offset2,
    const aclTensor* antiquant_scale, const aclTensor* antiquant_offset, const aclTensor* block_table,
    const aclTensor* query_padding_size, const aclTensor* kv_padding_size, const aclTensor* key_antiquant_scale,
    const aclTensor* key_antiquant_offset, const aclTensor* value_antiquant_scale,
    const aclTensor* value_antiquant_offset, const aclTensor* key_shared_prefix, const aclTensor* value_shared_prefix,
    const aclIntArray* actual_shared_prefix_len, int64_t num_heads, double scale_value, int64_t pre_tokens,
    int64_t next_tokens, char* input_layout, int64_t num_key_value_heads, int64_t sparse_mode, int64_t inner_precise,
    int64_t block_size, int64_t antiquant_mode, bool softmax_lse_flag, int64_t key_antiquant_mode,
    int64_t value_antiquant_mode, const aclTensor* attention_out, const aclTensor* softmax_lse) {
  return PlanAttention(
      plan,
      FusedCall(query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv,
                V2Unsupported(deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2, antiquant_scale,
                              antiquant_offset, block_table, query_padding_size, kv_padding_size, key_antiquant_scale,
                              key_antiquant_offset, value_antiquant_scale, value_antiquant_offset, key_shared_prefix,
                              value_shared_prefix, actual_shared_prefix_len),
                num_heads, scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads, sparse_mode,
                inner_precise, block_size, softmax_lse_flag, attention_out, softmax_lse, antiquant_mode,
                key_antiquant_mode, value_antiquant_mode));
}

aclnnStatus PlanFusedInferAttentionScoreV3(
    Plan& plan, const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
    const aclIntArray* actual_seq_lengths_kv, const aclTensor* deq_scale1, const aclTensor* quant_scale1,
    const aclTensor* deq_scale2, const aclTensor* quant_scale2, const aclTensor* quant_offset2,
    const aclTensor* antiquant_scale, const aclTensor* antiquant_offset, const aclTensor* block_table,
    const aclTensor* query_padding_size, const aclTensor* kv_padding_size, const aclTensor* key_antiquant_scale,
    const aclTensor* key_antiquant_offset, const aclTensor* value_antiquant_scale,
    const aclTensor* value_antiquant_offset, const aclTensor* key_shared_prefix, const aclTensor* value_shared_prefix,
    const aclIntArray* actual_shared_prefix_len, const aclTensor* query_rope, const aclTensor* key_rope,
    const aclTensor* key_rope_antiquant_scale, int64_t num_heads, double scale_value, int64_t pre_tokens,
    int64_t next_tokens, char* input_layout, int64_t num_key_value_heads, int64_t sparse_mode, int64_t inner_precise,
    int64_t block_size, int64_t antiquant_mode, bool softmax_lse_flag, int64_t key_antiquant_mode,
    int64_t value_antiquant_mode, const aclTensor* attention_out, const aclTensor* softmax_lse) {
  auto unsupported = V2Unsupported(
      deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2, antiquant_scale, antiquant_offset, block_table,
      query_padding_size, kv_padding_size, key_antiquant_scale, key_antiquant_offset, value_antiquant_scale,
      value_antiquant_offset, key_shared_prefix, value_shared_prefix, actual_shared_prefix_len);
  unsupported.insert(unsupported.end(), {{"queryRopeOptional", query_rope},
                                         {"keyRopeOptional", key_rope},
                                         {"keyRopeAntiquantScaleOptional", key_rope_antiquant_scale}});
  return PlanAttention(
      plan, FusedCall(query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv,
                      std::move(unsupported), num_heads, scale_value, pre_tokens, next_tokens, input_layout,
                      num_key_value_heads, sparse_mode, inner_precise, block_size, softmax_lse_flag, attention_out,
                      softmax_lse, antiquant_mode, key_antiquant_mode, value_antiquant_mode));
}

aclnnStatus PlanFusedInferAttentionScoreV4(
    Plan& plan, const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
    const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
    const aclIntArray* actual_seq_lengths_kv, const aclTensor* deq_scale1, const aclTensor* quant_scale1,
    const aclTensor* deq_scale2, const aclTensor* quant_scale2, const aclTensor* quant_offset2,
    const aclTensor* antiquant_scale, const aclTensor* antiquant_offset, const aclTensor* block_table,
    const aclTensor* query_padding_size, const aclTensor* kv_padding_size, const aclTensor* key_antiquant_scale,
    const aclTensor* key_antiquant_offset, const aclTensor* value_antiquant_scale,
    const aclTensor* value_antiquant_offset, const aclTensor* key_shared_prefix, const aclTensor* value_shared_prefix,
    const aclIntArray* actual_shared_prefix_len, const aclTensor* query_rope, const aclTensor* key_rope,
    const aclTensor* key_rope_antiquant_scale, const aclTensor* dequant_scale_query, const aclTensor* learnable_sink,
    int64_t num_heads, double scale_value, int64_t pre_tokens, int64_t next_tokens, char* input_layout,
    int64_t num_key_value_heads, int64_t sparse_mode, int64_t inner_precise, int64_t block_size, int64_t antiquant_mode,
    bool softmax_lse_flag, int64_t key_antiquant_mode, int64_t value_antiquant_mode,
    int64_t /*query_quant_mode: with dequantScaleQuery only*/, const aclTensor* attention_out,
    const aclTensor* softmax_lse) {
  auto unsupported = V2Unsupported(
      deq_scale1, quant_scale1, deq_scale2, quant_scale2, quant_offset2, antiquant_scale, antiquant_offset, block_table,
      query_padding_size, kv_padding_size, key_antiquant_scale, key_antiquant_offset, value_antiquant_scale,
      value_antiquant_offset, key_shared_prefix, value_shared_prefix, actual_shared_prefix_len);
  unsupported.insert(unsupported.end(), {{"queryRopeOptional", query_rope},
                                         {"keyRopeOptional", key_rope},
                                         {"keyRopeAntiquantScaleOptional", key_rope_antiquant_scale},
                                         {"dequantScaleQueryOptional", dequant_scale_query},
                                         {"learnableSinkOptional", learnable_sink}});
  return PlanAttention(
      plan, FusedCall(query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv,
                      std::move(unsupported), num_heads, scale_value, pre_tokens, next_tokens, input_layout,
                      num_key_value_heads, sparse_mode, inner_precise, block_size, softmax_lse_flag, attention_out,
                      softmax_lse, antiquant_mode, key_antiquant_mode, value_antiquant_mode));
}

}  // namespace

CANOPY_ACLNN_OP(
    FusedInferAttentionScore, PlanFusedInferAttentionScore,
    (OpTraits{.header = "aclnnop/aclnn_fused_infer_attention_score.h",
              .dtypes = kAttentionDtypes,
              .max_rank = 4,
              .example = "f16[2,2,1,16] (f16[1,2,1,16],f16[1,2,1,16]) (f16[1,2,1,16],f16[1,2,1,16]) - - - - - - - - - "
                         "- - - - - 1 1 0 0 'BSND' 0 0 0 0 0 false f16[2,2,1,16] f32[2,1,2,1]"}),
    (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
    (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
    (const aclIntArray*, actualSeqLengths, optional), (const aclIntArray*, actualSeqLengthsKv, optional),
    (const aclTensor*, deqScale1, optional), (const aclTensor*, quantScale1, optional),
    (const aclTensor*, deqScale2, optional), (const aclTensor*, quantScale2, optional),
    (const aclTensor*, quantOffset2, optional), (const aclTensor*, antiquantScale, optional),
    (const aclTensor*, antiquantOffset, optional), (const aclTensor*, blockTable, optional),
    (const aclTensor*, queryPaddingSize, optional), (const aclTensor*, kvPaddingSize, optional), (int64_t, numHeads),
    (double, scaleValue), (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout),
    (int64_t, numKeyValueHeads), (int64_t, sparseMode), (int64_t, innerPrecise), (int64_t, blockSize),
    (int64_t, antiquantMode), (bool, softmaxLseFlag), (const aclTensor*, attentionOut),
    (const aclTensor*, softmaxLse, optional))

CANOPY_ACLNN_OP(
    FusedInferAttentionScoreV2, PlanFusedInferAttentionScoreV2,
    (OpTraits{.header = "aclnnop/aclnn_fused_infer_attention_score_v2.h",
              .dtypes = kAttentionDtypes,
              .max_rank = 4,
              .example = "f16[2,2,1,16] (f16[1,2,1,16],f16[1,2,1,16]) (f16[1,2,1,16],f16[1,2,1,16]) - - - - - - - - - "
                         "- - - - - - - - - - - - 1 1 0 0 'BSND' 0 0 0 0 0 false 0 0 f16[2,2,1,16] f32[2,1,2,1]"}),
    (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
    (const aclTensor*, pseShiftOptional, optional), (const aclTensor*, attenMaskOptional, optional),
    (const aclIntArray*, actualSeqLengthsOptional, optional),
    (const aclIntArray*, actualSeqLengthsKvOptional, optional), (const aclTensor*, deqScale1Optional, optional),
    (const aclTensor*, quantScale1Optional, optional), (const aclTensor*, deqScale2Optional, optional),
    (const aclTensor*, quantScale2Optional, optional), (const aclTensor*, quantOffset2Optional, optional),
    (const aclTensor*, antiquantScaleOptional, optional), (const aclTensor*, antiquantOffsetOptional, optional),
    (const aclTensor*, blockTableOptional, optional), (const aclTensor*, queryPaddingSizeOptional, optional),
    (const aclTensor*, kvPaddingSizeOptional, optional), (const aclTensor*, keyAntiquantScaleOptional, optional),
    (const aclTensor*, keyAntiquantOffsetOptional, optional), (const aclTensor*, valueAntiquantScaleOptional, optional),
    (const aclTensor*, valueAntiquantOffsetOptional, optional), (const aclTensor*, keySharedPrefixOptional, optional),
    (const aclTensor*, valueSharedPrefixOptional, optional),
    (const aclIntArray*, actualSharedPrefixLenOptional, optional), (int64_t, numHeads), (double, scaleValue),
    (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout), (int64_t, numKeyValueHeads),
    (int64_t, sparseMode), (int64_t, innerPrecise), (int64_t, blockSize), (int64_t, antiquantMode),
    (bool, softmaxLseFlag), (int64_t, keyAntiquantMode), (int64_t, valueAntiquantMode),
    (const aclTensor*, attentionOut), (const aclTensor*, softmaxLse, optional))

CANOPY_ACLNN_OP(
    FusedInferAttentionScoreV3, PlanFusedInferAttentionScoreV3,
    (OpTraits{
        .header = "aclnnop/aclnn_fused_infer_attention_score_v3.h",
        .dtypes = kAttentionDtypes,
        .max_rank = 4,
        .example = "f16[2,2,1,16] (f16[1,2,1,16],f16[1,2,1,16]) (f16[1,2,1,16],f16[1,2,1,16]) - - - - - - - - - - - - "
                   "- - - - - - - - - - - - 1 1 0 0 'BSND' 0 0 0 0 0 false 0 0 f16[2,2,1,16] f32[2,1,2,1]"}),
    (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
    (const aclTensor*, pseShiftOptional, optional), (const aclTensor*, attenMaskOptional, optional),
    (const aclIntArray*, actualSeqLengthsOptional, optional),
    (const aclIntArray*, actualSeqLengthsKvOptional, optional), (const aclTensor*, deqScale1Optional, optional),
    (const aclTensor*, quantScale1Optional, optional), (const aclTensor*, deqScale2Optional, optional),
    (const aclTensor*, quantScale2Optional, optional), (const aclTensor*, quantOffset2Optional, optional),
    (const aclTensor*, antiquantScaleOptional, optional), (const aclTensor*, antiquantOffsetOptional, optional),
    (const aclTensor*, blockTableOptional, optional), (const aclTensor*, queryPaddingSizeOptional, optional),
    (const aclTensor*, kvPaddingSizeOptional, optional), (const aclTensor*, keyAntiquantScaleOptional, optional),
    (const aclTensor*, keyAntiquantOffsetOptional, optional), (const aclTensor*, valueAntiquantScaleOptional, optional),
    (const aclTensor*, valueAntiquantOffsetOptional, optional), (const aclTensor*, keySharedPrefixOptional, optional),
    (const aclTensor*, valueSharedPrefixOptional, optional),
    (const aclIntArray*, actualSharedPrefixLenOptional, optional), (const aclTensor*, queryRopeOptional, optional),
    (const aclTensor*, keyRopeOptional, optional), (const aclTensor*, keyRopeAntiquantScaleOptional, optional),
    (int64_t, numHeads), (double, scaleValue), (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout),
    (int64_t, numKeyValueHeads), (int64_t, sparseMode), (int64_t, innerPrecise), (int64_t, blockSize),
    (int64_t, antiquantMode), (bool, softmaxLseFlag), (int64_t, keyAntiquantMode), (int64_t, valueAntiquantMode),
    (const aclTensor*, attentionOut), (const aclTensor*, softmaxLse, optional))

CANOPY_ACLNN_OP(
    FusedInferAttentionScoreV4, PlanFusedInferAttentionScoreV4,
    (OpTraits{
        .header = "aclnnop/aclnn_fused_infer_attention_score_v4.h",
        .dtypes = kAttentionDtypes,
        .max_rank = 4,
        .example = "f16[2,2,1,16] (f16[1,2,1,16],f16[1,2,1,16]) (f16[1,2,1,16],f16[1,2,1,16]) - - - - - - - - - - - - "
                   "- - - - - - - - - - - - - - 1 1 0 0 'BSND' 0 0 0 0 0 false 0 0 0 f16[2,2,1,16] f32[2,1,2,1]"}),
    (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
    (const aclTensor*, pseShiftOptional, optional), (const aclTensor*, attenMaskOptional, optional),
    (const aclIntArray*, actualSeqLengthsOptional, optional),
    (const aclIntArray*, actualSeqLengthsKvOptional, optional), (const aclTensor*, deqScale1Optional, optional),
    (const aclTensor*, quantScale1Optional, optional), (const aclTensor*, deqScale2Optional, optional),
    (const aclTensor*, quantScale2Optional, optional), (const aclTensor*, quantOffset2Optional, optional),
    (const aclTensor*, antiquantScaleOptional, optional), (const aclTensor*, antiquantOffsetOptional, optional),
    (const aclTensor*, blockTableOptional, optional), (const aclTensor*, queryPaddingSizeOptional, optional),
    (const aclTensor*, kvPaddingSizeOptional, optional), (const aclTensor*, keyAntiquantScaleOptional, optional),
    (const aclTensor*, keyAntiquantOffsetOptional, optional), (const aclTensor*, valueAntiquantScaleOptional, optional),
    (const aclTensor*, valueAntiquantOffsetOptional, optional), (const aclTensor*, keySharedPrefixOptional, optional),
    (const aclTensor*, valueSharedPrefixOptional, optional),
    (const aclIntArray*, actualSharedPrefixLenOptional, optional), (const aclTensor*, queryRopeOptional, optional),
    (const aclTensor*, keyRopeOptional, optional), (const aclTensor*, keyRopeAntiquantScaleOptional, optional),
    (const aclTensor*, dequantScaleQueryOptional, optional), (const aclTensor*, learnableSinkOptional, optional),
    (int64_t, numHeads), (double, scaleValue), (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout),
    (int64_t, numKeyValueHeads), (int64_t, sparseMode), (int64_t, innerPrecise), (int64_t, blockSize),
    (int64_t, antiquantMode), (bool, softmaxLseFlag), (int64_t, keyAntiquantMode), (int64_t, valueAntiquantMode),
    (int64_t, queryQuantMode), (const aclTensor*, attentionOut), (const aclTensor*, softmaxLse, optional))
