// aclnnMoeDistributeDispatch and aclnnMoeDistributeCombine on 8 ranks of an
// HcclCommInitAll communicator (Atlas A2's smallest expert-parallel group),
// against a plain reference of CANN's A2 full-mesh layout: each receiving
// rank's expandX expert-major then by source rank, expandIdx, the inclusive
// epRecvCounts, expertTokenNums of both types, per-row INT8 quantisation with
// smooth scales, xActiveMask; combine's weighted sum of the rows it is given;
// CANN's rejections with their codes, and a bad expert id on one rank failing
// every rank's run without a hang.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_moe_distribute_combine.h"
#include "aclnnop/aclnn_moe_distribute_combine_v2.h"
#include "aclnnop/aclnn_moe_distribute_combine_v3.h"
#include "aclnnop/aclnn_moe_distribute_dispatch.h"
#include "aclnnop/aclnn_moe_distribute_dispatch_v2.h"
#include "aclnnop/aclnn_moe_distribute_dispatch_v3.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

constexpr uint32_t kRanks = 8;

struct MoeCase {
  aclDataType dtype = ACL_BF16;
  int64_t tokens = 4, k = 2, hidden = 32, experts = 16;
  bool quant = false, smooth = false, mask = false;
  int64_t token_nums_type = 1;
  int version = 1;  // V2 and V3: the same layout through their entry points (commAlg "fullmesh")
  int64_t local() const { return experts / kRanks; }
  int64_t capacity() const { return tokens * kRanks * std::min(local(), k); }
};

// Where CANN's layout puts rank s's pair i on its expert's rank: row[s][i].
struct Layout {
  std::vector<int64_t> active;                    // tokens taken per rank
  std::vector<std::vector<int64_t>> row;          // [s][i]
  std::vector<std::vector<int32_t>> expand_idx;   // [s][i]
  std::vector<std::vector<int32_t>> recv_counts;  // [r][j * W + s], inclusive
  std::vector<std::vector<int64_t>> per_expert;   // [r][j]
};

Layout Reference(const MoeCase& c, const std::vector<std::vector<int32_t>>& ids, const std::vector<int64_t>& active) {
  Layout l;
  l.active = active;
  const int64_t local = c.local();
  // count[s][e]
  std::vector<std::vector<int64_t>> count(kRanks, std::vector<int64_t>(c.experts, 0));
  l.expand_idx.assign(kRanks, {});
  for (uint32_t s = 0; s < kRanks; ++s) {
    for (int64_t i = 0; i < active[s] * c.k; ++i)
      l.expand_idx[s].push_back(static_cast<int32_t>(count[s][ids[s][i]]++));
  }
  // offset[r][j][s]
  std::vector<std::vector<std::vector<int64_t>>> offset(
      kRanks, std::vector<std::vector<int64_t>>(local, std::vector<int64_t>(kRanks)));
  l.recv_counts.assign(kRanks, std::vector<int32_t>(c.experts));
  l.per_expert.assign(kRanks, std::vector<int64_t>(local, 0));
  for (uint32_t r = 0; r < kRanks; ++r) {
    int64_t running = 0;
    for (int64_t j = 0; j < local; ++j) {
      for (uint32_t s = 0; s < kRanks; ++s) {
        offset[r][j][s] = running;
        running += count[s][r * local + j];
        l.per_expert[r][j] += count[s][r * local + j];
        l.recv_counts[r][j * kRanks + s] = static_cast<int32_t>(running);
      }
    }
  }
  l.row.assign(kRanks, {});
  for (uint32_t s = 0; s < kRanks; ++s) {
    for (int64_t i = 0; i < active[s] * c.k; ++i) {
      const int32_t e = ids[s][i];
      l.row[s].push_back(offset[e / local][e % local][s] + l.expand_idx[s][i]);
    }
  }
  return l;
}

struct Rank {
  std::unique_ptr<DeviceTensor> x, ids, scales, mask, weights;
  std::unique_ptr<DeviceTensor> expand_x, dynamic_scales, expand_idx, token_nums, recv_counts, tp_recv_counts;
  Values xv, scalesv, weightsv;
  std::vector<int32_t> idv;
  int64_t active = 0;
};

