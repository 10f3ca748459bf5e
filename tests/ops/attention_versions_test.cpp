// The older versions of the inference attention ops against the sibling they
// share the planner and kernel with (whose results attention_test checks
// against float64): IncreFlashAttention, V2 and V3 against V4,
// PromptFlashAttention and V2 against V3, FusedInferAttentionScore (V1)
// against V2, each bit for bit on the same inputs (GQA, masks, lengths, the
// LSE). And what a version's own prototype changes: its quantised arguments
// rejected as not supported (561003) under their own names.
#include <gtest/gtest.h>

#include <functional>

#include "aclnnop/aclnn_fused_infer_attention_score.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_incre_flash_attention.h"
#include "aclnnop/aclnn_incre_flash_attention_v2.h"
#include "aclnnop/aclnn_incre_flash_attention_v3.h"
#include "aclnnop/aclnn_incre_flash_attention_v4.h"
#include "aclnnop/aclnn_prompt_flash_attention.h"
#include "aclnnop/aclnn_prompt_flash_attention_v2.h"
#include "aclnnop/aclnn_prompt_flash_attention_v3.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr aclnnStatus kNotSupported = ACLNN_ERR_INNER_FIND_KERNEL_ERROR;

// One problem's inputs, random, and its outputs for two runs.
struct Problem {
  std::unique_ptr<DeviceTensor> query, key, value, mask;
  std::vector<std::unique_ptr<DeviceTensor>> outs;  // per run: attention out, then the LSE if any
};

Problem Make(const Shape& q, const Shape& kv, const Shape& mask, const Shape& out, const Shape& lse) {
  Rng rng = Rng::ForCurrentTest();
  Problem p;
  p.query = std::make_unique<DeviceTensor>(ACL_FLOAT16, q);
  p.key = std::make_unique<DeviceTensor>(ACL_FLOAT16, kv);
  p.value = std::make_unique<DeviceTensor>(ACL_FLOAT16, kv);
  p.mask = std::make_unique<DeviceTensor>(ACL_BOOL, mask);
  for (DeviceTensor* t : {p.query.get(), p.key.get(), p.value.get()}) t->FillRandom(rng, Range{-1, 1});
  Values bits;
  for (int64_t i = 0; i < NumElements(mask); ++i) bits.push_back(rng.Uniform(0, 1) < 0.3 ? 1.0 : 0.0);
  p.mask->WriteView(bits);
  for (int run = 0; run < 2; ++run) {
    p.outs.push_back(Poisoned(ACL_FLOAT16, out));
    if (!lse.empty()) p.outs.push_back(Poisoned(ACL_FLOAT, lse));
  }
  return p;
}

// Runs `older` into the first set of outputs and `sibling` into the second; both must run and agree bit for bit.
void ExpectSameBits(Problem& p, const Phase1& older, Phase2 older2, const Phase1& sibling, Phase2 sibling2) {
  const OpRun a = RunOp(older, older2);
  ASSERT_TRUE(a.ok()) << Describe(a);
  const OpRun b = RunOp(sibling, sibling2);
  ASSERT_TRUE(b.ok()) << Describe(b);
  const size_t per_run = p.outs.size() / 2;
  for (size_t i = 0; i < per_run; ++i) {
    EXPECT_EQ(p.outs[i]->DownloadBytes(), p.outs[i + per_run]->DownloadBytes()) << "output " << i;
  }
}

aclTensorList* One(OpArgs& a, const DeviceTensor& t) { return a.TensorList({a.Tensor(t)}); }

// ---- IncreFlashAttention: BSH, B 2, N 4 / 2, D 16, S 13, a [B, 1, 1, S] mask, key lengths.
class IncreVersions : public ::testing::Test {
 protected:
  Problem p = Make({2, 1, 64}, {2, 13, 32}, {2, 1, 1, 13}, {2, 1, 64}, {});
  char layout[4] = {'B', 'S', 'H', '\0'};
  Phase1 V4() {
    return [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
      return aclnnIncreFlashAttentionV4GetWorkspaceSize(a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr,
                                                        a.Tensor(*p.mask), a.IntArray({13, 6}), nullptr, nullptr,
                                                        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                        4, 0.25, layout, 2, 0, 1, a.Tensor(*p.outs[1]), w, e);
    };
  }
};

