// aclnnPromptFlashAttention, V2 and V3: full-sequence (prefill) attention,
// softmax(scale * Q K^T + pseShift, masked) V, with key and value one tensor
// each. The layouts, grouped-query heads, masks, sparse modes and lengths are
// FusedInferAttentionScore's (attention_plan.h), on the same kernel; there is
// no softmax LSE output.
//
// Scope: f16 and bf16. The INT8 forms (deqScale1 ... quantOffset2), the TND
// layout and sparse mode 4 (band) are rejected: quantisation and band as not
// supported by Canopy (561003), TND as a layout outside the planner's (161002).
// With more than one query row a D off the 16 alignment limits B to 128, as
// the doc says. V1 has neither the key/value lengths, the quantisation
// arguments nor the sparse mode (0), nor V1 and V2 innerPrecise (1, high
// performance: the same f32 result).
#include "aclnnop/aclnn_prompt_flash_attention.h"
#include "aclnnop/aclnn_prompt_flash_attention_v2.h"
#include "aclnnop/aclnn_prompt_flash_attention_v3.h"
#include "attention_plan.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAttentionDtypes = {ACL_FLOAT16, ACL_BF16};

constexpr int64_t kHighPerformance = 1;

// Every version's arguments; one without an argument passes null (or V3's default).
aclnnStatus PlanPrompt(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                       const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
                       const aclIntArray* actual_seq_lengths_kv,
                       std::vector<std::pair<const char*, const void*>> unsupported, int inputs_after_mask,
                       int64_t num_heads, double scale_value, int64_t pre_tokens, int64_t next_tokens,
                       char* input_layout, int64_t num_key_value_heads, int64_t sparse_mode, int64_t inner_precise,
                       const aclTensor* attention_out) {
  AttentionCall call;
  call.query = query;
  call.key = key;
  call.value = value;
  call.pse = pse_shift;
  call.mask = atten_mask;
  call.query_lengths = actual_seq_lengths;
  call.kv_lengths = actual_seq_lengths_kv;
  call.unsupported = std::move(unsupported);
  call.inputs_after_mask = inputs_after_mask;
  call.num_heads = num_heads;
  call.scale = scale_value;
  call.pre_tokens = pre_tokens;
  call.next_tokens = next_tokens;
  call.layout = input_layout;
  call.num_kv_heads = num_key_value_heads;
  call.sparse_mode = sparse_mode;
  call.inner_precise = inner_precise;
  call.unaligned_d_limits_batch = true;
  call.prompt_only = true;  // CANN's PFA has no decode path: one query row keeps its lengths, mask and modes
  call.out = attention_out;
  return PlanAttention(plan, call);
}

aclnnStatus PlanPromptFlashAttention(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                     const aclTensor* pse_shift, const aclTensor* atten_mask,
                                     const aclIntArray* actual_seq_lengths, int64_t num_heads, double scale_value,
                                     int64_t pre_tokens, int64_t next_tokens, char* input_layout,
                                     int64_t num_key_value_heads, const aclTensor* attention_out) {
  return PlanPrompt(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, nullptr, {},
                    1,  // actualSeqLengths
                    num_heads, scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads, 0,
                    kHighPerformance, attention_out);
}

aclnnStatus PlanPromptFlashAttentionV2(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                       const aclTensor* pse_shift, const aclTensor* atten_mask,
                                       const aclIntArray* actual_seq_lengths, const aclIntArray* actual_seq_lengths_kv,
                                       const aclTensor* deq_scale1, const aclTensor* quant_scale1,
                                       const aclTensor* deq_scale2, const aclTensor* quant_scale2,
                                       const aclTensor* quant_offset2, int64_t num_heads, double scale_value,
                                       int64_t pre_tokens, int64_t next_tokens, char* input_layout,
                                       int64_t num_key_value_heads, int64_t sparse_mode,
                                       const aclTensor* attention_out) {
  return PlanPrompt(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv,
                    {{"deqScale1", deq_scale1},
                     {"quantScale1", quant_scale1},
                     {"deqScale2", deq_scale2},
                     {"quantScale2", quant_scale2},
                     {"quantOffset2", quant_offset2}},
                    7,  // actualSeqLengths, actualSeqLengthsKv, deqScale1 ... quantOffset2
                    num_heads, scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads, sparse_mode,
                    kHighPerformance, attention_out);
}

