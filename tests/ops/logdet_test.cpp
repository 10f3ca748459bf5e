// Slogdet and Logdet through the public C API against float64 determinants
// by the Leibniz formula (a different method from the op's LU): each dtype,
// batches and views, negative and singular determinants, complex phases,
// 0 x 0 matrices, and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <string>
#include <vector>

#include "aclnnop/aclnn_logdet.h"
#include "aclnnop/aclnn_slogdet.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

// det of the n x n matrix at `base` of `a` (row-major) by summing over permutations.
Value Leibniz(const Values& a, size_t base, int64_t n) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  Value det = 0;
  do {
    int inversions = 0;
    for (size_t i = 0; i < perm.size(); ++i) {
      for (size_t j = i + 1; j < perm.size(); ++j) inversions += perm[i] > perm[j] ? 1 : 0;
    }
    Value term = inversions % 2 == 0 ? 1.0 : -1.0;
    for (int64_t i = 0; i < n; ++i) term *= a[base + static_cast<size_t>(i * n + perm[static_cast<size_t>(i)])];
    det += term;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return det;
}

struct DetCase {
  std::string name;
  aclDataType self, out;
  Shape shape;
  View selfView = View::kContiguous, outView = View::kContiguous;
  bool singular = false;  // the first matrix gets two equal rows
};
void PrintTo(const DetCase& c, std::ostream* os) { *os << c.name; }

class DeterminantTest : public ::testing::TestWithParam<DetCase> {};

TEST_P(DeterminantTest, MatchesLeibniz) {
  const DetCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(c.self, c.shape, c.selfView);
  Values a = self.FillRandom(rng, Range{-2, 2});
  const int64_t n = c.shape.back();
  if (c.singular) {
    for (int64_t k = 0; k < n; ++k) a[static_cast<size_t>(n + k)] = a[static_cast<size_t>(k)];
    self.WriteView(a);
  }
  const Shape batch(c.shape.begin(), c.shape.end() - 2);
  DeviceTensor sign(c.out, batch, c.outView), logabs(c.out, batch, c.outView), logdet(c.out, batch, c.outView);
  sign.Poison();
  logabs.Poison();
  logdet.Poison();
  const OpRun slog = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSlogdetGetWorkspaceSize(args.Tensor(self), args.Tensor(sign), args.Tensor(logabs), ws, ex);
      },
      aclnnSlogdet);
  ASSERT_TRUE(slog.ok()) << Describe(slog);
  const OpRun log = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLogdetGetWorkspaceSize(args.Tensor(self), args.Tensor(logdet), ws, ex);
      },
      aclnnLogdet);
  ASSERT_TRUE(log.ok()) << Describe(log);
  Expected wantSign, wantLog, wantLogdet;
  const double u = UnitRoundoff(c.out);
  for (int64_t b = 0; b < NumElements(batch); ++b) {
    const Value det = Leibniz(a, static_cast<size_t>(b * n * n), n);
    const double magnitude = std::abs(det);
    // Near-singular results lose relative accuracy: the LU's roundoff over the terms' size.
    const double slack = 64 * 0x1p-52 * std::pow(3.0, static_cast<double>(n)) / std::max(magnitude, 1e-300);
    const Value s = magnitude == 0 ? Value(0.0) : det / magnitude;
    const double l = std::log(magnitude);
    wantSign.values.push_back(ConvertValue(s, c.out));
    wantSign.tolerance.push_back(2 * u + slack);
    wantLog.values.push_back(ConvertValue(l, c.out));
    wantLog.tolerance.push_back(std::isinf(l) ? 0 : 2 * u * std::abs(l) + slack);
    // Computed in self's dtype: a real self with a negative determinant gives NaN even into a complex out.
    const Value ld = IsComplex(c.self) ? Value(l, std::arg(s)) : Value(s.real() < 0 ? std::nan("") : l);
    wantLogdet.values.push_back(ConvertValue(ld, c.out));
    wantLogdet.tolerance.push_back(std::isinf(l) ? 0 : 2 * u * std::abs(ld) + slack);
  }
  if (c.singular) {
    // The first matrix: an exact zero from LU is not promised once rows are rounded; only check it is tiny.
    EXPECT_LT(logabs.ReadView()[0].real(), -20) << c.name;
    return;
  }
  ExpectNear(sign.ReadView(), wantSign, c.name + " sign");
  ExpectNear(logabs.ReadView(), wantLog, c.name + " logabsdet");
  ExpectNear(logdet.ReadView(), wantLogdet, c.name + " logdet");
}

