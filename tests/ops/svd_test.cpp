// Svd through the public C API, checked in float64 from the values read
// back: sigma descending and non-negative, U and V with orthonormal columns,
// U diag(sigma) V^H = input; sigma alone with sum sigma^2 = |input|_F^2.
// Each dtype, tall, wide and square batches, full and reduced matrices, a
// rank-deficient input, views, empty input and the rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "aclnnop/aclnn_svd.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

struct SvdCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  bool full = false, computeUV = true, rankDeficient = false;
  View inView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const SvdCase& c, std::ostream* os) { *os << c.name; }

class SvdTest : public ::testing::TestWithParam<SvdCase> {};

TEST_P(SvdTest, FactorsRebuildInput) {
  const SvdCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const size_t rank = c.shape.size();
  const int64_t m = c.shape[rank - 2], n = c.shape[rank - 1], k = std::min(m, n);
  const int64_t uCols = c.full ? m : k, vCols = c.full ? n : k;
  const Shape batch(c.shape.begin(), c.shape.end() - 2);
  Shape sShape = batch, uShape = batch, vShape = batch;
  sShape.push_back(k);
  uShape.insert(uShape.end(), {m, uCols});
  vShape.insert(vShape.end(), {n, vCols});
  DeviceTensor input(c.dtype, c.shape, c.inView), s(c.dtype, sShape, c.outView), u(c.dtype, uShape, c.outView),
      v(c.dtype, vShape, c.outView);
  Values a = input.FillRandom(rng, Range{-2, 2});
  if (c.rankDeficient) {  // the last row repeats the first in every matrix
    for (int64_t b = 0; b < NumElements(batch); ++b) {
      for (int64_t j = 0; j < n; ++j)
        a[static_cast<size_t>((b * m + m - 1) * n + j)] = a[static_cast<size_t>(b * m * n + j)];
    }
    input.WriteView(a);
  }
  s.Poison();
  u.Poison();
  v.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSvdGetWorkspaceSize(args.Tensor(input), c.full, c.computeUV, args.Tensor(s), args.Tensor(u),
                                        args.Tensor(v), ws, ex);
      },
      aclnnSvd);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values sv = s.ReadView();
  const double tol = 32 * UnitRoundoff(c.dtype) * static_cast<double>(std::max(m, n) + 1) * 4;
  Values got;
  Expected want;
  auto expect = [&](Value g, Value w, double scale) {
    got.push_back(g);
    want.values.push_back(w);
    want.tolerance.push_back(tol * std::max(1.0, scale));
  };
  const Values uv = c.computeUV ? u.ReadView() : Values{};
  const Values vv = c.computeUV ? v.ReadView() : Values{};
  for (int64_t b = 0; b < NumElements(batch); ++b) {
    auto A = [&](int64_t i, int64_t j) { return a[static_cast<size_t>((b * m + i) * n + j)]; };
    auto S = [&](int64_t j) { return sv[static_cast<size_t>(b * k + j)]; };
    double frobenius = 0, squares = 0;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) frobenius += std::norm(A(i, j));
    }
    for (int64_t j = 0; j < k; ++j) {
      EXPECT_EQ(S(j).imag(), 0) << c.name;
      EXPECT_GE(S(j).real(), 0) << c.name;
      if (j > 0) {
        EXPECT_GE(S(j - 1).real(), S(j).real()) << c.name << " sigma not descending";
      }
      squares += std::norm(S(j));
    }
    expect(squares, frobenius, frobenius);
    if (!c.computeUV) continue;
    auto U = [&](int64_t i, int64_t j) { return uv[static_cast<size_t>((b * m + i) * uCols + j)]; };
    auto V = [&](int64_t i, int64_t j) { return vv[static_cast<size_t>((b * n + i) * vCols + j)]; };
    for (int64_t i = 0; i < uCols; ++i) {
      for (int64_t j = 0; j < uCols; ++j) {
        Value dot = 0;
        for (int64_t p = 0; p < m; ++p) dot += std::conj(U(p, i)) * U(p, j);
        expect(dot, i == j ? 1.0 : 0.0, 1);
      }
    }
    for (int64_t i = 0; i < vCols; ++i) {
      for (int64_t j = 0; j < vCols; ++j) {
        Value dot = 0;
        for (int64_t p = 0; p < n; ++p) dot += std::conj(V(p, i)) * V(p, j);
        expect(dot, i == j ? 1.0 : 0.0, 1);
      }
    }
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        Value sum = 0;
        for (int64_t p = 0; p < k; ++p) sum += U(i, p) * S(p) * std::conj(V(j, p));
        expect(sum, A(i, j), std::sqrt(frobenius));
      }
    }
  }
  ExpectNear(got, want, c.name);
}

