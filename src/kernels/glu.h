// Gated linear units (SwiGlu, GeGlu): the input split into halves A and B along
// one dimension, out = act(A) * B, or A * act(B). The operands are contiguous:
// a group (one index of the dims before the split dim) holds A then B, each
// `half` elements long, and out holds `half` elements per group.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class GluActivation {
  kSwish,     // a / (1 + exp(-a))
  kGeluErf,   // a/2 (1 + erf(a / sqrt 2))
  kGeluTanh,  // a/2 (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3)))
};

struct GluDesc {
  GluActivation activation = GluActivation::kSwish;
  bool activate_first = true;  // act on A (the first half); else on B
  int64_t groups = 0;
  int64_t half = 0;
  aclDataType dtype = ACL_FLOAT;  // in, out and activated share it: f32, f16 or bf16
  BufferRef in, out;
  bool has_activated = false;  // also store act(gate) (GeGlu's outGelu)
  BufferRef activated;
};

std::unique_ptr<Step> MakeGluStep(const GluDesc& desc);

}  // namespace canopy::kernels
