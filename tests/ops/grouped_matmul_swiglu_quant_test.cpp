// GroupedMatmulSwigluQuant and GroupedMatmulSwigluQuantWeightNZ through the public C
// API against a float64 reference written out here: INT8 x and weights (the 5-D NZ
// blocks, an ND weight prepared by aclnnTransMatmulWeight, a 3-D FRACTAL_NZ view on
// the NZ entry point), FLOAT, FLOAT16 and BFLOAT16 channel scales, cumulative group
// ends with an empty expert, fewer ends than experts and rows past the last end (kept),
// strided x, scales and output, empty outputs and group lists, a decreasing group
// list failing the run, and CANN's rejections with their codes. The A8W4 form: INT4
// weights (INT4 pairs or INT32 words, ND or NZ blocks, both entry points), UINT64 and
// INT64 scale words per channel or per group of K, the bias as a random matrix and as
// the client's auxiliary matrix (where the result is x @ dequantised weight), and its
// rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_grouped_matmul_swiglu_quant.h"
#include "aclnnop/aclnn_grouped_matmul_swiglu_quant_weight_nz.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"
#include "llm_test_support.h"
#include "mc2_ranks.h"
#include "norm_test_support.h"
#include "quant_weight_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

constexpr int64_t kK0 = 16, kN0 = 32;

enum class WeightForm {
  kNzBlocks,     // 5-D [e, n / 32, k / 16, 16, 32], FRACTAL_NZ
  kTransmatmul,  // 3-D [e, k, n], ND, through aclnnTransMatmulWeight
  kNzView,       // 3-D [e, k, n] described as FRACTAL_NZ (the NZ entry point only)
};

struct Problem {
  int64_t m = 11, k = 64, n = 64, e = 4;
  std::vector<int64_t> ends = {3, 3, 9};  // expert 1 empty, expert 3 without an end, rows 9 and 10 in none
  aclDataType scaleDtype = ACL_FLOAT;
  WeightForm form = WeightForm::kNzBlocks;
  bool nzEntry = false;
  View xView = View::kContiguous, scaleView = View::kContiguous, outView = View::kContiguous;

  std::vector<double> x, w, weightScale, xScale;  // w logical [e, k, n]
  TensorPtr xT, wT, weightScaleT, xScaleT, groupListT, outT, outScaleT;
};

Values AsValues(const std::vector<int64_t>& v) {
  Values out;
  for (const int64_t x : v) out.emplace_back(static_cast<double>(x));
  return out;
}

void Build(Problem& p, Rng& rng) {
  const int64_t m = p.m, k = p.k, n = p.n, e = p.e;
  p.xT = std::make_unique<DeviceTensor>(ACL_INT8, Shape{m, k}, p.xView);
  p.x = Reals(p.xT->FillRandom(rng, Range{-127, 127}));
  if (p.form == WeightForm::kNzBlocks) {
    p.w.resize(static_cast<size_t>(e * k * n));
    for (double& v : p.w) v = std::round(rng.Uniform(-127, 127));
    Values blocks(p.w.size());
    size_t at = 0;
    for (int64_t g = 0; g < e; ++g) {
      for (int64_t j1 = 0; j1 < n / kN0; ++j1) {
        for (int64_t k1 = 0; k1 < k / kK0; ++k1) {
          for (int64_t k0 = 0; k0 < kK0; ++k0) {
            for (int64_t j0 = 0; j0 < kN0; ++j0) {
              blocks[at++] = p.w[static_cast<size_t>((g * k + k1 * kK0 + k0) * n + j1 * kN0 + j0)];
            }
          }
        }
      }
    }
    p.wT = Upload(ACL_INT8, {e, n / kN0, k / kK0, kK0, kN0}, blocks);
  } else {
    p.wT = std::make_unique<DeviceTensor>(ACL_INT8, Shape{e, k, n});
    p.w = Reals(p.wT->FillRandom(rng, Range{-127, 127}));
  }
  p.weightScaleT = std::make_unique<DeviceTensor>(p.scaleDtype, Shape{e, n}, p.scaleView);
  p.weightScale = Reals(p.weightScaleT->FillRandom(rng, Range{0.002, 0.02}));
  p.xScaleT = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{m}, p.scaleView);
  p.xScale = Reals(p.xScaleT->FillRandom(rng, Range{0.002, 0.02}));
  p.groupListT = Upload(ACL_INT64, {static_cast<int64_t>(p.ends.size())}, AsValues(p.ends));
  p.outT = std::make_unique<DeviceTensor>(ACL_INT8, Shape{m, n / 2}, p.outView);
  p.outT->Poison();
  p.outScaleT = Poisoned(ACL_FLOAT, {m});
}

