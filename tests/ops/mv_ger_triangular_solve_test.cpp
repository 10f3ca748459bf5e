// Mv, Ger and TriangularSolve through the public C API against float64
// references on random non-zero data: every documented dtype, transposed,
// stepped and offset views, empty dims, ggml's calls (Mv on a transposed state
// matrix; a batched lower solve) and each rejection with its status code.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_triangular_solve.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

const View kC = View::kContiguous;

// A tolerance for a sum of products: `ulps` roundoffs of the result dtype on
// the result, plus accumulation error over the terms' magnitude.
double SumTolerance(aclDataType out, aclDataType compute, double magnitude, double result, int64_t terms) {
  const double accumulate = static_cast<double>(terms + 2) * UnitRoundoff(compute) * magnitude;
  return 2 * UnitRoundoff(out) * std::abs(result) + accumulate + 1e-300;
}

// ---- Mv -----------------------------------------------------------------------------------------

struct MvCase {
  std::string name;
  aclDataType dtype;
  int64_t n, m;
  View selfView = kC, vecView = kC, outView = kC;
  int8_t cube = 0;
};
void PrintTo(const MvCase& c, std::ostream* os) { *os << c.name; }

class MvTest : public ::testing::TestWithParam<MvCase> {};

TEST_P(MvTest, MatchesFloat64) {
  const MvCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(c.dtype, {c.n, c.m}, c.selfView), vec(c.dtype, {c.m}, c.vecView), out(c.dtype, {c.n}, c.outView);
  const Values a = self.FillRandom(rng, Range{-1, 1, 0.01});
  const Values v = vec.FillRandom(rng, Range{-1, 1, 0.01});
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMvGetWorkspaceSize(args.Tensor(self), args.Tensor(vec), args.Tensor(out), c.cube, ws, ex);
      },
      aclnnMv);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Expected want;
  for (int64_t i = 0; i < c.n; ++i) {
    double sum = 0, magnitude = 0;
    for (int64_t j = 0; j < c.m; ++j) {
      sum += a[i * c.m + j].real() * v[j].real();
      magnitude += std::abs(a[i * c.m + j].real() * v[j].real());
    }
    want.values.push_back(sum);
    // cubeMathType 2 (USE_FP16) rounds the operands to fp16 first.
    const double inputRounding = c.cube == 2 ? 2 * UnitRoundoff(ACL_FLOAT16) * magnitude : 0.0;
    want.tolerance.push_back(SumTolerance(c.dtype, ACL_FLOAT, magnitude, sum, c.m) + inputRounding);
  }
  ExpectNear(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, poisoned, "out");
}

std::vector<MvCase> MvCases() {
  std::vector<MvCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string name = Name(dt);
    cases.push_back({name + "_square", dt, 16, 16});
    cases.push_back({name + "_wide", dt, 7, 300});
    cases.push_back({name + "_tall", dt, 200, 9});
    cases.push_back({name + "_transposed_self", dt, 33, 65, View::kTransposed});
  }
  // ggml's gated linear attention: o = S^T q with S^T a transposed view, cubeMathType 1.
  cases.push_back({"ggml_gla_f32", ACL_FLOAT, 64, 64, View::kTransposed, kC, kC, 1});
  cases.push_back({"ggml_gla_f16", ACL_FLOAT16, 128, 128, View::kTransposed, kC, kC, 1});
  cases.push_back({"stepped_all", ACL_FLOAT, 12, 10, View::kStepped, View::kStepped, View::kStepped});
  cases.push_back({"offset_all", ACL_FLOAT, 12, 10, View::kOffset, View::kOffset, View::kOffset});
  cases.push_back({"cube_fp16", ACL_FLOAT, 12, 40, kC, kC, kC, 2});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Mv, MvTest, ::testing::ValuesIn(MvCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunMv(aclDataType st, const Shape& ss, aclDataType vt, const Shape& vs, aclDataType ot, const Shape& os,
            int8_t cube = 0) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMvGetWorkspaceSize(args.NewTensor(st, ss), args.NewTensor(vt, vs), args.NewTensor(ot, os), cube, ws,
                                       ex);
      },
      aclnnMv);
}

