// aclnnIncreFlashAttention, V2, V3 and V4: incremental (decode) attention, one query row
// per batch and head against a KV cache: softmax(scale * q K^T + pseShift,
// masked) V over the first actualSeqLengths[b] keys. The layouts (BSH, BSND,
// BNSD), grouped-query heads, masks and per-batch key/value lists are
// FusedInferAttentionScore's (attention_plan.h), on the same kernel.
//
// Scope: f16 and bf16 queries and outputs; key / value f16 and bf16 as the
// query, or INT8 with antiquantScale / antiquantOffset (V3 / V4): [2, ...], the
// key's then the value's, per channel ([2, N, 1, D], [2, 1, N, D], [2, N, D],
// [2, H]) or per tensor ([2]), in the query's dtype; key = (int8 + offset) *
// scale, dequantised in f32 as each block is loaded (attention_plan.cpp has
// CANN's checks, 561002). INT4 key / value, the quantised output and KV left
// padding (kvPaddingSize) are rejected as not supported by Canopy (561003). Paged attention: a blocktable [B, blocks
// per sequence] (int32) maps each batch's keys onto blockSize-row blocks of one key and one value cache, (blocks,
// blockSize, H) or with BNSD (blocks, KV_N, blockSize, D); actualSeqLengths is then required, and a table entry outside
// the cache fails the run (507015). innerPrecise is 0 (high precision) or 1 (high performance): both compute the same
// f32 result. The versions differ only in their prototypes: V1 has no quantisation arguments, V2 adds the output and
// query quantisation scales, V3 the antiquantisation, the block table, blockSize and innerPrecise, V4 kvPaddingSize.
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_incre_flash_attention_v2.h"
#include "aclnnop/aclnn_incre_flash_attention_v3.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "attention_plan.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAttentionDtypes = {ACL_FLOAT16, ACL_BF16};

// The arguments after the mask that a version lacks are null; `inputs_after_mask` counts the
// ones its prototype has (actualSeqLengths, then the scale / offset tensors, blocktable, ...).
struct IncreArgs {
  const aclTensor* dequant_scale1 = nullptr;
  const aclTensor* quant_scale1 = nullptr;
  const aclTensor* dequant_scale2 = nullptr;
  const aclTensor* quant_scale2 = nullptr;
  const aclTensor* quant_offset2 = nullptr;
  const aclTensor* antiquant_scale = nullptr;
  const aclTensor* antiquant_offset = nullptr;
  const aclTensor* blocktable = nullptr;
  const aclTensor* kv_padding_size = nullptr;
  int inputs_after_mask = 1;
  int64_t block_size = 0;
  int64_t inner_precise = 0;
};

aclnnStatus PlanIncre(Plan& plan, const aclTensor* query, const aclTensorList* key, const aclTensorList* value,
                      const aclTensor* pse_shift, const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
                      int64_t num_heads, double scale_value, char* input_layout, int64_t num_key_value_heads,
                      const IncreArgs& a, const aclTensor* attention_out) {
  AttentionCall call;
  call.query = query;
  call.key_list = key;
  call.value_list = value;
  call.pse = pse_shift;
  call.mask = atten_mask;
  call.kv_lengths = actual_seq_lengths;  // IFA's lengths are the key/value lengths
  call.kv_lengths_name = "actualSeqLengths";
  // Named as every version names them; a version without one passes null, which is not checked.
  call.unsupported = {{"dequantScale1", a.dequant_scale1}, {"quantScale1", a.quant_scale1},
                      {"dequantScale2", a.dequant_scale2}, {"quantScale2", a.quant_scale2},
                      {"quantOffset2", a.quant_offset2},   {"kvPaddingSize", a.kv_padding_size}};
  // KV antiquantisation (INT8 key / value): the combined [2, ...] parameters, mode 0 (per channel or per tensor by
  // shape); after actualSeqLengths and the five quantisation tensors.
  call.antiquant_scale = {a.antiquant_scale, "antiquantScale", 6};
  call.antiquant_offset = {a.antiquant_offset, "antiquantOffset", 7};
  call.block_table = a.blocktable;
  call.block_table_input = 8;  // after actualSeqLengths and the seven scale / offset tensors
  call.block_size = a.block_size;
  call.inputs_after_mask = a.inputs_after_mask;
  call.num_heads = num_heads;
  call.scale = scale_value;
  call.layout = input_layout;
  call.allow_bnsd_bsnd = false;
  call.decode_only = true;
  call.num_kv_heads = num_key_value_heads;
  call.inner_precise = a.inner_precise;
  call.max_inner_precise = 1;
  call.out = attention_out;
  return PlanAttention(plan, call);
}

