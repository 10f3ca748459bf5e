// TopKTopPSampleV2 through the public API against a float64 reference of
// CANN's V2 rules: top-k (ksMax rounded up to 8), top-p (the prefix whose
// running sum reaches p), min-p, inputIsLogits on and off, the plain pick, the
// q sample and the intermediate results, every logits dtype, strided inputs,
// CANN's example in small, and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_top_k_top_p_sample_v2.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = 1e-8;

struct Filtered {
  std::vector<int64_t> order;  // the survivors' positions, in order
  std::vector<double> value;
  int64_t pick = 0;  // the largest before min-p
};

struct RowArgs {
  int64_t k = 0;
  double p = 1, minP = 0;
  int64_t ksMax = 1024;  // already rounded up to 8
  bool inputIsLogits = true;
};

Filtered ReferenceFilter(const std::vector<double>& row, const RowArgs& a) {
  const auto v = static_cast<int64_t>(row.size());
  const bool byK = a.k >= 1 && a.k <= std::min(v, a.ksMax), byP = a.p > 0 && a.p < 1;
  const bool sorted = byK || byP || a.p <= 0;
  std::vector<int64_t> order(row.size());
  std::iota(order.begin(), order.end(), 0);
  if (sorted) std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return row[x] > row[y]; });
  int64_t kept = !sorted || (!byK && a.p > 0) ? v : a.p <= 0 ? 1 : a.k;
  Filtered f;
  f.order.assign(order.begin(), order.begin() + kept);
  for (int64_t i : f.order) f.value.push_back(row[i]);
  if (a.inputIsLogits) {
    const double max = *std::max_element(row.begin(), row.end());
    double sum = 0;
    for (int64_t j = 0; j < (byK || a.p <= 0 ? kept : v); ++j)
      sum += std::exp(row[(byK || a.p <= 0) ? order[j] : j] - max);
    for (double& x : f.value) x = std::exp(x - max) / sum;
  }
  if (byP) {
    double running = 0;
    for (int64_t i = 0; i < kept; ++i) {
      running += f.value[i];
      if (running >= a.p) {
        kept = i + 1;
        break;
      }
    }
    f.order.resize(kept);
    f.value.resize(kept);
  }
  size_t largest = 0;
  for (size_t i = 1; i < f.value.size(); ++i) {
    if (f.value[i] > f.value[largest]) largest = i;
  }
  f.pick = f.order[largest];
  if (a.minP >= 1) {
    f.order = {f.pick};
    f.value = {f.value[largest]};
  } else if (a.minP > 0) {
    const double threshold = a.minP * f.value[largest];
    Filtered g;
    for (size_t i = 0; i < f.value.size(); ++i) {
      if (f.value[i] >= threshold) {
        g.order.push_back(f.order[i]);
        g.value.push_back(f.value[i]);
      }
    }
    f.order = g.order;
    f.value = g.value;
  }
  return f;
}