aclFormat WeightFormat(const Problem& p) {
  return p.form == WeightForm::kTransmatmul ? ACL_FORMAT_ND : ACL_FORMAT_FRACTAL_NZ;
}

// The call with t = {x, weight, weightScale, xScale, groupList, output, outputScale} (any may be replaced).
using Change = std::function<void(OpArgs&, std::vector<aclTensor*>&)>;

OpRun RunSwiglu(const Problem& p, const Change& change = {}) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        std::vector<aclTensor*> t = {a.Tensor(*p.xT),       a.Tensor(*p.wT, WeightFormat(p)), a.Tensor(*p.weightScaleT),
                                     a.Tensor(*p.xScaleT),  a.Tensor(*p.groupListT),          a.Tensor(*p.outT),
                                     a.Tensor(*p.outScaleT)};
        if (change) change(a, t);
        if (p.nzEntry) {
          return aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(t[0], t[1], nullptr, nullptr, t[2], t[3], t[4],
                                                                       t[5], t[6], nullptr, ws, ex);
        }
        return aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(t[0], t[1], nullptr, nullptr, t[2], t[3], t[4], t[5], t[6],
                                                             nullptr, ws, ex);
      },
      p.nzEntry ? aclnnGroupedMatmulSwigluQuantWeightNZ : aclnnGroupedMatmulSwigluQuant);
}

void TransMatmulWeight(const DeviceTensor& weight) {
  ExpectRuns([&](OpArgs& a, uint64_t* ws,
                 aclOpExecutor** ex) { return aclnnTransMatmulWeightGetWorkspaceSize(a.Tensor(weight), ws, ex); },
             aclnnTransMatmulWeight);
}

// One row's SwiGLU (the first half activated) and quantisation in float64: the
// quantised values (before rounding) and the scale.
void SwigluQuantRow(const std::vector<double>& c, std::vector<double>& q, std::vector<double>& scales) {
  const size_t half = c.size() / 2;
  std::vector<double> s(half);
  double max = 0;
  for (size_t j = 0; j < half; ++j) {
    s[j] = c[j] / (1 + std::exp(-c[j])) * c[half + j];
    max = std::max(max, std::abs(s[j]));
  }
  const double scale = max / 127;
  scales.push_back(scale);
  for (const double v : s) q.push_back(scale > 0 ? v / scale : 0.0);
}

// Rows [0, ends.back()) in float64: the quantised values (before rounding) and the scales.
void Reference(const Problem& p, std::vector<double>& q, std::vector<double>& scales) {
  const int64_t k = p.k, n = p.n;
  int64_t row = 0;
  for (int64_t g = 0; g < static_cast<int64_t>(p.ends.size()); ++g) {
    for (; row < p.ends[static_cast<size_t>(g)]; ++row) {
      std::vector<double> c(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) {
        double dot = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          dot += p.x[static_cast<size_t>(row * k + kk)] * p.w[static_cast<size_t>((g * k + kk) * n + j)];
        }
        c[static_cast<size_t>(j)] =
            dot * p.xScale[static_cast<size_t>(row)] * p.weightScale[static_cast<size_t>(g * n + j)];
      }
      SwigluQuantRow(c, q, scales);
    }
  }
}