aclnnStatus PlanPromptFlashAttentionV3(Plan& plan, const aclTensor* query, const aclTensor* key, const aclTensor* value,
                                       const aclTensor* pse_shift, const aclTensor* atten_mask,
                                       const aclIntArray* actual_seq_lengths, const aclIntArray* actual_seq_lengths_kv,
                                       const aclTensor* deq_scale1, const aclTensor* quant_scale1,
                                       const aclTensor* deq_scale2, const aclTensor* quant_scale2,
                                       const aclTensor* quant_offset2, int64_t num_heads, double scale_value,
                                       int64_t pre_tokens, int64_t next_tokens, char* input_layout,
                                       int64_t num_key_value_heads, int64_t sparse_mode, int64_t inner_precise,
                                       const aclTensor* attention_out) {
  return PlanPrompt(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, actual_seq_lengths_kv,
                    {{"deqScale1", deq_scale1},
                     {"quantScale1", quant_scale1},
                     {"deqScale2", deq_scale2},
                     {"quantScale2", quant_scale2},
                     {"quantOffset2", quant_offset2}},
                    7, num_heads, scale_value, pre_tokens, next_tokens, input_layout, num_key_value_heads, sparse_mode,
                    inner_precise, attention_out);
}

}  // namespace

CANOPY_ACLNN_OP(PromptFlashAttentionV3, PlanPromptFlashAttentionV3,
                (OpTraits{.header = "aclnnop/aclnn_prompt_flash_attention_v3.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] f16[1,2,2,16] f16[1,2,2,16] - - - - - - - - - 2 0.7071 65535 65535 "
                                     "'BNSD' 2 0 1 f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (const aclIntArray*, actualSeqLengthsKv, optional),
                (const aclTensor*, deqScale1, optional), (const aclTensor*, quantScale1, optional),
                (const aclTensor*, deqScale2, optional), (const aclTensor*, quantScale2, optional),
                (const aclTensor*, quantOffset2, optional), (int64_t, numHeads), (double, scaleValue),
                (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout), (int64_t, numKeyValueHeads),
                (int64_t, sparseMode), (int64_t, innerPrecise), (const aclTensor*, attentionOut))

CANOPY_ACLNN_OP(PromptFlashAttention, PlanPromptFlashAttention,
                (OpTraits{.header = "aclnnop/aclnn_prompt_flash_attention.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] f16[1,2,2,16] f16[1,2,2,16] - - - 2 0.7071 65535 65535 'BNSD' 2 "
                                     "f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (int64_t, numHeads), (double, scaleValue),
                (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout), (int64_t, numKeyValueHeads),
                (const aclTensor*, attentionOut))

CANOPY_ACLNN_OP(PromptFlashAttentionV2, PlanPromptFlashAttentionV2,
                (OpTraits{.header = "aclnnop/aclnn_prompt_flash_attention_v2.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] f16[1,2,2,16] f16[1,2,2,16] - - - - - - - - - 2 0.7071 65535 65535 "
                                     "'BNSD' 2 0 f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (const aclIntArray*, actualSeqLengthsKv, optional),
                (const aclTensor*, deqScale1, optional), (const aclTensor*, quantScale1, optional),
                (const aclTensor*, deqScale2, optional), (const aclTensor*, quantScale2, optional),
                (const aclTensor*, quantOffset2, optional), (int64_t, numHeads), (double, scaleValue),
                (int64_t, preTokens), (int64_t, nextTokens), (char*, inputLayout), (int64_t, numKeyValueHeads),
                (int64_t, sparseMode), (const aclTensor*, attentionOut))
