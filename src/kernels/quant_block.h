// Block-wise dynamic quantisation (DynamicBlockQuant's A2 kernel): each row of x is cut into blocks of
// `block_columns` columns (the last one may be shorter); per block, q = (1 / max|block|) * 127 in f32,
// raised to min_scale when min_scale > 0, scale = max|block| * (1 / 127) lowered to 1 / min_scale when
// min_scale > 0, and y = rint(x * q) saturated to INT8. A block of zeros gets scale 0 and zeros.
// Operands are contiguous: x [rows, columns], y likewise, scale [rows, ceil(columns / block_columns)].
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct BlockQuantDesc {
  aclDataType x_dtype = ACL_FLOAT16;  // f16 or bf16
  int64_t rows = 0, columns = 0, block_columns = 0;
  float min_scale = 0.0f;
  BufferRef x, y, scale;
};

std::unique_ptr<Step> MakeBlockQuantStep(const BlockQuantDesc& desc);

}  // namespace canopy::kernels
