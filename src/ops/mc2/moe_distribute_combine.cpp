// aclnnMoeDistributeCombine: expert-parallel MoE's token combine on Atlas A2
// (CANN's mc2, full mesh), the inverse of aclnnMoeDistributeDispatch: each
// expert rank sends every source rank back its rows of expandX (the blocks
// epSendCounts, dispatch's epRecvCounts, delimits), and each token's K rows
// are summed in f32 weighted by expertScales, in k order, then rounded to
// x's dtype. Tokens past xActiveMask's leading trues are not written. One
// step on the device engine: the ranks agree the inputs are sound, then
// exchange the rows in one all-to-all.
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_moe_distribute_combine.h"
#include "aclnnop/aclnn_moe_distribute_combine_v2.h"
#include "aclnnop/aclnn_moe_distribute_combine_v3.h"
#include "canopy/canopy_hccl.h"
#include "common/dtype.h"
#include "kernels/dtype_dispatch.h"
#include "moe_distribute.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

struct CombineDesc {
  MoeEpLayout layout;
  aclDataType dtype = ACL_FLOAT16;
  bool has_mask = false;
  BufferRef expand_x, expert_ids, expand_idx, ep_send_counts, expert_scales, mask, x;
};

class CombineStep final : public Step {
 public:
  explicit CombineStep(const CombineDesc& d) : d_(d) {}