// The run's output and outputScale rows [0, q.size() / half) against the reference's.
// Rows past the last end keep what output and outputScale held (`outBefore`, `scaleBefore`), as CANN's kernel
// leaves them.
void ExpectRowsPastTheEndKept(const Values& after, const Values& before, size_t from, const std::string& what) {
  for (size_t e = from; e < after.size(); ++e) {
    const bool same = after[e] == before[e] || (std::isnan(after[e].real()) && std::isnan(before[e].real()));
    EXPECT_TRUE(same) << what << "[" << e << "] = " << after[e].real() << ", was " << before[e].real();
  }
}

void ExpectOutputs(const DeviceTensor& outT, const DeviceTensor& outScaleT, const std::vector<double>& q,
                   const std::vector<double>& scales, const std::vector<uint8_t>& before, const Values& outBefore,
                   const Values& scaleBefore, const std::string& what) {
  const Values out = outT.ReadView();
  ExpectRowsPastTheEndKept(out, outBefore, q.size(), what + " output past the last end");
  ExpectRowsPastTheEndKept(outScaleT.ReadView(), scaleBefore, scales.size(), what + " outputScale past the last end");
  ExpectNear(Values(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(q.size())), ThroughHalfQuant(q),
             what + " output");
  const Values outScale = outScaleT.ReadView();
  Values wantScale;
  for (const double s : scales) wantScale.emplace_back(s);
  ExpectNear(Values(outScale.begin(), outScale.begin() + static_cast<std::ptrdiff_t>(scales.size())),
             RelativeTolerance(wantScale, ACL_FLOAT, 64), what + " outputScale");
  ExpectOutsideViewUnchanged(outT, before, what);
}

void ExpectMatches(Problem& p, const std::string& what) {
  Rng rng = Rng::ForCurrentTest();
  Build(p, rng);
  if (p.form == WeightForm::kTransmatmul) TransMatmulWeight(*p.wT);
  const auto before = p.outT->DownloadBytes();
  const Values outBefore = p.outT->ReadView(), scaleBefore = p.outScaleT->ReadView();
  const OpRun run = RunSwiglu(p);
  ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
  std::vector<double> q, scales;
  Reference(p, q, scales);
  ExpectOutputs(*p.outT, *p.outScaleT, q, scales, before, outBefore, scaleBefore, what);
}

class GroupedMatmulSwigluQuant : public ::testing::TestWithParam<aclDataType> {};

TEST_P(GroupedMatmulSwigluQuant, NzBlocksMatchFloat64) {
  Problem p;
  p.scaleDtype = GetParam();
  ExpectMatches(p, "NZ blocks");
}

TEST_P(GroupedMatmulSwigluQuant, TransMatmulWeightAndStridedViews) {
  Problem p;
  p.scaleDtype = GetParam();
  p.form = WeightForm::kTransmatmul;
  p.xView = View::kTransposed;
  p.scaleView = View::kStepped;
  p.outView = View::kStepped;
  p.ends = {0, 5, 11, 11};  // every row, the first and last experts empty
  ExpectMatches(p, "TransMatmulWeight, strided");
}

TEST_P(GroupedMatmulSwigluQuant, WeightNzEntryPoint) {
  for (const WeightForm form : {WeightForm::kNzBlocks, WeightForm::kNzView, WeightForm::kTransmatmul}) {
    Problem p;
    p.scaleDtype = GetParam();
    p.nzEntry = true;
    p.form = form;
    p.m = 7;
    p.k = 32;
    p.n = 96;
    p.e = 2;
    p.ends = {4, 6};
    ExpectMatches(p, "WeightNZ form " + std::to_string(static_cast<int>(form)));
  }
}

INSTANTIATE_TEST_SUITE_P(ScaleDtypes, GroupedMatmulSwigluQuant, ::testing::ValuesIn(HalfAndSingle()),
                         [](const ::testing::TestParamInfo<aclDataType>& info) { return Name(info.param); });