aclnnStatus PlanIncreFlashAttention(Plan& plan, const aclTensor* query, const aclTensorList* key,
                                    const aclTensorList* value, const aclTensor* pse_shift, const aclTensor* atten_mask,
                                    const aclIntArray* actual_seq_lengths, int64_t num_heads, double scale_value,
                                    char* input_layout, int64_t num_key_value_heads, const aclTensor* attention_out) {
  return PlanIncre(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, num_heads, scale_value,
                   input_layout, num_key_value_heads, IncreArgs{.inputs_after_mask = 1}, attention_out);
}

aclnnStatus PlanIncreFlashAttentionV2(Plan& plan, const aclTensor* query, const aclTensorList* key,
                                      const aclTensorList* value, const aclTensor* pse_shift,
                                      const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
                                      const aclTensor* dequant_scale1, const aclTensor* quant_scale1,
                                      const aclTensor* dequant_scale2, const aclTensor* quant_scale2,
                                      const aclTensor* quant_offset2, int64_t num_heads, double scale_value,
                                      char* input_layout, int64_t num_key_value_heads, const aclTensor* attention_out) {
  return PlanIncre(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, num_heads, scale_value,
                   input_layout, num_key_value_heads,
                   IncreArgs{.dequant_scale1 = dequant_scale1,
                             .quant_scale1 = quant_scale1,
                             .dequant_scale2 = dequant_scale2,
                             .quant_scale2 = quant_scale2,
                             .quant_offset2 = quant_offset2,
                             .inputs_after_mask = 6},
                   attention_out);
}

aclnnStatus PlanIncreFlashAttentionV3(Plan& plan, const aclTensor* query, const aclTensorList* key,
                                      const aclTensorList* value, const aclTensor* pse_shift,
                                      const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
                                      const aclTensor* dequant_scale1, const aclTensor* quant_scale1,
                                      const aclTensor* dequant_scale2, const aclTensor* quant_scale2,
                                      const aclTensor* quant_offset2, const aclTensor* antiquant_scale,
                                      const aclTensor* antiquant_offset, const aclTensor* blocktable, int64_t num_heads,
                                      double scale_value, char* input_layout, int64_t num_key_value_heads,
                                      int64_t block_size, int64_t inner_precise, const aclTensor* attention_out) {
  return PlanIncre(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, num_heads, scale_value,
                   input_layout, num_key_value_heads,
                   IncreArgs{.dequant_scale1 = dequant_scale1,
                             .quant_scale1 = quant_scale1,
                             .dequant_scale2 = dequant_scale2,
                             .quant_scale2 = quant_scale2,
                             .quant_offset2 = quant_offset2,
                             .antiquant_scale = antiquant_scale,
                             .antiquant_offset = antiquant_offset,
                             .blocktable = blocktable,
                             .inputs_after_mask = 9,
                             .block_size = block_size,
                             .inner_precise = inner_precise},
                   attention_out);
}

aclnnStatus PlanIncreFlashAttentionV4(Plan& plan, const aclTensor* query, const aclTensorList* key,
                                      const aclTensorList* value, const aclTensor* pse_shift,
                                      const aclTensor* atten_mask, const aclIntArray* actual_seq_lengths,
                                      const aclTensor* dequant_scale1, const aclTensor* quant_scale1,
                                      const aclTensor* dequant_scale2, const aclTensor* quant_scale2,
                                      const aclTensor* quant_offset2, const aclTensor* antiquant_scale,
                                      const aclTensor* antiquant_offset, const aclTensor* blocktable,
                                      const aclTensor* kv_padding_size, int64_t num_heads, double scale_value,
                                      char* input_layout, int64_t num_key_value_heads, int64_t block_size,
                                      int64_t inner_precise, const aclTensor* attention_out) {
  return PlanIncre(plan, query, key, value, pse_shift, atten_mask, actual_seq_lengths, num_heads, scale_value,
                   input_layout, num_key_value_heads,
                   IncreArgs{.dequant_scale1 = dequant_scale1,
                             .quant_scale1 = quant_scale1,
                             .dequant_scale2 = dequant_scale2,
                             .quant_scale2 = quant_scale2,
                             .quant_offset2 = quant_offset2,
                             .antiquant_scale = antiquant_scale,
                             .antiquant_offset = antiquant_offset,
                             .blocktable = blocktable,
                             .kv_padding_size = kv_padding_size,
                             .inputs_after_mask = 10,
                             .block_size = block_size,
                             .inner_precise = inner_precise},
                   attention_out);
}

}  // namespace