  aclnnStatus Run(const RunContext& context) const override {
    const MoeEpLayout& l = d_.layout;
    const auto* ids = reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_ids));
    const auto* idx = reinterpret_cast<const int32_t*>(context.Resolve(d_.expand_idx));
    const auto* blocks = reinterpret_cast<const int32_t*>(context.Resolve(d_.ep_send_counts));
    const auto* mask = d_.has_mask ? reinterpret_cast<const bool*>(context.Resolve(d_.mask)) : nullptr;
    const int64_t tokens = ActiveTokens(mask, l.tokens);
    const int64_t pairs = tokens * l.k;
    // What this rank sent each expert at dispatch, and the blocks it holds.
    std::vector<int32_t> mine;
    std::string why = CountCopies(ids, pairs, l, mine);
    for (int64_t i = 0; i < pairs && why.empty(); ++i) {
      if (idx[i] < 0 || idx[i] >= mine[static_cast<size_t>(ids[i])]) {
        why = "expandIdx[" + std::to_string(i) + "] is " + std::to_string(idx[i]) + "; expert " +
              std::to_string(ids[i]) + " got " + std::to_string(mine[static_cast<size_t>(ids[i])]) +
              " rows from this rank (not the dispatch's expandIdx?)";
      }
    }
    const int64_t entries = l.ranks * l.local_experts;
    for (int64_t b = 0, previous = 0; b < entries && why.empty(); ++b) {
      if (blocks[b] < previous || blocks[b] > l.capacity) {
        why = "epSendCounts[" + std::to_string(b) + "] is " + std::to_string(blocks[b]) +
              "; they are running totals of expandX's rows (at most " + std::to_string(l.capacity) + ")";
      }
      previous = blocks[b];
    }
    std::vector<int32_t> flags(l.group.size);
    CANOPY_CHECK(AgreeOnFailure("aclnnMoeDistributeCombine", l.group, !why.empty(), why, flags.data()));

    const size_t row_bytes = static_cast<size_t>(l.hidden) * DtypeSize(d_.dtype);
    // To each source s: its block of every local expert, in expert order.
    const char* expand_x = context.Resolve(d_.expand_x);
    std::vector<uint64_t> send_counts(l.group.size, 0), sdispls(l.group.size), recv_counts(l.group.size, 0),
        rdispls(l.group.size);
    std::vector<char> send(static_cast<size_t>(blocks[entries - 1]) * row_bytes);
    uint64_t sent = 0;
    for (int64_t s = 0; s < l.ranks; ++s) {
      sdispls[s] = sent;
      for (int64_t j = 0; j < l.local_experts; ++j) {
        const int64_t b = j * l.ranks + s;
        const int64_t begin = b == 0 ? 0 : blocks[b - 1];
        const auto bytes = static_cast<size_t>(blocks[b] - begin) * row_bytes;
        std::memcpy(send.data() + sent, expand_x + static_cast<size_t>(begin) * row_bytes, bytes);
        sent += bytes;
      }
      send_counts[s] = sent - sdispls[s];
    }
    // From each expert rank r: this rank's copies to r's experts, in expert order.
    std::vector<int64_t> first(static_cast<size_t>(l.experts), 0);  // where expert e's rows start in recv
    uint64_t received = 0;
    for (int64_t r = 0; r < l.ranks; ++r) {
      rdispls[r] = received;
      for (int64_t j = 0; j < l.local_experts; ++j) {
        const int64_t e = r * l.local_experts + j;
        first[static_cast<size_t>(e)] = static_cast<int64_t>(received / row_bytes);
        received += static_cast<uint64_t>(mine[static_cast<size_t>(e)]) * row_bytes;
      }
      recv_counts[r] = received - rdispls[r];
    }
    std::vector<char> recv(received);
    const HcclResult exchanged =
        canopyHcclRunAlltoAllV(l.group.name.c_str(), l.group.size, send.data(), send_counts.data(), sdispls.data(),
                               recv.data(), recv_counts.data(), rdispls.data(), HCCL_DATA_TYPE_UINT8);
    if (exchanged != HCCL_SUCCESS) {
      const char* reason = aclGetRecentErrMsg();
      SetErrorMessage("aclnnMoeDistributeCombine: exchanging tokens failed (HCCL %d): %s", exchanged,
                      reason != nullptr ? reason : "");
      return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
    }
    // x[t] = sum over k of row(t, k) * expertScales[t, k], in f32.
    const auto* weights = reinterpret_cast<const float*>(context.Resolve(d_.expert_scales));
    char* x = context.Resolve(d_.x);
    std::vector<float> acc(static_cast<size_t>(l.hidden)), row(static_cast<size_t>(l.hidden));
    for (int64_t t = 0; t < tokens; ++t) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int64_t k = 0; k < l.k; ++k) {
        const int64_t i = t * l.k + k;
        const int64_t at = first[static_cast<size_t>(ids[i])] + idx[i];
        kernels::Load(d_.dtype, recv.data() + static_cast<size_t>(at) * row_bytes, 1, l.hidden, row.data());
        for (int64_t h = 0; h < l.hidden; ++h) acc[h] += row[h] * weights[i];
      }
      kernels::Store(acc.data(), d_.dtype, x + static_cast<size_t>(t) * row_bytes, 1, l.hidden);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    const MoeEpLayout& l = d_.layout;
    return "MoE combine of " + std::to_string(l.tokens) + "x" + std::to_string(l.k) + " rows of " +
           std::to_string(l.hidden) + " from " + std::to_string(l.experts) + " experts on " + std::to_string(l.ranks) +
           " ranks of " + l.group.name;
  }

 private:
  CombineDesc d_;
};

// V2 and V3's inputs beyond V1's (none is read on Atlas A2; V3's must be null).
struct CombineExtras {
  MoeVersionExtras version;
  const aclTensor* shared_expert_x = nullptr;
  const aclTensor *ori_x = nullptr, *alpha1 = nullptr, *alpha2 = nullptr, *const_v = nullptr;
};