// An empty output or group list: nothing to compute, no workspace, outputs untouched.
TEST(GroupedMatmulSwigluQuantEmpty, NothingToCompute) {
  for (const bool emptyList : {false, true}) {
    Problem p;
    if (emptyList) {
      p.ends = {};
    } else {
      p.m = 0;
      p.ends = {0, 0};
    }
    Rng rng = Rng::ForCurrentTest();
    Build(p, rng);
    const auto out = p.outT->DownloadBytes();
    const auto scale = p.outScaleT->DownloadBytes();
    const OpRun run = RunSwiglu(p);
    ASSERT_TRUE(run.ok()) << Describe(run);
    EXPECT_EQ(run.workspaceSize, 0U);
    EXPECT_EQ(p.outT->DownloadBytes(), out);
    EXPECT_EQ(p.outScaleT->DownloadBytes(), scale);
  }
}

TEST(GroupedMatmulSwigluQuantRunTime, BadGroupListFailsTheRun) {
  for (const std::vector<int64_t>& ends : {std::vector<int64_t>{5, 2}, std::vector<int64_t>{3, 12}}) {
    Problem p;
    p.ends = ends;  // decreasing; past x's 11 rows
    Rng rng = Rng::ForCurrentTest();
    Build(p, rng);
    const OpRun run = RunSwiglu(p);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  }
}

TEST(GroupedMatmulSwigluQuantRejects, CannChecks) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  struct Case {
    std::string name;
    Change change;
    aclnnStatus status;
    std::string keyword;
    bool nzEntry = false;
  };
  const std::vector<Case> cases = {
      {"x FLOAT16",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_FLOAT16, {11, 64});
       },
       invalid, "x"},
      {"x FRACTAL_NZ",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_INT8, {11, 64}, View::kContiguous, ACL_FORMAT_FRACTAL_NZ);
       },
       invalid, "x"},
      {"x rank 3",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_INT8, {1, 11, 64});
       },
       invalid, "x"},
      {"A8W4 weight without a bias",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT32, {4, 64, 8});
       },
       ACLNN_ERR_PARAM_NULLPTR, "bias"},
      {"weight FLOAT",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_FLOAT, {4, 64, 64});
       },
       invalid, "weight"},
      {"3-D NZ weight on the ND entry point",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT8, {4, 64, 64}, View::kContiguous, ACL_FORMAT_FRACTAL_NZ);
       },
       invalid, "weight"},
      {"5-D ND weight on the ND entry point",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT8, {4, 2, 4, 16, 32});
       },
       invalid, "weight"},
      {"weight blocks of another k",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT8, {4, 2, 3, 16, 32}, View::kContiguous, ACL_FORMAT_FRACTAL_NZ);
       },
       invalid, "weight"},
      {"n odd",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT, {4, 63});
       },
       invalid, "weightScale"},
      {"weightScale of other experts",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT, {3, 64});
       },
       invalid, "weightScale"},
      {"weightScale INT32",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_INT32, {4, 64});
       },
       invalid, "weightScale"},
      {"xScale of other rows", [](OpArgs& a, std::vector<aclTensor*>& t) { t[3] = a.NewTensor(ACL_FLOAT, {12}); },
       invalid, "xScale"},
      {"xScale FLOAT16", [](OpArgs& a, std::vector<aclTensor*>& t) { t[3] = a.NewTensor(ACL_FLOAT16, {11}); },
       ACLNN_ERR_INNER_NULLPTR, "xScale"},
      {"xScale INT8", [](OpArgs& a, std::vector<aclTensor*>& t) { t[3] = a.NewTensor(ACL_INT8, {11}); }, invalid,
       "xScale"},
      {"groupList INT32",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[4] = a.NewTensorIn(Range{0, 3}, ACL_INT32, {3});
       },
       invalid, "groupList"},
      {"groupList past the experts",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[4] = a.NewTensorIn(Range{0, 0}, ACL_INT64, {5});
       },
       invalid, "groupList"},
      {"groupList rank 2",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[4] = a.NewTensorIn(Range{0, 0}, ACL_INT64, {1, 3});
       },
       invalid, "groupList"},
      {"output of n columns",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[5] = a.NewTensor(ACL_INT8, {11, 64});
       },
       invalid, "output"},
      {"output INT32",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[5] = a.NewTensor(ACL_INT32, {11, 32});
       },
       invalid, "output"},
      {"outputScale FLOAT16", [](OpArgs& a, std::vector<aclTensor*>& t) { t[6] = a.NewTensor(ACL_FLOAT16, {11}); },
       invalid, "outputScale"},
      {"outputScale of other rows", [](OpArgs& a, std::vector<aclTensor*>& t) { t[6] = a.NewTensor(ACL_FLOAT, {10}); },
       invalid, "outputScale"},
      {"n above 10240",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT8, {1, 64, 10242});
         t[2] = a.NewTensor(ACL_FLOAT, {1, 10242});
         t[4] = a.NewTensorIn(Range{0, 0}, ACL_INT64, {1});
         t[5] = a.NewTensor(ACL_INT8, {11, 5121});
       },
       invalid, "n", true},
      {"k at 65536",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_INT8, {1, 65536});
         t[1] = a.NewTensor(ACL_INT8, {1, 65536, 2});
         t[2] = a.NewTensor(ACL_FLOAT, {1, 2});
         t[3] = a.NewTensor(ACL_FLOAT, {1});
         t[4] = a.NewTensorIn(Range{0, 0}, ACL_INT64, {1});
         t[5] = a.NewTensor(ACL_INT8, {1, 1});
         t[6] = a.NewTensor(ACL_FLOAT, {1});
       },
       invalid, "k", true},
      {"4-D weight on the NZ entry point",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT8, {4, 4, 16, 64});
       },
       invalid, "weight", true},
      {"null x", [](OpArgs&, std::vector<aclTensor*>& t) { t[0] = nullptr; }, ACLNN_ERR_PARAM_NULLPTR, "x"},
      {"null outputScale", [](OpArgs&, std::vector<aclTensor*>& t) { t[6] = nullptr; }, ACLNN_ERR_PARAM_NULLPTR,
       "outputScale", true},
  };
  Rng rng = Rng::ForCurrentTest();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Problem p;
    p.nzEntry = c.nzEntry;
    Build(p, rng);
    ExpectRejectedWith(RunSwiglu(p, c.change), c.status, {c.keyword});
  }
}

