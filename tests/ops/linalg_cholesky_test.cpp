// LinalgCholesky through the public C API: for each dtype, batch, view and
// upper / lower form, the factor read back must be triangular (exact zeros
// elsewhere, a positive diagonal) and rebuild self in float64 within the out
// dtype's roundoff; empty batches, a matrix that is not positive definite,
// CANN's example and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_linalg_cholesky.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

struct CholeskyCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  bool upper = false;
  View selfView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const CholeskyCase& c, std::ostream* os) { *os << c.name; }

class CholeskyTest : public ::testing::TestWithParam<CholeskyCase> {};

TEST_P(CholeskyTest, FactorRebuildsSelf) {
  const CholeskyCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = c.shape.back();
  const int64_t batch = NumElements(c.shape) / (n * n);
  // self = B B^T + n I: symmetric positive definite.
  Values a(static_cast<size_t>(NumElements(c.shape)));
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> m(static_cast<size_t>(n * n));
    for (double& v : m) v = rng.Uniform(-1, 1);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = i == j ? static_cast<double>(n) : 0.0;
        for (int64_t k = 0; k < n; ++k) sum += m[static_cast<size_t>(i * n + k)] * m[static_cast<size_t>(j * n + k)];
        a[static_cast<size_t>((b * n + i) * n + j)] = sum;
      }
    }
  }
  DeviceTensor self(c.dtype, c.shape, c.selfView), out(c.dtype, c.shape, c.outView);
  self.WriteView(a);
  a = self.ReadView();  // rounded to the dtype; the lower triangle is what counts
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgCholeskyGetWorkspaceSize(args.Tensor(self), c.upper, args.Tensor(out), ws, ex);
      },
      aclnnLinalgCholesky);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values f = out.ReadView();
  const double u = UnitRoundoff(c.dtype);
  Values got;
  Expected want;
  for (int64_t b = 0; b < batch; ++b) {
    const auto base = static_cast<size_t>(b * n * n);
    // L[i][j], from the factor as stored (upper: its transpose).
    auto l = [&](int64_t i, int64_t j) {
      return f[base + static_cast<size_t>(c.upper ? j * n + i : i * n + j)].real();
    };
    double largest = 0;
    for (int64_t i = 0; i < n; ++i)
      largest = std::max(largest, std::abs(a[base + static_cast<size_t>(i * n + i)].real()));
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_GT(l(i, i), 0) << c.name << " diagonal " << i;
      for (int64_t j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(l(i, j), 0) << c.name << " above the diagonal at " << i << "," << j;
          continue;
        }
        double sum = 0;
        for (int64_t k = 0; k <= j; ++k) sum += l(i, k) * l(j, k);
        got.push_back(sum);
        want.values.push_back(a[base + static_cast<size_t>(i * n + j)]);
        want.tolerance.push_back(4 * u * static_cast<double>(n + 1) * largest);
      }
    }
  }
  ExpectNear(got, want, c.name);
  ExpectOutsideViewUnchanged(out, poisoned, "out");
}

std::vector<CholeskyCase> CholeskyCases() {
  std::vector<CholeskyCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_lower", dt, {5, 5}});
    cases.push_back({n + "_upper_batch", dt, {2, 3, 4, 4}, true, View::kTransposed, View::kStepped});
  }
  cases.push_back({"f32_1x1", ACL_FLOAT, {1, 1}});
  cases.push_back({"f32_large", ACL_FLOAT, {2, 40, 40}, false, View::kOffset, View::kTransposed});
  cases.push_back({"f32_upper_reversed", ACL_FLOAT, {6, 6}, true, View::kReversed, View::kOffset});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(LinalgCholesky, CholeskyTest, ::testing::ValuesIn(CholeskyCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunCholesky(aclDataType self, const Shape& shape, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgCholeskyGetWorkspaceSize(args.NewTensor(self, shape), false, args.NewTensor(out, outShape),
                                                   ws, ex);
      },
      aclnnLinalgCholesky);
}

TEST(LinalgCholeskyEdges, ExampleEmptyAndIndefinite) {
  // [[4, 2], [2, 3]] = L L^T with L = [[2, 0], [1, sqrt(2)]].
  auto self = Upload(ACL_FLOAT, {2, 2}, {4, 2, 2, 3});
  auto out = Poisoned(ACL_FLOAT, {2, 2});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgCholeskyGetWorkspaceSize(args.Tensor(*self), false, args.Tensor(*out), ws, ex);
      },
      aclnnLinalgCholesky);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {2, 0, 1, ConvertValue(std::sqrt(2.0), ACL_FLOAT)}, "cholesky");
  // CANN's example: FLOAT [[6, -3, 1], [-3, 2, 0], [1, 0, 4]], lower.
  auto example = Upload(ACL_FLOAT, {3, 3}, {6, -3, 1, -3, 2, 0, 1, 0, 4});
  auto lower = Poisoned(ACL_FLOAT, {3, 3});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnLinalgCholeskyGetWorkspaceSize(args.Tensor(*example), false, args.Tensor(*lower), ws,
                                                               ex);
                  },
                  aclnnLinalgCholesky)
                  .ok());
  const double r6 = std::sqrt(6.0), half = std::sqrt(0.5);
  const std::vector<double> l = {r6, 0, 0, -3 / r6, half, 0, 1 / r6, 0.5 / half, std::sqrt(4 - 1.0 / 6 - 0.5)};
  const Values got = lower->ReadView();
  for (size_t i = 0; i < l.size(); ++i) EXPECT_NEAR(got[i].real(), l[i], 1e-6) << i;
  EXPECT_TRUE(RunCholesky(ACL_FLOAT, {0, 3, 3}, ACL_FLOAT, {0, 3, 3}).ok());
  EXPECT_TRUE(RunCholesky(ACL_FLOAT, {0, 2, 3}, ACL_FLOAT, {0, 2, 3}).ok());  // empty: not checked square
  auto indefinite = Upload(ACL_FLOAT, {2, 2}, {-1, 0, 0, 1});
  auto factor = Poisoned(ACL_FLOAT, {2, 2});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnLinalgCholeskyGetWorkspaceSize(args.Tensor(*indefinite), false, args.Tensor(*factor),
                                                               ws, ex);
                  },
                  aclnnLinalgCholesky)
                  .ok());
  EXPECT_TRUE(std::isnan(factor->ReadView()[0].real()));
}

TEST(LinalgCholeskyRejects, WithCannCodes) {
  EXPECT_EQ(RunCholesky(ACL_DOUBLE, {3, 3}, ACL_DOUBLE, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCholesky(ACL_FLOAT, {3, 3}, ACL_FLOAT16, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCholesky(ACL_FLOAT, {3}, ACL_FLOAT, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCholesky(ACL_FLOAT, {3, 3}, ACL_FLOAT, {1, 3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunCholesky(ACL_FLOAT, {2, 3}, ACL_FLOAT, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