std::vector<Rank> MakeRanks(const Ranks& ranks, const MoeCase& c, Rng& rng) {
  std::vector<Rank> data(kRanks);
  for (uint32_t r = 0; r < kRanks; ++r) {
    ranks.OnDevice(r);
    Rank& d = data[r];
    d.x = std::make_unique<DeviceTensor>(c.dtype, Shape{c.tokens, c.hidden});
    d.xv = d.x->FillRandom(rng, {-2, 2});
    // K distinct experts a token, as a top-k router picks them.
    Values ids;
    for (int64_t t = 0; t < c.tokens; ++t) {
      std::vector<int32_t> pool(static_cast<size_t>(c.experts));
      for (int64_t e = 0; e < c.experts; ++e) pool[e] = static_cast<int32_t>(e);
      for (int64_t q = 0; q < c.k; ++q) {
        const auto pick = static_cast<size_t>(rng.Uniform(0, static_cast<double>(pool.size() - 1e-9)));
        d.idv.push_back(pool[pick]);
        ids.emplace_back(pool[pick]);
        pool.erase(pool.begin() + static_cast<ptrdiff_t>(pick));
      }
    }
    d.ids = Upload(ACL_INT32, {c.tokens, c.k}, ids);
    if (c.smooth) {
      d.scales = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{c.experts, c.hidden});
      d.scalesv = d.scales->FillRandom(rng, {0.5, 1.5});
    }
    d.active = c.mask ? static_cast<int64_t>(r % 3 == 0 ? c.tokens - 1 : c.tokens) : c.tokens;
    if (c.mask) {
      Values mask;
      for (int64_t t = 0; t < c.tokens; ++t) mask.emplace_back(t < d.active ? 1 : 0);
      d.mask = Upload(ACL_BOOL, {c.tokens}, mask);
    }
    d.weights = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{c.tokens, c.k});
    d.weightsv = d.weights->FillRandom(rng, {0, 1});
    d.expand_x = Poisoned(c.quant ? ACL_INT8 : c.dtype, {c.capacity(), c.hidden});
    d.dynamic_scales = Poisoned(ACL_FLOAT, {c.capacity()});
    // V2's assistInfoForCombine holds A * 128 entries; the first BS * K are expandIdx.
    d.expand_idx = Poisoned(ACL_INT32, {c.version == 1 ? c.tokens * c.k : c.capacity() * 128});
    d.token_nums = Poisoned(ACL_INT64, {c.local()});
    d.recv_counts = Poisoned(ACL_INT32, {c.experts});
    d.tp_recv_counts = std::make_unique<DeviceTensor>(ACL_INT32, Shape{0});
  }
  return data;
}

std::vector<OpRun> Dispatch(const Ranks& ranks, const MoeCase& c, const std::vector<Rank>& data) {
  return ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const Rank& d = data[r];
        aclTensor* scales = c.smooth ? args.Tensor(*d.scales) : nullptr;
        aclTensor* mask = c.mask ? args.Tensor(*d.mask) : nullptr;
        aclTensor* dynamic = c.quant ? args.Tensor(*d.dynamic_scales) : nullptr;
        const int64_t quant = c.quant ? 2 : 0;
        if (c.version == 2) {
          return aclnnMoeDistributeDispatchV2GetWorkspaceSize(
              args.Tensor(*d.x), args.Tensor(*d.ids), scales, mask, args.Tensor(*d.weights), ranks.group(), kRanks, r,
              c.experts, "", 0, 0, 0, 0, 0, quant, 0, c.token_nums_type, "fullmesh", args.Tensor(*d.expand_x), dynamic,
              args.Tensor(*d.expand_idx), args.Tensor(*d.token_nums), args.Tensor(*d.recv_counts),
              args.Tensor(*d.tp_recv_counts), nullptr, size, executor);
        }
        if (c.version == 3) {
          return aclnnMoeDistributeDispatchV3GetWorkspaceSize(
              args.Tensor(*d.x), args.Tensor(*d.ids), scales, mask, args.Tensor(*d.weights), nullptr, ranks.group(),
              kRanks, r, c.experts, "", 0, 0, 0, 0, 0, quant, 0, c.token_nums_type, nullptr, 0, 0, 0,
              args.Tensor(*d.expand_x), dynamic, args.Tensor(*d.expand_idx), args.Tensor(*d.token_nums),
              args.Tensor(*d.recv_counts), args.Tensor(*d.tp_recv_counts), nullptr, size, executor);
        }
        return aclnnMoeDistributeDispatchGetWorkspaceSize(
            args.Tensor(*d.x), args.Tensor(*d.ids), scales, mask, args.Tensor(*d.weights), ranks.group(), kRanks, r,
            c.experts, "", 0, 0, 0, 0, 0, quant, 0, c.token_nums_type, args.Tensor(*d.expand_x), dynamic,
            args.Tensor(*d.expand_idx), args.Tensor(*d.token_nums), args.Tensor(*d.recv_counts),
            args.Tensor(*d.tp_recv_counts), nullptr, size, executor);
      },
      c.version == 2   ? aclnnMoeDistributeDispatchV2
      : c.version == 3 ? aclnnMoeDistributeDispatchV3
                       : aclnnMoeDistributeDispatch);
}