aclnnStatus PlanCombineCommon(Plan& plan, const CombineExtras& v, const aclTensor* expand_x,
                              const aclTensor* expert_ids, const aclTensor* expand_idx, const aclTensor* ep_send_counts,
                              const aclTensor* expert_scales, const aclTensor* tp_send_counts,
                              const aclTensor* x_active_mask, const aclTensor* activation_scale,
                              const aclTensor* weight_scale, const aclTensor* group_list,
                              const aclTensor* expand_scales, const char* group_ep, int64_t ep_world_size,
                              int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp, int64_t global_bs,
                              int64_t comm_quant_mode, const aclTensor* x) {
  const bool v1 = v.version.version == 1;
  if (*group_ep == '\0') return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'groupEp' is an empty string");
  CANOPY_CHECK(CheckGroupNames(plan, group_ep, group_tp, ACLNN_ERR_PARAM_INVALID));
  // The op definition's dtypes.
  CANOPY_CHECK(plan.CheckDtype("expandX", expand_x->dtype, {ACL_FLOAT16, ACL_BF16}));
  CANOPY_CHECK(plan.CheckDtype("expertIds", expert_ids->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("expandIdx", expand_idx->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("epSendCounts", ep_send_counts->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("expertScales", expert_scales->dtype, {ACL_FLOAT}));
  if (tp_send_counts != nullptr) CANOPY_CHECK(plan.CheckDtype("tpSendCounts", tp_send_counts->dtype, {ACL_INT32}));
  if (x_active_mask != nullptr) CANOPY_CHECK(plan.CheckDtype("xActiveMask", x_active_mask->dtype, {ACL_BOOL}));
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, {expand_x->dtype}));
  // The A2 tiling (561002).
  const auto tiling = [&plan](const char* what, const aclTensor* t) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument %s, not %s", what, ShapeToString(t->view_shape).c_str());
  };
  if (expand_x->rank() != 2) return tiling("'expandX' must be 2-D [A, H]", expand_x);
  if (expert_ids->rank() != 2) return tiling("'expertIds' must be 2-D [BS, K]", expert_ids);
  MoeEpLayout layout;
  CANOPY_CHECK(CheckMoeEpLayout(plan, expert_ids->view_shape[0], expert_ids->view_shape[1], expand_x->view_shape[1],
                                group_ep, ep_world_size, ep_rank_id, moe_expert_num, global_bs, layout));
  bool layered = false;
  CANOPY_CHECK(CheckVersionExtras(plan, v.version, layered));
  for (const auto& [name, t] :
       {std::pair{"oriXOptional", v.ori_x}, std::pair{"constExpertAlpha1Optional", v.alpha1},
        std::pair{"constExpertAlpha2Optional", v.alpha2}, std::pair{"constExpertVOptional", v.const_v}}) {
    if (t != nullptr) return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument '%s' must be null on Atlas A2", name);
  }
  // The hierarchy form may quantise its traffic to int8 (2); Canopy sends it exactly.
  if (comm_quant_mode != 0 && !(layered && comm_quant_mode == 2)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "commQuantMode is %lld; the full-mesh form takes 0",
                       static_cast<long long>(comm_quant_mode));
  }
  const int64_t tokens = layout.tokens, hidden = layout.hidden;
  if (expand_x->view_shape[0] < layout.capacity) return tiling("'expandX' must have A rows", expand_x);
  if (v1 ? expand_idx->view_shape != Shape{tokens * layout.k}
         : expand_idx->rank() != 1 || expand_idx->view_shape[0] < tokens * layout.k) {
    return tiling("'expandIdx' (V2: 'assistInfoForCombine') must be [BS * K] (V2: 1-D, at least BS * K)", expand_idx);
  }
  if (ep_send_counts->rank() != 1 || ep_send_counts->view_shape[0] < moe_expert_num) {
    return tiling("'epSendCounts' must be 1-D with at least moeExpertNum elements", ep_send_counts);
  }
  if (expert_scales->view_shape != expert_ids->view_shape) {
    return tiling("'expertScales' must be [BS, K]", expert_scales);
  }
  if (x_active_mask != nullptr && x_active_mask->view_shape != Shape{tokens}) {
    return tiling("'xActiveMask' must be [BS]", x_active_mask);
  }
  if (x->view_shape != Shape{tokens, hidden}) return tiling("'x' must be [BS, H]", x);

  CombineDesc d;
  d.layout = layout;
  d.dtype = expand_x->dtype;
  d.has_mask = x_active_mask != nullptr;
  const auto contiguous_input = [&plan](const aclTensor* t, const char* name) {
    return plan.Contiguous(plan.Input(t, name), t->dtype).buffer;
  };
  const auto optional_input = [&plan](const aclTensor* t, const char* name) {
    if (t != nullptr) {
      plan.Input(t, name);  // not read by the full-mesh form
    } else {
      plan.SkipInput();
    }
  };
  d.expand_x = contiguous_input(expand_x, "expandX");
  d.expert_ids = contiguous_input(expert_ids, "expertIds");
  d.expand_idx = contiguous_input(expand_idx, v1 ? "expandIdx" : "assistInfoForCombine");
  d.ep_send_counts = contiguous_input(ep_send_counts, "epSendCounts");
  d.expert_scales = contiguous_input(expert_scales, "expertScales");
  optional_input(tp_send_counts, v1 ? "tpSendCounts" : "tpSendCountsOptional");
  if (x_active_mask != nullptr) {
    d.mask = contiguous_input(x_active_mask, v1 ? "xActiveMask" : "xActiveMaskOptional");
  } else {
    plan.SkipInput();
  }
  optional_input(activation_scale, v1 ? "activationScale" : "activationScaleOptional");
  optional_input(weight_scale, v1 ? "weightScale" : "weightScaleOptional");
  optional_input(group_list, v1 ? "groupList" : "groupListOptional");
  optional_input(expand_scales, v1 ? "expandScales" : "expandScalesOptional");
  if (!v1) optional_input(v.shared_expert_x, "sharedExpertXOptional");  // no shared experts on Atlas A2
  if (v.version.version == 3) {
    for (int i = 0; i < 5; ++i) plan.SkipInput();  // elastic info, oriX, the constant experts' tensors: null
  }
  const TensorRef out = plan.Output(x, v1 ? "x" : "xOut");
  const TensorRef staged = out.IsContiguous() ? out : plan.Temporary(out.dtype, out.shape);
  if (!out.IsContiguous()) plan.Fill(staged, ScalarValue::Integer(0));
  d.x = staged.buffer;
  plan.AddStep(std::make_unique<CombineStep>(d));
  if (!out.IsContiguous()) plan.Copy(staged, out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanCombineV1(Plan& plan, const aclTensor* expand_x, const aclTensor* expert_ids,
                          const aclTensor* expand_idx, const aclTensor* ep_send_counts, const aclTensor* expert_scales,
                          const aclTensor* tp_send_counts, const aclTensor* x_active_mask,
                          const aclTensor* activation_scale, const aclTensor* weight_scale, const aclTensor* group_list,
                          const aclTensor* expand_scales, const char* group_ep, int64_t ep_world_size,
                          int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp, int64_t /*tp_world_size*/,
                          int64_t /*tp_rank_id*/, int64_t /*expert_shard_type*/, int64_t /*shared_expert_num*/,
                          int64_t /*shared_expert_rank_num*/, int64_t global_bs, int64_t /*out_dtype*/,
                          int64_t comm_quant_mode, int64_t /*group_list_type*/, const aclTensor* x) {
  return PlanCombineCommon(plan, {}, expand_x, expert_ids, expand_idx, ep_send_counts, expert_scales, tp_send_counts,
                           x_active_mask, activation_scale, weight_scale, group_list, expand_scales, group_ep,
                           ep_world_size, ep_rank_id, moe_expert_num, group_tp, global_bs, comm_quant_mode, x);
}

aclnnStatus PlanCombineV2(Plan& plan, const aclTensor* expand_x, const aclTensor* expert_ids,
                          const aclTensor* assist_info, const aclTensor* ep_send_counts, const aclTensor* expert_scales,
                          const aclTensor* tp_send_counts, const aclTensor* x_active_mask,
                          const aclTensor* activation_scale, const aclTensor* weight_scale, const aclTensor* group_list,
                          const aclTensor* expand_scales, const aclTensor* shared_expert_x, const char* group_ep,
                          int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp,
                          int64_t /*tp_world_size*/, int64_t /*tp_rank_id*/, int64_t /*expert_shard_type*/,
                          int64_t /*shared_expert_num*/, int64_t /*shared_expert_rank_num*/, int64_t global_bs,
                          int64_t /*out_dtype*/, int64_t comm_quant_mode, int64_t /*group_list_type*/,
                          const char* comm_alg, const aclTensor* x) {
  const CombineExtras v{.version = {.version = 2, .comm_alg = comm_alg}, .shared_expert_x = shared_expert_x};
  return PlanCombineCommon(plan, v, expand_x, expert_ids, assist_info, ep_send_counts, expert_scales, tp_send_counts,
                           x_active_mask, activation_scale, weight_scale, group_list, expand_scales, group_ep,
                           ep_world_size, ep_rank_id, moe_expert_num, group_tp, global_bs, comm_quant_mode, x);
}

aclnnStatus PlanCombineV3(Plan& plan, const aclTensor* expand_x, const aclTensor* expert_ids,
                          const aclTensor* assist_info, const aclTensor* ep_send_counts, const aclTensor* expert_scales,
                          const aclTensor* tp_send_counts, const aclTensor* x_active_mask,
                          const aclTensor* activation_scale, const aclTensor* weight_scale, const aclTensor* group_list,
                          const aclTensor* expand_scales, const aclTensor* shared_expert_x,
                          const aclTensor* elastic_info, const aclTensor* ori_x, const aclTensor* alpha1,
                          const aclTensor* alpha2, const aclTensor* const_v, const char* group_ep,
                          int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp,
                          int64_t /*tp_world_size*/, int64_t /*tp_rank_id*/, int64_t /*expert_shard_type*/,
                          int64_t /*shared_expert_num*/, int64_t /*shared_expert_rank_num*/, int64_t global_bs,
                          int64_t /*out_dtype*/, int64_t comm_quant_mode, int64_t /*group_list_type*/,
                          const char* comm_alg, int64_t zero_expert_num, int64_t copy_expert_num,
                          int64_t const_expert_num, const aclTensor* x) {
  const CombineExtras v{.version = {.version = 3,
                                    .comm_alg = comm_alg,
                                    .elastic_info = elastic_info,
                                    .zero_experts = zero_expert_num,
                                    .copy_experts = copy_expert_num,
                                    .const_experts = const_expert_num},
                        .shared_expert_x = shared_expert_x,
                        .ori_x = ori_x,
                        .alpha1 = alpha1,
                        .alpha2 = alpha2,
                        .const_v = const_v};
  return PlanCombineCommon(plan, v, expand_x, expert_ids, assist_info, ep_send_counts, expert_scales, tp_send_counts,
                           x_active_mask, activation_scale, weight_scale, group_list, expand_scales, group_ep,
                           ep_world_size, ep_rank_id, moe_expert_num, group_tp, global_bs, comm_quant_mode, x);
}

constexpr DtypeSet kCombineDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_FLOAT, ACL_BOOL};
constexpr OpTraits kCombine{
    .header = "aclnnop/aclnn_moe_distribute_combine.h",
    .dtypes = kCombineDtypes,
    .max_rank = 2,
    .example =
        "f16[16,32] i32[2,1]{0:1} i32[2]{0:0} i32[8]{0:0} f32[2,1] - - - - - - 'hccl_world_group' 8 0 8 '' 0 "
        "0 0 0 0 0 0 0 0 f16[2,32]"};
