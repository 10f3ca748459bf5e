// NSA's attention kernels (NsaCompressAttention, NsaCompressAttentionInfer):
// softmax attention of each query token over its sequence's compressed keys,
// with the importance score of each select block and its top-k indices.
// f16 / bf16 operands are computed in f32, as CANN's kernels do. Operands are
// contiguous.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// query [T1, N1, D], key [T2, N2, D], value [T2, N2, Dv] (N1 = N2 * G);
// sequence b holds query rows q_lens[b] and compressed key rows kv_lens[b],
// one after another. For query token s of sequence b and head n (group n / G):
//   p = softmax(scale * q k^T, masked keys at the lowest float)  over its kv_lens[b] keys
//   attention_out[t, n] = sum_j round(p_j) v_j   (p rounded to the dtype first, as the NPU's second product)
//   softmax_max / softmax_sum: max and sum of exp(x - max), 8 copies each, at
//     flat row (q_start[b] * N1 + n * q_lens[b] + s) of [T1 * N1, 8] (CANN's
//     per-sequence [N1, S, 8] order inside the [T1, N1, 8] tensor)
//   score[j] = sum over the group's heads of sum_i times_i * p[(j + 1) * m - i],
//     i in [0, m + c - 1), times_i = min(i + 1, m + c - 1 - i, c), p outside
//     [0, kv_len) zero (m = selectBlockSize / stride, c = compressBlockSize / stride)
//   topk_indices[t, group] = the top_k blocks j of highest score (a topk mask's
//     set entry makes the score the largest float), highest first, lower j first on a tie.
// atten_mask [>= max q_len, mask_cols] and topk_mask [.., topk_mask_cols] are
// indexed by the token's position in its sequence (row) and the key or block
// (column), the same rows for every sequence; nonzero means masked / forced.
// Rows of T1 past the sequences are zero.
struct NsaCompressAttentionDesc {
  aclDataType dtype = ACL_FLOAT16;  // query, key, value and attention_out
  int64_t q_tokens = 0, kv_tokens = 0, heads = 0, kv_heads = 0, dim = 0, value_dim = 0;
  std::vector<int64_t> q_lens, kv_lens;
  float scale = 1.0F;
  int64_t blocks_per_select = 1, blocks_per_compress = 1, top_k = 1;
  int64_t mask_cols = 0, topk_mask_cols = 0;
  bool has_mask = false, has_topk_mask = false;
  BufferRef query, key, value, mask, topk_mask, softmax_max, softmax_sum, out, topk_indices;
};

std::unique_ptr<Step> MakeNsaCompressAttentionStep(const NsaCompressAttentionDesc& desc);

// NsaCompressAttentionInfer: query rows [q_rows, N1, D] (sequence b's tokens
// at rows q_starts[b] ...), keys and values in a paged cache [pages,
// page_size, N2 * D] / [.., N2 * Dv], sequence b's compressed key j at page
// block_table[b, j / page_size], row j % page_size. As above, with
// blocks = ceil(((kv_len - 1) * stride + compressBlockSize) / selectBlockSize)
// select blocks and no topk mask; with has_mask, token s of a sequence's q_len
// tokens does not see the last compressed key when q_len - s - 1 exceeds
// sel_len - ((kv_len - 1) * stride + compressBlockSize) (CANN's kernel reads
// no mask values). Rows past the sequences are zero. A page index out of
// range fails the run (507015) before anything is written.
struct NsaCompressAttentionInferDesc {
  aclDataType dtype = ACL_FLOAT16;
  int64_t q_rows = 0, heads = 0, kv_heads = 0, dim = 0, value_dim = 0;
  std::vector<int64_t> q_starts, q_lens, kv_lens, sel_lens;  // sel_lens empty: no tail (q_len 1)
  int64_t pages = 0, page_size = 0, pages_per_batch = 0;
  float scale = 1.0F;
  int64_t compress_block = 16, compress_stride = 16, select_block = 16, top_k = 1;
  bool has_mask = false;
  BufferRef query, key, value, block_table, out, topk_indices;
};

std::unique_ptr<Step> MakeNsaCompressAttentionInferStep(const NsaCompressAttentionInferDesc& desc);

// NsaSelectedAttention: query [T1, N1, D], key [T2, N2, D], value [T2, N2,
// Dv] and topk_indices [T1, N2, block_count]. For token s of sequence b and
// key head n2, the keys and values are the block_count blocks that
// topk_indices[t, n2] names, block_size rows each, in that order (a block
// named twice counts twice): block i is the sequence's rows [i * block_size,
// (i + 1) * block_size). With causal, a key at position p > s is masked; as
// CANN masks before it scales, a masked key scores lowest * scale. Then
// attention_out and the softmax max and sum as above, the statistics at
// [T1, N1, 8] in token order. Rows of T1 past the sequences are zero. An
// index whose block is not inside its sequence's keys fails the run (507015)
// before anything is written.
struct NsaSelectedAttentionDesc {
  aclDataType dtype = ACL_FLOAT16;
  int64_t q_tokens = 0, heads = 0, kv_heads = 0, dim = 0, value_dim = 0;
  std::vector<int64_t> q_lens, kv_lens;
  float scale = 1.0F;
  int64_t block_size = 16, block_count = 1;
  bool causal = false;
  BufferRef query, key, value, topk_indices, softmax_max, softmax_sum, out;
};

std::unique_ptr<Step> MakeNsaSelectedAttentionStep(const NsaSelectedAttentionDesc& desc);

// NsaSelectedAttentionInfer: query rows [rows, N1, D] and output rows [rows,
// N1, Dv] (sequence b's token s at row q_starts[b] + s), topk_indices [rows,
// N2, count]; keys and values in a paged cache [pages, page_size, N2 * D] /
// [.., N2 * Dv], sequence b's key position p at page block_table[b, p /
// page_size], row p % page_size. Token s of a sequence's q_len tokens sees
// its first kv_len - (q_len - 1 - s) keys; its keys and values are, for each
// index i of its row other than -1 in order, the positions [i * select_block,
// i * select_block + select_block) it sees. Softmax attention (no mask) over
// them as above; a token with no key gets a zero row, as do rows of no token.
// An index outside [-1, ceil(kv_len / select_block)) or a page outside the
// cache fails the run (507015) before anything is written.
struct NsaSelectedAttentionInferDesc {
  aclDataType dtype = ACL_FLOAT16;
  int64_t rows = 0, heads = 0, kv_heads = 0, dim = 0, value_dim = 0;
  std::vector<int64_t> q_starts, q_lens, kv_lens;
  int64_t pages = 0, page_size = 0, pages_per_batch = 0;
  float scale = 1.0F;
  int64_t select_block = 16, count = 1;
  BufferRef query, key, value, topk_indices, block_table, out;
};

std::unique_ptr<Step> MakeNsaSelectedAttentionInferStep(const NsaSelectedAttentionInferDesc& desc);

}  // namespace canopy::kernels
