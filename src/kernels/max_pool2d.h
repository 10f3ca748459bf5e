// 2-D max pooling over the last two dims of [N, C, H, W] views with PyTorch's
// semantics, which oneDNN's pooling does not keep: NaN anywhere in a window
// makes its result NaN, a window of -inf gives -inf (oneDNN starts from the
// lowest finite value), and a window that lies wholly in the padding gives
// -inf (the padding is -inf). f32, fp16 and bf16, computed in f32 (a maximum
// is exact in any of them).
#pragma once

#include <array>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MaxPool2dAxis {
  int64_t kernel = 1, stride = 1, pad_front = 0;
};

struct MaxPool2dDesc {
  BufferRef src, dst;
  aclDataType dtype = ACL_FLOAT;
  std::array<int64_t, 4> src_shape{};                   // [N, C, H, W]
  std::array<int64_t, 2> dst_extent{};                  // [OH, OW]
  std::array<int64_t, 4> src_strides{}, dst_strides{};  // in elements
  std::array<MaxPool2dAxis, 2> axes;                    // H, W
};

std::unique_ptr<Step> MakeMaxPool2dStep(const MaxPool2dDesc& desc);

}  // namespace canopy::kernels
