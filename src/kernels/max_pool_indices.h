// Max pooling over up to three spatial axes that also says where each maximum
// came from: the flat index (d * H + h) * W + w within its input volume
// (PyTorch's max_pool2d/3d_with_indices and adaptive_max_pool2d/3d). The ops
// give each axis' windows, one per output index, already clipped to the
// input (fixed windows with stride, padding and dilation, or adaptive ones),
// so the padding never wins. NaN wins, the last NaN of a window giving the
// index; among equal maxima the first in row-major order is kept. Values are
// copied, not converted.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// Input indices begin, begin + step, ... below end (begin < end: never empty).
struct PoolWindow {
  int64_t begin = 0, end = 1, step = 1;
};

struct MaxPoolIndicesDesc {
  BufferRef src, dst, indices;
  aclDataType dtype = ACL_FLOAT;                                         // of src and dst (f32, f16, bf16, f64)
  aclDataType index_dtype = ACL_INT64;                                   // INT32 or INT64
  std::array<int64_t, 5> src_shape{};                                    // [N, C, D, H, W] (2-D: D = 1)
  std::array<int64_t, 5> src_strides{}, dst_strides{}, index_strides{};  // in elements
  std::array<std::vector<PoolWindow>, 3> windows;                        // D, H, W: one per output index
};

std::unique_ptr<Step> MakeMaxPoolIndicesStep(MaxPoolIndicesDesc desc);

}  // namespace canopy::kernels