// ---- A8W4 ----------------------------------------------------------------------------------------

enum class Int4Form {
  kNd,        // INT4 [e, k, n]
  kNdWords,   // INT32 [e, k, n / 8]: eight values a word, low nibble first
  kNzBlocks,  // INT4 [e, n / 64, k / 16, 16, 64], FRACTAL_NZ
};

struct A8W4Problem {
  int64_t m = 11, k = 64, n = 128, e = 3, groups = 1;  // groups of K sharing a scale row
  std::vector<int64_t> ends = {3, 3, 9};
  Int4Form form = Int4Form::kNd;
  bool nzEntry = false;
  bool auxiliary = false;  // bias = 8 * sum_k weight * scale, the client's matrix, else random
  aclDataType scaleDtype = ACL_UINT64;
  View xView = View::kContiguous, outView = View::kContiguous;

  std::vector<double> x, w, scale, bias, xScale;  // w [e, k, n], scale [e, groups, n]
  TensorPtr xT, wT, scaleT, biasT, xScaleT, groupListT, outT, outScaleT;
};

void BuildA8W4(A8W4Problem& p, Rng& rng) {
  const int64_t m = p.m, k = p.k, n = p.n, e = p.e, groups = p.groups, groupRows = p.k / p.groups;
  p.xT = std::make_unique<DeviceTensor>(ACL_INT8, Shape{m, k}, p.xView);
  p.x = Reals(p.xT->FillRandom(rng, Range{-128, 127}));
  std::vector<int64_t> w(static_cast<size_t>(e * k * n));
  for (int64_t& v : w) v = std::min<int64_t>(static_cast<int64_t>(std::floor(rng.Uniform(-8, 8))), 7);
  p.w.assign(w.begin(), w.end());
  std::vector<int64_t> stored = w;  // in the storage's order
  Shape shape = {e, k, n};
  if (p.form == Int4Form::kNzBlocks) {
    constexpr int64_t kN0 = 64;
    stored.clear();
    for (int64_t g = 0; g < e; ++g) {
      for (int64_t j1 = 0; j1 < n / kN0; ++j1) {
        for (int64_t k1 = 0; k1 < k / kK0; ++k1) {
          for (int64_t k0 = 0; k0 < kK0; ++k0) {
            for (int64_t j0 = 0; j0 < kN0; ++j0) {
              stored.push_back(w[static_cast<size_t>((g * k + k1 * kK0 + k0) * n + j1 * kN0 + j0)]);
            }
          }
        }
      }
    }
    shape = {e, n / kN0, k / kK0, kK0, kN0};
  }
  const std::vector<uint8_t> bytes = PackWeight(ACL_INT4, 1, NumElements(shape), false, 0, stored);
  if (p.form == Int4Form::kNdWords) shape.back() /= 8;
  p.wT = std::make_unique<DeviceTensor>(p.form == Int4Form::kNdWords ? ACL_INT32 : ACL_INT4, shape);
  p.wT->UploadBytes(bytes);
  p.scaleT = std::make_unique<DeviceTensor>(p.scaleDtype, groups > 1 ? Shape{e, groups, n} : Shape{e, n});
  Values words;
  for (int64_t i = 0; i < e * groups * n; ++i) {
    p.scale.push_back(Fp19(rng.Uniform(0.002, 0.02)));  // the scale TransQuantParamV2 keeps
    words.emplace_back(PackedScaleWord(p.scale.back()));
  }
  p.scaleT->WriteView(words);
  p.biasT = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{e, n});
  if (p.auxiliary) {
    Values bias;
    for (int64_t g = 0; g < e; ++g) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          sum += p.scale[static_cast<size_t>((g * groups + kk / groupRows) * n + j)] *
                 p.w[static_cast<size_t>((g * k + kk) * n + j)];
        }
        bias.emplace_back(static_cast<float>(8 * sum));
        p.bias.push_back(bias.back().real());
      }
    }
    p.biasT->WriteView(bias);
  } else {
    p.bias = Reals(p.biasT->FillRandom(rng, Range{-20, 20}));
  }
  p.xScaleT = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{m});
  p.xScale = Reals(p.xScaleT->FillRandom(rng, Range{0.002, 0.02}));
  p.groupListT = Upload(ACL_INT64, {static_cast<int64_t>(p.ends.size())}, AsValues(p.ends));
  p.outT = std::make_unique<DeviceTensor>(ACL_INT8, Shape{m, n / 2}, p.outView);
  p.outT->Poison();
  p.outScaleT = Poisoned(ACL_FLOAT, {m});
}