TEST_F(IncreVersions, V1IsV4) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIncreFlashAttentionGetWorkspaceSize(a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr,
                                                        a.Tensor(*p.mask), a.IntArray({13, 6}), 4, 0.25, layout, 2,
                                                        a.Tensor(*p.outs[0]), w, e);
      },
      aclnnIncreFlashAttention, V4(), aclnnIncreFlashAttentionV4);
}

TEST_F(IncreVersions, V2IsV4) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIncreFlashAttentionV2GetWorkspaceSize(
            a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr, a.Tensor(*p.mask), a.IntArray({13, 6}),
            nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, layout, 2, a.Tensor(*p.outs[0]), w, e);
      },
      aclnnIncreFlashAttentionV2, V4(), aclnnIncreFlashAttentionV4);
}

TEST_F(IncreVersions, V3IsV4) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIncreFlashAttentionV3GetWorkspaceSize(a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr,
                                                          a.Tensor(*p.mask), a.IntArray({13, 6}), nullptr, nullptr,
                                                          nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25,
                                                          layout, 2, 0, 1, a.Tensor(*p.outs[0]), w, e);
      },
      aclnnIncreFlashAttentionV3, V4(), aclnnIncreFlashAttentionV4);
}

TEST_F(IncreVersions, QuantisedArgumentsAreNotSupported) {
  const OpRun v2 = RunOp(
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIncreFlashAttentionV2GetWorkspaceSize(
            a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, a.NewTensor(ACL_FLOAT, {1}), 4, 0.25, layout, 2, a.Tensor(*p.outs[0]), w, e);
      },
      aclnnIncreFlashAttentionV2);
  ExpectRejectedWith(v2, kNotSupported, {"'quantOffset2'"});
  const OpRun v3 = RunOp(
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnIncreFlashAttentionV3GetWorkspaceSize(a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr,
                                                          nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                          a.NewTensor(ACL_FLOAT16, {2, 64}), nullptr, nullptr, 4, 0.25,
                                                          layout, 2, 0, 1, a.Tensor(*p.outs[0]), w, e);
      },
      aclnnIncreFlashAttentionV3);
  // With an f16 key / value the antiquantisation parameters are CANN's tiling error (attention_antiquant_test).
  ExpectRejectedWith(v3, ACLNN_ERR_INNER_TILING_ERROR, {"'antiquantScale'", "not INT8"});
}

// ---- PromptFlashAttention: BNSD, B 2, N 4 / 2, Sq 9, Skv 13, D 16, a [B, 1, Sq, Skv] mask.
class PromptVersions : public ::testing::Test {
 protected:
  Problem p = Make({2, 4, 9, 16}, {2, 2, 13, 16}, {2, 1, 9, 13}, {2, 4, 9, 16}, {});
  char layout[5] = {'B', 'N', 'S', 'D', '\0'};
  Phase1 V3(std::vector<int64_t> kv_lengths, int64_t sparse, int64_t pre, int64_t next) {
    return [this, kv_lengths, sparse, pre, next](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
      return aclnnPromptFlashAttentionV3GetWorkspaceSize(
          a.Tensor(*p.query), a.Tensor(*p.key), a.Tensor(*p.value), nullptr, a.Tensor(*p.mask), a.IntArray({9, 5}),
          kv_lengths.empty() ? nullptr : a.IntArray(kv_lengths), nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25,
          pre, next, layout, 2, sparse, 1, a.Tensor(*p.outs[1]), w, e);
    };
  }
};

TEST_F(PromptVersions, V1IsV3) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionGetWorkspaceSize(a.Tensor(*p.query), a.Tensor(*p.key), a.Tensor(*p.value),
                                                         nullptr, a.Tensor(*p.mask), a.IntArray({9, 5}), 4, 0.25, 6, 1,
                                                         layout, 2, a.Tensor(*p.outs[0]), w, e);
      },
      aclnnPromptFlashAttention, V3({}, 0, 6, 1), aclnnPromptFlashAttentionV3);
}

