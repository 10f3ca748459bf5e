// LinalgQr and Qr through the public C API, checked in float64 from the
// values read back: Q's columns orthonormal, R upper triangular (exact zeros
// below), Q R = self; R alone with R^H R = self^H self. Each dtype, tall,
// wide and square batches, both views, every mode, empty matrices and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "aclnnop/aclnn_linalg_qr.h"
#include "aclnnop/aclnn_qr.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

enum class Form { kReduced, kComplete, kROnly, kQrSome, kQrAll };

struct QrCase {
  std::string name;
  aclDataType dtype;
  Shape shape;
  Form form = Form::kReduced;
  View selfView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const QrCase& c, std::ostream* os) { *os << c.name; }

class QrTest : public ::testing::TestWithParam<QrCase> {};

TEST_P(QrTest, FactorsRebuildSelf) {
  const QrCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const size_t rank = c.shape.size();
  const int64_t m = c.shape[rank - 2], n = c.shape[rank - 1], k = std::min(m, n);
  const bool complete = c.form == Form::kComplete || c.form == Form::kQrAll;
  const int64_t qCols = complete ? m : k, rRows = complete ? m : k;
  Shape qShape = c.shape, rShape = c.shape;
  qShape[rank - 1] = qCols;
  rShape[rank - 2] = rRows;
  if (c.form == Form::kROnly) qShape = {0};
  DeviceTensor self(c.dtype, c.shape, c.selfView), q(c.dtype, qShape, c.outView), r(c.dtype, rShape, c.outView);
  const Values a = self.FillRandom(rng, Range{-2, 2});
  q.Poison();
  r.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        if (c.form == Form::kQrSome || c.form == Form::kQrAll) {
          return aclnnQrGetWorkspaceSize(args.Tensor(self), c.form == Form::kQrSome, args.Tensor(q), args.Tensor(r), ws,
                                         ex);
        }
        const int64_t mode = c.form == Form::kReduced ? 0 : (c.form == Form::kComplete ? 1 : 2);
        return aclnnLinalgQrGetWorkspaceSize(args.Tensor(self), mode, args.Tensor(q), args.Tensor(r), ws, ex);
      },
      c.form == Form::kQrSome || c.form == Form::kQrAll ? aclnnQr : aclnnLinalgQr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values qv = q.ReadView(), rv = r.ReadView();
  const double tol = 16 * UnitRoundoff(c.dtype) * static_cast<double>(std::max(m, n) + 1) * 4;
  Values got;
  Expected want;
  auto expect = [&](Value g, Value w) {
    got.push_back(g);
    want.values.push_back(w);
    want.tolerance.push_back(tol * std::max(1.0, std::abs(w)));
  };
  const int64_t batch = NumElements(c.shape) / std::max<int64_t>(m * n, 1);
  for (int64_t b = 0; b < batch; ++b) {
    auto A = [&](int64_t i, int64_t j) { return a[static_cast<size_t>((b * m + i) * n + j)]; };
    auto R = [&](int64_t i, int64_t j) { return rv[static_cast<size_t>((b * rRows + i) * n + j)]; };
    auto Q = [&](int64_t i, int64_t j) { return qv[static_cast<size_t>((b * m + i) * qCols + j)]; };
    for (int64_t i = 0; i < rRows; ++i) {
      for (int64_t j = 0; j < std::min(i, n); ++j) EXPECT_EQ(R(i, j), Value(0.0)) << c.name << " R below diagonal";
    }
    if (c.form == Form::kROnly) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          Value rr = 0, aa = 0;
          for (int64_t p = 0; p < rRows; ++p) rr += std::conj(R(p, i)) * R(p, j);
          for (int64_t p = 0; p < m; ++p) aa += std::conj(A(p, i)) * A(p, j);
          expect(rr, aa);
        }
      }
      continue;
    }
    for (int64_t i = 0; i < qCols; ++i) {
      for (int64_t j = 0; j < qCols; ++j) {
        Value dot = 0;
        for (int64_t p = 0; p < m; ++p) dot += std::conj(Q(p, i)) * Q(p, j);
        expect(dot, i == j ? 1.0 : 0.0);
      }
    }
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        Value sum = 0;
        for (int64_t p = 0; p < qCols; ++p) sum += Q(i, p) * R(p, j);
        expect(sum, A(i, j));
      }
    }
  }
  ExpectNear(got, want, c.name);
}

std::vector<QrCase> QrCases() {
  std::vector<QrCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_tall_reduced", dt, {5, 3}});
    cases.push_back({n + "_wide_complete", dt, {3, 5}, Form::kComplete});
    cases.push_back({n + "_batch_r", dt, {2, 4, 4}, Form::kROnly, View::kTransposed, View::kStepped});
  }
  cases.push_back({"f32_qr_some", ACL_FLOAT, {2, 3, 6, 4}, Form::kQrSome, View::kOffset, View::kTransposed});
  cases.push_back({"f64_qr_all", ACL_DOUBLE, {6, 4}, Form::kQrAll, View::kReversed, View::kOffset});
  cases.push_back({"f32_large", ACL_FLOAT, {40, 33}, Form::kReduced, View::kStepped, View::kContiguous});
  cases.push_back({"f32_no_columns_complete", ACL_FLOAT, {3, 0}, Form::kComplete});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Qr, QrTest, ::testing::ValuesIn(QrCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// Q and R of one matrix, reduced (mode 0), as read back in float64.
struct Factors {
  Values q, r;
};
Factors ReducedQr(aclDataType dtype, const Shape& shape, const Values& values) {
  const int64_t m = shape[0], n = shape[1], k = std::min(m, n);
  DeviceTensor self(dtype, shape), q(dtype, {m, k}), r(dtype, {k, n});
  self.WriteView(values);
  ExpectRuns(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgQrGetWorkspaceSize(args.Tensor(self), 0, args.Tensor(q), args.Tensor(r), ws, ex);
      },
      aclnnLinalgQr);
  return {q.ReadView(), r.ReadView()};
}

