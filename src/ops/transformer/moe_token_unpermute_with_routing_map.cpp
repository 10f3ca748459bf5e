// aclnnMoeTokenUnpermuteWithRoutingMap: MoeTokenPermuteWithRoutingMap undone,
// each permuted row weighted by its probability (if probsOptional is given)
// and summed into its token's row of unpermutedTokens ([tokens, h]; tokens
// from restoreShapeOptional, else probsOptional's rows), in f32.
// Drop-less (paddedMode false): topK = rows / tokens; unpermuted[t] =
//   sum_j permuted[p] * permuteProbs[p], p = sortedIndices[t * topK + j],
//   where permuteProbs (written if given) are probs in routingMapOptional's
//   expert-major order (probs.T masked by routingMap.T).
// Padded: capacity = rows / experts; permuteProbs[i] = probs[sortedIndices[i],
//   i / capacity]; unpermuted[sortedIndices[i]] += permuted[i] *
//   permuteProbs[i] (zero rows where no slot points); permuteTokenId and
//   outIndex are sortedIndices sorted (stably) and the sorting permutation.
// CANN's host checks (161001 / 161002): permutedTokens and sortedIndices not
// null, probsOptional or restoreShapeOptional given, the dtypes (floats of
// one dtype for the tokens, probs and permuteProbs their own; indices INT32),
// permutedTokens and unpermutedTokens 2-D, sortedIndices 1-D. Canopy also
// checks (161002) what its kernel assumes: the shapes above agree, padded
// a routing map for drop-less probabilities. An index
// outside its range, or a map whose selections are not the rows, fails the
// run (507015) before anything is written. outIndex, permuteTokenId and
// permuteProbs are required (CANN's names carry no "Optional"), though CANN
// does not touch them where the mode does not write them, as Canopy does not.
#include <algorithm>
#include <numeric>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_moe_token_unpermute_with_routing_map.h"
#include "common/dtype.h"
#include "kernels/dtype_dispatch.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTokenDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kMapDtypes = {ACL_INT8, ACL_UINT8, ACL_BOOL};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

struct UnpermuteDesc {
  aclDataType dtype = ACL_FLOAT, probs_dtype = ACL_FLOAT;
  int64_t rows = 0, h = 0, tokens = 0, experts = 0;
  bool padded = false, has_probs = false, has_map = false, has_permute_probs = false, has_sort = false;
  BufferRef permuted, indices, map, probs, unpermuted, out_index, token_id, permute_probs;  // contiguous
};

