// Sinkhorn through the public API against a float64 run of the documented
// iteration: every A2 dtype for cost and p, the default tol (null) and given
// ones, strided cost and p, the properties of a converged plan (every column
// sums to 1 / C, every row to about 1 / R), CANN's example, an empty cost and
// the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_sinkhorn.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

// The doc's iteration in float64, stopping at mean |d1 change| <= tol, or
// after Canopy's documented bound of 100000 iterations (src/ops/math/sinkhorn.cpp):
// a tol below what the data reach (64 x 5 at 1e-8) would otherwise run for a minute.
Values Reference(const Values& cost, int64_t rows, int64_t cols, double tol) {
  constexpr double kEps = 1e-8;
  constexpr int kMaxIterations = 100000;
  std::vector<double> k, d0(static_cast<size_t>(rows), 1), d1(static_cast<size_t>(cols), 1);
  int iterations = 0;
  for (const Value& v : cost) k.push_back(std::exp(v.real()));
  for (double error = 1e9; error > tol && iterations < kMaxIterations; ++iterations) {
    for (int64_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (int64_t c = 0; c < cols; ++c) sum += d1[static_cast<size_t>(c)] * k[static_cast<size_t>(r * cols + c)];
      d0[static_cast<size_t>(r)] = 1 / (static_cast<double>(rows) * (sum + kEps));
    }
    error = 0;
    for (int64_t c = 0; c < cols; ++c) {
      double sum = 0;
      for (int64_t r = 0; r < rows; ++r) sum += d0[static_cast<size_t>(r)] * k[static_cast<size_t>(r * cols + c)];
      const double next = 1 / (static_cast<double>(cols) * (sum + kEps));
      error += std::abs(next - d1[static_cast<size_t>(c)]) / static_cast<double>(cols);
      d1[static_cast<size_t>(c)] = next;
    }
  }
  Values p;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      p.emplace_back(d1[static_cast<size_t>(c)] * k[static_cast<size_t>(r * cols + c)] * d0[static_cast<size_t>(r)]);
    }
  }
  return p;
}

struct SinkhornCase {
  int64_t rows, cols;
  double tol;  // < 0: null (0.0001)
  View costView, pView;
};

TEST(Sinkhorn, MatchesReference) {
  const std::vector<SinkhornCase> cases = {
      {4, 3, -1, View::kContiguous, View::kContiguous},   {16, 8, 1e-6, View::kTransposed, View::kStepped},
      {7, 33, 1e-3, View::kStepped, View::kOffset},       {64, 5, 1e-8, View::kReversed, View::kTransposed},
      {1, 6, 1e-7, View::kContiguous, View::kContiguous},
  };
  for (aclDataType dtype : HalfAndSingle()) {
    for (aclDataType pDtype : {dtype, ACL_FLOAT}) {
      for (const SinkhornCase& c : cases) {
        SCOPED_TRACE(std::string(Name(dtype)) + " -> " + Name(pDtype) + " [" + std::to_string(c.rows) + ", " +
                     std::to_string(c.cols) + "] tol " + std::to_string(c.tol));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor cost(dtype, {c.rows, c.cols}, c.costView);
        DeviceTensor p(pDtype, {c.rows, c.cols}, c.pView);
        const Values x = cost.FillRandom(rng, Range{0, 1});
        p.Poison();
        ExpectRuns(
            [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
              return aclnnSinkhornGetWorkspaceSize(a.Tensor(cost), c.tol < 0 ? nullptr : a.Scalar(ACL_FLOAT, c.tol),
                                                   a.Tensor(p), w, e);
            },
            aclnnSinkhorn);
        const Values got = p.ReadView();
        ExpectNear(got, RelativeTolerance(Reference(x, c.rows, c.cols, c.tol < 0 ? 1e-4 : c.tol), pDtype, 8), "p");
        for (int64_t col = 0; col < c.cols; ++col) {  // a plan ends on the column update
          double sum = 0;
          for (int64_t r = 0; r < c.rows; ++r) sum += got[static_cast<size_t>(r * c.cols + col)].real();
          EXPECT_NEAR(sum * static_cast<double>(c.cols), 1.0, 1e-6 + 4 * UnitRoundoff(pDtype) * std::sqrt(c.rows))
              << "column " << col;
        }
      }
    }
  }
}

// CANN's example: cost [3, 2] = {45, 48, 65, 68, 68, 10} (outside [0, 1], still accepted), tol 0.0001.
TEST(Sinkhorn, CannExample) {
  const Values x = {45, 48, 65, 68, 68, 10};
  const auto cost = Upload(ACL_FLOAT, {3, 2}, x);
  DeviceTensor p(ACL_FLOAT, {3, 2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSinkhornGetWorkspaceSize(a.Tensor(*cost), a.Scalar(ACL_FLOAT, 1e-4), a.Tensor(p), w, e);
      },
      aclnnSinkhorn);
  ExpectNear(p.ReadView(), RelativeTolerance(Reference(x, 3, 2, 1e-4), ACL_FLOAT, 64), "p");
}

TEST(Sinkhorn, EmptyCost) {
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnSinkhornGetWorkspaceSize(a.NewTensor(ACL_BF16, {0, 4}), nullptr, a.NewTensor(ACL_BF16, {0, 4}), w,
                                             e);
      },
      aclnnSinkhorn);
  EXPECT_TRUE(run.ok()) << Describe(run);
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType cd, Shape c, aclDataType pd, Shape p) {
    return [=](A& a, W w, E e) {
      return aclnnSinkhornGetWorkspaceSize(a.NewTensorIn(Range{0, 1}, cd, c), nullptr, a.NewTensor(pd, p), w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  const Shape s = {3, 4};
  return {
      {"cost_double", call(ACL_DOUBLE, s, f, s), aclnnSinkhorn, "'cost'"},
      {"p_int", call(f, s, ACL_INT32, s), aclnnSinkhorn, "'p'"},
      {"cost_3d", call(f, {2, 3, 4}, f, {2, 3, 4}), aclnnSinkhorn, "'cost'"},
      {"cost_1d", call(f, {4}, f, {4}), aclnnSinkhorn, "'cost'"},
      {"p_shape", call(f, s, f, {4, 3}), aclnnSinkhorn, "'p'"},
      {"columns_4097", call(f, {1, 4097}, f, {1, 4097}), aclnnSinkhorn, "'cost'"},
  };
}

class SinkhornRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(SinkhornRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, SinkhornRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
