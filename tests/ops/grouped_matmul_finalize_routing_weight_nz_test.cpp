// GroupedMatmulFinalizeRoutingWeightNz and WeightNzV2 in CANN's A8W8 form through the
// public C API against a float64 reference written out here: INT8 x1 and weights
// (FRACTAL_NZ, or ND prepared by aclnnTransMatmulWeight), FLOAT and BFLOAT16 scales,
// with and without the BF16 bias and the per-token scale, INT64 and INT32 rowIndex,
// the combine form (shared expert's rows, logit, scatter-add with repeated targets)
// and the form without shared input and logit (rows replace their targets, the
// others keep their values), counts with an empty expert and rows in no group, a
// strided out, run-time failures, and the rejections with their codes. (WeightNzV2's
// INT32-packed A8W4 form is tested with the ND entry points' suite.)
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "llm_test_support.h"
#include "norm_test_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

struct Problem {
  int64_t m = 6, k = 32, n = 256, e = 3, rows = 5, sharedRows = 2, sharedOffset = 1;
  std::vector<int64_t> counts = {2, 0, 3};  // row 5 in no group
  std::vector<int64_t> rowIndex = {4, 1, 1, 0, 3, 2};
  float sharedWeight = 0.75f;
  aclDataType scaleDtype = ACL_FLOAT, rowIndexDtype = ACL_INT64;
  bool combine = true, withBias = true, withPertoken = true, v2 = false;
  aclFormat wFormat = ACL_FORMAT_FRACTAL_NZ;  // ND: through aclnnTransMatmulWeight
  View outView = View::kContiguous;
  int64_t tuning = 2;

  std::vector<double> x, w, scale, bias, pertoken, logit, shared, outBefore;
  TensorPtr xT, wT, scaleT, biasT, pertokenT, groupListT, sharedT, logitT, rowIndexT, outT;
};

Values AsValues(const std::vector<int64_t>& v) {
  Values out;
  for (const int64_t x : v) out.emplace_back(static_cast<double>(x));
  return out;
}

TensorPtr Random(Rng& rng, aclDataType dtype, const Shape& shape, const Range& range, std::vector<double>& host) {
  auto t = std::make_unique<DeviceTensor>(dtype, shape);
  host = Reals(t->FillRandom(rng, range));
  return t;
}

void Build(Problem& p, Rng& rng) {
  const int64_t m = p.m, k = p.k, n = p.n, e = p.e;
  p.xT = Random(rng, ACL_INT8, {m, k}, Range{-127, 127}, p.x);
  p.wT = Random(rng, ACL_INT8, {e, k, n}, Range{-127, 127}, p.w);
  p.scaleT = Random(rng, p.scaleDtype, {e, n}, Range{1e-4, 2e-3}, p.scale);
  p.biasT = Random(rng, ACL_BF16, {e, n}, Range{-1, 1}, p.bias);
  p.pertokenT = Random(rng, ACL_FLOAT, {m}, Range{0.5, 1.5}, p.pertoken);
  p.logitT = Random(rng, ACL_FLOAT, {m}, Range{0.1, 1}, p.logit);
  p.sharedT = Random(rng, ACL_BF16, {p.sharedRows, n}, Range{-2, 2}, p.shared);
  p.groupListT = Upload(ACL_INT64, {e}, AsValues(p.counts));
  p.rowIndexT = Upload(p.rowIndexDtype, {m}, AsValues(p.rowIndex));
  p.outT = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{p.rows, n}, p.outView);
  p.outBefore = Reals(p.outT->FillRandom(rng, Range{-4, 4}));
}

// The float64 reference and each element's magnitude sum.
Expected Reference(const Problem& p) {
  const int64_t k = p.k, n = p.n;
  Values want(static_cast<size_t>(p.rows * n), 0.0);
  std::vector<double> scale(want.size(), 0.0);
  if (p.combine) {
    for (int64_t i = 0; i < p.sharedRows; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        const double v = p.sharedWeight * p.shared[static_cast<size_t>(i * n + j)];
        want[static_cast<size_t>((p.sharedOffset + i) * n + j)] = v;
        scale[static_cast<size_t>((p.sharedOffset + i) * n + j)] = std::abs(v);
      }
    }
  } else {
    for (size_t i = 0; i < want.size(); ++i) want[i] = p.outBefore[i];
  }
  int64_t r = 0;
  for (int64_t g = 0; g < p.e; ++g) {
    for (int64_t c = 0; c < p.counts[static_cast<size_t>(g)]; ++c, ++r) {
      const auto ru = static_cast<size_t>(r);
      const double token = p.withPertoken ? p.pertoken[ru] : 1.0;
      const double logit = p.combine ? p.logit[ru] : 1.0;
      const size_t target = static_cast<size_t>(p.rowIndex[ru] * n);
      for (int64_t j = 0; j < n; ++j) {
        double dot = 0, magnitude = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          const double term = p.x[static_cast<size_t>(r * k + kk)] * p.w[static_cast<size_t>((g * k + kk) * n + j)];
          dot += term;
          magnitude += std::abs(term);
        }
        const size_t gj = static_cast<size_t>(g * n + j);
        const double bias = p.withBias ? p.bias[gj] : 0.0;
        const double v = logit * (token * p.scale[gj] * dot + bias);
        const double size = std::abs(logit) * (std::abs(token * p.scale[gj]) * magnitude + std::abs(bias));
        if (p.combine) {
          want[target + static_cast<size_t>(j)] += v;
          scale[target + static_cast<size_t>(j)] += size;
        } else {
          want[target + static_cast<size_t>(j)] = v;
          scale[target + static_cast<size_t>(j)] = size;
        }
      }
    }
  }
  return RelativeTolerance(want, ACL_FLOAT, 16, scale);
}

