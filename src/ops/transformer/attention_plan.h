// The planner shared by the inference attention ops (FusedInferAttentionScore
// V2-V4, PromptFlashAttentionV3, IncreFlashAttentionV4): they take the same
// query / key / value layouts, grouped-query heads, pse shift, attention mask,
// sparse modes, actual lengths and softmax LSE, and differ in which of these a
// prototype has and what it calls them. Each op fills an AttentionCall from its
// own arguments; the checks, the operand slots and the kernel
// (kernels/attention.h) are one.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

struct AttentionCall {
  const aclTensor* query = nullptr;
  // key/value as a tensor list (one tensor, or one per batch), or as one tensor.
  const aclTensorList* key_list = nullptr;
  const aclTensorList* value_list = nullptr;
  const aclTensor* key = nullptr;
  const aclTensor* value = nullptr;
  const aclTensor* pse = nullptr;
  const char* pse_name = "pseShift";
  const aclTensor* mask = nullptr;
  const char* mask_name = "attenMask";
  // Query lengths (ignored with one query row) and key/value lengths.
  const aclIntArray* query_lengths = nullptr;
  const char* query_lengths_name = "actualSeqLengths";
  const aclIntArray* kv_lengths = nullptr;
  const char* kv_lengths_name = "actualSeqLengthsKv";
  // Optional arguments of forms Canopy has no kernel for (quantisation,
  // padding, shared prefixes, rope-split heads): any of them given is 561003.
  std::vector<std::pair<const char*, const void*>> unsupported;
  // Paged attention: the block table [B, >= blocks per sequence] (int32) and
  // blockSize; key and value are then one cache tensor each,
  // (blocks, blockSize, H) or, with a BNSD query, (blocks, KV_N, blockSize, D).
  // Attention sinks (FusedInferAttentionScoreV4's learnableSinkOptional): [N]
  // bf16 logits, one per query head; CANN's Atlas A2 tiling takes them only with
  // the TND / NTD_TND layouts and D 64 or 128 (561002 otherwise).
  const aclTensor* sink = nullptr;
  const char* sink_name = "learnableSinkOptional";
  int sink_input = -1;  // its position among the inputs after the mask
  // The variable-length layouts TND and NTD_TND (FusedInferAttentionScore):
  // query [T, N, D] (NTD_TND: [N, T, D]), key and value [T_kv, KV_N, D] (NTD_TND:
  // [KV_N, T_kv, D]), attentionOut [T, N, D], softmaxLse [T, N, 1];
  // actualSeqLengths(Kv) are each batch's cumulative ends.
  bool allow_tnd = false;
  // KV antiquantisation: an INT8 key and value with an f16 / bf16 query, one
  // query row (IncreFlashAttention V3 / V4, FusedInferAttentionScore V1-V4).
  // The combined parameters ([2, ...]: the key's, then the value's) with
  // antiquant_mode, or the separate key / value ones with their own modes
  // (these win when given). input: the position among the inputs after the mask.
  struct QuantArg {
    const aclTensor* tensor = nullptr;
    const char* name = "";
    int input = -1;
  };
  QuantArg antiquant_scale, antiquant_offset;
  QuantArg key_antiquant_scale, key_antiquant_offset, value_antiquant_scale, value_antiquant_offset;
  int64_t antiquant_mode = 0, key_antiquant_mode = 0, value_antiquant_mode = 0;
  const aclTensor* block_table = nullptr;
  const char* block_table_name = "blocktable";
  int block_table_input = -1;  // its position among the inputs after the mask
  int64_t block_size = 0;
  // Prototype inputs after the mask, before the output (the IR slots they take).
  int inputs_after_mask = 0;
  int64_t num_heads = 0;
  double scale = 1.0;
  int64_t pre_tokens = 0, next_tokens = 0;
  const char* layout = "BSH";
  int64_t num_kv_heads = 0;
  int64_t sparse_mode = 0;
  int64_t inner_precise = 0;
  int64_t max_inner_precise = 3;
  bool allow_bnsd_bsnd = true;  // the BNSD_BSND layout (query BNSD, output BSND)
  bool decode_only = false;     // query's S must be 1 (IncreFlashAttention)
  // A single query row keeps the prompt semantics (PromptFlashAttention: its lengths, sparse modes, token
  // window and masks); FusedInferAttentionScore takes it as decode.
  bool prompt_only = false;
  // With more than one query row, a D off the 16 alignment is an error (FIA),
  // or limits the batch to 128 (PFA).
  bool unaligned_d_limits_batch = false;
  const aclTensor* out = nullptr;
  // softmaxLse: present in the prototype (has_lse_output), computed when lse_flag.
  bool has_lse_output = false;
  bool lse_flag = false;
  const aclTensor* lse = nullptr;
};

aclnnStatus PlanAttention(Plan& plan, const AttentionCall& call);

}  // namespace canopy::ops
