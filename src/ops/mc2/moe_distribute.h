// What CANN's MoeDistributeDispatch and MoeDistributeCombine share on Atlas A2
// (their full-mesh form: no shared experts, no TP group): the expert-parallel
// layout and the checks of its attributes. Expert e lives on rank e / L as
// its local expert e % L (L = moeExpertNum / epWorldSize). Dispatch sends
// every (token, k) pair's row to its expert's rank; the receiving rank lays
// rows out expert-major, then by source rank, each block in the source's
// (token, k) order, and epRecvCounts[j * W + s] is the inclusive prefix sum
// of those blocks' sizes. Combine sends the rows back and sums each token's
// K rows weighted by expertScales.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collective.h"
#include "ops/framework/aclnn_op.h"

namespace canopy::ops {

struct MoeEpLayout {
  CommGroup group;
  int64_t ranks = 0;          // W = epWorldSize
  int64_t experts = 0;        // E = moeExpertNum
  int64_t local_experts = 0;  // L = E / W
  int64_t tokens = 0, k = 0;  // BS, K of expertIds
  int64_t hidden = 0;         // H
  int64_t capacity = 0;       // A = globalBs' * min(L, K): expandX's rows
};

// CANN's A2 tiling checks (561002) of the attributes both ops take, in its
// order: H a multiple of 32 in (0, 7168], BS in (0, 256], K in (0, 16];
// epWorldSize a multiple of 8 up to 256 naming a live group of that many
// ranks, epRankId this rank's; moeExpertNum in (0, 512] and a multiple of
// epWorldSize, at most 24 experts a rank; globalBs 0 or a multiple of
// epWorldSize of at least BS per rank. Fills `layout`.
aclnnStatus CheckMoeEpLayout(Plan& plan, int64_t tokens, int64_t k, int64_t hidden, const char* group_ep,
                             int64_t ep_world_size, int64_t ep_rank_id, int64_t moe_expert_num, int64_t global_bs,
                             MoeEpLayout& layout);

// The host layer's string checks: groupEp non-null and non-empty (161001),
// both names shorter than 128 (`length_status`: 161001 in Dispatch, 161002 in Combine).
aclnnStatus CheckGroupNames(Plan& plan, const char* group_ep, const char* group_tp, aclnnStatus length_status);

// What V2 and V3 add to V1's attributes: the communication algorithm, V3's
// elastic-scaling input and its counts of zero, copy and constant experts.
struct MoeVersionExtras {
  int version = 1;
  const char* comm_alg = nullptr;
  const aclTensor* elastic_info = nullptr;
  int64_t zero_experts = 0, copy_experts = 0, const_experts = 0;
};

// CANN's A2 tiling of those (561002): commAlg null, "", "0", "fullmesh" or
// "hierarchy"; no elastic info, no zero / copy / constant experts. Sets
// `layered` for "hierarchy" (and for null, "" or "0" under CANN's environment
// rule: HCCL_INTRA_PCIE_ENABLE=1 with HCCL_INTRA_ROCE_ENABLE=0). Canopy runs
// the layered form as the full-mesh one: the tokens' results are the same,
// and the layout outputs are CANN's to encode (clients pass them through).
aclnnStatus CheckVersionExtras(Plan& plan, const MoeVersionExtras& extras, bool& layered);

// The tokens a run takes: those before the first false of xActiveMask (CANN:
// the true entries come first), all BS without a mask.
int64_t ActiveTokens(const bool* mask, int64_t tokens);

// Counts this rank's copies to each expert among its first `pairs` (token, k)
// pairs into `copies` (moeExpertNum entries); returns "" or, for an id outside
// [0, moeExpertNum), what is wrong (counting stops there).
std::string CountCopies(const int32_t* expert_ids, int64_t pairs, const MoeEpLayout& layout,
                        std::vector<int32_t>& copies);

// Every rank's view of a run's failure, so that all of them stop before a
// collective that some would never join: this rank's `failed` flag gathered
// from all ranks. Returns an error status (after setting the message) when
// this or any rank failed or the gathering itself did.
aclnnStatus AgreeOnFailure(const char* op, const CommGroup& group, bool failed, const std::string& why, int32_t* flags);

}  // namespace canopy::ops
