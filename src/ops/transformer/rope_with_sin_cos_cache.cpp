// aclnnRopeWithSinCosCache (vLLM's rotary_embedding): query [tokens, Nq *
// headSize] and key [tokens, Nk * headSize] rotated by the cosSinCache row
// [rotaryDim / 2 cos, rotaryDim / 2 sin] at each token's position, the first
// rotaryDim columns of every head, NeoX style (halves) or GPT-J style
// (pairs); the other columns are copied. Multimodal RoPE: positions [3,
// tokens] and mropeSection's three widths pick, for each cos/sin column,
// which position set indexes the cache. Computed in f32 (kernels/rope.h).
// CANN's host checks (161002): query, key and cache 2-D, key's rows those of
// query, outputs of their input's shape and dtype, one float dtype, headSize
// not 0. CANN's kernel assumes, without checking, what Canopy checks (161002)
// so that no read or write leaves the tensors: headSize > 0, rotaryDim (the
// cache's width) even and at most headSize, positions [tokens] or [3, tokens]
// (INT32 or INT64, the doc's list), mropeSection's widths summing to
// rotaryDim / 2. A position outside the cache fails the run (507015), as the
// doc's out-of-range fault.
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "kernels/rope.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRopeDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kPositionDtypes = {ACL_INT32, ACL_INT64};
constexpr int64_t kPositionSets = 3;  // mrope: temporal, height, width

aclnnStatus CheckTensors(Plan& plan, const aclTensor* positions, const aclTensor* query, const aclTensor* key,
                         const aclTensor* cache, const aclTensor* query_out, const aclTensor* key_out) {
  CANOPY_CHECK(plan.CheckDtype("positions", positions->dtype, kPositionDtypes));
  CANOPY_CHECK(plan.CheckDtype("queryIn", query->dtype, kRopeDtypes));
  for (const auto& [name, t] : {std::pair{"keyIn", key}, std::pair{"cosSinCache", cache},
                                std::pair{"queryOut", query_out}, std::pair{"keyOut", key_out}}) {
    if (t->dtype != query->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but queryIn is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(query->dtype));
    }
  }
  for (const auto& [name, t] :
       {std::pair{"queryIn", query}, std::pair{"keyIn", key}, std::pair{"cosSinCache", cache}}) {
    if (t->rank() != 2) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be 2", name,
                         static_cast<long long>(t->rank()));
    }
  }
  if (key->view_shape[0] != query->view_shape[0]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "keyIn has %lld rows, but queryIn has %lld: they must match",
                       static_cast<long long>(key->view_shape[0]), static_cast<long long>(query->view_shape[0]));
  }
  CANOPY_CHECK(moe::CheckShapeIs(plan, ACLNN_ERR_PARAM_INVALID, "queryOut", query_out, query->view_shape));
  CANOPY_CHECK(moe::CheckShapeIs(plan, ACLNN_ERR_PARAM_INVALID, "keyOut", key_out, key->view_shape));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanRopeWithSinCosCache(Plan& plan, const aclTensor* positions, const aclTensor* query,
                                    const aclTensor* key, const aclTensor* cache, const aclIntArray* mrope_section,
                                    int64_t head_size, bool neox, aclTensor* query_out, aclTensor* key_out) {
  CANOPY_CHECK(CheckTensors(plan, positions, query, key, cache, query_out, key_out));
  const int64_t tokens = query->view_shape[0], rotary_dim = cache->view_shape[1];
  if (head_size <= 0 || rotary_dim <= 0 || rotary_dim % 2 != 0 || rotary_dim > head_size) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'headSize' is %lld and cosSinCache's width (rotaryDim) %lld; headSize must be "
                       "positive and rotaryDim even, positive and at most headSize",
                       static_cast<long long>(head_size), static_cast<long long>(rotary_dim));
  }
  const bool mrope = positions->rank() == 2;
  const Shape want_positions = mrope ? Shape{kPositionSets, tokens} : Shape{tokens};
  CANOPY_CHECK(moe::CheckShapeIs(plan, ACLNN_ERR_PARAM_INVALID, "positions", positions, want_positions));
  kernels::RopeCacheDesc desc;
  if (mrope) {
    const bool three = mrope_section != nullptr && mrope_section->values.size() == kPositionSets;
    int64_t sum = 0;
    bool negative = false;
    for (size_t i = 0; three && i < kPositionSets; ++i) {
      desc.sections[i] = mrope_section->values[i];
      // Each width on its own first: the sum of unchecked ones may wrap onto rotaryDim / 2.
      negative = negative || desc.sections[i] < 0 || desc.sections[i] > rotary_dim / 2;
      if (!negative) sum += desc.sections[i];
    }
    if (!three || negative || sum != rotary_dim / 2) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "positions [3, tokens] asks for multimodal RoPE: argument 'mropeSection' must hold three "
                         "widths, each in [0, rotaryDim / 2], summing to rotaryDim / 2 = %lld",
                         static_cast<long long>(rotary_dim / 2));
    }
  }

  const TensorRef positions_ref = plan.Input(positions, "positions");
  const TensorRef query_ref = plan.Input(query, "queryIn");
  const TensorRef key_ref = plan.Input(key, "keyIn");
  const TensorRef cache_ref = plan.Input(cache, "cosSinCache");
  const TensorRef query_out_ref = plan.Output(query_out, "queryOut");
  const TensorRef key_out_ref = plan.Output(key_out, "keyOut");
  if (tokens == 0) return ACLNN_SUCCESS;

  desc.dtype = query->dtype;
  desc.position_dtype = positions->dtype;
  desc.tokens = tokens;
  desc.head_size = head_size;
  desc.rotary_dim = rotary_dim;
  desc.cache_rows = cache->view_shape[0];
  desc.neox = neox;
  desc.mrope = mrope;
  desc.positions = plan.Contiguous(positions_ref, positions_ref.dtype).buffer;
  desc.cache = plan.Contiguous(cache_ref, cache_ref.dtype).buffer;
  moe::DenseOutputs outputs;
  desc.query = {plan.Contiguous(query_ref, query_ref.dtype).buffer, outputs.Dense(plan, query_out_ref),
                query->view_shape[1]};
  desc.key = {plan.Contiguous(key_ref, key_ref.dtype).buffer, outputs.Dense(plan, key_out_ref), key->view_shape[1]};
  plan.AddStep(kernels::MakeRopeCacheStep(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(RopeWithSinCosCache, PlanRopeWithSinCosCache,
                (OpTraits{.header = "aclnnop/aclnn_rope_with_sin_cos_cache.h",
                          .dtypes = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64},
                          .example = "i64[2]{0:1} bf16[2,64] bf16[2,64] bf16[2,32] - 32 true bf16[2,64] bf16[2,64]"}),
                (const aclTensor*, positions), (const aclTensor*, queryIn), (const aclTensor*, keyIn),
                (const aclTensor*, cosSinCache), (const aclIntArray*, mropeSection, optional), (int64_t, headSize),
                (bool, isNeoxStyle), (aclTensor*, queryOut), (aclTensor*, keyOut))
