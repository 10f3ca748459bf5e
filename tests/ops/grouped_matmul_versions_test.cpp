// GroupedMatmul (V1), V2, V4 and V5 against their sibling GroupedMatmulV3 (whose results
// grouped_matmul_test checks against float64), bit for bit on the same inputs:
// lists of products, and one x split along M by a group list given as
// cumulative ends (groupListType 0, V3's form) or as counts (groupListType 1),
// or (V1, V2) as a host int array.
// Counts past M fail the run; the fused activation and quantised forms and a
// groupListType other than 0 or 1 are rejected.
#include <gtest/gtest.h>

#include <numeric>

#include "aclnnop/aclnn_grouped_matmul.h"
#include "aclnnop/aclnn_grouped_matmul_v2.h"
#include "aclnnop/aclnn_grouped_matmul_v3.h"
#include "aclnnop/aclnn_grouped_matmul_v4.h"
#include "aclnnop/aclnn_grouped_matmul_v5.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

struct Gmm {
  std::vector<TensorPtr> x, w, bias, y;
  std::unique_ptr<DeviceTensor> group_list;
  std::vector<int64_t> host_list;  // V1 and V2's form of the group list
  int64_t split_item = 0, group_type = -1;
};

aclTensorList* List(OpArgs& a, const std::vector<TensorPtr>& tensors) {
  std::vector<aclTensor*> descriptors;
  for (const TensorPtr& t : tensors) descriptors.push_back(a.Tensor(*t));
  return a.TensorList(descriptors);
}

enum class Version { kV1, kV2, kV3, kV4, kV5 };

OpRun RunGmm(const Gmm& g, Version version, int64_t group_list_type = 0, int64_t act_type = 0,
             bool per_token_scale = false) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensorList* bias = g.bias.empty() ? nullptr : List(a, g.bias);
        aclTensor* group_list = g.group_list ? a.Tensor(*g.group_list) : nullptr;
        aclTensorList* scale = per_token_scale ? a.TensorList({a.NewTensor(ACL_FLOAT, {4})}) : nullptr;
        aclIntArray* host = g.host_list.empty() ? nullptr : a.IntArray(g.host_list);
        if (version == Version::kV1) {
          return aclnnGroupedMatmulGetWorkspaceSize(List(a, g.x), List(a, g.w), bias, nullptr, nullptr, nullptr,
                                                    nullptr, host, g.split_item, List(a, g.y), w, e);
        }
        if (version == Version::kV2) {
          return aclnnGroupedMatmulV2GetWorkspaceSize(List(a, g.x), List(a, g.w), bias, nullptr, nullptr, nullptr,
                                                      nullptr, host, g.split_item, g.group_type, List(a, g.y), w, e);
        }
        if (version == Version::kV3) {
          return aclnnGroupedMatmulV3GetWorkspaceSize(List(a, g.x), List(a, g.w), bias, nullptr, nullptr, nullptr,
                                                      nullptr, group_list, g.split_item, g.group_type, List(a, g.y), w,
                                                      e);
        }
        if (version == Version::kV4) {
          return aclnnGroupedMatmulV4GetWorkspaceSize(
              List(a, g.x), List(a, g.w), bias, nullptr, nullptr, nullptr, nullptr, scale, group_list, nullptr, nullptr,
              nullptr, g.split_item, g.group_type, group_list_type, act_type, List(a, g.y), nullptr, nullptr, w, e);
        }
        return aclnnGroupedMatmulV5GetWorkspaceSize(List(a, g.x), List(a, g.w), bias, nullptr, nullptr, nullptr,
                                                    nullptr, scale, group_list, nullptr, nullptr, nullptr, g.split_item,
                                                    g.group_type, group_list_type, act_type, a.IntArray({0}),
                                                    List(a, g.y), nullptr, nullptr, w, e);
      },
      version == Version::kV3   ? aclnnGroupedMatmulV3
      : version == Version::kV4 ? aclnnGroupedMatmulV4
                                : aclnnGroupedMatmulV5);
}

std::vector<std::vector<uint8_t>> Outputs(const Gmm& g) {
  std::vector<std::vector<uint8_t>> bytes;
  for (const TensorPtr& y : g.y) bytes.push_back(y->DownloadBytes());
  return bytes;
}

// Three products in lists (groupType -1), with bias.
Gmm Lists(aclDataType dtype, Rng& rng) {
  Gmm g;
  const std::vector<int64_t> ms = {3, 1, 20}, ks = {8, 40, 16}, ns = {5, 12, 33};
  for (size_t i = 0; i < ms.size(); ++i) {
    g.x.push_back(std::make_unique<DeviceTensor>(dtype, Shape{ms[i], ks[i]}));
    g.w.push_back(std::make_unique<DeviceTensor>(dtype, Shape{ks[i], ns[i]}, View::kTransposed));
    g.bias.push_back(std::make_unique<DeviceTensor>(dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT, Shape{ns[i]}));
    g.y.push_back(Poisoned(dtype, {ms[i], ns[i]}));
    g.x[i]->FillRandom(rng, Range{-1, 1});
    g.w[i]->FillRandom(rng, Range{-1, 1});
    g.bias[i]->FillRandom(rng, Range{-1, 1});
  }
  return g;
}

