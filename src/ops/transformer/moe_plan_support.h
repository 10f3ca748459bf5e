// Plan helpers the MoE routing ops share: an exact-shape check with the
// op's own status (CANN reports shape faults as 161002, 561002 or 561103 by
// op), and dense kernel operands for outputs that may be strided views.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ops/framework/aclnn_op.h"

namespace canopy::ops::moe {

// CANN's permutation limits (its MoE tilings): at most 512 selections a token, and index values and
// counts below the sort's 16777215.
constexpr int64_t kMaxTopK = 512;
constexpr int64_t kSortLimit = 16777215;

inline aclnnStatus CheckShapeIs(Plan& plan, aclnnStatus status, const char* name, const aclTensor* t,
                                const Shape& want) {
  if (t->view_shape == want) return ACLNN_SUCCESS;
  return plan.Reject(status, "argument '%s' has shape %s; it must be %s", name, ShapeToString(t->view_shape).c_str(),
                     ShapeToString(want).c_str());
}

// The kernel writes dense buffers; a strided output gets a temporary, copied into it after the kernel (Finish).
struct DenseOutputs {
  std::vector<std::pair<TensorRef, TensorRef>> copies;  // (dense, caller's)
  BufferRef Dense(Plan& plan, const TensorRef& out) {
    if (out.IsContiguous()) return out.buffer;
    const TensorRef dense = plan.Temporary(out.dtype, out.shape);
    copies.emplace_back(dense, out);
    return dense.buffer;
  }
  // For a kernel that leaves parts of `out` alone: the temporary starts as a copy of out.
  BufferRef DenseKeeping(Plan& plan, const TensorRef& out) {
    if (out.IsContiguous()) return out.buffer;
    const TensorRef dense = plan.Temporary(out.dtype, out.shape);
    plan.Copy(out, dense);
    copies.emplace_back(dense, out);
    return dense.buffer;
  }
  void Finish(Plan& plan) {
    for (const auto& [dense, out] : copies) plan.Copy(dense, out);
  }
};

}  // namespace canopy::ops::moe
