// ApplyTopKTopP through the public API against a float64 reference: top-k
// alone, top-p alone, both, neither, k at its edges (0, 1, V, above V), p
// from 0 to 1, ties at the k-th value, every A2 dtype, strided views, a
// one-column logits, empty logits, CANN's example and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_apply_top_k_top_p.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Per element: 1 kept, 0 masked, -1 either (a running sum within rounding of 1 - p).
std::vector<int> Reference(const Values& row, const double* p, const int* k) {
  const auto v = static_cast<int64_t>(row.size());
  std::vector<int64_t> order(row.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return row[a].real() < row[b].real(); });
  std::vector<double> sorted;
  for (int64_t i : order) sorted.push_back(row[static_cast<size_t>(i)].real());
  std::vector<int> keep(row.size(), 1), sortedKeep(row.size(), 1);
  if (v == 1) return keep;
  if (k != nullptr && *k > 0 && *k < v) {
    const double threshold = sorted[static_cast<size_t>(v - *k)];
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (sorted[i] < threshold) {
        sorted[i] = -kInf;
        sortedKeep[i] = 0;
      }
    }
  }
  if (p != nullptr) {
    double sum = 0;
    for (double s : sorted) sum += std::exp(s - sorted.back());
    double running = 0;
    for (int64_t i = 0; i + 1 < v; ++i) {
      running += std::exp(sorted[static_cast<size_t>(i)] - sorted.back()) / sum;
      if (sortedKeep[static_cast<size_t>(i)] == 0) continue;
      if (std::abs(running - (1 - *p)) < 1e-5) {
        sortedKeep[static_cast<size_t>(i)] = -1;
      } else if (running <= 1 - *p) {
        sortedKeep[static_cast<size_t>(i)] = 0;
      }
    }
  }
  for (size_t i = 0; i < order.size(); ++i) keep[static_cast<size_t>(order[i])] = sortedKeep[i];
  return keep;
}

void ExpectFiltered(const Values& got, const Values& logits, int64_t rows, int64_t v, const Values* p,
                    const std::vector<int>* k) {
  for (int64_t r = 0; r < rows; ++r) {
    const Values row(logits.begin() + r * v, logits.begin() + (r + 1) * v);
    const double pr = p != nullptr ? (*p)[static_cast<size_t>(r)].real() : 0;
    const std::vector<int> keep =
        Reference(row, p != nullptr ? &pr : nullptr, k != nullptr ? &(*k)[static_cast<size_t>(r)] : nullptr);
    for (int64_t j = 0; j < v; ++j) {
      const double value = got[static_cast<size_t>(r * v + j)].real();
      const int want = keep[static_cast<size_t>(j)];
      if (want == 1) {
        ASSERT_EQ(value, row[static_cast<size_t>(j)].real()) << "row " << r << " column " << j << " is kept";
      } else if (want == 0) {
        ASSERT_EQ(value, -kInf) << "row " << r << " column " << j << " is masked";
      }
    }
  }
}

TEST(ApplyTopKTopP, MatchesReference) {
  const int64_t rows = 8, v = 40;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int form = 0; form < 4; ++form) {  // 0 both, 1 k only, 2 p only, 3 neither
      SCOPED_TRACE(std::string(Name(dtype)) + " form " + std::to_string(form));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor logits(dtype, {rows, v}, View::kTransposed);
      Values x = logits.FillRandom(rng, Range{-4, 4});
      for (int64_t j = 0; j < v; j += 5) x[static_cast<size_t>(j)] = x[1];  // ties in row 0
      logits.WriteView(x);
      const std::vector<int> ks = {0, 1, 5, 40, 41, -3, 12, 39};
      Values kv, pv;
      for (int kk : ks) kv.emplace_back(kk);
      for (int64_t r = 0; r < rows; ++r)
        pv.push_back(ConvertValue(r == 0 ? 1.0 : r == 1 ? 0.0 : 0.12 * static_cast<double>(r), dtype));
      const auto k = Upload(ACL_INT32, {rows}, kv);
      DeviceTensor p(dtype, {rows}, View::kStepped);
      p.WriteView(pv);
      DeviceTensor out(dtype, {rows, v}, View::kStepped);
      const bool withK = form == 0 || form == 1, withP = form == 0 || form == 2;
      ExpectRuns(
          [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
            return aclnnApplyTopKTopPGetWorkspaceSize(a.Tensor(logits), withP ? a.Tensor(p) : nullptr,
                                                      withK ? a.Tensor(*k) : nullptr, a.Tensor(out), w, e);
          },
          aclnnApplyTopKTopP);
      ExpectFiltered(out.ReadView(), x, rows, v, withP ? &pv : nullptr, withK ? &ks : nullptr);
    }
  }
}