int64_t ReferenceQSample(const Filtered& f, const std::vector<double>& q) {
  size_t best = 0;
  double bestScore = -kInf;
  for (size_t i = 0; i < f.value.size(); ++i) {
    const double score = f.value[i] / (std::abs(q[i]) + static_cast<float>(kEps));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return f.order[best];
}

enum class Mode { kPick, kQSample, kSampleResult };

const char* ModeName(Mode m) { return m == Mode::kPick ? "pick" : m == Mode::kQSample ? "q" : "sample_result"; }

TEST(TopKTopPSampleV2, MatchesReferenceInEveryMode) {
  const int64_t rows = 10, v = 40;
  const int64_t ksMax = 12;  // rounded up to 16
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16, ACL_FLOAT}) {
    for (bool inputIsLogits : {true, false}) {
      for (Mode mode : {Mode::kPick, Mode::kQSample, Mode::kSampleResult}) {
        for (bool withMinP : {false, true}) {
          const bool needLogits = withMinP != (mode == Mode::kQSample);
          SCOPED_TRACE(std::string(Name(dtype)) + " logits " + std::to_string(inputIsLogits) + " " + ModeName(mode) +
                       " minP " + std::to_string(withMinP) + " needLogits " + std::to_string(needLogits));
          Rng rng = Rng::ForCurrentTest();
          DeviceTensor logits(dtype, {rows, v}, View::kTransposed);
          Values x = logits.FillRandom(rng, inputIsLogits ? Range{-3, 3} : Range{0.001, 0.1});
          for (int64_t j = 0; j < v; j += 7) x[static_cast<size_t>(j)] = x[3];  // ties in row 0
          logits.WriteView(x);
          // k: skipped (0, -3, 17 > 16, 1100), 1, 5, 16, 40 > 16; p: 0, 1, 0.2 .. 0.9; min-p: 0, 1.5, 0.05 .. 0.7.
          const std::vector<int> ks = {1, 0, 5, 16, 17, -3, 12, 40, 1100, 3};
          const std::vector<double> ps = {0.5, 0.0, 1.0, 0.3, 0.6, 0.9, 1.0, 0.45, 0.2, 2.0};
          const std::vector<double> minPs = {0.1, 0.0, 0.5, 1.5, 0.7, 0.3, 0.05, -1.0, 0.2, 0.6};
          Values kv, pv, mv;
          for (int64_t r = 0; r < rows; ++r) {
            kv.emplace_back(ks[static_cast<size_t>(r)]);
            pv.push_back(ConvertValue(ps[static_cast<size_t>(r)], dtype));
            mv.push_back(ConvertValue(minPs[static_cast<size_t>(r)], dtype));
          }
          const auto k = Upload(ACL_INT32, {rows}, kv);
          DeviceTensor p(dtype, {rows}, View::kStepped);
          p.WriteView(pv);
          DeviceTensor minP(dtype, {rows}, View::kStepped);
          minP.WriteView(mv);
          DeviceTensor q(ACL_FLOAT, {rows, v}, View::kStepped);
          const Values qv = q.FillRandom(rng, Range{0.05, 3});
          const bool sampleResult = mode == Mode::kSampleResult;
          // Outputs a mode does not write may have any shape (CANN's tiling checks only the written ones).
          DeviceTensor index(ACL_INT64, sampleResult ? Shape{1} : Shape{rows});
          DeviceTensor select(ACL_FLOAT, needLogits ? Shape{rows, v} : Shape{1, 1}, View::kStepped);
          DeviceTensor sortedIndex(ACL_INT64, sampleResult ? Shape{rows, v} : Shape{1, 1}, View::kStepped);
          DeviceTensor sortedValue(ACL_FLOAT, sampleResult ? Shape{rows, v} : Shape{1, 1}, View::kTransposed);
          for (DeviceTensor* t : {&index, &select, &sortedIndex, &sortedValue}) t->Poison();
          ExpectRuns(
              [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                return aclnnTopKTopPSampleV2GetWorkspaceSize(
                    a.Tensor(logits), a.Tensor(*k), a.Tensor(p), mode == Mode::kQSample ? a.Tensor(q) : nullptr,
                    withMinP ? a.Tensor(minP) : nullptr, kEps, needLogits, 4, ksMax, inputIsLogits, sampleResult,
                    a.Tensor(index), a.Tensor(select), a.Tensor(sortedIndex), a.Tensor(sortedValue), w, e);
              },
              aclnnTopKTopPSampleV2);
          const Values gotIndex = index.ReadView(), gotSelect = select.ReadView();
          const Values gotSortedIndex = sortedIndex.ReadView(), gotSortedValue = sortedValue.ReadView();
          for (int64_t r = 0; r < rows; ++r) {
            std::vector<double> row, qRow;
            for (int64_t j = 0; j < v; ++j) {
              row.push_back(x[static_cast<size_t>(r * v + j)].real());
              qRow.push_back(qv[static_cast<size_t>(r * v + j)].real());
            }
            const auto ri = static_cast<size_t>(r);
            const RowArgs args{.k = static_cast<int64_t>(kv[ri].real()),
                               .p = pv[ri].real(),
                               .minP = withMinP ? mv[ri].real() : 0.0,
                               .ksMax = 16,
                               .inputIsLogits = inputIsLogits};
            const Filtered want = ReferenceFilter(row, args);
            const std::string where = "row " + std::to_string(r);
            if (mode == Mode::kPick) {
              EXPECT_EQ(gotIndex[ri].real(), static_cast<double>(want.pick)) << where;
            }
            if (mode == Mode::kQSample) {
              EXPECT_EQ(gotIndex[ri].real(), static_cast<double>(ReferenceQSample(want, qRow))) << where;
            }
            if (sampleResult) {
              Values wantIndex(static_cast<size_t>(v), 0.0), wantValue(static_cast<size_t>(v), 0.0);
              for (size_t i = 0; i < want.order.size(); ++i) {
                wantIndex[i] = static_cast<double>(want.order[i]);
                wantValue[i] = static_cast<double>(static_cast<float>(want.value[i]));
              }
              ExpectExact(Values(gotSortedIndex.begin() + r * v, gotSortedIndex.begin() + (r + 1) * v), wantIndex,
                          "logitsIdx " + where);
              for (int64_t j = 0; j < v; ++j) {
                EXPECT_NEAR(gotSortedValue[static_cast<size_t>(r * v + j)].real(),
                            wantValue[static_cast<size_t>(j)].real(),
                            1e-6 * std::abs(wantValue[static_cast<size_t>(j)].real()) + 1e-12)
                    << "logitsSortMasked " << where << " position " << j;
              }
            }
            if (needLogits) {
              Values wantSelect(static_cast<size_t>(v), inputIsLogits ? -kInf : 0.0);
              for (int64_t i : want.order) wantSelect[static_cast<size_t>(i)] = row[static_cast<size_t>(i)];
              ExpectExact(Values(gotSelect.begin() + r * v, gotSelect.begin() + (r + 1) * v), wantSelect,
                          "logitsTopKPSelect " + where);
            }
          }
          // What the mode does not write keeps its poison.
          if (sampleResult) {
            const std::vector<uint8_t> bytes = index.DownloadBytes(), poison = PoisonElement(ACL_INT64);
            EXPECT_TRUE(std::equal(poison.begin(), poison.end(), bytes.begin())) << "logitsSelectIdx is not written";
          }
          if (!needLogits) {
            EXPECT_TRUE(std::isnan(gotSelect[0].real())) << "logitsTopKPSelect is not written";
          }
          if (!sampleResult) {
            EXPECT_TRUE(std::isnan(gotSortedValue[0].real())) << "logitsSortMasked is not written";
          }
        }
      }
    }
  }
}

