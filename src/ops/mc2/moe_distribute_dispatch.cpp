// aclnnMoeDistributeDispatch: expert-parallel MoE's token dispatch on Atlas
// A2 (CANN's mc2, full mesh): every (token, k) pair's row of x goes to the
// rank of expert expertIds[token, k], optionally quantised per row and
// expert (quantMode 2: the row times the expert's smooth scales, then
// 127 / max|row|, half to even; dynamicScales gets max|row| / 127). The
// receiving rank lays the rows out in expandX expert-major, then by source
// rank (moe_distribute.h). One step on the device engine: the ranks gather
// each other's per-expert counts, then exchange the rows in one all-to-all.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_moe_distribute_dispatch.h"
#include "aclnnop/aclnn_moe_distribute_dispatch_v2.h"
#include "aclnnop/aclnn_moe_distribute_dispatch_v3.h"
#include "canopy/canopy_hccl.h"
#include "common/dtype.h"
#include "common/half.h"
#include "kernels/dtype_dispatch.h"
#include "moe_distribute.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

struct DispatchDesc {
  MoeEpLayout layout;
  aclDataType x_dtype = ACL_FLOAT16;
  bool quant = false;       // quantMode 2
  bool has_scales = false;  // smooth scales [E, H]
  bool has_mask = false;
  bool cumulative = false;  // expertTokenNumsType 0
  BufferRef x, expert_ids, scales, mask;
  BufferRef expand_x, dynamic_scales, expand_idx, expert_token_nums, ep_recv_counts;
};

class DispatchStep final : public Step {
 public:
  explicit DispatchStep(const DispatchDesc& d) : d_(d) {}