constexpr OpTraits kCombineV2{
    .header = "aclnnop/aclnn_moe_distribute_combine_v2.h",
    .dtypes = kCombineDtypes,
    .max_rank = 2,
    .example =
        "f16[16,32] i32[2,1]{0:1} i32[2048]{0:0} i32[8]{0:0} f32[2,1] - - - - - - - 'hccl_world_group' 8 0 8 "
        "'' 0 0 0 0 0 0 0 0 0 'fullmesh' f16[2,32]"};
constexpr OpTraits kCombineV3{
    .header = "aclnnop/aclnn_moe_distribute_combine_v3.h",
    .dtypes = kCombineDtypes,
    .max_rank = 2,
    .example =
        "f16[16,32] i32[2,1]{0:1} i32[2048]{0:0} i32[8]{0:0} f32[2,1] - - - - - - - - - - - - "
        "'hccl_world_group' 8 0 8 '' 0 0 0 0 0 0 0 0 0 'fullmesh' 0 0 0 f16[2,32]"};

}  // namespace

CANOPY_ACLNN_OP(MoeDistributeCombine, PlanCombineV1, kCombine, (const aclTensor*, expandX),
                (const aclTensor*, expertIds), (const aclTensor*, expandIdx), (const aclTensor*, epSendCounts),
                (const aclTensor*, expertScales), (const aclTensor*, tpSendCounts, optional),
                (const aclTensor*, xActiveMask, optional), (const aclTensor*, activationScale, optional),
                (const aclTensor*, weightScale, optional), (const aclTensor*, groupList, optional),
                (const aclTensor*, expandScales, optional), (const char*, groupEp), (int64_t, epWorldSize),
                (int64_t, epRankId), (int64_t, moeExpertNum), (const char*, groupTp), (int64_t, tpWorldSize),
                (int64_t, tpRankId), (int64_t, expertShardType), (int64_t, sharedExpertNum),
                (int64_t, sharedExpertRankNum), (int64_t, globalBs), (int64_t, outDtype), (int64_t, commQuantMode),
                (int64_t, groupListType), (aclTensor*, x))

