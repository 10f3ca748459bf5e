// The recurrent gated delta rule (linear attention with a d_v x d_k state per
// value head), over variable-length sequences packed along T:
//   S <- alpha_t S;  S <- S + beta_t (v_t - S k_t) k_t^T;  o_t = S (scale q_t)
// with alpha_t = exp(g_t) (1 without g). Sequence b's tokens are
// [sum_{c<b} L_c, + L_b), L read from actualSeqLengths at run time; its state
// starts from slot ssmStateIndices[first + numAcceptedTokens[b] - 1] (without
// numAcceptedTokens: ssmStateIndices[first]) and the state after token t is
// stored into slot ssmStateIndices[t]. The running state stays f32 between
// tokens; what is stored is rounded to the state dtype. Initial states are read
// from `state` and updates written to `state_out` (the op's staged output), so
// a slot one sequence writes never feeds another's start. Work is one unit per
// (sequence, value head); the index tensors are validated before anything is
// written (a bad value fails the task, as a faulting kernel does).
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

struct GdrOperand {
  BufferRef buffer;
  aclDataType dtype = ACL_BF16;
  int64_t strides[4] = {};  // elements, per dim of the operand
};

struct GatedDeltaRuleDesc {
  const char* op = "";
  int64_t tokens = 0, batch = 0, key_heads = 0, value_heads = 0, key_dim = 0, value_dim = 0, state_slots = 0;
  int64_t max_sequence = 0;  // the longest sequence the op takes
  float scale = 1.0f;
  GdrOperand query, key, value, beta, out;  // (T, N, D), beta (T, Nv)
  GdrOperand state, state_out;              // (slots, Nv, Dv, Dk): read as before the op, written
  GdrOperand lengths, indices;              // int32 (B), (T)
  bool has_gate = false, has_accepted = false;
  GdrOperand gate, accepted;  // f32 (T, Nv), int32 (B)
};

std::unique_ptr<Step> MakeGatedDeltaRuleStep(const GatedDeltaRuleDesc& desc);

}  // namespace canopy::kernels