struct Overrides {
  int64_t dtype = 0, groupListType = 1;
  bool transposeX2 = false;
};

// t = {x1, x2, scale, bias, pertoken, groupList, sharedInput, logit, rowIndex, out}; any may be replaced.
using Change = std::function<void(OpArgs&, std::vector<aclTensor*>&)>;

OpRun RunWeightNz(const Problem& p, const Overrides& o = {}, const Change& change = {}) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        std::vector<aclTensor*> t = {
            a.Tensor(*p.xT),
            a.Tensor(*p.wT, p.wFormat),
            a.Tensor(*p.scaleT),
            p.withBias ? a.Tensor(*p.biasT) : nullptr,
            p.withPertoken ? a.Tensor(*p.pertokenT) : nullptr,
            a.Tensor(*p.groupListT),
            p.combine ? a.Tensor(*p.sharedT) : nullptr,
            p.combine ? a.Tensor(*p.logitT) : nullptr,
            a.Tensor(*p.rowIndexT),
            a.Tensor(*p.outT),
        };
        if (change) change(a, t);
        if (p.v2) {
          return aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize(
              t[0], t[1], t[2], t[3], nullptr, nullptr, nullptr, t[4], t[5], t[6], t[7], t[8], o.dtype, p.sharedWeight,
              p.sharedOffset, false, o.transposeX2, o.groupListType, a.IntArray({p.tuning}), t[9], ws, ex);
        }
        return aclnnGroupedMatmulFinalizeRoutingWeightNzGetWorkspaceSize(
            t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], o.dtype, p.sharedWeight, p.sharedOffset, false,
            o.transposeX2, o.groupListType, t[9], ws, ex);
      },
      p.v2 ? aclnnGroupedMatmulFinalizeRoutingWeightNzV2 : aclnnGroupedMatmulFinalizeRoutingWeightNz);
}

void ExpectMatches(Problem& p, const std::string& what) {
  Rng rng = Rng::ForCurrentTest();
  Build(p, rng);
  if (p.wFormat == ACL_FORMAT_ND) {
    ExpectRuns([&](OpArgs& a, uint64_t* ws,
                   aclOpExecutor** ex) { return aclnnTransMatmulWeightGetWorkspaceSize(a.Tensor(*p.wT), ws, ex); },
               aclnnTransMatmulWeight);
  }
  const auto before = p.outT->DownloadBytes();
  const OpRun run = RunWeightNz(p);
  ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
  ExpectNear(p.outT->ReadView(), Reference(p), what);
  ExpectOutsideViewUnchanged(*p.outT, before, what);
}

class FinalizeRoutingWeightNz : public ::testing::TestWithParam<aclDataType> {};

TEST_P(FinalizeRoutingWeightNz, CombineMatchesFloat64) {
  for (const bool v2 : {false, true}) {
    for (const aclFormat format : {ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_ND}) {
      Problem p;
      p.scaleDtype = GetParam();
      p.v2 = v2;
      p.wFormat = format;
      ExpectMatches(p, std::string(v2 ? "V2" : "V1") + (format == ACL_FORMAT_ND ? " ND" : " NZ"));
    }
  }
}

TEST_P(FinalizeRoutingWeightNz, OptionalTensorsAndInt32RowIndex) {
  for (const bool bias : {false, true}) {
    Problem p;
    p.scaleDtype = GetParam();
    p.withBias = bias;
    p.withPertoken = !bias;
    p.rowIndexDtype = ACL_INT32;
    p.outView = View::kStepped;
    p.sharedOffset = 3;  // rows 3 and 4 of 5
    ExpectMatches(p, bias ? "bias, no pertoken" : "pertoken, no bias");
  }
}

