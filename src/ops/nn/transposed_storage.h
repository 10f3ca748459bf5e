// CANN's IsTransposeLastTwoDims, which its matmul host code uses to read a
// tensor's transpose flag: the view is the transpose (last two dimensions) of
// contiguous storage, every leading dimension dense over them. A view whose
// last two extents are both 1 is not counted as transposed.
#pragma once

#include <cstdint>

#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

inline bool IsTransposedStorage(const aclTensor* t) {
  const int64_t r = t->rank();
  if (r < 2) return false;
  const Shape& s = t->view_shape;
  const Shape& st = t->strides;
  if (st[r - 2] != 1 || st[r - 1] != s[r - 2]) return false;
  int64_t span = s[r - 1] * s[r - 2];
  for (int64_t d = r - 3; d >= 0; --d) {
    if (st[d] != span) return false;
    span *= s[d];
  }
  return !(s[r - 1] == 1 && s[r - 2] == 1);
}

}  // namespace canopy::ops