class UnpermuteWithRoutingMapStep final : public Step {
 public:
  explicit UnpermuteWithRoutingMapStep(const UnpermuteDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* indices = reinterpret_cast<const int32_t*>(context.Resolve(d_.indices));
    const int64_t limit = d_.padded ? d_.tokens : d_.rows;
    for (int64_t i = 0; i < d_.rows; ++i) {
      if (indices[i] < 0 || indices[i] >= limit) {
        return Fail("element %lld of 'sortedIndices' is %lld, outside [0, %lld)", i, indices[i], limit);
      }
    }
    // The probability of each permuted row (1 without probs).
    std::vector<float> weight(static_cast<size_t>(d_.rows), 1.0F);
    if (d_.has_probs) {
      std::vector<float> probs(static_cast<size_t>(d_.tokens * d_.experts));
      kernels::Load(d_.probs_dtype, context.Resolve(d_.probs), 1, d_.tokens * d_.experts, probs.data());
      if (d_.padded) {
        const int64_t capacity = d_.rows / d_.experts;
        for (int64_t i = 0; i < d_.rows; ++i) {
          weight[static_cast<size_t>(i)] = probs[static_cast<size_t>(indices[i] * d_.experts + i / capacity)];
        }
      } else {
        const auto* map = reinterpret_cast<const uint8_t*>(context.Resolve(d_.map));
        int64_t p = 0;
        for (int64_t e = 0; e < d_.experts; ++e) {
          for (int64_t t = 0; t < d_.tokens; ++t) {
            if (map[t * d_.experts + e] == 0) continue;
            if (p < d_.rows) weight[static_cast<size_t>(p)] = probs[static_cast<size_t>(t * d_.experts + e)];
            ++p;
          }
        }
        if (p != d_.rows)
          return Fail("'routingMapOptional' selects %lld entries; permutedTokens has %lld rows", p, d_.rows, 0);
      }
    }
    std::vector<float> sum(static_cast<size_t>(d_.tokens * d_.h), 0.0F), row(static_cast<size_t>(d_.h));
    const char* permuted = context.Resolve(d_.permuted);
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const auto add = [&](int64_t token, int64_t source) {
      kernels::Load(d_.dtype, permuted + source * d_.h * element, 1, d_.h, row.data());
      float* dst = &sum[static_cast<size_t>(token * d_.h)];
      for (int64_t c = 0; c < d_.h; ++c) dst[c] += row[static_cast<size_t>(c)] * weight[static_cast<size_t>(source)];
    };
    if (d_.padded) {
      for (int64_t i = 0; i < d_.rows; ++i) add(indices[i], i);
    } else {
      const int64_t top_k = d_.rows / d_.tokens;
      for (int64_t i = 0; i < d_.rows; ++i) add(i / top_k, indices[i]);
    }
    kernels::Store(sum.data(), d_.dtype, context.Resolve(d_.unpermuted), 1, d_.tokens * d_.h);
    if (d_.has_permute_probs) {
      kernels::Store(weight.data(), d_.probs_dtype, context.Resolve(d_.permute_probs), 1, d_.rows);
    }
    if (d_.has_sort) {
      std::vector<int32_t> order(static_cast<size_t>(d_.rows));
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return indices[a] < indices[b]; });
      auto* out_index = reinterpret_cast<int32_t*>(context.Resolve(d_.out_index));
      auto* token_id = reinterpret_cast<int32_t*>(context.Resolve(d_.token_id));
      for (int64_t i = 0; i < d_.rows; ++i) {
        out_index[i] = order[static_cast<size_t>(i)];
        token_id[i] = indices[order[static_cast<size_t>(i)]];
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("moe token unpermute with routing map ") + DtypeName(d_.dtype) +
           " rows=" + std::to_string(d_.rows) + " tokens=" + std::to_string(d_.tokens) + (d_.padded ? " padded" : "");
  }

 private:
  static aclnnStatus Fail(const char* format, int64_t a, int64_t b, int64_t c) {
    std::string text = std::string("aclnnMoeTokenUnpermuteWithRoutingMap: ") + format;
    SetErrorMessage(text.c_str(), static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(c));
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  }

  UnpermuteDesc d_;
};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* permuted, const aclTensor* indices, const aclTensor* map,
                        const aclTensor* probs, const aclTensor* unpermuted, const aclTensor* out_index,
                        const aclTensor* token_id, const aclTensor* permute_probs) {
  CANOPY_CHECK(plan.CheckDtype("permutedTokens", permuted->dtype, kTokenDtypes));
  CANOPY_CHECK(plan.CheckDtype("sortedIndices", indices->dtype, DtypeSet{ACL_INT32}));
  if (map != nullptr) CANOPY_CHECK(plan.CheckDtype("routingMapOptional", map->dtype, kMapDtypes));
  if (probs != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("probsOptional", probs->dtype, kTokenDtypes));
    if (permute_probs->dtype != probs->dtype) {
      return plan.Reject(kInvalid, "argument 'permuteProbs' is %s, but probsOptional is %s: they must match",
                         DtypeName(permute_probs->dtype), DtypeName(probs->dtype));
    }
  }
  if (unpermuted->dtype != permuted->dtype) {
    return plan.Reject(kInvalid, "argument 'unpermutedTokens' is %s, but permutedTokens is %s: they must match",
                       DtypeName(unpermuted->dtype), DtypeName(permuted->dtype));
  }
  for (const auto& [name, t] : {std::pair{"outIndex", out_index}, std::pair{"permuteTokenId", token_id}}) {
    if (t->dtype != indices->dtype) {
      return plan.Reject(kInvalid, "argument '%s' is %s, but sortedIndices is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(indices->dtype));
    }
  }
  return ACLNN_SUCCESS;
}

