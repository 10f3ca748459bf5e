// aclnnMoeTokenPermuteWithRoutingMap (Megatron's permute with a routing
// map): routingMap [tokens, experts] (BOOL or INT8, nonzero: routed) puts
// the token rows into expert order.
// Drop-less (dropAndPad false): topK = numOutTokens / tokens selections a
//   token; for each expert in turn its tokens in ascending order fill
//   permuteTokensOut; sortedIndicesOut[t * topK + j] is the position of token
//   t's j-th selection (ascending expert), permuteProbsOutOptional the
//   routed probabilities in permuted order. A routing-map row with other than
//   topK selections fails the run (507015), before anything is written.
// Drop and pad: capacity = numOutTokens / experts rows an expert; expert e's
//   slots hold its routed tokens in ascending order, then (padding) the
//   others in ascending order, first `capacity` of them; sortedIndicesOut
//   lists the tokens, permuteProbsOutOptional probs[token, e].
// CANN's host checks (161002): dtypes (tokens, probs and their outputs one
// float dtype, sortedIndicesOut INT32), routingMap and probs 2-D, numOutTokens
// in [0, tokens * experts], tokens and experts below 16777215,
// permuteTokensOut's rows numOutTokens rounded down to a multiple of tokens
// (experts with dropAndPad), as permuteProbsOutOptional's. CANN's tiling
// (561002): drop-less, topK at most 512 and tokens * topK below 16777215.
// Canopy also checks
// the shapes CANN's kernel assumes (tokens [T, h], probs like routingMap,
// sortedIndicesOut with one entry a row), 161002.
#include <algorithm>
#include <cstring>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_moe_token_permute_with_routing_map.h"
#include "common/dtype.h"
#include "ops/framework/aclnn_op.h"
#include "ops/transformer/moe_plan_support.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kTokenDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kMapDtypes = {ACL_INT8, ACL_BOOL};
using moe::kMaxTopK;
using moe::kSortLimit;

struct PermuteDesc {
  aclDataType dtype = ACL_FLOAT;
  int64_t tokens = 0, experts = 0, h = 0, rows = 0;  // rows: permuted rows (topK * tokens or capacity * experts)
  bool drop_and_pad = false;
  BufferRef x, map, probs, permuted, permuted_probs, indices;  // contiguous; map as bytes
  bool has_probs = false;
};