// The call with t = {x, weight, bias, weightScale, xScale, groupList, output, outputScale} (any may be replaced).
OpRun RunA8W4(const A8W4Problem& p, const Change& change = {}) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        const aclFormat format = p.form == Int4Form::kNzBlocks ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND;
        std::vector<aclTensor*> t = {a.Tensor(*p.xT),     a.Tensor(*p.wT, format), a.Tensor(*p.biasT),
                                     a.Tensor(*p.scaleT), a.Tensor(*p.xScaleT),    a.Tensor(*p.groupListT),
                                     a.Tensor(*p.outT),   a.Tensor(*p.outScaleT)};
        if (change) change(a, t);
        if (p.nzEntry) {
          return aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(t[0], t[1], t[2], nullptr, t[3], t[4], t[5],
                                                                       t[6], t[7], nullptr, ws, ex);
        }
        return aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(t[0], t[1], t[2], nullptr, t[3], t[4], t[5], t[6], t[7],
                                                             nullptr, ws, ex);
      },
      p.nzEntry ? aclnnGroupedMatmulSwigluQuantWeightNZ : aclnnGroupedMatmulSwigluQuant);
}

// c = (sum over groups of ((x - 8) @ w_g) * scale_g + bias) * xScale, the A8W4 kernel's
// sum; with the client's auxiliary matrix as bias that is x @ the dequantised weight,
// which the reference then computes instead.
void ReferenceA8W4(const A8W4Problem& p, std::vector<double>& q, std::vector<double>& scales) {
  const int64_t k = p.k, n = p.n, groupRows = p.k / p.groups;
  const double shift = p.auxiliary ? 0.0 : 8.0;
  int64_t row = 0;
  for (int64_t g = 0; g < static_cast<int64_t>(p.ends.size()); ++g) {
    for (; row < p.ends[static_cast<size_t>(g)]; ++row) {
      std::vector<double> c(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) {
        double sum = p.auxiliary ? 0.0 : p.bias[static_cast<size_t>(g * n + j)];
        for (int64_t kk = 0; kk < k; ++kk) {
          sum += (p.x[static_cast<size_t>(row * k + kk)] - shift) * p.w[static_cast<size_t>((g * k + kk) * n + j)] *
                 p.scale[static_cast<size_t>((g * p.groups + kk / groupRows) * n + j)];
        }
        c[static_cast<size_t>(j)] = sum * p.xScale[static_cast<size_t>(row)];
      }
      SwigluQuantRow(c, q, scales);
    }
  }
}