// The shapes the kernel relies on, past CANN's rank checks; `tokens` and `experts` come out.
aclnnStatus CheckShapes(Plan& plan, const aclTensor* permuted, const aclTensor* indices, const aclTensor* map,
                        const aclTensor* probs, bool padded, const aclIntArray* restore, const aclTensor* unpermuted,
                        const aclTensor* out_index, const aclTensor* token_id, const aclTensor* permute_probs,
                        int64_t& tokens, int64_t& experts) {
  if (permuted->rank() != 2 || indices->rank() != 1 || unpermuted->rank() != 2) {
    return plan.Reject(kInvalid, "permutedTokens (%s) and unpermutedTokens (%s) must be 2-D, sortedIndices (%s) 1-D",
                       ShapeToString(permuted->view_shape).c_str(), ShapeToString(unpermuted->view_shape).c_str(),
                       ShapeToString(indices->view_shape).c_str());
  }
  const int64_t rows = permuted->view_shape[0], h = permuted->view_shape[1];
  if (probs != nullptr && probs->rank() != 2) {
    return plan.Reject(kInvalid, "argument 'probsOptional' has shape %s; it must be [tokens, experts]",
                       ShapeToString(probs->view_shape).c_str());
  }
  if (restore != nullptr && restore->values.empty()) {
    return plan.Reject(kInvalid, "argument 'restoreShapeOptional' is empty; it must start with the tokens");
  }
  tokens = restore != nullptr ? restore->values[0] : probs->view_shape[0];
  experts = probs != nullptr ? probs->view_shape[1] : 0;
  if (probs != nullptr && probs->view_shape[0] != tokens) {
    return plan.Reject(kInvalid, "probsOptional has %lld rows, but the tokens are %lld",
                       static_cast<long long>(probs->view_shape[0]), static_cast<long long>(tokens));
  }
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "unpermutedTokens", unpermuted, {tokens, h}));
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "sortedIndices", indices, {rows}));
  if (padded) {
    for (const auto& [name, t] : {std::pair{"outIndex", out_index}, std::pair{"permuteTokenId", token_id}}) {
      CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, name, t, {rows}));
    }
    if (probs != nullptr && (experts == 0 || rows % experts != 0)) {
      return plan.Reject(kInvalid, "paddedMode: permutedTokens' %lld rows must be a multiple of the %lld experts",
                         static_cast<long long>(rows), static_cast<long long>(experts));
    }
  } else {
    if (tokens <= 0 ? rows != 0 : rows % tokens != 0) {
      return plan.Reject(kInvalid, "permutedTokens' %lld rows must be topK times the %lld tokens",
                         static_cast<long long>(rows), static_cast<long long>(tokens));
    }
    if (probs != nullptr) {
      CANOPY_CHECK(plan.CheckNotNull("routingMapOptional", map));
      CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "routingMapOptional", map, probs->view_shape));
    }
  }
  if (probs != nullptr) {
    CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "permuteProbs", permute_probs, {rows}));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanUnpermuteWithRoutingMap(Plan& plan, const aclTensor* permuted, const aclTensor* indices,
                                        const aclTensor* map, const aclTensor* probs, bool padded,
                                        const aclIntArray* restore, aclTensor* unpermuted, aclTensor* out_index,
                                        aclTensor* token_id, aclTensor* permute_probs) {
  if (probs == nullptr && restore == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR,
                       "arguments 'probsOptional' and 'restoreShapeOptional' are both null; one must give the tokens");
  }
  CANOPY_CHECK(CheckDtypes(plan, permuted, indices, map, probs, unpermuted, out_index, token_id, permute_probs));
  int64_t tokens = 0, experts = 0;
  CANOPY_CHECK(CheckShapes(plan, permuted, indices, map, probs, padded, restore, unpermuted, out_index, token_id,
                           permute_probs, tokens, experts));

  const TensorRef permuted_ref = plan.Input(permuted, "permutedTokens");
  const TensorRef indices_ref = plan.Input(indices, "sortedIndices");
  const bool uses_map = map != nullptr && probs != nullptr && !padded;
  TensorRef map_ref, probs_ref;
  if (uses_map) {
    map_ref = plan.Input(map, "routingMapOptional");
  } else {
    plan.SkipInput();
  }
  if (probs != nullptr) {
    probs_ref = plan.Input(probs, "probsOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef unpermuted_ref = plan.Output(unpermuted, "unpermutedTokens");
  // outIndex and permuteTokenId are padded mode's; permuteProbs needs probs.
  const bool has_sort = padded;
  const bool has_permute_probs = probs != nullptr;
  TensorRef out_index_ref, token_id_ref, permute_probs_ref;
  for (const auto& [write, t, name, ref] :
       {std::tuple{has_sort, out_index, "outIndex", &out_index_ref},
        std::tuple{has_sort, token_id, "permuteTokenId", &token_id_ref},
        std::tuple{has_permute_probs, permute_probs, "permuteProbs", &permute_probs_ref}}) {
    if (write) {
      *ref = plan.Output(t, name);
    } else {
      plan.SkipOutput();
    }
  }
  if (unpermuted_ref.NumElements() == 0 && permuted->view_shape[0] == 0) return ACLNN_SUCCESS;

  UnpermuteDesc desc;
  desc.dtype = permuted->dtype;
  desc.probs_dtype = probs != nullptr ? probs->dtype : ACL_FLOAT;
  desc.rows = permuted->view_shape[0];
  desc.h = permuted->view_shape[1];
  desc.tokens = tokens;
  desc.experts = experts;
  desc.padded = padded;
  desc.permuted = plan.Contiguous(permuted_ref, permuted_ref.dtype).buffer;
  desc.indices = plan.Contiguous(indices_ref, ACL_INT32).buffer;
  if (probs != nullptr) {
    desc.has_probs = true;
    desc.probs = plan.Contiguous(probs_ref, probs_ref.dtype).buffer;
  }
  if (uses_map) {
    desc.has_map = true;
    desc.map = plan.Contiguous(map_ref, map_ref.dtype).buffer;  // one byte an entry
  }
  moe::DenseOutputs outputs;
  desc.unpermuted = outputs.Dense(plan, unpermuted_ref);
  desc.has_sort = has_sort;
  if (has_sort) {
    desc.out_index = outputs.Dense(plan, out_index_ref);
    desc.token_id = outputs.Dense(plan, token_id_ref);
  }
  desc.has_permute_probs = has_permute_probs;
  if (has_permute_probs) desc.permute_probs = outputs.Dense(plan, permute_probs_ref);
  plan.AddStep(std::make_unique<UnpermuteWithRoutingMapStep>(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MoeTokenUnpermuteWithRoutingMap, PlanUnpermuteWithRoutingMap,
                (OpTraits{
                    .header = "aclnnop/aclnn_moe_token_unpermute_with_routing_map.h",
                    .dtypes = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_UINT8, ACL_BOOL, ACL_INT32},
                    .example = "f32[2,2] i32[2]{1:1} i8[2,2]{1:1} f32[2,2] true ints[2,2] f32[2,2] i32[2] "
                               "i32[2] f32[2]"}),
                (const aclTensor*, permutedTokens), (const aclTensor*, sortedIndices),
                (const aclTensor*, routingMapOptional, optional), (const aclTensor*, probsOptional, optional),
                (bool, paddedMode), (const aclIntArray*, restoreShapeOptional, optional),
                (aclTensor*, unpermutedTokens), (aclTensor*, outIndex), (aclTensor*, permuteTokenId),
                (aclTensor*, permuteProbs))