TEST(MvEdges, EmptyDims) {
  // m = 0: an empty sum, out is zeros; n = 0: nothing to write.
  DeviceTensor self(ACL_FLOAT, {4, 0}), vec(ACL_FLOAT, {0}), out(ACL_FLOAT, {4});
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMvGetWorkspaceSize(args.Tensor(self), args.Tensor(vec), args.Tensor(out), 0, ws, ex);
      },
      aclnnMv);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), Values(4, 0.0), "m = 0");
  EXPECT_TRUE(RunMv(ACL_FLOAT, {0, 3}, ACL_FLOAT, {3}, ACL_FLOAT, {0}).ok());
}

TEST(MvRejects, WithCannCodes) {
  EXPECT_EQ(RunMv(ACL_INT32, {2, 3}, ACL_INT32, {3}, ACL_INT32, {2}).phase1, ACLNN_ERR_PARAM_INVALID);     // dtype
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3}, ACL_FLOAT16, {3}, ACL_FLOAT, {2}).phase1, ACLNN_ERR_PARAM_INVALID);   // mixed
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3}, ACL_FLOAT, {3}, ACL_FLOAT16, {2}).phase1, ACLNN_ERR_PARAM_INVALID);   // out
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3, 1}, ACL_FLOAT, {3}, ACL_FLOAT, {2}).phase1, ACLNN_ERR_PARAM_INVALID);  // rank
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3}, ACL_FLOAT, {3, 1}, ACL_FLOAT, {2}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3}, ACL_FLOAT, {4}, ACL_FLOAT, {2}).phase1, ACLNN_ERR_PARAM_INVALID);     // m
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3}, ACL_FLOAT, {3}, ACL_FLOAT, {3}).phase1, ACLNN_ERR_PARAM_INVALID);     // n
  EXPECT_EQ(RunMv(ACL_FLOAT, {2, 3}, ACL_FLOAT, {3}, ACL_FLOAT, {2}, 5).phase1, ACLNN_ERR_PARAM_INVALID);  // cube
  const OpRun null_vec = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnMvGetWorkspaceSize(args.NewTensor(ACL_FLOAT, {2, 3}), nullptr, args.NewTensor(ACL_FLOAT, {2}), 0,
                                       ws, ex);
      },
      aclnnMv);
  EXPECT_EQ(null_vec.phase1, ACLNN_ERR_PARAM_NULLPTR);
}

// ---- Ger ----------------------------------------------------------------------------------------

struct GerCase {
  std::string name;
  aclDataType self, vec2, out;
  int64_t n, m;
  View selfView = kC, vecView = kC, outView = kC;
};
void PrintTo(const GerCase& c, std::ostream* os) { *os << c.name; }

class GerTest : public ::testing::TestWithParam<GerCase> {};

TEST_P(GerTest, MatchesFloat64) {
  const GerCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(c.self, {c.n}, c.selfView), vec2(c.vec2, {c.m}, c.vecView), out(c.out, {c.n, c.m}, c.outView);
  const Values a = self.FillRandom(rng, Range{-5, 5, 0.1});
  const Values b = vec2.FillRandom(rng, Range{-5, 5, 0.1});
  out.Poison();
  const std::vector<uint8_t> poisoned = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGerGetWorkspaceSize(args.Tensor(self), args.Tensor(vec2), args.Tensor(out), ws, ex);
      },
      aclnnGer);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const aclDataType promoted = *Promote(c.self, c.vec2);
  Expected want;
  for (int64_t i = 0; i < c.n; ++i) {
    for (int64_t j = 0; j < c.m; ++j) {
      // The product in the promoted dtype, then converted to out's.
      const Value product = ConvertValue(ConvertValue(a[i], promoted) * ConvertValue(b[j], promoted), promoted);
      want.values.push_back(ConvertValue(product, c.out));
      want.tolerance.push_back(IsFloating(c.out) ? 2 * UnitRoundoff(c.out) * std::abs(product) : 0.0);
    }
  }
  ExpectNear(out.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(out, poisoned, "out");
}