// Without sharedInput and logit each computed row replaces its target; row 2 of out is
// no row's target and keeps its values.
TEST_P(FinalizeRoutingWeightNz, WithoutSharedInputRowsReplaceTheirTargets) {
  for (const bool v2 : {false, true}) {
    Problem p;
    p.scaleDtype = GetParam();
    p.v2 = v2;
    p.combine = false;
    p.counts = {2, 0, 2};
    p.rowIndex = {4, 1, 0, 3, 2, 2};  // rows 4 and 5 in no group
    ExpectMatches(p, v2 ? "V2 without shared input" : "without shared input");
  }
}

INSTANTIATE_TEST_SUITE_P(ScaleDtypes, FinalizeRoutingWeightNz, ::testing::Values(ACL_FLOAT, ACL_BF16),
                         [](const ::testing::TestParamInfo<aclDataType>& info) { return Name(info.param); });

// The doc's example call (m 192, k 2048, n 7168, e 4, out [24, n], 8 shared rows, the weight
// through aclnnTransMatmulWeight) on its all-zero host buffers, the group list's first count
// 64: out is zero.
TEST(FinalizeRoutingWeightNzDoc, ExampleGivesZeros) {
  Problem p;
  p.m = 192;
  p.k = 2048;
  p.n = 7168;
  p.e = 4;
  p.rows = 24;
  p.sharedRows = 8;
  p.sharedOffset = 0;
  p.sharedWeight = 1.0f;
  p.withBias = false;
  p.wFormat = ACL_FORMAT_ND;
  p.counts = {64, 0, 0, 0};
  // Zero-filled tensors, as the example's host vectors.
  const auto zeros = [](aclDataType dtype, const Shape& shape) {
    auto t = std::make_unique<DeviceTensor>(dtype, shape);
    t->UploadBytes(std::vector<uint8_t>(t->bytes(), 0));
    return t;
  };
  p.xT = zeros(ACL_INT8, {p.m, p.k});
  p.wT = zeros(ACL_INT8, {p.e, p.k, p.n});
  p.scaleT = zeros(ACL_FLOAT, {p.e, p.n});
  p.pertokenT = zeros(ACL_FLOAT, {p.m});
  p.sharedT = zeros(ACL_BF16, {p.sharedRows, p.n});
  p.logitT = zeros(ACL_FLOAT, {p.m});
  p.rowIndexT = zeros(ACL_INT64, {p.m});
  p.groupListT = Upload(ACL_INT64, {p.e}, AsValues(p.counts));
  p.outT = zeros(ACL_FLOAT, {p.rows, p.n});
  p.outT->Poison();
  ExpectRuns([&](OpArgs& a, uint64_t* ws,
                 aclOpExecutor** ex) { return aclnnTransMatmulWeightGetWorkspaceSize(a.Tensor(*p.wT), ws, ex); },
             aclnnTransMatmulWeight);
  const OpRun run = RunWeightNz(p);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(p.outT->ReadView(), Values(static_cast<size_t>(p.rows * p.n), 0.0), "out");
}

TEST(FinalizeRoutingWeightNzRunTime, BadValuesFailTheRun) {
  Rng rng = Rng::ForCurrentTest();
  Problem tooMany;
  tooMany.counts = {2, 3, 2};  // 7 rows counted, x1 has 6
  Build(tooMany, rng);
  OpRun run = RunWeightNz(tooMany);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  Problem badIndex;
  badIndex.rowIndex[1] = badIndex.rows;
  Build(badIndex, rng);
  run = RunWeightNz(badIndex);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
}