class MoeDistributeTest : public ::testing::TestWithParam<MoeCase> {};

TEST_P(MoeDistributeTest, DispatchLaysRowsOutAsCannAndCombineSumsThemBack) {
  const MoeCase& c = GetParam();
  const Ranks ranks(kRanks);
  Rng rng = Rng::ForCurrentTest();
  std::vector<Rank> data = MakeRanks(ranks, c, rng);
  const auto runs = Dispatch(ranks, c, data);
  std::vector<std::vector<int32_t>> ids;
  std::vector<int64_t> active;
  for (const Rank& d : data) {
    ids.push_back(d.idv);
    active.push_back(d.active);
  }
  const Layout l = Reference(c, ids, active);
  std::vector<Values> expand(kRanks), dyn(kRanks);
  for (uint32_t r = 0; r < kRanks; ++r) {
    ASSERT_TRUE(runs[r].ok()) << "rank " << r << ": " << Describe(runs[r]);
    expand[r] = data[r].expand_x->ReadView();
    dyn[r] = data[r].dynamic_scales->ReadView();
    const Values idx = data[r].expand_idx->ReadView();
    for (size_t i = 0; i < l.expand_idx[r].size(); ++i) EXPECT_EQ(idx[i].real(), l.expand_idx[r][i]) << r << " " << i;
    const Values counts = data[r].recv_counts->ReadView();
    for (int64_t b = 0; b < c.experts; ++b) EXPECT_EQ(counts[b].real(), l.recv_counts[r][b]) << r << " " << b;
    const Values nums = data[r].token_nums->ReadView();
    int64_t cumulative = 0;
    for (int64_t j = 0; j < c.local(); ++j) {
      cumulative += l.per_expert[r][j];
      EXPECT_EQ(nums[j].real(), c.token_nums_type == 0 ? cumulative : l.per_expert[r][j]) << r << " " << j;
    }
  }
  // Every pair's row where CANN puts it: x's row, or its int8 image and scale.
  for (uint32_t s = 0; s < kRanks; ++s) {
    for (int64_t i = 0; i < l.active[s] * c.k; ++i) {
      const int32_t e = ids[s][i];
      const uint32_t owner = static_cast<uint32_t>(e / c.local());
      const int64_t t = i / c.k, row = l.row[s][i];
      double max_abs = 0;
      std::vector<double> f(static_cast<size_t>(c.hidden));
      for (int64_t h = 0; h < c.hidden; ++h) {
        f[h] = data[s].xv[t * c.hidden + h].real() * (c.smooth ? data[s].scalesv[e * c.hidden + h].real() : 1.0);
        max_abs = std::max(max_abs, std::abs(f[h]));
      }
      for (int64_t h = 0; h < c.hidden; ++h) {
        const double got = expand[owner][row * c.hidden + h].real();
        if (!c.quant) {
          ASSERT_EQ(got, f[h]) << "rank " << s << " pair " << i << " column " << h;
        } else {
          ASSERT_NEAR(got, std::nearbyint(f[h] * 127 / max_abs), 1.0) << "rank " << s << " pair " << i;
        }
      }
      if (c.quant) {
        EXPECT_NEAR(dyn[owner][row].real(), max_abs / 127, 1e-6 * max_abs);
      }
    }
  }
  if (c.quant) return;

  // Combine: each expert rank's rows (here: what dispatch delivered, scaled
  // by the local expert's number, an "expert" whose output is easy to know).
  std::vector<std::unique_ptr<DeviceTensor>> outputs(kRanks), expert_out(kRanks);
  std::vector<Values> expert_values(kRanks);
  for (uint32_t r = 0; r < kRanks; ++r) {
    ranks.OnDevice(r);
    Values v = expand[r];
    for (int64_t q = 0; q < l.recv_counts[r][c.experts - 1]; ++q) {
      int64_t j = 0;
      while (l.recv_counts[r][j * kRanks + kRanks - 1] <= q) ++j;
      for (int64_t h = 0; h < c.hidden; ++h)
        v[q * c.hidden + h] = ConvertValue(v[q * c.hidden + h] * double(j + 1), c.dtype);
    }
    expert_values[r] = v;
    expert_out[r] = Upload(c.dtype, {c.capacity(), c.hidden}, v);
    outputs[r] = Poisoned(c.dtype, {c.tokens, c.hidden});
  }
  const auto combined = ranks.Run(
      [&](uint32_t r, OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
        const Rank& d = data[r];
        aclTensor* mask = c.mask ? args.Tensor(*d.mask) : nullptr;
        if (c.version == 2) {
          return aclnnMoeDistributeCombineV2GetWorkspaceSize(
              args.Tensor(*expert_out[r]), args.Tensor(*d.ids), args.Tensor(*d.expand_idx), args.Tensor(*d.recv_counts),
              args.Tensor(*d.weights), nullptr, mask, nullptr, nullptr, nullptr, nullptr, nullptr, ranks.group(),
              kRanks, r, c.experts, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, "fullmesh", args.Tensor(*outputs[r]), size,
              executor);
        }
        if (c.version == 3) {
          return aclnnMoeDistributeCombineV3GetWorkspaceSize(
              args.Tensor(*expert_out[r]), args.Tensor(*d.ids), args.Tensor(*d.expand_idx), args.Tensor(*d.recv_counts),
              args.Tensor(*d.weights), nullptr, mask, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr, ranks.group(), kRanks, r, c.experts, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, "", 0, 0,
              0, args.Tensor(*outputs[r]), size, executor);
        }
        return aclnnMoeDistributeCombineGetWorkspaceSize(
            args.Tensor(*expert_out[r]), args.Tensor(*d.ids), args.Tensor(*d.expand_idx), args.Tensor(*d.recv_counts),
            args.Tensor(*d.weights), nullptr, mask, nullptr, nullptr, nullptr, nullptr, ranks.group(), kRanks, r,
            c.experts, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, args.Tensor(*outputs[r]), size, executor);
      },
      c.version == 2   ? aclnnMoeDistributeCombineV2
      : c.version == 3 ? aclnnMoeDistributeCombineV3
                       : aclnnMoeDistributeCombine);
  for (uint32_t s = 0; s < kRanks; ++s) {
    ASSERT_TRUE(combined[s].ok()) << "rank " << s << ": " << Describe(combined[s]);
    const Values got = outputs[s]->ReadView();
    for (int64_t t = 0; t < c.tokens; ++t) {
      for (int64_t h = 0; h < c.hidden; ++h) {
        if (t >= l.active[s]) {
          EXPECT_TRUE(std::isnan(got[t * c.hidden + h].real())) << "a masked token was written";
          continue;
        }
        double sum = 0, magnitude = 0;
        for (int64_t q = 0; q < c.k; ++q) {
          const int64_t i = t * c.k + q;
          const uint32_t owner = static_cast<uint32_t>(ids[s][i] / c.local());
          const double term = expert_values[owner][l.row[s][i] * c.hidden + h].real() * data[s].weightsv[i].real();
          sum += term;
          magnitude += std::abs(term);
        }
        EXPECT_NEAR(got[t * c.hidden + h].real(), ConvertValue(Value(sum), c.dtype).real(),
                    2 * UnitRoundoff(c.dtype) * (magnitude + std::abs(sum)) + 1e-6)
            << "rank " << s << " token " << t << " column " << h;
      }
    }
  }
}

