// TopKTopPSample through the public API against a float64 reference of each
// of CANN's eight scenes (top-k, top-p and the q sample each on or off), k at
// its edges (0, 1, V, above 1024), p at 0 and 1, ties, FLOAT16 and BFLOAT16,
// strided inputs, the filtered logits on request, and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_top_k_top_p_sample.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = 1e-8;

struct RowResult {
  int64_t index;
  Values select;  // the row of logitsTopKPSelect
};

RowResult ReferenceRow(const std::vector<double>& row, int64_t k, double p, const std::vector<double>* q) {
  const auto v = static_cast<int64_t>(row.size());
  std::vector<int64_t> order(row.size());
  std::iota(order.begin(), order.end(), 0);
  const bool byK = k >= 1 && k <= std::min<int64_t>(v, 1024), byP = p < 1;
  int64_t kept = v;
  if (byK || byP) {
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return row[a] > row[b]; });
    if (byK) kept = k;
    if (byP) {
      double sum = 0;
      for (int64_t i = 0; i < kept; ++i) sum += std::exp(row[order[i]] - row[order[0]]);
      int64_t n = 1;
      double before = 0;
      while (n < kept && (before += std::exp(row[order[n - 1]] - row[order[0]]) / sum) <= p) ++n;
      kept = n;
    }
  }
  RowResult result{0, Values(row.size(), -kInf)};
  for (int64_t i = 0; i < kept; ++i) result.select[order[i]] = row[order[i]];
  double best = -kInf, max = -kInf, sum = 0;
  for (int64_t i = 0; i < kept; ++i) max = std::max(max, row[order[i]]);
  for (int64_t i = 0; i < kept; ++i) sum += std::exp(row[order[i]] - max);
  for (int64_t i = 0; i < kept; ++i) {
    const double prob = std::exp(row[order[i]] - max) / sum;
    const double score = q == nullptr ? row[order[i]] : prob / (std::abs((*q)[i]) + kEps);
    if (score > best) {
      best = score;
      result.index = order[i];
    }
  }
  return result;
}

TEST(TopKTopPSample, MatchesReferenceInEveryScene) {
  const int64_t rows = 8, v = 40;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (int scene = 0; scene < 8; ++scene) {
      const bool withK = (scene & 1) != 0, withP = (scene & 2) != 0, withQ = (scene & 4) != 0;
      for (bool needLogits : {true, false}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " k " + std::to_string(withK) + " p " + std::to_string(withP) + " q " +
                     std::to_string(withQ) + " logits " + std::to_string(needLogits));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor logits(dtype, {rows, v}, View::kTransposed);
        Values x = logits.FillRandom(rng, Range{-3, 3});
        for (int64_t j = 0; j < v; j += 7) x[static_cast<size_t>(j)] = x[3];  // ties in row 0
        logits.WriteView(x);
        const std::vector<int> ks = {1, 0, 5, 40, 1100, -3, 12, 39};
        Values kv, pv;
        for (int64_t r = 0; r < rows; ++r) {
          kv.emplace_back(withK ? ks[static_cast<size_t>(r)] : 0);
          pv.push_back(ConvertValue(!withP ? 1.0 : r == 0 ? 0.0 : r == 1 ? 1.0 : 0.11 * static_cast<double>(r), dtype));
        }
        const auto k = Upload(ACL_INT32, {rows}, kv);
        DeviceTensor p(dtype, {rows}, View::kStepped);
        p.WriteView(pv);
        DeviceTensor q(ACL_FLOAT, {rows, v}, View::kStepped);
        const Values qv = q.FillRandom(rng, Range{0.05, 3});
        DeviceTensor index(ACL_INT64, {rows});
        DeviceTensor select(ACL_FLOAT, {rows, v}, View::kStepped);
        select.Poison();
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnTopKTopPSampleGetWorkspaceSize(a.Tensor(logits), a.Tensor(*k), a.Tensor(p),
                                                         withQ ? a.Tensor(q) : nullptr, kEps, needLogits, 32,
                                                         a.Tensor(index), a.Tensor(select), w, e);
            },
            aclnnTopKTopPSample);
        const Values gotIndex = index.ReadView(), gotSelect = select.ReadView();
        for (int64_t r = 0; r < rows; ++r) {
          std::vector<double> row, qRow;
          for (int64_t j = 0; j < v; ++j) {
            row.push_back(x[static_cast<size_t>(r * v + j)].real());
            qRow.push_back(qv[static_cast<size_t>(r * v + j)].real());
          }
          const RowResult want = ReferenceRow(row, static_cast<int64_t>(kv[static_cast<size_t>(r)].real()),
                                              pv[static_cast<size_t>(r)].real(), withQ ? &qRow : nullptr);
          EXPECT_EQ(gotIndex[static_cast<size_t>(r)].real(), static_cast<double>(want.index)) << "row " << r;
          if (needLogits) {
            const Values got(gotSelect.begin() + r * v, gotSelect.begin() + (r + 1) * v);
            ExpectExact(got, want.select, "logitsTopKPSelect row " + std::to_string(r));
          }
        }
        if (!needLogits) {
          for (const Value& value : gotSelect) ASSERT_TRUE(std::isnan(value.real())) << "not asked for, not written";
        }
      }
    }
  }
}