std::vector<SvdCase> SvdCases() {
  std::vector<SvdCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_tall", dt, {5, 3}});
    cases.push_back({n + "_wide_full", dt, {3, 5}, true});
    cases.push_back({n + "_batch_square", dt, {2, 3, 4, 4}, false, true, false, View::kTransposed, View::kStepped});
  }
  cases.push_back({"f32_tall_full", ACL_FLOAT, {6, 2}, true});
  cases.push_back({"f64_rank_deficient_full", ACL_DOUBLE, {2, 4, 4}, true, true, true});
  cases.push_back({"c64_rank_deficient", ACL_COMPLEX64, {5, 3}, false, true, true, View::kOffset, View::kReversed});
  cases.push_back({"f32_sigma_only", ACL_FLOAT, {3, 7, 5}, false, false});
  cases.push_back({"f32_large", ACL_FLOAT, {30, 24}, false, true, false, View::kStepped, View::kOffset});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Svd, SvdTest, ::testing::ValuesIn(SvdCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// f64 matrices near the ends of the range: scaled by a power of two first, so sigma is exact, not 0 or inf.
TEST(SvdValues, ExtremeScales) {
  const auto sigma = [](const Values& a) {
    DeviceTensor input(ACL_DOUBLE, {2, 2}), s(ACL_DOUBLE, {2}), u(ACL_DOUBLE, {2, 2}), v(ACL_DOUBLE, {2, 2});
    input.WriteView(a);
    ExpectRuns(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnSvdGetWorkspaceSize(args.Tensor(input), false, true, args.Tensor(s), args.Tensor(u),
                                          args.Tensor(v), ws, ex);
        },
        aclnnSvd);
    return s.ReadView();
  };
  const double big = 5.464985704219043, small = 0.365966190626258;  // of [[1, 2], [3, 4]]
  for (const double scale : {1e200, 1e-200, 1e-160, 1e-305}) {
    const Values got = sigma({1 * scale, 2 * scale, 3 * scale, 4 * scale});
    EXPECT_NEAR(got[0].real() / scale, big, 1e-12) << scale;
    EXPECT_NEAR(got[1].real() / scale, small, 1e-12) << scale;
  }
  const Values diagonal = sigma({1e-300, 0, 0, 1});
  EXPECT_EQ(diagonal[0].real(), 1.0);
  EXPECT_NEAR(diagonal[1].real() / 1e-300, 1.0, 1e-15);
}

OpRun RunSvd(aclDataType in, const Shape& shape, bool full, bool uv, aclDataType sd, const Shape& ss, aclDataType ud,
             const Shape& us, const Shape& vs) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnSvdGetWorkspaceSize(args.NewTensor(in, shape), full, uv, args.NewTensor(sd, ss),
                                        args.NewTensor(ud, us), args.NewTensor(in, vs), ws, ex);
      },
      aclnnSvd);
}

TEST(SvdRejects, WithCannCodes) {
  const auto f = ACL_FLOAT;
  EXPECT_TRUE(RunSvd(f, {4, 3}, false, true, f, {3}, f, {4, 3}, {3, 3}).ok());
  // CANN's host code checks u's and v's shapes whether or not computeUV asks for them.
  EXPECT_TRUE(RunSvd(f, {4, 3}, false, false, f, {3}, f, {4, 3}, {3, 3}).ok());
  EXPECT_EQ(RunSvd(f, {4, 3}, false, false, f, {3}, f, {1}, {1}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4, 3}, false, false, f, {3}, f, {4, 3}, {5, 5}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunSvd(f, {0, 3}, false, true, f, {0}, f, {0, 0}, {3, 0}).ok());
  EXPECT_EQ(RunSvd(ACL_FLOAT16, {4, 3}, false, true, ACL_FLOAT16, {3}, ACL_FLOAT16, {4, 3}, {3, 3}).phase1,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4, 3}, false, true, ACL_DOUBLE, {3}, f, {4, 3}, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4, 3}, false, true, f, {3}, ACL_DOUBLE, {4, 3}, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4}, false, true, f, {1}, f, {4, 1}, {1, 1}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4, 3}, false, true, f, {4}, f, {4, 3}, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4, 3}, true, true, f, {3}, f, {4, 3}, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSvd(f, {4, 3}, false, true, f, {3}, f, {4, 3}, {3, 4}).phase1, ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace canopy_test