void PrintTo(const MoeCase& c, std::ostream* os) {
  *os << Name(c.dtype) << (c.quant ? "_quant" : "") << (c.mask ? "_mask" : "");
}

INSTANTIATE_TEST_SUITE_P(
    Ranks, MoeDistributeTest,
    ::testing::Values(MoeCase{.dtype = ACL_BF16}, MoeCase{.dtype = ACL_FLOAT16, .token_nums_type = 0},
                      MoeCase{.dtype = ACL_BF16, .tokens = 6, .k = 3, .hidden = 64, .experts = 24, .mask = true},
                      MoeCase{.dtype = ACL_FLOAT16, .quant = true},
                      MoeCase{.dtype = ACL_BF16, .quant = true, .smooth = true},
                      MoeCase{.dtype = ACL_BF16, .mask = true, .version = 2},
                      MoeCase{.dtype = ACL_FLOAT16, .quant = true, .version = 3},
                      MoeCase{.dtype = ACL_FLOAT16, .version = 3}),
    [](const auto& info) {
      std::string name = Name(info.param.dtype);
      if (info.param.quant) name += info.param.smooth ? "_quant_smooth" : "_quant";
      if (info.param.mask) name += "_mask";
      if (info.param.token_nums_type == 0) name += "_cumulative";
      if (info.param.version > 1) name += "_v" + std::to_string(info.param.version);
      return name;
    });

