#include "moe_distribute.h"

#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "canopy/canopy_hccl.h"
#include "ops/shape/gather.h"

namespace canopy::ops {

aclnnStatus CheckGroupNames(Plan& plan, const char* group_ep, const char* group_tp, aclnnStatus length_status) {
  constexpr size_t kMaxGroupName = 128;  // CANN's HCCL_GROUP_NAME_MAX
  if (*group_ep == '\0') return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'groupEp' is an empty string");
  if (strnlen(group_ep, kMaxGroupName) >= kMaxGroupName) {
    return plan.Reject(length_status, "argument 'groupEp' is %zu characters or longer", kMaxGroupName);
  }
  if (strnlen(group_tp, kMaxGroupName) >= kMaxGroupName) {
    return plan.Reject(length_status, "argument 'groupTp' is %zu characters or longer", kMaxGroupName);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckMoeEpLayout(Plan& plan, int64_t tokens, int64_t k, int64_t hidden, const char* group_ep,
                             int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num, int64_t global_bs,
                             MoeEpLayout& layout) {
  const auto tiling = [&plan](const char* what, int64_t value) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "%s is %lld", what, static_cast<long long>(value));
  };
  constexpr int64_t kMaxHidden = 7168, kAlignHidden = 32, kMaxTokens = 256, kMaxK = 16;
  if (hidden <= 0 || hidden > kMaxHidden || hidden % kAlignHidden != 0) {
    return tiling("H (x's last dim; a multiple of 32 in (0, 7168] on Atlas A2)", hidden);
  }
  if (tokens <= 0 || tokens > kMaxTokens) return tiling("BS (expertIds' rows; in (0, 256] on Atlas A2)", tokens);
  if (k <= 0 || k > kMaxK) return tiling("K (expertIds' columns; in (0, 16])", k);
  constexpr int64_t kMaxRanks = 256, kRankMultiple = 8, kMaxExperts = 512, kMaxLocalExperts = 24;
  if (ep_world_size <= 0 || ep_world_size > kMaxRanks || ep_world_size % kRankMultiple != 0) {
    return tiling("epWorldSize (a multiple of 8 up to 256 on Atlas A2)", ep_world_size);
  }
  if (ep_rank_id < 0 || ep_rank_id >= ep_world_size) return tiling("epRankId (in [0, epWorldSize))", ep_rank_id);
  if (moe_expert_num <= 0 || moe_expert_num > kMaxExperts || moe_expert_num % ep_world_size != 0) {
    return tiling("moeExpertNum (a multiple of epWorldSize in (0, 512])", moe_expert_num);
  }
  if (moe_expert_num / ep_world_size > kMaxLocalExperts) {
    return tiling("moeExpertNum / epWorldSize (at most 24 on Atlas A2)", moe_expert_num / ep_world_size);
  }
  if (global_bs != 0 && (global_bs % ep_world_size != 0 || global_bs / ep_world_size < tokens)) {
    return tiling("globalBs (0, or epWorldSize times at least BS)", global_bs);
  }
  CommGroup group;
  CANOPY_CHECK(ResolveGroup(plan, group_ep, 0, {static_cast<uint32_t>(ep_world_size)}, group));
  if (static_cast<int64_t>(group.rank) != ep_rank_id) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "epRankId is %lld but this device is rank %u of group '%s'",
                       static_cast<long long>(ep_rank_id), group.rank, group.name.c_str());
  }
  layout.group = group;
  layout.ranks = ep_world_size;
  layout.experts = moe_expert_num;
  layout.local_experts = moe_expert_num / ep_world_size;
  layout.tokens = tokens;
  layout.k = k;
  layout.hidden = hidden;
  const int64_t global = global_bs != 0 ? global_bs : tokens * ep_world_size;
  layout.capacity = global * std::min(layout.local_experts, k);
  return ACLNN_SUCCESS;
}

aclnnStatus CheckVersionExtras(Plan& plan, const MoeVersionExtras& extras, bool& layered) {
  layered = false;
  if (extras.version == 1) return ACLNN_SUCCESS;
  const char* alg = extras.comm_alg;
  if (alg == nullptr || *alg == '\0' || std::strcmp(alg, "0") == 0) {
    const char* pcie = std::getenv("HCCL_INTRA_PCIE_ENABLE");
    const char* roce = std::getenv("HCCL_INTRA_ROCE_ENABLE");
    layered = pcie != nullptr && std::strcmp(pcie, "1") == 0 && roce != nullptr && std::strcmp(roce, "0") == 0;
  } else if (std::strcmp(alg, "hierarchy") == 0) {
    layered = true;
  } else if (std::strcmp(alg, "fullmesh") != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "commAlg is '%s'; it is \"fullmesh\", \"hierarchy\" or empty",
                       alg);
  }
  if (extras.elastic_info != nullptr) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'elasticInfoOptional' must be null on Atlas A2");
  }
  if (extras.zero_experts != 0 || extras.copy_experts != 0 || extras.const_experts != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "zeroExpertNum, copyExpertNum and constExpertNum are %lld, %lld and %lld; Atlas A2 takes 0",
                       static_cast<long long>(extras.zero_experts), static_cast<long long>(extras.copy_experts),
                       static_cast<long long>(extras.const_experts));
  }
  return ACLNN_SUCCESS;
}

int64_t ActiveTokens(const bool* mask, int64_t tokens) {
  if (mask == nullptr) return tokens;
  int64_t active = 0;
  while (active < tokens && mask[active]) ++active;
  return active;
}

std::string CountCopies(const int32_t* expert_ids, int64_t pairs, const MoeEpLayout& layout,
                        std::vector<int32_t>& copies) {
  copies.assign(static_cast<size_t>(layout.experts), 0);
  for (int64_t i = 0; i < pairs; ++i) {
    const int32_t e = expert_ids[i];
    if (e < 0 || e >= layout.experts) {
      return "expertIds[" + std::to_string(i / layout.k) + ", " + std::to_string(i % layout.k) + "] is " +
             std::to_string(e) + ", outside [0, moeExpertNum = " + std::to_string(layout.experts) + ")";
    }
    ++copies[static_cast<size_t>(e)];
  }
  return "";
}

aclnnStatus AgreeOnFailure(const char* op, const CommGroup& group, bool failed, const std::string& why,
                           int32_t* flags) {
  const int32_t mine = failed ? 1 : 0;
  if (canopyHcclRunAllGather(group.name.c_str(), group.size, &mine, flags, 1, HCCL_DATA_TYPE_INT32) != HCCL_SUCCESS) {
    const char* reason = aclGetRecentErrMsg();
    SetErrorMessage("%s: exchanging the ranks' state on group '%s' failed: %s", op, group.name.c_str(),
                    reason != nullptr ? reason : "");
    return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
  }
  if (failed) {
    SetErrorMessage("%s: %s", op, why.c_str());
    return kIndexOutOfRangeStatus;
  }
  for (uint32_t r = 0; r < group.size; ++r) {
    if (flags[r] != 0) {
      SetErrorMessage("%s: rank %u of group '%s' found its inputs invalid; no rank exchanged tokens", op, r,
                      group.name.c_str());
      return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