std::vector<DetCase> DetCases() {
  std::vector<DetCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_3x3", dt, dt, {3, 3}});
    cases.push_back({n + "_batch", dt, dt, {2, 4, 5, 5}, View::kTransposed, View::kStepped});
  }
  cases.push_back({"f32_1x1_batch", ACL_FLOAT, ACL_FLOAT, {7, 1, 1}, View::kOffset, View::kReversed});
  cases.push_back({"f32_6x6", ACL_FLOAT, ACL_FLOAT, {3, 6, 6}, View::kReversed, View::kOffset});
  cases.push_back({"f32_into_f64", ACL_FLOAT, ACL_DOUBLE, {4, 4, 4}});
  cases.push_back({"f64_into_c128", ACL_DOUBLE, ACL_COMPLEX128, {3, 3, 3}});
  cases.push_back({"f64_singular", ACL_DOUBLE, ACL_DOUBLE, {2, 4, 4}, View::kContiguous, View::kContiguous, true});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Determinant, DeterminantTest, ::testing::ValuesIn(DetCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

TEST(DeterminantEdges, ExactValues) {
  // [[0, 1], [1, 0]]: det -1, so sign -1, log 0, logdet NaN; [[2, 0], [0, 0]]: singular;
  // [[+-inf, 0], [0, 1]]: sign +-1 and log inf, as PyTorch's product of the pivots' signs (the
  // sign was inf / inf, NaN).
  const double inf = std::numeric_limits<double>::infinity();
  auto self = Upload(ACL_FLOAT, {4, 2, 2}, {0, 1, 1, 0, 2, 0, 0, 0, inf, 0, 0, 1, -inf, 0, 0, 1});
  auto sign = Poisoned(ACL_FLOAT, {4});
  auto logabs = Poisoned(ACL_FLOAT, {4});
  auto logdet = Poisoned(ACL_FLOAT, {4});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnSlogdetGetWorkspaceSize(args.Tensor(*self), args.Tensor(*sign), args.Tensor(*logabs),
                                                        ws, ex);
                  },
                  aclnnSlogdet)
                  .ok());
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnLogdetGetWorkspaceSize(args.Tensor(*self), args.Tensor(*logdet), ws, ex);
                  },
                  aclnnLogdet)
                  .ok());
  ExpectExact(sign->ReadView(), {-1, 0, 1, -1}, "sign");
  ExpectExact(logabs->ReadView(), {0, -inf, inf, inf}, "logabsdet");
  ExpectExact(logdet->ReadView(), {std::nan(""), -inf, inf, std::nan("")}, "logdet");
  // 0 x 0 matrices: det 1.
  auto empty = Upload(ACL_FLOAT, {3, 0, 0}, {});
  auto ones = Poisoned(ACL_FLOAT, {3});
  auto zeros = Poisoned(ACL_FLOAT, {3});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnSlogdetGetWorkspaceSize(args.Tensor(*empty), args.Tensor(*ones), args.Tensor(*zeros),
                                                        ws, ex);
                  },
                  aclnnSlogdet)
                  .ok());
  ExpectExact(ones->ReadView(), {1, 1, 1}, "sign of 0 x 0");
  ExpectExact(zeros->ReadView(), {0, 0, 0}, "log of 0 x 0");
}

OpRun RunLogdet(aclDataType self, const Shape& shape, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLogdetGetWorkspaceSize(args.NewTensor(self, shape), args.NewTensor(out, outShape), ws, ex);
      },
      aclnnLogdet);
}
OpRun RunSlogdet(aclDataType self, const Shape& shape, aclDataType sign, aclDataType log, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSlogdetGetWorkspaceSize(args.NewTensor(self, shape), args.NewTensor(sign, outShape),
                                            args.NewTensor(log, outShape), ws, ex);
      },
      aclnnSlogdet);
}

TEST(DeterminantRejects, WithCannCodes) {
  const auto f = ACL_FLOAT;
  EXPECT_EQ(RunLogdet(ACL_FLOAT16, {3, 3}, f, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogdet(f, {3, 3}, ACL_BF16, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogdet(ACL_COMPLEX64, {3, 3}, f, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogdet(f, {3}, f, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogdet(f, {2, 3}, f, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogdet(f, {2, 3, 3}, f, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSlogdet(ACL_INT32, {3, 3}, f, f, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSlogdet(ACL_COMPLEX64, {3, 3}, ACL_COMPLEX64, f, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSlogdet(f, {2, 3, 3}, f, f, {2, 1}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunSlogdet(f, {2, 3, 3}, ACL_DOUBLE, ACL_COMPLEX64, {2}).ok());
}

}  // namespace
}  // namespace canopy_test