// A bad expert id on one rank: every rank's run fails, none hangs.
TEST(MoeDistribute, ABadExpertIdOnOneRankStopsEveryRank) {
  const MoeCase c;
  const Ranks ranks(kRanks);
  Rng rng = Rng::ForCurrentTest();
  std::vector<Rank> data = MakeRanks(ranks, c, rng);
  ranks.OnDevice(3);
  Values ids;
  for (int64_t i = 0; i < c.tokens * c.k; ++i) ids.emplace_back(i == 5 ? c.experts : 1);
  data[3].ids = Upload(ACL_INT32, {c.tokens, c.k}, ids);
  const auto runs = Dispatch(ranks, c, data);
  for (uint32_t r = 0; r < kRanks; ++r) {
    ASSERT_EQ(runs[r].phase1, ACLNN_SUCCESS);
    EXPECT_NE(runs[r].sync, ACL_SUCCESS) << "rank " << r;
    EXPECT_NE(runs[r].message.find(r == 3 ? "expertIds" : "rank 3"), std::string::npos) << runs[r].message;
  }
}

// ---- rejections -----------------------------------------------------------------------------------

// V2 / V3's own attributes on Atlas A2 (561002): commAlg, the special experts, elastic info.
TEST(MoeDistribute, VersionTwoAndThreeAttributes) {
  const MoeCase c;
  const Ranks ranks(kRanks);
  const auto phase1 = [&](const char* comm_alg, int64_t zero_experts, bool elastic) {
    OpArgs args;
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = aclnnMoeDistributeDispatchV3GetWorkspaceSize(
        args.NewTensor(ACL_BF16, {c.tokens, c.hidden}), args.NewTensorIn({0, 1}, ACL_INT32, {c.tokens, c.k}), nullptr,
        nullptr, nullptr, elastic ? args.NewTensor(ACL_INT32, {4}) : nullptr, ranks.group(), kRanks, 0, c.experts, "",
        0, 0, 0, 0, 0, 0, 0, 1, comm_alg, zero_experts, 0, 0, args.NewTensor(ACL_BF16, {c.capacity(), c.hidden}),
        nullptr, args.NewTensor(ACL_INT32, {c.capacity() * 128}), args.NewTensor(ACL_INT64, {c.local()}),
        args.NewTensor(ACL_INT32, {c.experts}), args.NewTensor(ACL_INT32, {0}), nullptr, &size, &executor);
    if (status == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
    return status;
  };
  EXPECT_EQ(phase1("fullmesh", 0, false), ACLNN_SUCCESS);
  EXPECT_EQ(phase1("ring", 0, false), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("commAlg"), std::string::npos);
  EXPECT_EQ(phase1("fullmesh", 1, false), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_EQ(phase1(nullptr, 0, true), ACLNN_ERR_INNER_TILING_ERROR);
  // The hierarchy algorithm needs expertScales and expandScales.
  EXPECT_EQ(phase1("hierarchy", 0, false), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("hierarchy"), std::string::npos);
}

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  uint32_t ranks = kRanks;
  int64_t hidden = 32, world = kRanks, rank = 0, experts = 16, quant_mode = 0, token_nums_type = 1, global_bs = 0;
  const char* group_ep = nullptr;  // the communicator's own name
  bool scales = false, dynamic_scales = false;
  Shape expand_x{};  // empty: the right shape
};
void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class DispatchRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(DispatchRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(b.ranks);
  OpArgs args;
  const int64_t tokens = 4, k = 2;
  const int64_t a =
      tokens * b.world * std::min<int64_t>(std::max<int64_t>(b.experts / std::max<int64_t>(b.world, 1), 1), k);
  const Shape expand_shape = b.expand_x.empty() ? Shape{a, b.hidden} : b.expand_x;
  uint64_t size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = aclnnMoeDistributeDispatchGetWorkspaceSize(
      args.NewTensor(ACL_BF16, {tokens, b.hidden}), args.NewTensorIn({0, 1}, ACL_INT32, {tokens, k}),
      b.scales ? args.NewTensor(ACL_FLOAT, {b.experts, b.hidden}) : nullptr, nullptr, nullptr,
      b.group_ep != nullptr ? b.group_ep : ranks.group(), b.world, b.rank, b.experts, "", 0, 0, 0, 0, 0, b.quant_mode,
      b.global_bs, b.token_nums_type, args.NewTensor(b.quant_mode == 2 ? ACL_INT8 : ACL_BF16, expand_shape),
      b.dynamic_scales ? args.NewTensor(ACL_FLOAT, {a}) : nullptr, args.NewTensor(ACL_INT32, {tokens * k}),
      args.NewTensor(ACL_INT64, {std::max<int64_t>(b.experts / std::max<int64_t>(b.world, 1), 1)}),
      args.NewTensor(ACL_INT32, {std::max<int64_t>(b.experts, 1)}), args.NewTensor(ACL_INT32, {0}), nullptr, &size,
      &executor);
  EXPECT_EQ(status, b.expected);
  const char* message = aclGetRecentErrMsg();
  EXPECT_NE(std::string(message != nullptr ? message : "").find(b.keyword), std::string::npos)
      << (message != nullptr ? message : "");
  if (status == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
}

INSTANTIATE_TEST_SUITE_P(
    Cann, DispatchRejectionTest,
    ::testing::Values(
        Bad{.name = "empty_group", .expected = ACLNN_ERR_PARAM_NULLPTR, .keyword = "groupEp", .group_ep = ""},
        Bad{.name = "quant_without_dynamic_scales",
            .expected = ACLNN_ERR_PARAM_NULLPTR,
            .keyword = "dynamicScales",
            .quant_mode = 2},
        Bad{.name = "hidden_not_32s", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "H", .hidden = 48},
        Bad{.name = "world_not_8s",
            .expected = ACLNN_ERR_INNER_TILING_ERROR,
            .keyword = "epWorldSize",
            .ranks = 2,
            .world = 2,
            .experts = 4},
        Bad{.name = "rank_id_not_this_rank",
            .expected = ACLNN_ERR_INNER_TILING_ERROR,
            .keyword = "epRankId",
            .rank = 5},
        Bad{.name = "experts_not_world_multiple",
            .expected = ACLNN_ERR_INNER_TILING_ERROR,
            .keyword = "moeExpertNum",
            .experts = 12},
        Bad{.name = "quant_mode_1", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "quantMode", .quant_mode = 1},
        Bad{.name = "scales_without_quant",
            .expected = ACLNN_ERR_INNER_TILING_ERROR,
            .keyword = "scales",
            .scales = true},
        Bad{.name = "token_nums_type_2",
            .expected = ACLNN_ERR_INNER_TILING_ERROR,
            .keyword = "expertTokenNumsType",
            .token_nums_type = 2},
        Bad{.name = "global_bs", .expected = ACLNN_ERR_INNER_TILING_ERROR, .keyword = "globalBs", .global_bs = 12},
        Bad{.name = "expand_x_shape",
            .expected = ACLNN_ERR_INNER_TILING_ERROR,
            .keyword = "expandX",
            .expand_x = {8, 32}}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
