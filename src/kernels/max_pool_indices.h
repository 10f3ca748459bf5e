// 2-D max pooling that also says where each maximum came from: the flat
// index h * W + w within its input plane (PyTorch's max_pool2d_with_indices).
// Windows may be dilated; the padding never wins (a window covers at least
// one input element). NaN wins, the last NaN of a window giving the index;
// among equal maxima the first in row-major order is kept. Values are copied,
// not converted.
#pragma once

#include <array>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MaxPoolIndicesDesc {
  BufferRef src, dst, indices;
  aclDataType dtype = ACL_FLOAT;                                         // of src and dst (f32, f16, bf16)
  aclDataType index_dtype = ACL_INT64;                                   // INT32 or INT64
  std::array<int64_t, 4> src_shape{};                                    // [N, C, H, W]
  std::array<int64_t, 2> out_extent{};                                   // H, W of dst
  std::array<int64_t, 4> src_strides{}, dst_strides{}, index_strides{};  // in elements
  std::array<int64_t, 2> kernel{}, stride{}, pad{}, dilation{};          // H, W
};

std::unique_ptr<Step> MakeMaxPoolIndicesStep(MaxPoolIndicesDesc desc);

}  // namespace canopy::kernels