  aclnnStatus Run(const RunContext& context) const override {
    const MoeEpLayout& l = d_.layout;
    const auto* ids = reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_ids));
    const auto* mask = d_.has_mask ? reinterpret_cast<const bool*>(context.Resolve(d_.mask)) : nullptr;
    const int64_t pairs = ActiveTokens(mask, l.tokens) * l.k;
    // This rank's copies to each expert; a bad expert id stops every rank.
    std::vector<int32_t> mine;
    const std::string why = CountCopies(ids, pairs, l, mine);
    std::vector<int32_t> flags(l.group.size);
    CANOPY_CHECK(AgreeOnFailure("aclnnMoeDistributeDispatch", l.group, !why.empty(), why, flags.data()));
    // counts[s][e]: rank s's copies to expert e.
    std::vector<int32_t> counts(static_cast<size_t>(l.ranks * l.experts));
    if (!Collective(canopyHcclRunAllGather(l.group.name.c_str(), l.group.size, mine.data(), counts.data(),
                                           static_cast<uint64_t>(l.experts), HCCL_DATA_TYPE_INT32))) {
      return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
    }
    const auto count = [&](int64_t s, int64_t e) { return static_cast<int64_t>(counts[s * l.experts + e]); };
    // Every rank checks every rank's total against expandX, so all stop together.
    for (int64_t r = 0; r < l.ranks; ++r) {
      int64_t total = 0;
      for (int64_t s = 0; s < l.ranks; ++s) {
        for (int64_t j = 0; j < l.local_experts; ++j) total += count(s, r * l.local_experts + j);
      }
      if (total > l.capacity) {
        SetErrorMessage("aclnnMoeDistributeDispatch: rank %lld receives %lld rows; expandX holds %lld (globalBs)",
                        static_cast<long long>(r), static_cast<long long>(total), static_cast<long long>(l.capacity));
        return kCapacityStatus;
      }
    }
    const int64_t rank = l.group.rank;
    const size_t row_bytes = RowBytes();
    // The send buffer in expert order, each expert's rows in (token, k) order;
    // expandIdx[i] is pair i's place among this rank's copies to its expert.
    std::vector<int64_t> first(static_cast<size_t>(l.experts) + 1, 0);
    for (int64_t e = 0; e < l.experts; ++e) first[e + 1] = first[e] + mine[static_cast<size_t>(e)];
    std::vector<int32_t> seen(static_cast<size_t>(l.experts), 0);
    auto* expand_idx = reinterpret_cast<int32_t*>(context.Resolve(d_.expand_idx));
    std::vector<char> send(static_cast<size_t>(pairs) * row_bytes);
    const char* x = context.Resolve(d_.x);
    const auto* scales = d_.has_scales ? reinterpret_cast<const float*>(context.Resolve(d_.scales)) : nullptr;
    std::vector<float> row(static_cast<size_t>(l.hidden));
    for (int64_t i = 0; i < pairs; ++i) {
      const int32_t e = ids[i];
      expand_idx[i] = seen[static_cast<size_t>(e)]++;
      char* dst = send.data() + static_cast<size_t>(first[e] + expand_idx[i]) * row_bytes;
      const char* src = x + (i / l.k) * l.hidden * static_cast<int64_t>(DtypeSize(d_.x_dtype));
      if (!d_.quant) {
        std::memcpy(dst, src, row_bytes);
        continue;
      }
      kernels::Load(d_.x_dtype, src, 1, l.hidden, row.data());
      if (scales != nullptr) {
        for (int64_t h = 0; h < l.hidden; ++h) row[h] *= scales[e * l.hidden + h];
      }
      Quantise(row, dst);
    }
    // Bytes to and from each rank: its experts' blocks, in expert order.
    std::vector<uint64_t> send_counts(l.group.size), sdispls(l.group.size), recv_counts(l.group.size),
        rdispls(l.group.size);
    uint64_t sent = 0, received = 0;
    for (int64_t r = 0; r < l.ranks; ++r) {
      uint64_t to = 0, from = 0;
      for (int64_t j = 0; j < l.local_experts; ++j) {
        to += static_cast<uint64_t>(count(rank, r * l.local_experts + j));
        from += static_cast<uint64_t>(count(r, rank * l.local_experts + j));
      }
      send_counts[r] = to * row_bytes;
      sdispls[r] = sent;
      sent += send_counts[r];
      recv_counts[r] = from * row_bytes;
      rdispls[r] = received;
      received += recv_counts[r];
    }
    std::vector<char> recv(received);
    if (!Collective(canopyHcclRunAlltoAllV(l.group.name.c_str(), l.group.size, send.data(), send_counts.data(),
                                           sdispls.data(), recv.data(), recv_counts.data(), rdispls.data(),
                                           HCCL_DATA_TYPE_UINT8))) {
      return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
    }
    // Block (j, s) of expandX: local expert j's rows from source s.
    char* expand_x = context.Resolve(d_.expand_x);
    auto* dynamic_scales = d_.quant ? reinterpret_cast<float*>(context.Resolve(d_.dynamic_scales)) : nullptr;
    auto* recv_counts_out = reinterpret_cast<int32_t*>(context.Resolve(d_.ep_recv_counts));
    auto* token_nums = reinterpret_cast<int64_t*>(context.Resolve(d_.expert_token_nums));
    const size_t payload = d_.quant ? static_cast<size_t>(l.hidden) : row_bytes;
    std::vector<uint64_t> read(l.group.size, 0);  // rows taken so far from each source
    int64_t offset = 0;
    for (int64_t j = 0; j < l.local_experts; ++j) {
      int64_t expert_rows = 0;
      for (int64_t s = 0; s < l.ranks; ++s) {
        const int64_t rows = count(s, rank * l.local_experts + j);
        for (int64_t q = 0; q < rows; ++q) {
          const char* src = recv.data() + rdispls[s] + read[s]++ * row_bytes;
          std::memcpy(expand_x + static_cast<size_t>(offset + q) * payload, src, payload);
          if (dynamic_scales != nullptr) std::memcpy(&dynamic_scales[offset + q], src + payload, sizeof(float));
        }
        offset += rows;
        expert_rows += rows;
        recv_counts_out[j * l.ranks + s] = static_cast<int32_t>(offset);
      }
      token_nums[j] = d_.cumulative ? offset : expert_rows;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    const MoeEpLayout& l = d_.layout;
    return "MoE dispatch of " + std::to_string(l.tokens) + "x" + std::to_string(l.k) + " rows of " +
           std::to_string(l.hidden) + " to " + std::to_string(l.experts) + " experts on " + std::to_string(l.ranks) +
           " ranks of " + l.group.name + (d_.quant ? " (int8)" : "");
  }

 private:
  // An expandX row out of range of its capacity: the kernel would write past it.
  static constexpr aclnnStatus kCapacityStatus = ACL_ERROR_RT_AICORE_EXCEPTION;

  static bool Collective(HcclResult result) {
    if (result == HCCL_SUCCESS) return true;
    const char* why = aclGetRecentErrMsg();
    SetErrorMessage("aclnnMoeDistributeDispatch: exchanging tokens failed (HCCL %d): %s", result,
                    why != nullptr ? why : "");
    return false;
  }

  // A row as it travels: the x row, or its int8 image followed by its f32 scale.
  size_t RowBytes() const {
    const auto h = static_cast<size_t>(d_.layout.hidden);
    return d_.quant ? h + sizeof(float) : h * DtypeSize(d_.x_dtype);
  }

  // CANN's kernel: q = 127 / max|row|, int8 = rint(row * q) (through int32
  // and f16, exact for |v| <= 127), dynamicScales = 1 / q. A zero row gives
  // zeros and a zero scale.
  void Quantise(const std::vector<float>& row, char* dst) const {
    float max_abs = 0;
    for (const float v : row) max_abs = std::max(max_abs, std::fabs(v));
    const float q = max_abs > 0 ? 127.0f / max_abs : 0.0f;
    for (size_t h = 0; h < row.size(); ++h) {
      const float v = std::nearbyint(row[h] * q);
      dst[h] = static_cast<char>(static_cast<int8_t>(std::clamp(v, -128.0f, 127.0f)));
    }
    const float scale = q > 0 ? 1.0f / q : 0.0f;
    std::memcpy(dst + row.size(), &scale, sizeof(float));
  }

  DispatchDesc d_;
};