// ksMax is read as 32 bits and rounded up to 8 (at most 1024): 5 lets k = 8 filter and k = 9 pass everything.
TEST(TopKTopPSampleV2, KsMaxRoundsUpToEight) {
  const int64_t rows = 2, v = 20;
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor logits(ACL_FLOAT, {rows, v});
  const Values x = logits.FillRandom(rng, Range{-2, 2});
  const auto k = Upload(ACL_INT32, {rows}, Values{8.0, 9.0});
  const auto p = Upload(ACL_FLOAT, {rows}, Values{1.0, 1.0});
  DeviceTensor index(ACL_INT64, {rows});
  DeviceTensor select(ACL_FLOAT, {rows, v});
  DeviceTensor sortedIndex(ACL_INT64, {rows, v});
  DeviceTensor sortedValue(ACL_FLOAT, {rows, v});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTopKTopPSampleV2GetWorkspaceSize(a.Tensor(logits), a.Tensor(*k), a.Tensor(*p), nullptr, nullptr,
                                                     kEps, true, 32, 5, true, true, a.Tensor(index), a.Tensor(select),
                                                     a.Tensor(sortedIndex), a.Tensor(sortedValue), w, e);
      },
      aclnnTopKTopPSampleV2);
  const Values got = select.ReadView();
  int64_t kept0 = 0, kept1 = 0;
  for (int64_t j = 0; j < v; ++j) {
    kept0 += std::isinf(got[static_cast<size_t>(j)].real()) ? 0 : 1;
    kept1 += std::isinf(got[static_cast<size_t>(v + j)].real()) ? 0 : 1;
  }
  EXPECT_EQ(kept0, 8);
  EXPECT_EQ(kept1, v);
  // Row 1 is unsorted: the softmax of the whole row in vocabulary order.
  const Values values = sortedValue.ReadView(), positions = sortedIndex.ReadView();
  double max = -kInf, sum = 0;
  for (int64_t j = 0; j < v; ++j) max = std::max(max, x[static_cast<size_t>(v + j)].real());
  for (int64_t j = 0; j < v; ++j) sum += std::exp(x[static_cast<size_t>(v + j)].real() - max);
  for (int64_t j = 0; j < v; ++j) {
    EXPECT_EQ(positions[static_cast<size_t>(v + j)].real(), static_cast<double>(j));
    EXPECT_NEAR(values[static_cast<size_t>(v + j)].real(), std::exp(x[static_cast<size_t>(v + j)].real() - max) / sum,
                1e-7);
  }
}