// CANN's example in small: equal logits everywhere, k 128 of a wider row, tiny p, q all 1: the first position.
TEST(TopKTopPSample, CannExampleShapeOfEqualLogits) {
  const int64_t rows = 3, v = 2048;
  const auto logits = Upload(ACL_BF16, {rows, v}, Values(static_cast<size_t>(rows * v), 0.5));
  const auto k = Upload(ACL_INT32, {rows}, Values(rows, 128));
  const auto p = Upload(ACL_BF16, {rows}, Values(rows, 1e-3));
  const auto q = Upload(ACL_FLOAT, {rows, v}, Values(static_cast<size_t>(rows * v), 1.0));
  DeviceTensor index(ACL_INT64, {rows});
  DeviceTensor select(ACL_FLOAT, {rows, v});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTopKTopPSampleGetWorkspaceSize(a.Tensor(*logits), a.Tensor(*k), a.Tensor(*p), a.Tensor(*q), kEps,
                                                   false, 32, a.Tensor(index), a.Tensor(select), w, e);
      },
      aclnnTopKTopPSample);
  ExpectExact(index.ReadView(), Values(rows, 0.0), "logitsSelectIdx");
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  struct Shapes {
    aclDataType logits = ACL_FLOAT16, k = ACL_INT32, p = ACL_FLOAT16, q = ACL_FLOAT, index = ACL_INT64,
                select = ACL_FLOAT;
    Shape l = {2, 8}, ks = {2}, ps = {2}, qs = {2, 8}, is = {2}, ss = {2, 8};
  };
  auto call = [](Shapes s) {
    return [=](A& a, W w, E e) {
      return aclnnTopKTopPSampleGetWorkspaceSize(a.NewTensor(s.logits, s.l), a.NewTensorIn(Range{1, 3}, s.k, s.ks),
                                                 a.NewTensorIn(Range{0.1, 0.9}, s.p, s.ps),
                                                 a.NewTensorIn(Range{0.5, 2}, s.q, s.qs), kEps, true, 32,
                                                 a.NewTensor(s.index, s.is), a.NewTensor(s.select, s.ss), w, e);
    };
  };
  auto with = [](auto change) {
    Shapes s;
    change(s);
    return s;
  };
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  auto op = aclnnTopKTopPSample;
  return {
      {"logits_float", call(with([](Shapes& s) { s.logits = s.p = ACL_FLOAT; })), op, "'logits'"},
      {"topk_int64", call(with([](Shapes& s) { s.k = ACL_INT64; })), op, "'topK'"},
      {"topp_dtype", call(with([](Shapes& s) { s.p = ACL_BF16; })), op, "'topP'"},
      {"q_half", call(with([](Shapes& s) { s.q = ACL_FLOAT16; })), op, "'q'"},
      {"index_int32", call(with([](Shapes& s) { s.index = ACL_INT32; })), op, "'logitsSelectIdx'"},
      {"select_half", call(with([](Shapes& s) { s.select = ACL_FLOAT16; })), op, "'logitsTopKPSelect'"},
      {"logits_1d", call(with([](Shapes& s) { s.l = {8}; })), op, "'logits'", tiling},
      {"logits_empty", call(with([](Shapes& s) {
         s.l = s.qs = s.ss = {2, 0};
       })),
       op, "'logits'", tiling},
      {"topk_rows", call(with([](Shapes& s) { s.ks = {3}; })), op, "'topK'", tiling},
      {"topp_2d", call(with([](Shapes& s) {
         s.ps = {2, 1};
       })),
       op, "'topP'", tiling},
      {"q_shape", call(with([](Shapes& s) {
         s.qs = {2, 7};
       })),
       op, "'q'", tiling},
      {"select_shape", call(with([](Shapes& s) {
         s.ss = {2, 9};
       })),
       op, "'logitsTopKPSelect'", tiling},
      {"index_shape", call(with([](Shapes& s) {
         s.is = {2, 1};
       })),
       op, "'logitsSelectIdx'", tiling},
  };
}

class TopKTopPSampleRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(TopKTopPSampleRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, TopKTopPSampleRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