// LAPACK's geqrf, as torch and CANN's document give them: a column with nothing below its diagonal is not
// reflected (a square matrix's last column, an identity, a triangular matrix keep their signs).
TEST(QrValues, LapackSignsAsTheDocument) {
  const double s10 = std::sqrt(10.0);
  const Factors doc = ReducedQr(ACL_DOUBLE, {2, 2}, {1, 2, 3, 4});  // the document's example
  ExpectNear(doc.q, {{-1 / s10, -3 / s10, -3 / s10, 1 / s10}, std::vector<double>(4, 1e-12)}, "example Q");
  ExpectNear(doc.r, {{-s10, -14 / s10, 0, -2 / s10}, std::vector<double>(4, 1e-12)}, "example R");
  const Factors identity = ReducedQr(ACL_FLOAT, {2, 2}, {1, 0, 0, 1});
  ExpectExact(identity.q, {1, 0, 0, 1}, "identity Q");
  ExpectExact(identity.r, {1, 0, 0, 1}, "identity R");
  const Factors upper = ReducedQr(ACL_FLOAT, {2, 2}, {2, 1, 0, 3});
  ExpectExact(upper.q, {1, 0, 0, 1}, "triangular Q");
  ExpectExact(upper.r, {2, 1, 0, 3}, "triangular R");
  // Complex: R's diagonal is real (geqrf's beta).
  Rng rng = Rng::ForCurrentTest();
  Values c;
  for (int i = 0; i < 12; ++i) c.push_back(Value(rng.Uniform(-2, 2), rng.Uniform(-2, 2)));
  const Factors complex = ReducedQr(ACL_COMPLEX128, {4, 3}, c);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(complex.r[static_cast<size_t>(i * 3 + i)].imag(), 0.0) << "R[" << i << "]";
}

// f64 values near the ends of the range: the norms are scaled, so the factors stay finite and exact.
TEST(QrValues, ExtremeScalesFactor) {
  for (const double scale : {1e200, 1e-200, 1e-305}) {
    const Values a = {3 * scale, 4 * scale, 1 * scale, 2 * scale};
    const Factors f = ReducedQr(ACL_DOUBLE, {2, 2}, a);
    for (size_t i = 0; i < 2; ++i) {
      for (size_t j = 0; j < 2; ++j) {
        const Value qr = f.q[i * 2] * f.r[j] + f.q[i * 2 + 1] * f.r[2 + j];
        const Value want = a[i * 2 + j];
        EXPECT_NEAR(qr.real() / scale, want.real() / scale, 1e-12) << scale << " (Q R)[" << i << "][" << j << "]";
        const Value qq = f.q[i] * f.q[j] + f.q[2 + i] * f.q[2 + j];
        EXPECT_NEAR(qq.real(), i == j ? 1.0 : 0.0, 1e-12) << scale << " (Q^T Q)[" << i << "][" << j << "]";
      }
    }
  }
}

OpRun RunLinalgQr(aclDataType self, const Shape& shape, int64_t mode, aclDataType q, const Shape& qs, aclDataType r,
                  const Shape& rs) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLinalgQrGetWorkspaceSize(args.NewTensor(self, shape), mode, args.NewTensor(q, qs),
                                             args.NewTensor(r, rs), ws, ex);
      },
      aclnnLinalgQr);
}

TEST(QrRejects, WithCannCodes) {
  const auto f = ACL_FLOAT;
  EXPECT_TRUE(RunLinalgQr(f, {0, 3}, 0, f, {0, 0}, f, {0, 3}).ok());
  EXPECT_TRUE(RunLinalgQr(f, {4, 3}, 0, ACL_DOUBLE, {4, 3}, ACL_COMPLEX64, {3, 3}).ok());  // outputs cast
  EXPECT_EQ(RunLinalgQr(ACL_BF16, {4, 3}, 0, f, {4, 3}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLinalgQr(f, {4, 3}, 0, ACL_INT32, {4, 3}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLinalgQr(f, {4, 3}, 0, f, {4, 3}, ACL_BF16, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLinalgQr(f, {4}, 0, f, {4}, f, {4}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLinalgQr(f, {4, 3}, 0, f, {4, 4}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLinalgQr(f, {4, 3}, 1, f, {4, 3}, f, {4, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLinalgQr(f, {4, 3}, 2, f, {4, 3}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // Q must be [0]
  EXPECT_TRUE(RunLinalgQr(f, {4, 3}, 2, f, {0}, f, {3, 3}).ok());
  const OpRun qr = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQrGetWorkspaceSize(args.NewTensor(f, {4, 3}), false, args.NewTensor(f, {4, 3}),
                                       args.NewTensor(f, {3, 3}), ws, ex);
      },
      aclnnQr);
  EXPECT_EQ(qr.phase1, ACLNN_ERR_PARAM_INVALID);  // all: Q [4, 4], R [4, 3]
}

}  // namespace
}  // namespace canopy_test
