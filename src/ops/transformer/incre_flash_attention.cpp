// aclnnIncreFlashAttentionV4: incremental (decode) attention, one query row
// per batch and head against a KV cache: softmax(scale * q K^T + pseShift,
// masked) V over the first actualSeqLengths[b] keys. The layouts (BSH, BSND,
// BNSD), grouped-query heads, masks and per-batch key/value lists are
// FusedInferAttentionScore's (attention_plan.h), on the same kernel.
//
// Scope: f16 and bf16. The INT8 key/value (antiquantisation), the quantised
// output and KV left padding (kvPaddingSize) are rejected as not supported by
// Canopy (561003). Paged attention: a blocktable [B, blocks per sequence]
// (int32) maps each batch's keys onto blockSize-row blocks of one key and one
// value cache, (blocks, blockSize, H) or with BNSD (blocks, KV_N, blockSize, D);
// actualSeqLengths is then required, and a table entry outside the cache fails
// the run (507015). innerPrecise is 0 (high
// precision) or 1 (high performance): both compute the same f32 result.
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "attention_plan.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kAttentionDtypes = {ACL_FLOAT16, ACL_BF16};

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
  AttentionCall call;
  call.query = query;
  call.key_list = key;
  call.value_list = value;
  call.pse = pse_shift;
  call.mask = atten_mask;
  call.kv_lengths = actual_seq_lengths;  // IFA's lengths are the key/value lengths
  call.kv_lengths_name = "actualSeqLengths";
  call.unsupported = {{"dequantScale1", dequant_scale1},     {"quantScale1", quant_scale1},
                      {"dequantScale2", dequant_scale2},     {"quantScale2", quant_scale2},
                      {"quantOffset2", quant_offset2},       {"antiquantScale", antiquant_scale},
                      {"antiquantOffset", antiquant_offset}, {"kvPaddingSize", kv_padding_size}};
  call.block_table = blocktable;
  call.block_table_input = 8;  // after actualSeqLengths and the seven scale / offset tensors
  call.block_size = block_size;
  call.inputs_after_mask = 10;  // actualSeqLengths, dequantScale1 ... kvPaddingSize
  call.num_heads = num_heads;
  call.scale = scale_value;
  call.layout = input_layout;
  call.allow_bnsd_bsnd = false;
  call.decode_only = true;
  call.num_kv_heads = num_key_value_heads;
  call.inner_precise = inner_precise;
  call.max_inner_precise = 1;
  call.out = attention_out;
  return PlanAttention(plan, call);
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