TEST_F(PromptVersions, V2IsV3) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionV2GetWorkspaceSize(
            a.Tensor(*p.query), a.Tensor(*p.key), a.Tensor(*p.value), nullptr, a.Tensor(*p.mask), a.IntArray({9, 5}),
            a.IntArray({13, 7}), nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 1,
            a.Tensor(*p.outs[0]), w, e);
      },
      aclnnPromptFlashAttentionV2, V3({13, 7}, 1, 65535, 65535), aclnnPromptFlashAttentionV3);
}

// torch_npu passes an empty array for actual_seq_lengths=None: CANN's tiling reads it as no lengths.
TEST_F(PromptVersions, EmptyLengthArraysAreNoLengths) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionV3GetWorkspaceSize(a.Tensor(*p.query), a.Tensor(*p.key), a.Tensor(*p.value),
                                                           nullptr, a.Tensor(*p.mask), a.IntArray({}), a.IntArray({}),
                                                           nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535,
                                                           65535, layout, 2, 0, 1, a.Tensor(*p.outs[0]), w, e);
      },
      aclnnPromptFlashAttentionV3,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionV3GetWorkspaceSize(a.Tensor(*p.query), a.Tensor(*p.key), a.Tensor(*p.value),
                                                           nullptr, a.Tensor(*p.mask), nullptr, nullptr, nullptr,
                                                           nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535,
                                                           layout, 2, 0, 1, a.Tensor(*p.outs[1]), w, e);
      },
      aclnnPromptFlashAttentionV3);
}

// CANN's tiling (561002): with sparse mode 0 and a mask, the token window must leave every query row a key.
TEST_F(PromptVersions, EmptyTokenWindowsAreRefused) {
  for (const auto& [pre, next] :
       std::vector<std::pair<int64_t, int64_t>>{{-1, -1}, {0, -1}, {65535, -9}, {-13, 65535}, {-2, 1}}) {
    ExpectRejectedWith(RunOp(V3({}, 0, pre, next), aclnnPromptFlashAttentionV3), ACLNN_ERR_INNER_TILING_ERROR,
                       {"preTokens", "nextTokens"});
  }
  EXPECT_TRUE(RunOp(V3({}, 0, 2, -1), aclnnPromptFlashAttentionV3).ok());
}

// PFA has no decode form: one query row keeps its query lengths (a batch of length 0 gives zeros, as CANN's
// kernel initialises it) and takes sparse mode 2's [2048, 2048] mask.
TEST(PromptOneQueryRow, KeepsPromptSemantics) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor q(ACL_FLOAT16, {1, 1, 1, 16}), k(ACL_FLOAT16, {1, 1, 4, 16}), v(ACL_FLOAT16, {1, 1, 4, 16});
  for (DeviceTensor* t : {&q, &k, &v}) t->FillRandom(rng, Range{-1, 1});
  DeviceTensor out(ACL_FLOAT16, {1, 1, 1, 16}), causal(ACL_BOOL, {2048, 2048});
  char bnsd[5] = {'B', 'N', 'S', 'D', '\0'};
  out.Poison();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionV3GetWorkspaceSize(
            a.Tensor(q), a.Tensor(k), a.Tensor(v), nullptr, nullptr, a.IntArray({0}), nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, 1, 0.25, 65535, 65535, bnsd, 1, 0, 1, a.Tensor(out), w, e);
      },
      aclnnPromptFlashAttentionV3);
  ExpectExact(out.ReadView(), Values(16, 0.0), "out of a batch with no query rows");
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionV3GetWorkspaceSize(
            a.Tensor(q), a.Tensor(k), a.Tensor(v), nullptr, a.Tensor(causal), nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, 1, 0.25, 65535, 65535, bnsd, 1, 2, 1, a.Tensor(out), w, e);
      },
      aclnnPromptFlashAttentionV3);
}

TEST_F(PromptVersions, V2QuantisedArgumentsAreNotSupported) {
  const OpRun run = RunOp(
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnPromptFlashAttentionV2GetWorkspaceSize(
            a.Tensor(*p.query), a.Tensor(*p.key), a.Tensor(*p.value), nullptr, nullptr, nullptr, nullptr,
            a.NewTensor(ACL_UINT64, {1}), nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0,
            a.Tensor(*p.outs[0]), w, e);
      },
      aclnnPromptFlashAttentionV2);
  ExpectRejectedWith(run, kNotSupported, {"'deqScale1'"});
}