// The prototype's names of the arguments that V2 renamed.
struct DispatchNames {
  const char *scales, *mask, *expert_scales, *expand_x, *dynamic_scales, *expand_idx, *token_nums, *recv_counts,
      *tp_recv_counts, *expand_scales;
};
constexpr DispatchNames kV1Names{"scales",    "xActiveMask",     "expertScales", "expandX",      "dynamicScales",
                                 "expandIdx", "expertTokenNums", "epRecvCounts", "tpRecvCounts", "expandScales"};
constexpr DispatchNames kV2Names{
    "scalesOptional",          "xActiveMaskOptional", "expertScalesOptional", "expandXOut",      "dynamicScalesOut",
    "assistInfoForCombineOut", "expertTokenNumsOut",  "epRecvCountsOut",      "tpRecvCountsOut", "expandScalesOut"};

aclnnStatus PlanDispatchCommon(Plan& plan, const MoeVersionExtras& v, const aclTensor* x, const aclTensor* expert_ids,
                               const aclTensor* scales, const aclTensor* x_active_mask, const aclTensor* expert_scales,
                               const char* group_ep, int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num,
                               const char* group_tp, int64_t quant_mode, int64_t global_bs,
                               int64_t expert_token_nums_type, const aclTensor* expand_x,
                               const aclTensor* dynamic_scales, const aclTensor* expand_idx,
                               const aclTensor* expert_token_nums, const aclTensor* ep_recv_counts,
                               const aclTensor* tp_recv_counts, const aclTensor* expand_scales) {
  const DispatchNames& n = v.version == 1 ? kV1Names : kV2Names;
  // CANN's host layer (Atlas A2 ignores the TP and shared-expert attributes and forces groupTp to "").
  if (*group_ep == '\0') return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'groupEp' is an empty string");
  if (quant_mode == 2) CANOPY_CHECK(plan.CheckNotNull(n.dynamic_scales, dynamic_scales));
  CANOPY_CHECK(CheckGroupNames(plan, group_ep, group_tp, ACLNN_ERR_PARAM_NULLPTR));
  // The op definition's dtypes.
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, {ACL_FLOAT16, ACL_BF16}));
  CANOPY_CHECK(plan.CheckDtype("expertIds", expert_ids->dtype, {ACL_INT32}));
  if (scales != nullptr) CANOPY_CHECK(plan.CheckDtype(n.scales, scales->dtype, {ACL_FLOAT}));
  if (x_active_mask != nullptr) CANOPY_CHECK(plan.CheckDtype(n.mask, x_active_mask->dtype, {ACL_BOOL}));
  if (expert_scales != nullptr) CANOPY_CHECK(plan.CheckDtype(n.expert_scales, expert_scales->dtype, {ACL_FLOAT}));
  const bool quant = quant_mode == 2;
  CANOPY_CHECK(plan.CheckDtype(n.expand_x, expand_x->dtype, {quant ? ACL_INT8 : x->dtype}));
  if (dynamic_scales != nullptr) CANOPY_CHECK(plan.CheckDtype(n.dynamic_scales, dynamic_scales->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype(n.expand_idx, expand_idx->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype(n.token_nums, expert_token_nums->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype(n.recv_counts, ep_recv_counts->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype(n.tp_recv_counts, tp_recv_counts->dtype, {ACL_INT32}));
  if (expand_scales != nullptr) CANOPY_CHECK(plan.CheckDtype(n.expand_scales, expand_scales->dtype, {ACL_FLOAT}));
  // The A2 tiling (561002).
  const auto tiling = [&plan](const char* what, const aclTensor* t) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument %s, not %s", what, ShapeToString(t->view_shape).c_str());
  };
  if (x->rank() != 2) return tiling("'x' must be 2-D [BS, H]", x);
  if (expert_ids->rank() != 2 || expert_ids->view_shape[0] != x->view_shape[0]) {
    return tiling("'expertIds' must be 2-D [BS, K]", expert_ids);
  }
  MoeEpLayout layout;
  CANOPY_CHECK(CheckMoeEpLayout(plan, expert_ids->view_shape[0], expert_ids->view_shape[1], x->view_shape[1], group_ep,
                                ep_world_size, ep_rank_id, moe_expert_num, global_bs, layout));
  if (quant_mode != 0 && quant_mode != 2) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "quantMode is %lld; Atlas A2 takes 0 or 2",
                       static_cast<long long>(quant_mode));
  }
  if (quant_mode == 0 && scales != nullptr) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'scales' is given with quantMode 0");
  }
  if (expert_token_nums_type != 0 && expert_token_nums_type != 1) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "expertTokenNumsType is %lld; it is 0 or 1",
                       static_cast<long long>(expert_token_nums_type));
  }
  bool layered = false;
  CANOPY_CHECK(CheckVersionExtras(plan, v, layered));
  if (layered && (expert_scales == nullptr || expand_scales == nullptr)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "the hierarchy algorithm needs expertScales and expandScales");
  }
  const int64_t tokens = layout.tokens, hidden = layout.hidden, a = layout.capacity;
  if (scales != nullptr && scales->view_shape != Shape{moe_expert_num, hidden}) {
    return tiling("'scales' must be [moeExpertNum, H]", scales);
  }
  if (x_active_mask != nullptr && x_active_mask->view_shape != Shape{tokens}) {
    return tiling("'xActiveMask' must be [BS]", x_active_mask);
  }
  if (expert_scales != nullptr && expert_scales->view_shape != expert_ids->view_shape) {
    return tiling("'expertScales' must be [BS, K]", expert_scales);
  }
  // The shapes CANN's infershape gives the outputs (what the step writes).
  if (expand_x->view_shape != Shape{a, hidden}) return tiling("'expandX' must be [A, H]", expand_x);
  if (dynamic_scales != nullptr && quant && dynamic_scales->view_shape != Shape{a}) {
    return tiling("'dynamicScales' must be [A]", dynamic_scales);
  }
  if (v.version == 1 ? expand_idx->view_shape != Shape{tokens * layout.k}
                     : expand_idx->rank() != 1 || expand_idx->view_shape[0] < tokens * layout.k) {
    return tiling("'expandIdx' (V2: 'assistInfoForCombineOut') must be [BS * K] (V2: 1-D, at least BS * K)",
                  expand_idx);
  }
  if (expert_token_nums->view_shape != Shape{layout.local_experts}) {
    return tiling("'expertTokenNums' must be [moeExpertNum / epWorldSize]", expert_token_nums);
  }
  if (ep_recv_counts->rank() != 1 || ep_recv_counts->view_shape[0] < moe_expert_num) {
    return tiling("'epRecvCounts' must be 1-D with at least moeExpertNum elements", ep_recv_counts);
  }

  DispatchDesc d;
  d.layout = layout;
  d.x_dtype = x->dtype;
  d.quant = quant;
  d.has_scales = scales != nullptr;
  d.has_mask = x_active_mask != nullptr;
  d.cumulative = expert_token_nums_type == 0;
  const auto contiguous_input = [&plan](const aclTensor* t, const char* name) {
    const TensorRef ref = plan.Input(t, name);
    return plan.Contiguous(ref, t->dtype).buffer;
  };
  d.x = contiguous_input(x, "x");
  d.expert_ids = contiguous_input(expert_ids, "expertIds");
  if (scales != nullptr) {
    d.scales = contiguous_input(scales, n.scales);
  } else {
    plan.SkipInput();
  }
  if (x_active_mask != nullptr) {
    d.mask = contiguous_input(x_active_mask, n.mask);
  } else {
    plan.SkipInput();
  }
  if (expert_scales != nullptr) {
    plan.Input(expert_scales, n.expert_scales);  // read by the layered kernel only
  } else {
    plan.SkipInput();
  }
  if (v.version == 3) plan.SkipInput();  // elasticInfoOptional, null on Atlas A2
  // Outputs are written where contiguous, else staged (zeroed first: the
  // step leaves rows past what the ranks sent unwritten).
  std::vector<std::pair<TensorRef, TensorRef>> copies;
  const auto output = [&](const aclTensor* t, const char* name) {
    const TensorRef ref = plan.Output(t, name);
    if (ref.IsContiguous()) return ref.buffer;
    const TensorRef staged = plan.Temporary(ref.dtype, ref.shape);
    plan.Fill(staged, ScalarValue::Integer(0));
    copies.emplace_back(staged, ref);
    return staged.buffer;
  };
  d.expand_x = output(expand_x, n.expand_x);
  if (dynamic_scales != nullptr) {
    const BufferRef ref = output(dynamic_scales, n.dynamic_scales);
    if (quant) d.dynamic_scales = ref;
  } else {
    plan.SkipOutput();
  }
  d.expand_idx = output(expand_idx, n.expand_idx);
  d.expert_token_nums = output(expert_token_nums, n.token_nums);
  d.ep_recv_counts = output(ep_recv_counts, n.recv_counts);
  plan.Output(tp_recv_counts, n.tp_recv_counts);  // Atlas A2 has no TP group: never written
  if (expand_scales != nullptr) {
    plan.Output(expand_scales, n.expand_scales);  // written by the layered kernel only
  } else {
    plan.SkipOutput();
  }
  plan.AddStep(std::make_unique<DispatchStep>(d));
  for (const auto& [staged, dst] : copies) plan.Copy(staged, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDispatchV1(Plan& plan, const aclTensor* x, const aclTensor* expert_ids, const aclTensor* scales,
                           const aclTensor* x_active_mask, const aclTensor* expert_scales, const char* group_ep,
                           int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp,
                           int64_t /*tp_world_size*/, int64_t /*tp_rank_id*/, int64_t /*expert_shard_type*/,
                           int64_t /*shared_expert_num*/, int64_t /*shared_expert_rank_num*/, int64_t quant_mode,
                           int64_t global_bs, int64_t expert_token_nums_type, const aclTensor* expand_x,
                           const aclTensor* dynamic_scales, const aclTensor* expand_idx,
                           const aclTensor* expert_token_nums, const aclTensor* ep_recv_counts,
                           const aclTensor* tp_recv_counts, const aclTensor* expand_scales) {
  return PlanDispatchCommon(plan, {}, x, expert_ids, scales, x_active_mask, expert_scales, group_ep, ep_world_size,
                            ep_rank_id, moe_expert_num, group_tp, quant_mode, global_bs, expert_token_nums_type,
                            expand_x, dynamic_scales, expand_idx, expert_token_nums, ep_recv_counts, tp_recv_counts,
                            expand_scales);
}

aclnnStatus PlanDispatchV2(Plan& plan, const aclTensor* x, const aclTensor* expert_ids, const aclTensor* scales,
                           const aclTensor* x_active_mask, const aclTensor* expert_scales, const char* group_ep,
                           int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp,
                           int64_t /*tp_world_size*/, int64_t /*tp_rank_id*/, int64_t /*expert_shard_type*/,
                           int64_t /*shared_expert_num*/, int64_t /*shared_expert_rank_num*/, int64_t quant_mode,
                           int64_t global_bs, int64_t expert_token_nums_type, const char* comm_alg,
                           const aclTensor* expand_x, const aclTensor* dynamic_scales, const aclTensor* assist_info,
                           const aclTensor* expert_token_nums, const aclTensor* ep_recv_counts,
                           const aclTensor* tp_recv_counts, const aclTensor* expand_scales) {
  const MoeVersionExtras v{.version = 2, .comm_alg = comm_alg};
  return PlanDispatchCommon(plan, v, x, expert_ids, scales, x_active_mask, expert_scales, group_ep, ep_world_size,
                            ep_rank_id, moe_expert_num, group_tp, quant_mode, global_bs, expert_token_nums_type,
                            expand_x, dynamic_scales, assist_info, expert_token_nums, ep_recv_counts, tp_recv_counts,
                            expand_scales);
}

aclnnStatus PlanDispatchV3(Plan& plan, const aclTensor* x, const aclTensor* expert_ids, const aclTensor* scales,
                           const aclTensor* x_active_mask, const aclTensor* expert_scales,
                           const aclTensor* elastic_info, const char* group_ep, int64_t ep_world_size,
                           int64_t ep_rank_id, int64_t moe_expert_num, const char* group_tp, int64_t /*tp_world_size*/,
                           int64_t /*tp_rank_id*/, int64_t /*expert_shard_type*/, int64_t /*shared_expert_num*/,
                           int64_t /*shared_expert_rank_num*/, int64_t quant_mode, int64_t global_bs,
                           int64_t expert_token_nums_type, const char* comm_alg, int64_t zero_expert_num,
                           int64_t copy_expert_num, int64_t const_expert_num, const aclTensor* expand_x,
                           const aclTensor* dynamic_scales, const aclTensor* assist_info,
                           const aclTensor* expert_token_nums, const aclTensor* ep_recv_counts,
                           const aclTensor* tp_recv_counts, const aclTensor* expand_scales) {
  const MoeVersionExtras v{.version = 3,
                           .comm_alg = comm_alg,
                           .elastic_info = elastic_info,
                           .zero_experts = zero_expert_num,
                           .copy_experts = copy_expert_num,
                           .const_experts = const_expert_num};
  return PlanDispatchCommon(plan, v, x, expert_ids, scales, x_active_mask, expert_scales, group_ep, ep_world_size,
                            ep_rank_id, moe_expert_num, group_tp, quant_mode, global_bs, expert_token_nums_type,
                            expand_x, dynamic_scales, assist_info, expert_token_nums, ep_recv_counts, tp_recv_counts,
                            expand_scales);
}

constexpr DtypeSet kDispatchDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_FLOAT, ACL_BOOL, ACL_INT8, ACL_INT64};
constexpr OpTraits kDispatch{
    .header = "aclnnop/aclnn_moe_distribute_dispatch.h",
    .dtypes = kDispatchDtypes,
    .max_rank = 2,
    .example =
        "f16[2,32] i32[2,1]{0:1} - - - 'hccl_world_group' 8 0 8 '' 0 0 0 0 0 0 0 1 f16[16,32] - i32[2] "
        "i64[1] i32[8] i32[0] -"};