void ExpectA8W4Matches(A8W4Problem& p, const std::string& what) {
  Rng rng = Rng::ForCurrentTest();
  BuildA8W4(p, rng);
  const auto before = p.outT->DownloadBytes();
  const Values outBefore = p.outT->ReadView(), scaleBefore = p.outScaleT->ReadView();
  const OpRun run = RunA8W4(p);
  ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
  std::vector<double> q, scales;
  ReferenceA8W4(p, q, scales);
  ExpectOutputs(*p.outT, *p.outScaleT, q, scales, before, outBefore, scaleBefore, what);
}

TEST(GroupedMatmulSwigluQuantA8W4, AuxiliaryMatrixGivesTheDequantisedProduct) {
  A8W4Problem p;
  p.auxiliary = true;
  ExpectA8W4Matches(p, "ND INT4, per channel, auxiliary bias");
}

TEST(GroupedMatmulSwigluQuantA8W4, Int32WordsPerGroupInt64Scales) {
  A8W4Problem p;
  p.form = Int4Form::kNdWords;
  p.groups = 4;
  p.scaleDtype = ACL_INT64;
  p.ends = {0, 5, 11};  // every row, the first expert empty
  ExpectA8W4Matches(p, "INT32 words, 4 groups, INT64 scales");
}

TEST(GroupedMatmulSwigluQuantA8W4, NzBlocksAndStridedViews) {
  A8W4Problem p;
  p.form = Int4Form::kNzBlocks;
  p.xView = View::kTransposed;
  p.outView = View::kStepped;
  p.groups = 2;
  p.auxiliary = true;
  ExpectA8W4Matches(p, "NZ blocks, strided x and output");
}

TEST(GroupedMatmulSwigluQuantA8W4, WeightNzEntryPoint) {
  for (const Int4Form form : {Int4Form::kNzBlocks, Int4Form::kNd, Int4Form::kNdWords}) {
    A8W4Problem p;
    p.nzEntry = true;
    p.form = form;
    p.m = 7;
    p.k = 32;
    p.e = 2;
    p.groups = 2;
    p.ends = {4, 6};
    ExpectA8W4Matches(p, "WeightNZ form " + std::to_string(static_cast<int>(form)));
  }
}

TEST(GroupedMatmulSwigluQuantA8W4, EmptyGroupListComputesNothing) {
  A8W4Problem p;
  p.ends = {};
  Rng rng = Rng::ForCurrentTest();
  BuildA8W4(p, rng);
  const auto out = p.outT->DownloadBytes();
  const OpRun run = RunA8W4(p);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0U);
  EXPECT_EQ(p.outT->DownloadBytes(), out);
}

