// Inverse through the public C API: for each dtype, batch shape and view,
// A @ inverse(A) computed in float64 from the values read back must be the
// identity within the out dtype's roundoff (A diagonally dominant, so well
// conditioned); empty batches, a singular matrix, CANN's example and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "aclnnop/aclnn_inverse.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

struct InverseCase {
  std::string name;
  aclDataType self, out;
  Shape shape;
  View selfView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const InverseCase& c, std::ostream* os) { *os << c.name; }

class InverseTest : public ::testing::TestWithParam<InverseCase> {};

TEST_P(InverseTest, TimesSelfIsIdentity) {
  const InverseCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(c.self, c.shape, c.selfView), out(c.out, c.shape, c.outView);
  const int64_t n = c.shape.back();
  const int64_t batch = NumElements(c.shape) / (n * n);
  // Random entries in [-1, 1] plus n on the diagonal: diagonally dominant.
  Values a = self.FillRandom(rng, Range{-1, 1});
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>((b * n + i) * n + i)] += static_cast<double>(n);
  }
  self.WriteView(a);
  a = self.ReadView();  // as stored (rounded to self's dtype)
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInverseGetWorkspaceSize(args.Tensor(self), args.Tensor(out), ws, ex);
      },
      aclnnInverse);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values x = out.ReadView();
  Expected want;
  Values got;
  const double u = std::max(UnitRoundoff(c.out), 0x1p-52);
  for (int64_t b = 0; b < batch; ++b) {
    const auto base = static_cast<size_t>(b * n * n);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        Value sum = 0;
        for (int64_t k = 0; k < n; ++k)
          sum += a[base + static_cast<size_t>(i * n + k)] * x[base + static_cast<size_t>(k * n + j)];
        got.push_back(sum);
        want.values.push_back(i == j ? 1.0 : 0.0);
        // Each product term carries the roundoff of x's entry (|x| <= 1 / n here) times |a| <= n + 1.
        want.tolerance.push_back(8 * u * static_cast<double>(n + 1));
      }
    }
  }
  ExpectNear(got, want, c.name);
  ExpectOutsideViewUnchanged(out, poisoned, "out");
}

std::vector<InverseCase> InverseCases() {
  std::vector<InverseCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_4x4", dt, dt, {4, 4}});
    cases.push_back({n + "_batch", dt, dt, {2, 3, 5, 5}, View::kTransposed, View::kStepped});
  }
  cases.push_back({"f32_1x1", ACL_FLOAT, ACL_FLOAT, {1, 1}});
  cases.push_back({"f32_large", ACL_FLOAT, ACL_FLOAT, {3, 48, 48}, View::kOffset, View::kTransposed});
  cases.push_back({"f16_into_f32", ACL_FLOAT16, ACL_FLOAT, {6, 6}, View::kReversed});
  cases.push_back({"f32_into_c64", ACL_FLOAT, ACL_COMPLEX64, {3, 3}});
  cases.push_back({"f64_into_f32", ACL_DOUBLE, ACL_FLOAT, {7, 7}, View::kStepped, View::kOffset});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Inverse, InverseTest, ::testing::ValuesIn(InverseCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunInverse(aclDataType self, const Shape& shape, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInverseGetWorkspaceSize(args.NewTensor(self, shape), args.NewTensor(out, outShape), ws, ex);
      },
      aclnnInverse);
}

TEST(InverseEdges, ExampleEmptyAndSingular) {
  // CANN's example: FLOAT [2, 2] [[1, 2], [3, 4]] gives [[-2, 1], [1.5, -0.5]].
  auto self = Upload(ACL_FLOAT, {2, 2}, {1, 2, 3, 4});
  auto out = Poisoned(ACL_FLOAT, {2, 2});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInverseGetWorkspaceSize(args.Tensor(*self), args.Tensor(*out), ws, ex);
      },
      aclnnInverse);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values x = out->ReadView();
  const Values want = {-2, 1, 1.5, -0.5};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(x[i].real(), want[i].real(), 1e-6) << i;
  // Empty batches need no square check; a singular matrix gives non-finite values, not an error.
  EXPECT_TRUE(RunInverse(ACL_FLOAT, {0, 3, 3}, ACL_FLOAT, {0, 3, 3}).ok());
  EXPECT_TRUE(RunInverse(ACL_FLOAT, {0, 2, 3}, ACL_FLOAT, {0, 2, 3}).ok());
  EXPECT_TRUE(RunInverse(ACL_FLOAT, {0}, ACL_FLOAT, {0}).ok());
  auto zeros = Upload(ACL_FLOAT, {2, 2}, {0, 0, 0, 0});
  auto inv = Poisoned(ACL_FLOAT, {2, 2});
  ASSERT_TRUE(RunOp(
                  [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                    return aclnnInverseGetWorkspaceSize(args.Tensor(*zeros), args.Tensor(*inv), ws, ex);
                  },
                  aclnnInverse)
                  .ok());
  EXPECT_FALSE(std::isfinite(inv->ReadView()[0].real()));
}

TEST(InverseRejects, WithCannCodes) {
  EXPECT_EQ(RunInverse(ACL_BF16, {3, 3}, ACL_BF16, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunInverse(ACL_INT32, {3, 3}, ACL_INT32, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunInverse(ACL_FLOAT, {3, 3}, ACL_INT32, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);      // cast
  EXPECT_EQ(RunInverse(ACL_COMPLEX64, {3, 3}, ACL_FLOAT, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // cast
  EXPECT_EQ(RunInverse(ACL_FLOAT, {3, 3}, ACL_FLOAT, {2, 3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunInverse(ACL_FLOAT, {3}, ACL_FLOAT, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunInverse(ACL_FLOAT, {2, 3}, ACL_FLOAT, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