CANOPY_ACLNN_OP(IncreFlashAttentionV4, PlanIncreFlashAttentionV4,
                (OpTraits{.header = "aclnnop/aclnn_incre_flash_attention_v4.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] (f16[1,2,16,16]) (f16[1,2,16,16]) - i8[1,1,1,16]{0:0} ints[16] - - "
                                     "- - - - - - - 2 0.25 'BNSD' 2 1 1 f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (const aclTensor*, dequantScale1, optional),
                (const aclTensor*, quantScale1, optional), (const aclTensor*, dequantScale2, optional),
                (const aclTensor*, quantScale2, optional), (const aclTensor*, quantOffset2, optional),
                (const aclTensor*, antiquantScale, optional), (const aclTensor*, antiquantOffset, optional),
                (const aclTensor*, blocktable, optional), (const aclTensor*, kvPaddingSize, optional),
                (int64_t, numHeads), (double, scaleValue), (char*, inputLayout), (int64_t, numKeyValueHeads),
                (int64_t, blockSize), (int64_t, innerPrecise), (const aclTensor*, attentionOut))

CANOPY_ACLNN_OP(IncreFlashAttention, PlanIncreFlashAttention,
                (OpTraits{.header = "aclnnop/aclnn_incre_flash_attention.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] (f16[1,2,16,16]) (f16[1,2,16,16]) - i8[1,1,1,16]{0:0} ints[16] 2 "
                                     "0.25 'BNSD' 2 f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (int64_t, numHeads), (double, scaleValue),
                (char*, inputLayout), (int64_t, numKeyValueHeads), (const aclTensor*, attentionOut))

CANOPY_ACLNN_OP(IncreFlashAttentionV2, PlanIncreFlashAttentionV2,
                (OpTraits{.header = "aclnnop/aclnn_incre_flash_attention_v2.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] (f16[1,2,16,16]) (f16[1,2,16,16]) - i8[1,1,1,16]{0:0} ints[16] - - "
                                     "- - - 2 0.25 'BNSD' 2 f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (const aclTensor*, dequantScale1, optional),
                (const aclTensor*, quantScale1, optional), (const aclTensor*, dequantScale2, optional),
                (const aclTensor*, quantScale2, optional), (const aclTensor*, quantOffset2, optional),
                (int64_t, numHeads), (double, scaleValue), (char*, inputLayout), (int64_t, numKeyValueHeads),
                (const aclTensor*, attentionOut))

CANOPY_ACLNN_OP(IncreFlashAttentionV3, PlanIncreFlashAttentionV3,
                (OpTraits{.header = "aclnnop/aclnn_incre_flash_attention_v3.h",
                          .dtypes = kAttentionDtypes,
                          .max_rank = 4,
                          .example = "f16[1,2,1,16] (f16[1,2,16,16]) (f16[1,2,16,16]) - i8[1,1,1,16]{0:0} ints[16] - - "
                                     "- - - - - - 2 0.25 'BNSD' 2 1 1 f16[1,2,1,16]"}),
                (const aclTensor*, query), (const aclTensorList*, key), (const aclTensorList*, value),
                (const aclTensor*, pseShift, optional), (const aclTensor*, attenMask, optional),
                (const aclIntArray*, actualSeqLengths, optional), (const aclTensor*, dequantScale1, optional),
                (const aclTensor*, quantScale1, optional), (const aclTensor*, dequantScale2, optional),
                (const aclTensor*, quantScale2, optional), (const aclTensor*, quantOffset2, optional),
                (const aclTensor*, antiquantScale, optional), (const aclTensor*, antiquantOffset, optional),
                (const aclTensor*, blocktable, optional), (int64_t, numHeads), (double, scaleValue),
                (char*, inputLayout), (int64_t, numKeyValueHeads), (int64_t, blockSize), (int64_t, innerPrecise),
                (const aclTensor*, attentionOut))