TEST(GroupedMatmulSwigluQuantA8W4Rejects, CannChecks) {
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  struct Case {
    std::string name;
    Change change;
    aclnnStatus status;
    std::string keyword;
  };
  const std::vector<Case> cases = {
      {"null bias", [](OpArgs&, std::vector<aclTensor*>& t) { t[2] = nullptr; }, ACLNN_ERR_PARAM_NULLPTR, "bias"},
      {"bias FLOAT16",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT16, {3, 128});
       },
       invalid, "bias"},
      {"bias rank 1", [](OpArgs& a, std::vector<aclTensor*>& t) { t[2] = a.NewTensor(ACL_FLOAT, {128}); }, invalid,
       "bias"},
      {"bias of other columns",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT, {3, 64});
       },
       invalid, "bias"},
      {"weightScale FLOAT",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensor(ACL_FLOAT, {3, 128});
       },
       invalid, "weightScale"},
      {"weightScale rank 4",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensorIn(Range{1, 1}, ACL_UINT64, {3, 1, 1, 128});
       },
       invalid, "weightScale"},
      {"groups not dividing k",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensorIn(Range{1, 1}, ACL_UINT64, {3, 3, 128});
       },
       invalid, "weightScale"},
      {"weight of other columns",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT4, {3, 64, 64});
       },
       invalid, "weight"},
      {"weight words of other columns",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT32, {3, 64, 8});
       },
       invalid, "weight"},
      {"NZ blocks with n not a multiple of 64",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT4, {3, 1, 4, 16, 64}, View::kContiguous, ACL_FORMAT_FRACTAL_NZ);
         t[2] = a.NewTensor(ACL_FLOAT, {3, 96});
         t[3] = a.NewTensorIn(Range{1, 1}, ACL_UINT64, {3, 96});
         t[6] = a.NewTensor(ACL_INT8, {11, 48});
       },
       invalid, "weight"},
      {"xScale FLOAT16", [](OpArgs& a, std::vector<aclTensor*>& t) { t[4] = a.NewTensor(ACL_FLOAT16, {11}); },
       ACLNN_ERR_INNER_NULLPTR, "xScale"},
      {"groupList past the experts",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[5] = a.NewTensorIn(Range{0, 0}, ACL_INT64, {4});
       },
       invalid, "groupList"},
      {"output of n columns",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[6] = a.NewTensor(ACL_INT8, {11, 128});
       },
       invalid, "output"},
      {"k at 20000",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_INT8, {1, 20000});
         t[1] = a.NewTensor(ACL_INT4, {1, 20000, 2});
         t[2] = a.NewTensor(ACL_FLOAT, {1, 2});
         t[3] = a.NewTensorIn(Range{1, 1}, ACL_UINT64, {1, 2});
         t[4] = a.NewTensor(ACL_FLOAT, {1});
         t[5] = a.NewTensorIn(Range{0, 0}, ACL_INT64, {1});
         t[6] = a.NewTensor(ACL_INT8, {1, 1});
         t[7] = a.NewTensor(ACL_FLOAT, {1});
       },
       invalid, "k"},
  };
  Rng rng = Rng::ForCurrentTest();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    A8W4Problem p;
    BuildA8W4(p, rng);
    ExpectRejectedWith(RunA8W4(p, c.change), c.status, {c.keyword});
  }
  // An INT32-packed weight without a bias is refused the same way.
  A8W4Problem words;
  words.form = Int4Form::kNdWords;
  BuildA8W4(words, rng);
  ExpectRejectedWith(RunA8W4(words, [](OpArgs&, std::vector<aclTensor*>& t) { t[2] = nullptr; }),
                     ACLNN_ERR_PARAM_NULLPTR, {"bias"});
}

}  // namespace
}  // namespace canopy_test
