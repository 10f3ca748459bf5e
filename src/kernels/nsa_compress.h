// NSA compression (NsaCompress, NsaCompressWithCache): a window of `block`
// token rows [N, D] becomes one row, each row's head n scaled by weight[j, n]
// and the window summed: out[n, :] = sum_j weight[j, n] * row_j[n, :].
// Computed in f32 from f16 / bf16 operands, as CANN's kernels do. Operands
// are contiguous.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// NsaCompress: in [T, N, D], weight [block, N], out [O, N, D]; output row o
// is the window of input rows starting at window_starts[o].
struct NsaCompressDesc {
  aclDataType dtype = ACL_FLOAT16;  // in, weight and out
  int64_t heads = 0, head_dim = 0, block = 0;
  std::vector<int64_t> window_starts;  // one input row per output row
  BufferRef in, weight, out;
};

std::unique_ptr<Step> MakeNsaCompressStep(const NsaCompressDesc& desc);

// NsaCompressWithCache: in is a paged cache [pages, page_size, N, D]; batch b's
// token t sits in page block_table[b, t / page_size] at row t % page_size. For
// each listed batch, its last `block` tokens (seq_lens[i] - block ...) are
// compressed into out row slot_mapping[b] of [out_rows, N, D]; other rows keep
// their values, and a repeated slot takes the later batch's row. A page or
// slot index out of range fails the run (507015) before anything is written.
struct NsaCompressCacheDesc {
  aclDataType dtype = ACL_FLOAT16;
  int64_t heads = 0, head_dim = 0, block = 0;
  int64_t page_size = 0, pages = 0, pages_per_batch = 0, out_rows = 0;
  std::vector<int64_t> batches, seq_lens;  // the batches that compress now, and their lengths
  BufferRef in, weight, slot_mapping, block_table, out;
};

std::unique_ptr<Step> MakeNsaCompressCacheStep(const NsaCompressCacheDesc& desc);

}  // namespace canopy::kernels