// CANN's example in small: BFLOAT16 logits, topP and minPs all holding the bit pattern 1 (the smallest
// subnormal), k 128, q all 1: every row picks position 0.
TEST(TopKTopPSampleV2, CannExampleInSmall) {
  const int64_t rows = 3, v = 2048;
  const double tiny = std::ldexp(1.0, -133);
  const auto logits = Upload(ACL_BF16, {rows, v}, Values(static_cast<size_t>(rows * v), tiny));
  const auto k = Upload(ACL_INT32, {rows}, Values(rows, 128));
  const auto p = Upload(ACL_BF16, {rows}, Values(rows, tiny));
  const auto minP = Upload(ACL_BF16, {rows}, Values(rows, tiny));
  const auto q = Upload(ACL_FLOAT, {rows, v}, Values(static_cast<size_t>(rows * v), 1.0));
  DeviceTensor index(ACL_INT64, {rows});
  DeviceTensor select(ACL_FLOAT, {rows, v});
  DeviceTensor sortedIndex(ACL_INT64, {rows, v});
  DeviceTensor sortedValue(ACL_FLOAT, {rows, v});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTopKTopPSampleV2GetWorkspaceSize(
            a.Tensor(*logits), a.Tensor(*k), a.Tensor(*p), a.Tensor(*q), a.Tensor(*minP), kEps, false, 32, 1024, true,
            false, a.Tensor(index), a.Tensor(select), a.Tensor(sortedIndex), a.Tensor(sortedValue), w, e);
      },
      aclnnTopKTopPSampleV2);
  ExpectExact(index.ReadView(), Values(rows, 0.0), "logitsSelectIdx");
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  struct Shapes {
    aclDataType logits = ACL_FLOAT16, k = ACL_INT32, p = ACL_FLOAT16, q = ACL_FLOAT, minP = ACL_FLOAT16,
                index = ACL_INT64, select = ACL_FLOAT, sortedIndex = ACL_INT64, sortedValue = ACL_FLOAT;
    Shape l = {2, 8}, ks = {2}, ps = {2}, qs = {2, 8}, ms = {2}, is = {2}, ss = {2, 8}, sis = {2, 8}, svs = {2, 8};
    bool withQ = true, sampleResult = false;
  };
  auto call = [](Shapes s) {
    return [=](A& a, W w, E e) {
      return aclnnTopKTopPSampleV2GetWorkspaceSize(
          a.NewTensor(s.logits, s.l), a.NewTensorIn(Range{1, 3}, s.k, s.ks), a.NewTensorIn(Range{0.1, 0.9}, s.p, s.ps),
          s.withQ ? a.NewTensorIn(Range{0.5, 2}, s.q, s.qs) : nullptr, a.NewTensorIn(Range{0, 0.5}, s.minP, s.ms), kEps,
          true, 32, 1024, true, s.sampleResult, a.NewTensor(s.index, s.is), a.NewTensor(s.select, s.ss),
          a.NewTensor(s.sortedIndex, s.sis), a.NewTensor(s.sortedValue, s.svs), w, e);
    };
  };
  auto with = [](auto change) {
    Shapes s;
    change(s);
    return s;
  };
  const aclnnStatus dtype = ACLNN_ERR_PARAM_INVALID, tiling = ACLNN_ERR_INNER_TILING_ERROR;
  auto row = [&](const char* name, const char* keyword, aclnnStatus code, auto change) {
    return RejectionCase{name, call(with(change)), aclnnTopKTopPSampleV2, keyword, code};
  };
  using S = Shapes&;
  return {
      row("logits_double", "'logits'", dtype, [](S s) { s.logits = s.p = s.minP = ACL_DOUBLE; }),
      row("topk_int64", "'topK'", dtype, [](S s) { s.k = ACL_INT64; }),
      row("topp_dtype", "'topP'", dtype, [](S s) { s.p = ACL_FLOAT; }),
      row("q_half", "'q'", dtype, [](S s) { s.q = ACL_FLOAT16; }),
      row("minps_dtype", "'minPs'", dtype, [](S s) { s.minP = ACL_BF16; }),
      row("index_int32", "'logitsSelectIdx'", dtype, [](S s) { s.index = ACL_INT32; }),
      row("select_half", "'logitsTopKPSelect'", dtype, [](S s) { s.select = ACL_FLOAT16; }),
      row("logits_idx_int32", "'logitsIdx'", dtype, [](S s) { s.sortedIndex = ACL_INT32; }),
      row("sort_masked_half", "'logitsSortMasked'", dtype, [](S s) { s.sortedValue = ACL_FLOAT16; }),
      row("logits_1d", "'logits'", tiling, [](S s) { s.l = {8}; }),
      row("logits_empty", "'logits'", tiling,
          [](S s) {
            s.l = s.qs = s.ss = Shape{2, 0};
          }),
      row("topk_rows", "'topK'", tiling, [](S s) { s.ks = {3}; }),
      row("topp_2d", "'topP'", tiling,
          [](S s) {
            s.ps = Shape{2, 1};
          }),
      row("q_shape", "'q'", tiling,
          [](S s) {
            s.qs = Shape{2, 7};
          }),
      row("q_with_sample_result", "'q'", tiling, [](S s) { s.sampleResult = true; }),
      row("minps_2d", "'minPs'", tiling,
          [](S s) {
            s.ms = Shape{2, 1};
          }),
      row("select_shape", "'logitsTopKPSelect'", tiling,
          [](S s) {
            s.ss = Shape{2, 9};
          }),
      row("index_shape", "'logitsSelectIdx'", tiling,
          [](S s) {
            s.is = Shape{2, 1};
          }),
      row("logits_idx_shape", "'logitsIdx'", tiling,
          [](S s) {
            s.withQ = false, s.sampleResult = true, s.sis = Shape{2, 7};
          }),
      row("sort_masked_shape", "'logitsSortMasked'", tiling,
          [](S s) {
            s.withQ = false, s.sampleResult = true, s.svs = Shape{1, 8};
          }),
  };
}

class TopKTopPSampleV2Rejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(TopKTopPSampleV2Rejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, TopKTopPSampleV2Rejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