constexpr OpTraits kDispatchV2{
    .header = "aclnnop/aclnn_moe_distribute_dispatch_v2.h",
    .dtypes = kDispatchDtypes,
    .max_rank = 2,
    .example =
        "f16[2,32] i32[2,1]{0:1} - - - 'hccl_world_group' 8 0 8 '' 0 0 0 0 0 0 0 1 'fullmesh' f16[16,32] - "
        "i32[2048] i64[1] i32[8] i32[0] -"};
constexpr OpTraits kDispatchV3{
    .header = "aclnnop/aclnn_moe_distribute_dispatch_v3.h",
    .dtypes = kDispatchDtypes,
    .max_rank = 2,
    .example =
        "f16[2,32] i32[2,1]{0:1} - - - - 'hccl_world_group' 8 0 8 '' 0 0 0 0 0 0 0 1 'fullmesh' 0 0 0 "
        "f16[16,32] - i32[2048] i64[1] i32[8] i32[0] -"};

}  // namespace

CANOPY_ACLNN_OP(MoeDistributeDispatch, PlanDispatchV1, kDispatch, (const aclTensor*, x), (const aclTensor*, expertIds),
                (const aclTensor*, scales, optional), (const aclTensor*, xActiveMask, optional),
                (const aclTensor*, expertScales, optional), (const char*, groupEp), (int64_t, epWorldSize),
                (int64_t, epRankId), (int64_t, moeExpertNum), (const char*, groupTp), (int64_t, tpWorldSize),
                (int64_t, tpRankId), (int64_t, expertShardType), (int64_t, sharedExpertNum),
                (int64_t, sharedExpertRankNum), (int64_t, quantMode), (int64_t, globalBs),
                (int64_t, expertTokenNumsType), (aclTensor*, expandX), (aclTensor*, dynamicScales, optional),
                (aclTensor*, expandIdx), (aclTensor*, expertTokenNums), (aclTensor*, epRecvCounts),
                (aclTensor*, tpRecvCounts), (aclTensor*, expandScales, optional))