TEST(FinalizeRoutingWeightNzRejects, CannChecks) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  struct Case {
    std::string name;
    Change change;
    aclnnStatus status;
    std::string keyword;
    Overrides o = {};
    bool v2 = false;
    std::function<void(Problem&)> problem = {};
  };
  const std::vector<Case> cases = {
      {"sharedInput without logit", [](OpArgs&, std::vector<aclTensor*>& t) { t[7] = nullptr; },
       ACLNN_ERR_PARAM_NULLPTR, "logit"},
      {"logit without sharedInput", [](OpArgs&, std::vector<aclTensor*>& t) { t[6] = nullptr; },
       ACLNN_ERR_PARAM_NULLPTR, "sharedInput"},
      {"null x1", [](OpArgs&, std::vector<aclTensor*>& t) { t[0] = nullptr; }, ACLNN_ERR_PARAM_NULLPTR, "x1"},
      {"null rowIndex",
       [](OpArgs&, std::vector<aclTensor*>& t) { t[8] = nullptr; },
       ACLNN_ERR_PARAM_NULLPTR,
       "rowIndex",
       {},
       true},
      {"dtype 1", {}, invalid, "dtype", {.dtype = 1}},
      {"transposeX2", {}, invalid, "transposeX2", {.transposeX2 = true}, true},
      {"groupListType 0", {}, invalid, "groupListType", {.groupListType = 0}},
      {"x1 NCHW",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_INT8, {6, 32}, View::kContiguous, ACL_FORMAT_NCHW);
       },
       invalid, "x1"},
      {"x1 FLOAT16",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_FLOAT16, {6, 32});
       },
       invalid, "x1"},
      {"x2 FLOAT",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_FLOAT, {3, 32, 256});
       },
       invalid, "x2"},
      {"x2 INT32 on V1",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT32, {3, 32, 32});
       },
       invalid, "x2"},
      {"x2 INT4",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT4, {3, 32, 256});
       },
       ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "x2"},
      {"V2 INT32 x2 without pertokenScale",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT32, {3, 32, 32});
         t[4] = nullptr;
       },
       ACLNN_ERR_PARAM_NULLPTR,
       "pertokenScaleOptional",
       {},
       true},
      {"scale INT64",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_INT64, {3, 256});
       },
       ACLNN_ERR_INNER_NULLPTR, "scale"},
      {"scale FLOAT16",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT16, {3, 256});
       },
       invalid, "scale"},
      {"scale [e, 1, n]",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT, {3, 1, 256});
       },
       invalid, "scale"},
      {"scale of other experts",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT, {2, 256});
       },
       invalid, "scale"},
      {"bias FLOAT",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensor(ACL_FLOAT, {3, 256});
       },
       invalid, "bias"},
      {"bias [e, n / 2]",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensor(ACL_BF16, {3, 128});
       },
       invalid, "bias"},
      {"pertokenScale of other rows", [](OpArgs& a, std::vector<aclTensor*>& t) { t[4] = a.NewTensor(ACL_FLOAT, {5}); },
       invalid, "pertokenScaleOptional"},
      {"groupList INT32",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[5] = a.NewTensorIn(Range{0, 2}, ACL_INT32, {3});
       },
       invalid, "groupList"},
      {"groupList of other experts",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[5] = a.NewTensorIn(Range{0, 2}, ACL_INT64, {2});
       },
       invalid, "groupList"},
      {"sharedInput FLOAT",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[6] = a.NewTensor(ACL_FLOAT, {2, 256});
       },
       invalid, "sharedInput"},
      {"sharedInput rows past out",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[6] = a.NewTensor(ACL_BF16, {6, 256});
       },
       invalid, "sharedInput"},
      {"logit of other rows", [](OpArgs& a, std::vector<aclTensor*>& t) { t[7] = a.NewTensor(ACL_FLOAT, {5}); },
       invalid, "logit"},
      {"rowIndex FLOAT", [](OpArgs& a, std::vector<aclTensor*>& t) { t[8] = a.NewTensor(ACL_FLOAT, {6}); }, invalid,
       "rowIndex"},
      {"out FLOAT16",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[9] = a.NewTensor(ACL_FLOAT16, {5, 256});
       },
       invalid, "out"},
      {"out rows past m",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[9] = a.NewTensor(ACL_FLOAT, {7, 256});
       },
       invalid, "out"},
      {"empty x1",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_INT8, {0, 32});
         t[4] = nullptr;
         t[7] = a.NewTensor(ACL_FLOAT, {0});
         t[6] = a.NewTensor(ACL_BF16, {0, 256});
         t[8] = a.NewTensor(ACL_INT64, {0});
         t[9] = a.NewTensor(ACL_FLOAT, {0, 256});
       },
       invalid,
       "empty",
       {},
       false,
       [](Problem& p) { p.sharedOffset = 0; }},
      {"n below 256", {}, invalid, "x2", {}, false, [](Problem& p) { p.n = 224; }},
      {"k not a multiple of 16", {}, invalid, "x2", {}, false, [](Problem& p) { p.k = 24; }},
      {"shared rows past out", {}, invalid, "sharedInputOffset", {}, false, [](Problem& p) { p.sharedOffset = 4; }},
      {"shared offset near INT64_MAX",
       {},
       invalid,
       "sharedInputOffset",
       {},
       false,
       [](Problem& p) { p.sharedOffset = std::numeric_limits<int64_t>::max(); }},
      {"tuning past m", {}, invalid, "tuningConfigOptional", {}, true, [](Problem& p) { p.tuning = 7; }},
  };
  Rng rng = Rng::ForCurrentTest();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Problem p;
    p.v2 = c.v2;
    if (c.problem) c.problem(p);
    Build(p, rng);
    ExpectRejectedWith(RunWeightNz(p, c.o, c.change), c.status, {c.keyword});
  }
}

}  // namespace
}  // namespace canopy_test
