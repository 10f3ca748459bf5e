// The block the gated units CANN generates from its op definitions
// (ClippedSwiglu, SituGlu) share: x viewed as [pre, cut] rows (pre the
// product of the extents before dim, cut of dim's and after), each row's two
// halves combined into a row of cut / 2 that out holds in x's shape with dim
// halved. The checks are the ones their tiling makes, so a bad dim or shape
// is 561002 (CANN's tiling error).
#pragma once

#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

struct GateRows {
  int64_t dim = 0;   // normalised
  int64_t rows = 0;  // pre
  int64_t cut = 0;   // each row's extent, both halves
};

// dim in [-rank, rank), x's extent there even, out of x's dtype and rank with dim halved.
inline aclnnStatus CheckGateRows(Plan& plan, const aclTensor* x, int64_t dim, const aclTensor* out, GateRows& g) {
  const int64_t rank = x->rank();
  if (dim < -rank || dim >= rank) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'dim' (%lld) must be in [-%lld, %lld)",
                       static_cast<long long>(dim), static_cast<long long>(rank), static_cast<long long>(rank));
  }
  g.dim = dim < 0 ? dim + rank : dim;
  const Shape& shape = x->view_shape;
  if (shape[static_cast<size_t>(g.dim)] % 2 != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'x' of shape %s has an odd extent along dim %lld",
                       ShapeToString(shape).c_str(), static_cast<long long>(g.dim));
  }
  g.rows = 1;
  g.cut = 1;
  for (int64_t d = 0; d < rank; ++d) (d < g.dim ? g.rows : g.cut) *= shape[static_cast<size_t>(d)];
  Shape half = shape;
  half[static_cast<size_t>(g.dim)] /= 2;
  if (out->dtype != x->dtype || out->view_shape != half) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'out' is %s %s; it must be %s %s (x with dim %lld halved)",
                       DtypeName(out->dtype), ShapeToString(out->view_shape).c_str(), DtypeName(x->dtype),
                       ShapeToString(half).c_str(), static_cast<long long>(g.dim));
  }
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