// CANN's example: rows 1..4, 5..8, 9..12 with p {0.2, 0.4, 0.6} and k {1, 2, 3}: only the largest stays.
TEST(ApplyTopKTopP, CannExample) {
  Values x;
  for (int i = 1; i <= 12; ++i) x.emplace_back(i);
  const auto logits = Upload(ACL_FLOAT, {3, 4}, x);
  const auto p = Upload(ACL_FLOAT, {3}, {0.2, 0.4, 0.6});
  const auto k = Upload(ACL_INT32, {3}, {1, 2, 3});
  DeviceTensor out(ACL_FLOAT, {3, 4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnApplyTopKTopPGetWorkspaceSize(a.Tensor(*logits), a.Tensor(*p), a.Tensor(*k), a.Tensor(out), w, e);
      },
      aclnnApplyTopKTopP);
  ExpectExact(out.ReadView(), {-kInf, -kInf, -kInf, 4, -kInf, -kInf, -kInf, 8, -kInf, -kInf, -kInf, 12}, "example");
}

TEST(ApplyTopKTopP, OneColumnAndEmpty) {
  const auto logits = Upload(ACL_FLOAT, {3, 1}, {1, -2, 3});
  const auto k = Upload(ACL_INT32, {3}, {1, 1, 1});
  DeviceTensor out(ACL_FLOAT, {3, 1});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnApplyTopKTopPGetWorkspaceSize(a.Tensor(*logits), nullptr, a.Tensor(*k), a.Tensor(out), w, e);
      },
      aclnnApplyTopKTopP);
  ExpectExact(out.ReadView(), {1, -2, 3}, "one column");
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnApplyTopKTopPGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {0, 4}), a.NewTensor(ACL_FLOAT, {0}), nullptr,
                                                  a.NewTensor(ACL_FLOAT, {0, 4}), w, e);
      },
      aclnnApplyTopKTopP);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape logits, aclDataType pDtype, Shape p, aclDataType kDtype, Shape k,
                 aclDataType outDtype, Shape out) {
    return [=](A& a, W w, E e) {
      return aclnnApplyTopKTopPGetWorkspaceSize(a.NewTensor(dtype, logits), a.NewTensor(pDtype, p),
                                                a.NewTensorIn(Range{1, 2}, kDtype, k), a.NewTensor(outDtype, out), w,
                                                e);
    };
  };
  const aclDataType f = ACL_FLOAT, i = ACL_INT32;
  const Shape m = {2, 5}, r = {2};
  return {
      {"double", call(ACL_DOUBLE, m, ACL_DOUBLE, r, i, r, ACL_DOUBLE, m), aclnnApplyTopKTopP, "'logits'"},
      {"k_int64", call(f, m, f, r, ACL_INT64, r, f, m), aclnnApplyTopKTopP, "'k'"},
      {"p_dtype", call(f, m, ACL_FLOAT16, r, i, r, f, m), aclnnApplyTopKTopP, "'p'"},
      {"out_dtype", call(f, m, f, r, i, r, ACL_BF16, m), aclnnApplyTopKTopP, "'out'"},
      {"logits_3d", call(f, {2, 5, 1}, f, r, i, r, f, {2, 5, 1}), aclnnApplyTopKTopP, "'logits'"},
      {"out_shape", call(f, m, f, r, i, r, f, {5, 2}), aclnnApplyTopKTopP, "'out'"},
      {"p_rows", call(f, m, f, {3}, i, r, f, m), aclnnApplyTopKTopP, "'p'"},
      {"k_2d", call(f, m, f, r, i, {2, 1}, f, m), aclnnApplyTopKTopP, "'k'"},
  };
}

class ApplyTopKTopPRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ApplyTopKTopPRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ApplyTopKTopPRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
