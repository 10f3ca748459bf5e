// Scaled dot-product attention for FusedInferAttentionScore: for each batch b,
// query head n and query row i,
//   out[b,n,i,:] = softmax_j(scale * q[b,n,i,:] . k[b,n/g,j,:] + pse[b,n,i,j], over
//                  the keys j that take part) . v[b,n/g,j,:]
// with g = heads / kv_heads (grouped-query attention). Blockwise with an online
// softmax (running max and sum per row, rescaled as blocks arrive): no S x S
// score matrix is materialised. Work is split over batch x KV head x query
// block: a unit holds the query heads of one KV head's group together, so each
// key/value block is read and converted once for the whole group (GQA/MQA).
// Each unit is computed in f32 by one thread, and key blocks sit at fixed
// positions, so results do not depend on the thread count. A score q . k is
// summed in one of two fixed orders, chosen by the query length alone: up to
// kFewQueryRows rows (decode), over the head dim in 16 lanes on the key rows as
// loaded (no transposed key block; see KeyDots); above it, per dim on a transposed block.
// A row with no key taking part (fully masked, or past the batch's query
// length) is written as zeros.
// Attention sinks (FusedInferAttentionScoreV4's learnableSink): one more logit
// per query head, unscaled, that joins each row's softmax denominator and
// carries no value, folded in once per row after the last key block:
// out = acc / (sum + exp(sink - max)), computed with max' = max(max, sink) so
// that neither term overflows. The LSE stays max + log(sum) over the keys
// (CANN's kernel writes it before adding the sink); a row with no key is zeros.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// One batch's keys and values: strides in elements along (head, sequence, dim).
struct AttentionKv {
  BufferRef key, value;
  int64_t key_strides[3] = {};
  int64_t value_strides[3] = {};
  int64_t length = 0;  // keys taking part: the actual KV length
  // Paged: elements between consecutive blocks of the cache (key_strides[1] is then within a block).
  int64_t key_block_stride = 0, value_block_stride = 0;
};

// KV antiquantisation of an INT8 key or value (IncreFlashAttention,
// FusedInferAttentionScore): element e of key j of batch b, KV head n is
// (k + offset[b, n, j, e]) * scale[b, n, j, e], computed in f32 as each key /
// value block is loaded. scale and offset (dtype param_dtype) are addressed by
// element strides, 0 along a dim they do not vary in: per channel
// (head, dim), per tensor (none), per head, per token (batch, token), per token
// and head. The token is the key's position in its sequence (paged too).
struct AttentionDequantParam {
  BufferRef data;
  int64_t batch_stride = 0, head_stride = 0, token_stride = 0, dim_stride = 0;
};
struct AttentionDequant {
  bool on = false;
  bool per_token = false;  // the parameters vary along the keys (else loaded once per KV head)
  aclDataType param_dtype = ACL_FLOAT16;
  AttentionDequantParam scale, offset;
  bool has_offset = false;
};

struct AttentionDesc {
  aclDataType dtype = ACL_FLOAT16;  // query and out; key and value unless dequantised
  // An INT8 key / value cache (its strides in INT8 elements) and how it is dequantised.
  AttentionDequant key_dequant, value_dequant;
  int64_t batch = 0, heads = 0, kv_heads = 0, query_length = 0, head_dim = 0, value_dim = 0;
  float scale = 1.0f;
  BufferRef query, out;
  int64_t query_strides[4] = {};  // (batch, head, sequence, dim)
  int64_t out_strides[4] = {};
  std::vector<AttentionKv> kv;       // one per batch
  std::vector<int64_t> query_valid;  // per batch: rows past it are zeros
  // Variable-length batches (TND): batch b's rows start at row_offsets[b] along
  // the sequence dim of query, out and lse (their batch strides then 0), and
  // its rows past query_valid[b] belong to other batches: nothing is written
  // there. Empty: every batch has query_length rows of its own.
  std::vector<int64_t> row_offsets;
  // Paged attention: key j of batch b is row j % block_size of cache block
  // block_table[b, j / block_size] (int32, contiguous [batch, table_columns]).
  // Entries a batch's length needs must be in [0, blocks): one outside fails
  // the run (507015) before anything is written.
  bool paged = false;
  BufferRef block_table;
  int64_t table_columns = 0, block_size = 0, blocks = 0;
  // Added to the scaled scores: (batch, head, query, key) strides, 0 where broadcast.
  bool has_pse = false;
  float pse_scale = 1.0f;  // FlashAttentionScore scales the pse with the scores: scale * (q.k + pse)
  aclDataType pse_dtype = ACL_FLOAT16;
  BufferRef pse;
  int64_t pse_strides[4] = {};
  // A non-zero mask byte at (batch, query, key) keeps that key out.
  bool has_mask = false;
  BufferRef mask;
  int64_t mask_strides[3] = {};
  int64_t mask_head_stride = 0;  // a mask with a head dim (FlashAttentionScore's [B, N, Sq, Skv])
  // Key j takes part for query i only when i + shift - pre_tokens <= j <= i + shift + next_tokens,
  // shift = kv length - query length when right_down (bottom-right aligned causal), else 0.
  bool band = false;
  int64_t pre_tokens = 0, next_tokens = 0;
  bool right_down = false;
  // FlashAttentionScore's softmax statistics: the row's max score and sum(exp(score - max)),
  // f32, each written stats_copies times along its last dim; (batch, head, sequence, copy) strides.
  bool has_stats = false;
  BufferRef softmax_max, softmax_sum;
  int64_t stats_strides[4] = {};
  int64_t stats_copies = 0;
  // Attention sinks: one logit per query head (sink_dtype, element stride sink_stride).
  bool has_sink = false;
  aclDataType sink_dtype = ACL_BF16;
  BufferRef sink;
  int64_t sink_stride = 1;
  // log(sum(exp(score - max))) + max per row, f32, (batch, head, sequence) strides.
  bool has_lse = false;
  BufferRef lse;
  int64_t lse_strides[3] = {};
};

std::unique_ptr<Step> MakeAttentionStep(AttentionDesc desc);

}  // namespace canopy::kernels