// ---- FusedInferAttentionScore: BSND, B 2, Sq 9, N 4 / 2, Skv 13, D 16, with the LSE.
class FusedVersions : public ::testing::Test {
 protected:
  Problem p = Make({2, 9, 4, 16}, {2, 13, 2, 16}, {2, 1, 9, 13}, {2, 9, 4, 16}, {2, 4, 9, 1});
  char layout[5] = {'B', 'S', 'N', 'D', '\0'};
};

TEST_F(FusedVersions, V1IsV2) {
  ExpectSameBits(
      p,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFusedInferAttentionScoreGetWorkspaceSize(
            a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr, a.Tensor(*p.mask), a.IntArray({9, 4}),
            a.IntArray({13, 8}), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, 4, 0.25, 65535, 65535, layout, 2, 0, 0, 0, 0, true, a.Tensor(*p.outs[0]), a.Tensor(*p.outs[1]), w,
            e);
      },
      aclnnFusedInferAttentionScore,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr, a.Tensor(*p.mask), a.IntArray({9, 4}),
            a.IntArray({13, 8}), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0,
            0, 0, 0, true, 0, 0, a.Tensor(*p.outs[2]), a.Tensor(*p.outs[3]), w, e);
      },
      aclnnFusedInferAttentionScoreV2);
}

// Without the LSE (softmaxLseFlag false) V1 takes a null softmaxLse, as CANN's V1 does (it passes
// a placeholder on) and as its doc example does; with the flag the LSE is required (161001).
TEST_F(FusedVersions, V1WithoutTheLseTakesANullSoftmaxLse) {
  const auto v1 = [this](bool lse_flag) {
    return [this, lse_flag](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
      return aclnnFusedInferAttentionScoreGetWorkspaceSize(
          a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr, a.Tensor(*p.mask), a.IntArray({9, 4}),
          a.IntArray({13, 8}), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
          4, 0.25, 65535, 65535, layout, 2, 0, 0, 0, 0, lse_flag, a.Tensor(*p.outs[0]), nullptr, w, e);
    };
  };
  ExpectSameBits(
      p, v1(false), aclnnFusedInferAttentionScore,
      [this](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
            a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), nullptr, a.Tensor(*p.mask), a.IntArray({9, 4}),
            a.IntArray({13, 8}), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
            nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0,
            0, 0, 0, false, 0, 0, a.Tensor(*p.outs[2]), nullptr, w, e);
      },
      aclnnFusedInferAttentionScoreV2);
  ExpectRejectedWith(RunOp(v1(true), aclnnFusedInferAttentionScore), ACLNN_ERR_PARAM_NULLPTR, {"'softmaxLse'"});
}

TEST_F(FusedVersions, V1NamesItsOwnArguments) {
  const auto run = [this](const std::function<aclTensor*(OpArgs&)>& pse, const std::function<aclTensor*(OpArgs&)>& aq) {
    return RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnFusedInferAttentionScoreGetWorkspaceSize(
              a.Tensor(*p.query), One(a, *p.key), One(a, *p.value), pse(a), nullptr, nullptr, nullptr, nullptr, nullptr,
              nullptr, nullptr, nullptr, aq(a), nullptr, nullptr, nullptr, nullptr, 4, 0.25, 65535, 65535, layout, 2, 0,
              0, 0, 0, false, a.Tensor(*p.outs[0]), a.Tensor(*p.outs[1]), w, e);
        },
        aclnnFusedInferAttentionScore);
  };
  const auto none = [](OpArgs&) -> aclTensor* { return nullptr; };
  ExpectRejectedWith(run(
                         [](OpArgs& a) {
                           return a.NewTensor(ACL_INT32, {2, 4, 9, 13});
                         },
                         none),
                     ACLNN_ERR_PARAM_INVALID, {"'pseShift'"});
  ExpectRejectedWith(run(none,
                         [](OpArgs& a) {
                           return a.NewTensor(ACL_FLOAT16, {2, 32});
                         }),
                     ACLNN_ERR_INNER_TILING_ERROR, {"'antiquantScale'", "not INT8"});
}

}  // namespace
}  // namespace canopy_test