class PermuteWithRoutingMapStep final : public Step {
 public:
  explicit PermuteWithRoutingMapStep(const PermuteDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* map = reinterpret_cast<const uint8_t*>(context.Resolve(d_.map));
    const auto routed = [&](int64_t t, int64_t e) { return map[t * d_.experts + e] != 0; };
    // source[p]: the token of permuted row p; column[p]: its expert (for the probabilities).
    std::vector<int64_t> source(static_cast<size_t>(d_.rows)), column(static_cast<size_t>(d_.rows));
    auto* indices = reinterpret_cast<int32_t*>(context.Resolve(d_.indices));
    if (d_.drop_and_pad) {
      const int64_t capacity = d_.rows / d_.experts;
      for (int64_t e = 0; e < d_.experts; ++e) {
        int64_t slot = 0;
        for (bool pass : {true, false}) {
          for (int64_t t = 0; t < d_.tokens && slot < capacity; ++t) {
            if (routed(t, e) != pass) continue;
            const int64_t p = e * capacity + slot++;
            source[static_cast<size_t>(p)] = t;
            column[static_cast<size_t>(p)] = e;
          }
        }
      }
      for (int64_t p = 0; p < d_.rows; ++p) indices[p] = static_cast<int32_t>(source[static_cast<size_t>(p)]);
    } else {
      const int64_t top_k = d_.rows / d_.tokens;
      for (int64_t t = 0; t < d_.tokens; ++t) {
        int64_t count = 0;
        for (int64_t e = 0; e < d_.experts; ++e) count += routed(t, e) ? 1 : 0;
        if (count != top_k) {
          SetErrorMessage(
              "aclnnMoeTokenPermuteWithRoutingMap: row %lld of 'routingMap' routes %lld experts; "
              "numOutTokens / tokens = %lld",
              static_cast<long long>(t), static_cast<long long>(count), static_cast<long long>(top_k));
          return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
      }
      std::vector<int64_t> taken(static_cast<size_t>(d_.tokens), 0);
      int64_t p = 0;
      for (int64_t e = 0; e < d_.experts; ++e) {
        for (int64_t t = 0; t < d_.tokens; ++t) {
          if (!routed(t, e)) continue;
          indices[t * top_k + taken[static_cast<size_t>(t)]++] = static_cast<int32_t>(p);
          source[static_cast<size_t>(p)] = t;
          column[static_cast<size_t>(p)] = e;
          ++p;
        }
      }
    }
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const char* x = context.Resolve(d_.x);
    char* permuted = context.Resolve(d_.permuted);
    for (int64_t p = 0; p < d_.rows; ++p) {
      std::memcpy(permuted + p * d_.h * element, x + source[static_cast<size_t>(p)] * d_.h * element,
                  static_cast<size_t>(d_.h * element));
    }
    if (d_.has_probs) {
      const char* probs = context.Resolve(d_.probs);
      char* out = context.Resolve(d_.permuted_probs);
      for (int64_t p = 0; p < d_.rows; ++p) {
        const int64_t from = source[static_cast<size_t>(p)] * d_.experts + column[static_cast<size_t>(p)];
        std::memcpy(out + p * element, probs + from * element, static_cast<size_t>(element));
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("moe token permute with routing map ") + DtypeName(d_.dtype) +
           " tokens=" + std::to_string(d_.tokens) + " experts=" + std::to_string(d_.experts) +
           " rows=" + std::to_string(d_.rows) + (d_.drop_and_pad ? " drop-and-pad" : "");
  }

 private:
  PermuteDesc d_;
};

aclnnStatus CheckDtypes(Plan& plan, const aclTensor* tokens, const aclTensor* map, const aclTensor* probs,
                        const aclTensor* permuted, const aclTensor* permuted_probs, const aclTensor* indices) {
  CANOPY_CHECK(plan.CheckDtype("tokens", tokens->dtype, kTokenDtypes));
  CANOPY_CHECK(plan.CheckDtype("permuteTokensOut", permuted->dtype, kTokenDtypes));
  CANOPY_CHECK(plan.CheckDtype("routingMap", map->dtype, kMapDtypes));
  for (const auto& [name, t] : {std::pair{"permuteTokensOut", permuted}, std::pair{"probsOptional", probs},
                                std::pair{"permuteProbsOutOptional", permuted_probs}}) {
    if (t != nullptr && t->dtype != tokens->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is %s, but tokens is %s: they must match", name,
                         DtypeName(t->dtype), DtypeName(tokens->dtype));
    }
  }
  return plan.CheckDtype("sortedIndicesOut", indices->dtype, DtypeSet{ACL_INT32});
}

aclnnStatus PlanPermuteWithRoutingMap(Plan& plan, const aclTensor* tokens, const aclTensor* map, const aclTensor* probs,
                                      int64_t num_out_tokens, bool drop_and_pad, aclTensor* permuted,
                                      aclTensor* permuted_probs, aclTensor* indices) {
  if (probs != nullptr) CANOPY_CHECK(plan.CheckNotNull("permuteProbsOutOptional", permuted_probs));
  CANOPY_CHECK(CheckDtypes(plan, tokens, map, probs, permuted, permuted_probs, indices));
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  if (map->rank() != 2 || (probs != nullptr && probs->rank() != 2)) {
    return plan.Reject(kInvalid, "routingMap (%s) and probsOptional must be 2-D ([tokens, experts])",
                       ShapeToString(map->view_shape).c_str());
  }
  const int64_t token_count = map->view_shape[0], experts = map->view_shape[1];
  int64_t cells = 0;  // tokens * experts, which overflows only past the sort limit checked below
  if (__builtin_mul_overflow(token_count, experts, &cells) || num_out_tokens < 0 || num_out_tokens > cells) {
    return plan.Reject(kInvalid, "argument 'numOutTokens' is %lld; it must be in [0, tokens * experts = %lld]",
                       static_cast<long long>(num_out_tokens), static_cast<long long>(cells));
  }
  if (token_count >= kSortLimit || experts >= kSortLimit) {
    return plan.Reject(kInvalid, "routingMap has shape %s; tokens and experts must be below %lld",
                       ShapeToString(map->view_shape).c_str(), static_cast<long long>(kSortLimit));
  }
  // CANN's tiling (561002): drop-less, at most 512 selections a token and fewer than the sort limit in all.
  if (!drop_and_pad && token_count > 0) {
    const int64_t top_k = num_out_tokens / token_count;
    if (top_k > kMaxTopK || token_count * top_k >= kSortLimit) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                         "numOutTokens / tokens (topK) is %lld; it must be at most %lld, and tokens * topK below %lld",
                         static_cast<long long>(top_k), static_cast<long long>(kMaxTopK),
                         static_cast<long long>(kSortLimit));
    }
  }
  const int64_t align = std::max<int64_t>(drop_and_pad ? experts : token_count, 1);
  const int64_t rows = num_out_tokens / align * align;
  if (permuted->rank() < 1 || permuted->view_shape[0] != rows ||
      (permuted_probs != nullptr && (permuted_probs->rank() < 1 || permuted_probs->view_shape[0] != rows))) {
    return plan.Reject(kInvalid,
                       "permuteTokensOut (%s) and permuteProbsOutOptional must have %lld rows (numOutTokens "
                       "rounded down to a multiple of %s)",
                       ShapeToString(permuted->view_shape).c_str(), static_cast<long long>(rows),
                       drop_and_pad ? "experts" : "tokens");
  }
  if (tokens->rank() != 2 || tokens->view_shape[0] != token_count) {
    return plan.Reject(kInvalid, "argument 'tokens' has shape %s; it must be [tokens = %lld, h]",
                       ShapeToString(tokens->view_shape).c_str(), static_cast<long long>(token_count));
  }
  const int64_t h = tokens->view_shape[1];
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "permuteTokensOut", permuted, {rows, h}));
  if (probs != nullptr) {
    CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "probsOptional", probs, map->view_shape));
    CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "permuteProbsOutOptional", permuted_probs, {rows}));
  }
  CANOPY_CHECK(moe::CheckShapeIs(plan, kInvalid, "sortedIndicesOut", indices, {rows}));

  const TensorRef tokens_ref = plan.Input(tokens, "tokens");
  const TensorRef map_ref = plan.Input(map, "routingMap");
  TensorRef probs_ref;
  if (probs != nullptr) {
    probs_ref = plan.Input(probs, "probsOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef permuted_ref = plan.Output(permuted, "permuteTokensOut");
  TensorRef permuted_probs_ref;
  if (probs != nullptr) {
    permuted_probs_ref = plan.Output(permuted_probs, "permuteProbsOutOptional");
  } else {
    plan.SkipOutput();  // nothing to permute: left alone
  }
  const TensorRef indices_ref = plan.Output(indices, "sortedIndicesOut");
  if (rows == 0) return ACLNN_SUCCESS;

  PermuteDesc desc;
  desc.dtype = tokens->dtype;
  desc.tokens = token_count;
  desc.experts = experts;
  desc.h = h;
  desc.rows = rows;
  desc.drop_and_pad = drop_and_pad;
  desc.x = plan.Contiguous(tokens_ref, tokens_ref.dtype).buffer;
  desc.map = plan.Contiguous(map_ref, map_ref.dtype).buffer;  // INT8 and BOOL are both one byte
  moe::DenseOutputs outputs;
  desc.permuted = outputs.Dense(plan, permuted_ref);
  desc.indices = outputs.Dense(plan, indices_ref);
  if (probs != nullptr) {
    desc.has_probs = true;
    desc.probs = plan.Contiguous(probs_ref, probs_ref.dtype).buffer;
    desc.permuted_probs = outputs.Dense(plan, permuted_probs_ref);
  }
  plan.AddStep(std::make_unique<PermuteWithRoutingMapStep>(desc));
  outputs.Finish(plan);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MoeTokenPermuteWithRoutingMap, PlanPermuteWithRoutingMap,
                (OpTraits{.header = "aclnnop/aclnn_moe_token_permute_with_routing_map.h",
                          .dtypes = DtypeSet{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_BOOL, ACL_INT32},
                          .example = "f32[3,4] bool[3,2]{1:1} - 6 false f32[6,4] - i32[6]"}),
                (const aclTensor*, tokens), (const aclTensor*, routingMap), (const aclTensor*, probsOptional, optional),
                (int64_t, numOutTokens), (bool, dropAndPad), (aclTensor*, permuteTokensOut),
                (aclTensor*, permuteProbsOutOptional, optional), (aclTensor*, sortedIndicesOut))
