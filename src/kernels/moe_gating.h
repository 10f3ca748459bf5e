// MoE gating (MoeGatingTopKSoftmax, its V2, and MoeGatingTopK).
//
// Softmax gating: for each token row of `experts` logits, the softmax over
// the experts and its k largest values, largest first (ties: the lower expert
// first), with their expert numbers and (V1) source-row numbers (k-major:
// slot j of row i is j * rows + i, the order MoeInitRouting sorts by). A
// finished row keeps its values but reports expert number `experts`. V2's
// renorm takes the k largest logits first and the softmax over those k only;
// V2 may also write the whole softmax (f32). The selection is made on the
// logits themselves (the softmax is increasing), so it is exact whatever the
// rounding of the exponentials.
//
// Group-limited gating (MoeGatingTopK, DeepSeek-V3's router): norm = softmax
// or sigmoid of the logits (f32, optionally written out), choice = norm +
// bias; the experts are split into `groups` equal groups, each scored by its
// largest choice or the sum of its two largest; the `group_k` best groups
// (ties: the lower group) keep their experts, and the k largest choices among
// them (ties: the lower expert) are the result. y is norm at those experts;
// with the sigmoid it is divided by (their sum + eps); then times `scale`.
// Operands are contiguous.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct MoeGatingDesc {
  aclDataType dtype = ACL_FLOAT;  // x and y: f32, f16 or bf16
  int64_t rows = 0, experts = 0, k = 0;
  BufferRef x, y, expert_index;  // expert_index: int32
  bool has_row_index = true;     // V1's int32 row numbers
  BufferRef row_index;
  bool has_finished = false;  // one bool per row
  BufferRef finished;
  bool renorm = false;       // V2 renorm 1: the softmax over the k largest logits
  bool has_softmax = false;  // V2: the whole softmax, f32 [rows, experts]
  BufferRef softmax;
};

std::unique_ptr<Step> MakeMoeGatingStep(const MoeGatingDesc& desc);

struct MoeGroupGatingDesc {
  aclDataType dtype = ACL_FLOAT;  // x, bias and y: f32, f16 or bf16
  int64_t rows = 0, experts = 0, k = 0, groups = 1, group_k = 1;
  bool sigmoid = false;            // else softmax
  bool group_by_top2_sum = false;  // else by the group's largest choice
  float scale = 1.0F, eps = 0.0F;
  BufferRef x, y, expert_index;  // expert_index: int32
  bool has_bias = false;
  BufferRef bias;
  bool has_norm = false;  // the f32 norm, [rows, experts]
  BufferRef norm;
};

std::unique_ptr<Step> MakeMoeGroupGatingStep(const MoeGroupGatingDesc& desc);

}  // namespace canopy::kernels