std::vector<GerCase> GerCases() {
  std::vector<GerCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8,
                         ACL_BOOL, ACL_COMPLEX64, ACL_COMPLEX128}) {
    cases.push_back({std::string(Name(dt)), dt, dt, dt, 5, 7});
  }
  cases.push_back({"f16_times_f32", ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, 6, 4});
  cases.push_back({"s32_times_f16_into_f32", ACL_INT32, ACL_FLOAT16, ACL_FLOAT, 6, 4});
  cases.push_back({"s8_into_s64", ACL_INT8, ACL_INT8, ACL_INT64, 6, 4});
  cases.push_back({"f32_times_c64", ACL_FLOAT, ACL_COMPLEX64, ACL_COMPLEX64, 3, 4});
  cases.push_back({"stepped", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 9, 5, View::kStepped, View::kStepped, View::kStepped});
  cases.push_back({"transposed_out", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 9, 5, kC, kC, View::kTransposed});
  cases.push_back({"offset", ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, 9, 5, View::kOffset, View::kOffset, View::kOffset});
  cases.push_back({"large", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 300, 257});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Ger, GerTest, ::testing::ValuesIn(GerCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunGer(aclDataType st, const Shape& ss, aclDataType vt, const Shape& vs, aclDataType ot, const Shape& os) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGerGetWorkspaceSize(args.NewTensor(st, ss), args.NewTensor(vt, vs), args.NewTensor(ot, os), ws, ex);
      },
      aclnnGer);
}

TEST(GerEdges, EmptyVectors) {
  EXPECT_TRUE(RunGer(ACL_FLOAT, {0}, ACL_FLOAT, {3}, ACL_FLOAT, {0, 3}).ok());
  EXPECT_TRUE(RunGer(ACL_FLOAT, {3}, ACL_FLOAT, {0}, ACL_FLOAT, {3, 0}).ok());
}

