// NSA compression (NsaCompress): output row o is the window of `block` input
// rows starting at window_starts[o], each row's head n scaled by weight[j, n]
// and the window summed: out[o, n, :] = sum_j weight[j, n] * in[start + j, n, :].
// Computed in f32 from f16 / bf16 operands, as CANN's kernel does. Operands
// are contiguous: in [T, N, D], weight [block, N], out [O, N, D].
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct NsaCompressDesc {
  aclDataType dtype = ACL_FLOAT16;  // in, weight and out
  int64_t heads = 0, head_dim = 0, block = 0;
  std::vector<int64_t> window_starts;  // one input row per output row
  BufferRef in, weight, out;
};

std::unique_ptr<Step> MakeNsaCompressStep(const NsaCompressDesc& desc);

}  // namespace canopy::kernels
