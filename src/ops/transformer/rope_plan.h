// The RoPE step (kernels/rope.h) planned over rank-4 views, as RotaryPositionEmbedding,
// ApplyRotaryPosEmb and MlaProlog use it: x, cos, sin and y of one dtype, cos and sin broadcast
// over x's first three dims where their extent is 1.
#pragma once

#include "kernels/rope.h"
#include "ops/framework/plan.h"

namespace canopy::ops {

inline void PlanRopeStep(Plan& plan, kernels::RopeMode mode, const TensorRef& x, const TensorRef& cos,
                         const TensorRef& sin, const TensorRef& y) {
  constexpr size_t kRank = 4;
  const auto operand = [](const TensorRef& t) {
    kernels::RopeOperand o;
    o.buffer = t.buffer;
    for (size_t i = 0; i < kRank; ++i) o.strides[i] = t.shape[i] == 1 ? 0 : t.strides[i];
    return o;
  };
  kernels::RopeDesc desc;
  desc.mode = mode;
  desc.dtype = x.dtype;
  for (size_t i = 0; i < kRank; ++i) desc.shape[i] = x.shape[i];
  desc.x = operand(x);
  desc.cos = operand(cos);
  desc.sin = operand(sin);
  desc.y = operand(y);
  // Each row of y is computed from the same row of x (and cos, sin), and every
  // element of x is read before the step writes that element or its partner
  // in the rotation (the vector rows load both halves first, the portable one
  // the whole row): on exactly x's view the step runs in place, which
  // ApplyRotaryPosEmb's queryRef / keyRef always ask for.
  plan.AddPositionwiseStep(kernels::MakeRopeStep(desc), {x, cos, sin}, y);
}

}  // namespace canopy::ops