TEST(GerRejects, WithCannCodes) {
  EXPECT_EQ(RunGer(ACL_BF16, {2}, ACL_BF16, {3}, ACL_BF16, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // not on A2
  EXPECT_EQ(RunGer(ACL_UINT16, {2}, ACL_UINT16, {3}, ACL_FLOAT, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunGer(ACL_FLOAT, {2}, ACL_FLOAT, {3}, ACL_INT32, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // cast
  EXPECT_EQ(RunGer(ACL_FLOAT, {2, 1}, ACL_FLOAT, {3}, ACL_FLOAT, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunGer(ACL_FLOAT, {2}, ACL_FLOAT, {3, 1}, ACL_FLOAT, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunGer(ACL_FLOAT, {2}, ACL_FLOAT, {3}, ACL_FLOAT, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunGer(ACL_FLOAT, {2}, ACL_FLOAT, {3}, ACL_FLOAT, {3, 2}).phase1, ACLNN_ERR_PARAM_INVALID);
  const OpRun null_out = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnGerGetWorkspaceSize(args.NewTensor(ACL_FLOAT, {2}), args.NewTensor(ACL_FLOAT, {3}), nullptr, ws,
                                        ex);
      },
      aclnnGer);
  EXPECT_EQ(null_out.phase1, ACLNN_ERR_PARAM_NULLPTR);
}

// ---- TriangularSolve ----------------------------------------------------------------------------

struct SolveCase {
  std::string name;
  aclDataType dtype;
  Shape b, a;  // self and A
  bool upper, transpose, unit;
  View bView = kC, aView = kC, xView = kC;
};
void PrintTo(const SolveCase& c, std::ostream* os) { *os << c.name; }

class TriangularSolveTest : public ::testing::TestWithParam<SolveCase> {};

TEST_P(TriangularSolveTest, MatchesFloat64) {
  const SolveCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = c.a.back(), k = c.b.back();
  const Shape batch = *BroadcastShapes(Shape(c.b.begin(), c.b.end() - 2), Shape(c.a.begin(), c.a.end() - 2));
  Shape xShape = batch, mShape = batch;
  xShape.insert(xShape.end(), {n, k});
  mShape.insert(mShape.end(), {n, n});
  DeviceTensor b(c.dtype, c.b, c.bView), a(c.dtype, c.a, c.aView);
  DeviceTensor x(c.dtype, xShape, c.xView), m(c.dtype, mShape);
  const Values bv = b.FillRandom(rng, Range{-1, 1, 0.05});
  Values av = a.FillRandom(rng, Range{-1, 1, 0.05});
  // A well-conditioned triangle: a diagonal that dominates its row.
  const int64_t aBatches = NumElements(c.a) / (n * n);
  for (int64_t q = 0; q < aBatches; ++q) {
    for (int64_t i = 0; i < n; ++i) {
      Value& d = av[q * n * n + i * n + i];
      d = ConvertValue(d + Value(static_cast<double>(n) + 2, 0) * (d.real() < 0 ? -1.0 : 1.0), c.dtype);
    }
  }
  a.WriteView(av);
  x.Poison();
  m.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnTriangularSolveGetWorkspaceSize(args.Tensor(b), args.Tensor(a), c.upper, c.transpose, c.unit,
                                                    args.Tensor(x), args.Tensor(m), ws, ex);
      },
      aclnnTriangularSolve);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values bb = BroadcastTo(bv, c.b, xShape), ab = BroadcastTo(av, c.a, mShape);
  const int64_t batches = NumElements(batch);
  Expected wantX, wantM;
  const double u = UnitRoundoff(c.dtype);
  for (int64_t q = 0; q < batches; ++q) {
    const Value* A = ab.data() + q * n * n;
    auto inTriangle = [&](int64_t i, int64_t j) { return c.upper ? j >= i : j <= i; };
    auto L = [&](int64_t i, int64_t j) {  // the matrix solved with
      const int64_t r = c.transpose ? j : i, s = c.transpose ? i : j;
      if (!inTriangle(r, s)) return Value(0);
      if (r == s && c.unit) return Value(1);
      return A[r * n + s];
    };
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        wantM.values.push_back(inTriangle(i, j) ? A[i * n + j] : Value(0));
        wantM.tolerance.push_back(0);
      }
    }
    // Solve in float64 by substitution over the full matrix L (zeros outside its triangle).
    const bool lower = c.upper == c.transpose;
    std::vector<Value> X(n * k);
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = lower ? step : n - 1 - step;
      for (int64_t col = 0; col < k; ++col) {
        Value sum = bb[q * n * k + i * k + col];
        for (int64_t j = 0; j < n; ++j) {
          if (j != i) sum -= L(i, j) * X[j * k + col];
        }
        X[i * k + col] = sum / L(i, i);
      }
    }
    for (const Value& v : X) {
      wantX.values.push_back(v);
      wantX.tolerance.push_back(64 * u * static_cast<double>(n) * (1 + std::abs(v)));
    }
  }
  ExpectNear(x.ReadView(), wantX, c.name + " xOut");
  ExpectNear(m.ReadView(), wantM, c.name + " mOut");
}

std::vector<SolveCase> SolveCases() {
  std::vector<SolveCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
    for (int flags = 0; flags < 4; ++flags) {
      const bool upper = (flags & 1) != 0, transpose = (flags & 2) != 0;
      cases.push_back({std::string(Name(dt)) + (upper ? "_upper" : "_lower") + (transpose ? "_transposed" : ""),
                       dt,
                       {5, 3},
                       {5, 5},
                       upper,
                       transpose,
                       false});
    }
  }
  for (int flags = 0; flags < 4; ++flags) {
    const bool upper = (flags & 1) != 0, transpose = (flags & 2) != 0;
    cases.push_back({std::string("f32_unit") + (upper ? "_upper" : "_lower") + (transpose ? "_transposed" : ""),
                     ACL_FLOAT,
                     {2, 6, 4},
                     {2, 6, 6},
                     upper,
                     transpose,
                     true});
  }
  // ggml's SOLVE_TRI: lower, not transposed, [B3, B2, N, K] against [B3, B2, N, N].
  cases.push_back({"ggml_solve_tri", ACL_FLOAT, {2, 3, 17, 5}, {2, 3, 17, 17}, false, false, false});
  cases.push_back({"ggml_solve_tri_wide", ACL_FLOAT, {1, 2, 64, 300}, {1, 2, 64, 64}, false, false, false});
  cases.push_back({"batch_broadcast", ACL_DOUBLE, {3, 1, 4, 2}, {2, 4, 4}, true, false, false});
  cases.push_back({"transposed_views",
                   ACL_FLOAT,
                   {2, 8, 3},
                   {2, 8, 8},
                   false,
                   true,
                   false,
                   View::kTransposed,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back({"stepped_views",
                   ACL_DOUBLE,
                   {8, 3},
                   {8, 8},
                   true,
                   false,
                   false,
                   View::kStepped,
                   View::kStepped,
                   View::kStepped});
  cases.push_back({"k_zero", ACL_FLOAT, {4, 0}, {4, 4}, false, false, false});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(TriangularSolve, TriangularSolveTest, ::testing::ValuesIn(SolveCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunSolve(aclDataType bt, const Shape& bs, aclDataType at, const Shape& as, aclDataType xt, const Shape& xs,
               aclDataType mt, const Shape& ms, bool unit = false) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnTriangularSolveGetWorkspaceSize(args.NewTensor(bt, bs), args.NewTensor(at, as), true, false, unit,
                                                    args.NewTensor(xt, xs), args.NewTensor(mt, ms), ws, ex);
      },
      aclnnTriangularSolve);
}

TEST(TriangularSolveEdges, EmptyBatch) {
  EXPECT_TRUE(RunSolve(ACL_FLOAT, {0, 3, 2}, ACL_FLOAT, {3, 3}, ACL_FLOAT, {0, 3, 2}, ACL_FLOAT, {0, 3, 3}).ok());
  EXPECT_TRUE(RunSolve(ACL_FLOAT, {0, 2}, ACL_FLOAT, {0, 0}, ACL_FLOAT, {0, 2}, ACL_FLOAT, {0, 0}).ok());
}

TEST(TriangularSolveRejects, WithCannCodes) {
  const aclDataType f = ACL_FLOAT;
  EXPECT_TRUE(RunSolve(f, {3, 2}, f, {3, 3}, f, {3, 2}, f, {3, 3}).ok());
  EXPECT_EQ(RunSolve(ACL_FLOAT16, {3, 2}, ACL_FLOAT16, {3, 3}, ACL_FLOAT16, {3, 2}, ACL_FLOAT16, {3, 3}).phase1,
            ACLNN_ERR_PARAM_INVALID);  // dtype
  EXPECT_EQ(RunSolve(f, {3, 2}, ACL_DOUBLE, {3, 3}, f, {3, 2}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSolve(f, {3, 2}, f, {3, 3}, f, {3, 2}, ACL_DOUBLE, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSolve(ACL_DOUBLE, {3, 2}, ACL_DOUBLE, {3, 3}, ACL_DOUBLE, {3, 2}, ACL_DOUBLE, {3, 3}, true).phase1,
            ACLNN_ERR_PARAM_INVALID);  // unitriangular takes FLOAT only
  EXPECT_EQ(RunSolve(f, {3}, f, {3, 3}, f, {3}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);        // rank
  EXPECT_EQ(RunSolve(f, {3, 2}, f, {3, 4}, f, {3, 2}, f, {3, 4}).phase1, ACLNN_ERR_PARAM_INVALID);  // not square
  EXPECT_EQ(RunSolve(f, {4, 2}, f, {3, 3}, f, {4, 2}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // rows
  EXPECT_EQ(RunSolve(f, {2, 3, 2}, f, {3, 3, 3}, f, {3, 3, 2}, f, {3, 3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunSolve(f, {3, 2}, f, {3, 3}, f, {3, 3}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);        // xOut
  EXPECT_EQ(RunSolve(f, {2, 3, 2}, f, {3, 3}, f, {2, 3, 2}, f, {3, 3}).phase1, ACLNN_ERR_PARAM_INVALID);  // mOut
  const OpRun null_m = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnTriangularSolveGetWorkspaceSize(args.NewTensor(f, {3, 2}), args.NewTensor(f, {3, 3}), true, false,
                                                    false, args.NewTensor(f, {3, 2}), nullptr, ws, ex);
      },
      aclnnTriangularSolve);
  EXPECT_EQ(null_m.phase1, ACLNN_ERR_PARAM_NULLPTR);
}

}  // namespace
}  // namespace canopy_test