// One x [M, K] split along M among a [G, K, N] weight (or a list of G [K, N]) by `list` (cumulative ends or counts).
Gmm SplitM(aclDataType dtype, Rng& rng, const std::vector<int64_t>& list, bool weight_list = false) {
  Gmm g;
  const int64_t m = 23, k = 16, n = 9, groups = static_cast<int64_t>(list.size());
  g.x.push_back(std::make_unique<DeviceTensor>(dtype, Shape{m, k}));
  for (int64_t i = 0; i < (weight_list ? groups : 1); ++i) {
    g.w.push_back(std::make_unique<DeviceTensor>(dtype, weight_list ? Shape{k, n} : Shape{groups, k, n}));
    g.w.back()->FillRandom(rng, Range{-1, 1});
  }
  g.y.push_back(Poisoned(dtype, {m, n}));
  g.x[0]->FillRandom(rng, Range{-1, 1});
  Values values(list.begin(), list.end());
  g.group_list = Upload(ACL_INT64, {groups}, values);
  g.host_list = list;
  g.split_item = 3;
  g.group_type = 0;
  return g;
}

TEST(GroupedMatmulVersions, ListsAreV3) {
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    for (Version version : {Version::kV1, Version::kV2, Version::kV4, Version::kV5}) {
      Rng rng = Rng::ForCurrentTest();
      Gmm g = Lists(dtype, rng);
      const OpRun run = RunGmm(g, version);
      ASSERT_TRUE(run.ok()) << Describe(run);
      const auto got = Outputs(g);
      for (TensorPtr& y : g.y) y->Poison();
      const OpRun sibling = RunGmm(g, Version::kV3);
      ASSERT_TRUE(sibling.ok()) << Describe(sibling);
      EXPECT_EQ(got, Outputs(g)) << Name(dtype);
    }
  }
}

TEST(GroupedMatmulVersions, GroupListCountsAndEndsAreV3) {
  const std::vector<int64_t> counts = {5, 0, 11, 4}, ends = {5, 5, 16, 20};  // rows 20-22 in no group: zeros
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    Rng rng = Rng::ForCurrentTest();
    Gmm g = SplitM(dtype, rng, ends);
    const OpRun v3 = RunGmm(g, Version::kV3);
    ASSERT_TRUE(v3.ok()) << Describe(v3);
    const auto want = Outputs(g);
    for (Version version : {Version::kV4, Version::kV5}) {
      for (int64_t type : {0, 1}) {
        g.group_list =
            Upload(ACL_INT64, {4}, type == 1 ? Values(counts.begin(), counts.end()) : Values(ends.begin(), ends.end()));
        g.y[0]->Poison();
        const OpRun run = RunGmm(g, version, type);
        ASSERT_TRUE(run.ok()) << Describe(run);
        EXPECT_EQ(Outputs(g), want) << Name(dtype) << " groupListType " << type;
      }
    }
  }
}

TEST(GroupedMatmulVersions, HostGroupListIsV3) {
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    Rng rng = Rng::ForCurrentTest();
    Gmm g = SplitM(dtype, rng, {5, 5, 16, 20}, /*weight_list=*/true);  // V1 splits M only with a weight list
    const OpRun v3 = RunGmm(g, Version::kV3);
    ASSERT_TRUE(v3.ok()) << Describe(v3);
    const auto want = Outputs(g);
    for (Version version : {Version::kV1, Version::kV2}) {
      g.y[0]->Poison();
      const OpRun run = RunGmm(g, version);
      ASSERT_TRUE(run.ok()) << Describe(run);
      EXPECT_EQ(Outputs(g), want) << Name(dtype);
    }
  }
}

TEST(GroupedMatmulVersions, V1TakesOneWeightPerGroup) {
  Rng rng = Rng::ForCurrentTest();
  Gmm g = Lists(ACL_FLOAT, rng);
  g.w.resize(1);
  ExpectRejectedWith(RunGmm(g, Version::kV1), ACLNN_ERR_PARAM_INVALID, {"'weight'"});
}

TEST(GroupedMatmulVersions, CountsPastMFailTheRun) {
  Rng rng = Rng::ForCurrentTest();
  const Gmm g = SplitM(ACL_FLOAT, rng, {20, 4});  // 24 rows counted, x has 23
  const OpRun run = RunGmm(g, Version::kV4, 1);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
}

TEST(GroupedMatmulVersions, Rejects) {
  Rng rng = Rng::ForCurrentTest();
  const Gmm g = Lists(ACL_FLOAT, rng);
  for (Version version : {Version::kV4, Version::kV5}) {
    ExpectRejectedWith(RunGmm(g, version, 0, 1), ACLNN_ERR_PARAM_INVALID, {"'actType'"});
    ExpectRejectedWith(RunGmm(g, version, 2), ACLNN_ERR_PARAM_INVALID, {"'groupListType'"});
    ExpectRejectedWith(RunGmm(g, version, 0, 0, true), ACLNN_ERR_PARAM_INVALID, {"perTokenScaleOptional"});
  }
  Gmm wrong = Lists(ACL_FLOAT, rng);
  wrong.y[1] = Poisoned(ACL_FLOAT, {1, 11});
  ExpectRejectedWith(RunGmm(wrong, Version::kV4), ACLNN_ERR_PARAM_INVALID, {"out[1]"});
}

}  // namespace
}  // namespace canopy_test