CANOPY_ACLNN_OP(MoeDistributeDispatchV2, PlanDispatchV2, kDispatchV2, (const aclTensor*, x),
                (const aclTensor*, expertIds), (const aclTensor*, scalesOptional, optional),
                (const aclTensor*, xActiveMaskOptional, optional), (const aclTensor*, expertScalesOptional, optional),
                (const char*, groupEp), (int64_t, epWorldSize), (int64_t, epRankId), (int64_t, moeExpertNum),
                (const char*, groupTp), (int64_t, tpWorldSize), (int64_t, tpRankId), (int64_t, expertShardType),
                (int64_t, sharedExpertNum), (int64_t, sharedExpertRankNum), (int64_t, quantMode), (int64_t, globalBs),
                (int64_t, expertTokenNumsType), (const char*, commAlg, optional), (aclTensor*, expandXOut),
                (aclTensor*, dynamicScalesOut, optional), (aclTensor*, assistInfoForCombineOut),
                (aclTensor*, expertTokenNumsOut), (aclTensor*, epRecvCountsOut), (aclTensor*, tpRecvCountsOut),
                (aclTensor*, expandScalesOut, optional))

CANOPY_ACLNN_OP(MoeDistributeDispatchV3, PlanDispatchV3, kDispatchV3, (const aclTensor*, x),
                (const aclTensor*, expertIds), (const aclTensor*, scalesOptional, optional),
                (const aclTensor*, xActiveMaskOptional, optional), (const aclTensor*, expertScalesOptional, optional),
                (const aclTensor*, elasticInfoOptional, optional), (const char*, groupEp), (int64_t, epWorldSize),
                (int64_t, epRankId), (int64_t, moeExpertNum), (const char*, groupTp), (int64_t, tpWorldSize),
                (int64_t, tpRankId), (int64_t, expertShardType), (int64_t, sharedExpertNum),
                (int64_t, sharedExpertRankNum), (int64_t, quantMode), (int64_t, globalBs),
                (int64_t, expertTokenNumsType), (const char*, commAlg, optional), (int64_t, zeroExpertNum),
                (int64_t, copyExpertNum), (int64_t, constExpertNum), (aclTensor*, expandXOut),
                (aclTensor*, dynamicScalesOut, optional), (aclTensor*, assistInfoForCombineOut),
                (aclTensor*, expertTokenNumsOut), (aclTensor*, epRecvCountsOut), (aclTensor*, tpRecvCountsOut),
                (aclTensor*, expandScalesOut, optional))