CANOPY_ACLNN_OP(MoeDistributeCombineV2, PlanCombineV2, kCombineV2, (const aclTensor*, expandX),
                (const aclTensor*, expertIds), (const aclTensor*, assistInfoForCombine),
                (const aclTensor*, epSendCounts), (const aclTensor*, expertScales),
                (const aclTensor*, tpSendCountsOptional, optional), (const aclTensor*, xActiveMaskOptional, optional),
                (const aclTensor*, activationScaleOptional, optional),
                (const aclTensor*, weightScaleOptional, optional), (const aclTensor*, groupListOptional, optional),
                (const aclTensor*, expandScalesOptional, optional), (const aclTensor*, sharedExpertXOptional, optional),
                (const char*, groupEp), (int64_t, epWorldSize), (int64_t, epRankId), (int64_t, moeExpertNum),
                (const char*, groupTp), (int64_t, tpWorldSize), (int64_t, tpRankId), (int64_t, expertShardType),
                (int64_t, sharedExpertNum), (int64_t, sharedExpertRankNum), (int64_t, globalBs), (int64_t, outDtype),
                (int64_t, commQuantMode), (int64_t, groupListType), (const char*, commAlg, optional),
                (aclTensor*, xOut))

CANOPY_ACLNN_OP(MoeDistributeCombineV3, PlanCombineV3, kCombineV3, (const aclTensor*, expandX),
                (const aclTensor*, expertIds), (const aclTensor*, assistInfoForCombine),
                (const aclTensor*, epSendCounts), (const aclTensor*, expertScales),
                (const aclTensor*, tpSendCountsOptional, optional), (const aclTensor*, xActiveMaskOptional, optional),
                (const aclTensor*, activationScaleOptional, optional),
                (const aclTensor*, weightScaleOptional, optional), (const aclTensor*, groupListOptional, optional),
                (const aclTensor*, expandScalesOptional, optional), (const aclTensor*, sharedExpertXOptional, optional),
                (const aclTensor*, elasticInfoOptional, optional), (const aclTensor*, oriXOptional, optional),
                (const aclTensor*, constExpertAlpha1Optional, optional),
                (const aclTensor*, constExpertAlpha2Optional, optional),
                (const aclTensor*, constExpertVOptional, optional), (const char*, groupEp), (int64_t, epWorldSize),
                (int64_t, epRankId), (int64_t, moeExpertNum), (const char*, groupTp), (int64_t, tpWorldSize),
                (int64_t, tpRankId), (int64_t, expertShardType), (int64_t, sharedExpertNum),
                (int64_t, sharedExpertRankNum), (int64_t, globalBs), (int64_t, outDtype), (int64_t, commQuantMode),
                (int64_t, groupListType), (const char*, commAlg, optional), (int64_t, zeroExpertNum),
                (int64_t, copyExpertNum), (int64_t, constExpertNum), (aclTensor*, xOut))
