// aclnnRecurrentGatedDeltaRule: the gated delta rule recurrence over packed
// variable-length sequences (see kernels/gated_delta_rule.h for the formula
// and how the state slots are chosen). query, key (T, Nk, Dk), value and out
// (T, Nv, Dv), beta (T, Nv) and stateRef (slots, Nv, Dv, Dk) are bf16;
// actualSeqLengths (B), ssmStateIndices (T) and numAcceptedTokens (B) int32; g
// (T, Nv) f32. Nv a multiple of Nk; N <= 256, D <= 256; gk is reserved by CANN
// and must be null. The lengths and indices live on the device, so they are
// checked when the task runs (a bad one fails it, nothing written).
#include "aclnnop/aclnn_recurrent_gated_delta_rule.h"
#include "kernels/gated_delta_rule.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kGdrDtypes = {ACL_BF16};
constexpr int64_t kMaxHeads = 256;
constexpr int64_t kMaxHeadDim = 256;
constexpr int64_t kMaxSequence = 8;  // L_i <= 8 (multi-token prediction steps)

aclnnStatus PlanRecurrentGatedDeltaRule(Plan& plan, const aclTensor* query, const aclTensor* key,
                                        const aclTensor* value, const aclTensor* beta, const aclTensor* state,
                                        const aclTensor* actual_seq_lengths, const aclTensor* ssm_state_indices,
                                        const aclTensor* g, const aclTensor* gk, const aclTensor* num_accepted_tokens,
                                        float scale_value, const aclTensor* out) {
  if (gk != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gk' is reserved by CANN and must be null");
  }
  const std::pair<const char*, const aclTensor*> bf16[] = {{"query", query}, {"key", key},        {"value", value},
                                                           {"beta", beta},   {"stateRef", state}, {"out", out}};
  for (const auto& [name, t] : bf16) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, kGdrDtypes));
  CANOPY_CHECK(plan.CheckDtype("actualSeqLengths", actual_seq_lengths->dtype, DtypeSet{ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("ssmStateIndices", ssm_state_indices->dtype, DtypeSet{ACL_INT32}));
  if (g != nullptr) CANOPY_CHECK(plan.CheckDtype("g", g->dtype, DtypeSet{ACL_FLOAT}));
  if (num_accepted_tokens != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("numAcceptedTokens", num_accepted_tokens->dtype, DtypeSet{ACL_INT32}));
  }
  const auto rank = [&](const char* name, const aclTensor* t, int64_t want) {
    if (t->rank() == want) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be %lld", name,
                       static_cast<long long>(t->rank()), static_cast<long long>(want));
  };
  CANOPY_CHECK(rank("query", query, 3));
  CANOPY_CHECK(rank("key", key, 3));
  CANOPY_CHECK(rank("value", value, 3));
  CANOPY_CHECK(rank("beta", beta, 2));
  CANOPY_CHECK(rank("stateRef", state, 4));
  CANOPY_CHECK(rank("actualSeqLengths", actual_seq_lengths, 1));
  CANOPY_CHECK(rank("ssmStateIndices", ssm_state_indices, 1));
  const Shape& qs = query->view_shape;
  const Shape& vs = value->view_shape;
  const int64_t tokens = qs[0], key_heads = qs[1], key_dim = qs[2], value_heads = vs[1], value_dim = vs[2];
  const int64_t batch = actual_seq_lengths->view_shape[0];
  const int64_t slots = state->view_shape[0];
  CANOPY_CHECK(plan.CheckShape("key", key, qs));
  CANOPY_CHECK(plan.CheckShape("value", value, {tokens, value_heads, value_dim}));
  CANOPY_CHECK(plan.CheckShape("beta", beta, {tokens, value_heads}));
  CANOPY_CHECK(plan.CheckShape("stateRef", state, {slots, value_heads, value_dim, key_dim}));
  CANOPY_CHECK(plan.CheckShape("ssmStateIndices", ssm_state_indices, {tokens}));
  CANOPY_CHECK(plan.CheckShape("out", out, vs));
  if (g != nullptr) CANOPY_CHECK(plan.CheckShape("g", g, {tokens, value_heads}));
  if (num_accepted_tokens != nullptr) CANOPY_CHECK(plan.CheckShape("numAcceptedTokens", num_accepted_tokens, {batch}));
  if (key_heads > kMaxHeads || value_heads > kMaxHeads || key_dim > kMaxHeadDim || value_dim > kMaxHeadDim) {
    return plan.Reject(
        ACLNN_ERR_PARAM_INVALID, "Nk %lld, Nv %lld, Dk %lld, Dv %lld: heads at most %lld, dims at most %lld",
        static_cast<long long>(key_heads), static_cast<long long>(value_heads), static_cast<long long>(key_dim),
        static_cast<long long>(value_dim), static_cast<long long>(kMaxHeads), static_cast<long long>(kMaxHeadDim));
  }
  if (key_heads == 0 || value_heads % key_heads != 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "value's heads (%lld) must be a multiple of query's (%lld)",
                       static_cast<long long>(value_heads), static_cast<long long>(key_heads));
  }
  const std::pair<const char*, const aclTensor*> not_empty[] = {
      {"query", query}, {"value", value}, {"stateRef", state}, {"actualSeqLengths", actual_seq_lengths}};
  for (const auto& [name, t] : not_empty) {
    if (t->NumElements() == 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is empty (shape %s); CANN takes no empty tensor here",
                         name, ShapeToString(t->view_shape).c_str());
    }
  }

  const auto operand = [](const TensorRef& t) {
    kernels::GdrOperand o;
    o.buffer = t.buffer;
    o.dtype = t.dtype;
    for (size_t i = 0; i < t.strides.size() && i < 4; ++i) o.strides[i] = t.strides[i];
    return o;
  };
  kernels::GatedDeltaRuleDesc desc;
  desc.op = plan.op();
  desc.tokens = tokens;
  desc.batch = batch;
  desc.key_heads = key_heads;
  desc.value_heads = value_heads;
  desc.key_dim = key_dim;
  desc.value_dim = value_dim;
  desc.state_slots = slots;
  desc.max_sequence = kMaxSequence;
  desc.scale = scale_value;
  std::vector<TensorRef> reads;
  const auto input = [&](const aclTensor* t, const char* name) {
    const TensorRef ref = plan.Input(t, name);
    reads.push_back(ref);
    return operand(ref);
  };
  desc.query = input(query, "query");
  desc.key = input(key, "key");
  desc.value = input(value, "value");
  desc.beta = input(beta, "beta");
  desc.state = operand(plan.Input(state, "stateRef"));
  desc.lengths = input(actual_seq_lengths, "actualSeqLengths");
  desc.indices = input(ssm_state_indices, "ssmStateIndices");
  if (g != nullptr) {
    desc.has_gate = true;
    desc.gate = input(g, "g");
  } else {
    plan.SkipInput();
  }
  plan.SkipInput();  // gk
  if (num_accepted_tokens != nullptr) {
    desc.has_accepted = true;
    desc.accepted = input(num_accepted_tokens, "numAcceptedTokens");
  } else {
    plan.SkipInput();
  }
  desc.out = operand(plan.Output(out, "out"));
  // The state is read through its input slot and written through its output's: the
  // framework stages the output (a snapshot the step updates), so every sequence
  // starts from the state as it was before the op, whichever slots others write.
  desc.state_out = operand(plan.Output(state, "stateRef"));
  plan.AddStep(kernels::MakeGatedDeltaRuleStep(desc));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(RecurrentGatedDeltaRule, PlanRecurrentGatedDeltaRule,
                (OpTraits{.header = "aclnnop/aclnn_recurrent_gated_delta_rule.h",
                          .dtypes = kGdrDtypes,
                          .max_rank = 4,
                          .example = "bf16[2,1,2] bf16[2,1,2] bf16[2,1,2] bf16[2,1] bf16[2,1,2,2] i32[1]{2:2} "
                                     "i32[2]{0:1} f32[2,1] - i32[1]{1:2} 1 bf16[2,1,2]"}),
                (const aclTensor*, query), (const aclTensor*, key), (const aclTensor*, value), (const aclTensor*, beta),
                (aclTensor*, stateRef), (const aclTensor*, actualSeqLengths), (const aclTensor*, ssmStateIndices),
                (const aclTensor*, g, optional), (const aclTensor*, gk, optional),
                (const aclTensor*, numAcceptedTokens, optional), (float, scaleValue), (aclTensor*, out))
