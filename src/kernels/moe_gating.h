// MoE gating (MoeGatingTopKSoftmax): for each token row of `experts` logits,
// the softmax over the experts and its k largest values, largest first (ties:
// the lower expert first), with their expert numbers and source-row numbers
// (k-major: slot j of row i is j * rows + i, the order MoeInitRouting sorts
// by). A finished row keeps its values but reports expert number `experts`.
// The selection is made on the logits themselves (the softmax is increasing),
// so it is exact whatever the rounding of the exponentials. Operands are
// contiguous.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MoeGatingDesc {
  aclDataType dtype = ACL_FLOAT;  // x and y: f32, f16 or bf16
  int64_t rows = 0, experts = 0, k = 0;
  BufferRef x, y, expert_index, row_index;  // expert_index and row_index: int32
  bool has_finished = false;                // one bool per row
  BufferRef finished;
};

std::unique_ptr<Step> MakeMoeGatingStep(const MoeGatingDesc& desc);

}  // namespace canopy::kernels
