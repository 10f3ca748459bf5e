// Products that may run on bf16 matrix units as sums of bf16 pieces
// (kernels/bf16_split.h): f32 under ALLOW_FP32_DOWN_PRECISION / USE_HF32 and
// fp16 under every mode. Whichever path the CPU takes (AMX: the pieces; else
// f32; CANOPY_BF16_SPLIT=1, a ctest variant of this suite: the pieces wherever
// oneDNN multiplies bf16), the results must keep the accuracy the mode
// promises: f32 down-precision no worse than HF32's 11-bit operands on K = 4096
// dot products, fp16 products exact with f32 accumulation, infinities and NaN
// as f32 arithmetic gives them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

enum class Op { kMm, kMatmul, kBatchMatMul };

OpRun RunProduct(Op op, const DeviceTensor& self, const DeviceTensor& mat2, const DeviceTensor& out, int8_t cube) {
  switch (op) {
    case Op::kMm:
      return RunOp(
          [&](OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
            return aclnnMmGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(out), cube, size,
                                           executor);
          },
          aclnnMm);
    case Op::kMatmul:
      return RunOp(
          [&](OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
            return aclnnMatmulGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(out), cube, size,
                                               executor);
          },
          aclnnMatmul);
    case Op::kBatchMatMul:
      return RunOp(
          [&](OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
            return aclnnBatchMatMulGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(out), cube, size,
                                                    executor);
          },
          aclnnBatchMatMul);
  }
  return {};
}

// a (M x K) @ b (K x N), both row-major values, in float64.
std::vector<double> Product(const std::vector<double>& a, const std::vector<double>& b, int64_t m, int64_t k,
                            int64_t n) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      const double x = a[static_cast<size_t>(i * k + p)];
      for (int64_t j = 0; j < n; ++j) c[static_cast<size_t>(i * n + j)] += x * b[static_cast<size_t>(p * n + j)];
    }
  }
  return c;
}

// f32 under ALLOW_FP32_DOWN_PRECISION and USE_HF32 on K = 4096 dot products:
// no worse than HF32, which rounds both operands to 11 bits and sums the exact
// products (the smallest error HF32 can have; the NPU also sums in f32). A
// product of the high bf16 pieces alone (8 bits) is 8x worse and fails.
// K = 2100 also cuts the pieces' products into two chunks of different depths.
TEST(MatmulOnBf16Units, Fp32DownPrecisionNoWorseThanHf32) {
  constexpr int64_t m = 64, n = 64;
  Rng rng = Rng::ForCurrentTest();
  for (const auto& [op, cube, k] :
       {std::tuple{Op::kMm, kAllowFp32DownPrecision, int64_t{4096}}, std::tuple{Op::kMatmul, kUseHf32, int64_t{4096}},
        std::tuple{Op::kMm, kUseHf32, int64_t{2100}}}) {
    SCOPED_TRACE("cubeMathType " + std::to_string(cube) + " K " + std::to_string(k));
    DeviceTensor self(ACL_FLOAT, Shape{m, k});
    DeviceTensor mat2(ACL_FLOAT, Shape{k, n}, op == Op::kMatmul ? View::kTransposed : View::kContiguous);
    const std::vector<double> a = RealParts(self.FillRandom(rng, Range{-1, 1}));
    const std::vector<double> b = RealParts(mat2.FillRandom(rng, Range{-1, 1}));
    DeviceTensor out(ACL_FLOAT, Shape{m, n});
    out.Poison();
    const OpRun run = RunProduct(op, self, mat2, out, cube);
    ASSERT_TRUE(run.ok()) << Describe(run);

    std::vector<double> a_hf32(a.size()), b_hf32(b.size()), a_abs(a.size()), b_abs(b.size());
    for (size_t i = 0; i < a.size(); ++i) a_hf32[i] = ToHf32(a[i]), a_abs[i] = std::abs(a[i]);
    for (size_t i = 0; i < b.size(); ++i) b_hf32[i] = ToHf32(b[i]), b_abs[i] = std::abs(b[i]);
    const std::vector<double> exact = Product(a, b, m, k, n);
    const std::vector<double> magnitude = Product(a_abs, b_abs, m, k, n);
    const double hf32 = WorstScaledError(Product(a_hf32, b_hf32, m, k, n), exact, magnitude);
    const double canopy = WorstScaledError(RealParts(out.ReadView()), exact, magnitude);
    EXPECT_GT(hf32, 0.0);
    EXPECT_LE(canopy, hf32) << "HF32's worst scaled error " << hf32;
  }
}

// fp16 operands: every product exact, only the f32 sum rounds. Each row of
// self has one non-zero value, so each output is a single product of two
// random fp16 values (22 significant bits: exact in f32, and exact in bf16
// pieces only with all four pairs). With a wider K the sums are f32 sums.
TEST(MatmulOnBf16Units, Fp16ProductsAreExact) {
  constexpr int64_t n = 80;
  Rng rng = Rng::ForCurrentTest();
  for (const auto& [op, k] :
       {std::pair{Op::kMm, int64_t{96}}, std::pair{Op::kBatchMatMul, int64_t{96}}, std::pair{Op::kMm, int64_t{2100}}}) {
    for (int8_t cube : {kKeepDtype, kAllowFp32DownPrecision, kUseFp16}) {
      for (View mat2View : {View::kContiguous, View::kTransposed}) {
        for (aclDataType outDtype : {ACL_FLOAT, ACL_FLOAT16}) {
          const bool batched = op == Op::kBatchMatMul;
          const int64_t batch = batched ? 2 : 1, m = 72;
          SCOPED_TRACE(std::string(batched ? "BatchMatMul" : "Mm") + " K " + std::to_string(k) + " cube " +
                       std::to_string(cube) + " " + ViewName(mat2View) + " out " + Name(outDtype));
          const Shape selfShape = batched ? Shape{batch, m, k} : Shape{m, k};
          const Shape mat2Shape = batched ? Shape{batch, k, n} : Shape{k, n};
          const Shape outShape = batched ? Shape{batch, m, n} : Shape{m, n};
          Values a(static_cast<size_t>(batch * m * k), 0.0);
          for (int64_t row = 0; row < batch * m; ++row) {
            const auto col = static_cast<int64_t>(rng.Uniform(0, static_cast<double>(k) - 0.5));
            a[static_cast<size_t>(row * k + col)] = rng.Draw(ACL_FLOAT16, Range{-4, 4});
          }
          DeviceTensor self(ACL_FLOAT16, selfShape);
          self.WriteView(a);
          DeviceTensor mat2(ACL_FLOAT16, mat2Shape, mat2View);
          const std::vector<double> b = RealParts(mat2.FillRandom(rng, Range{-4, 4}));
          DeviceTensor out(outDtype, outShape);
          out.Poison();
          const OpRun run = RunProduct(op, self, mat2, out, cube);
          ASSERT_TRUE(run.ok()) << Describe(run);
          const std::vector<double> got = RealParts(out.ReadView());
          const std::vector<double> a_real = RealParts(a);
          int mismatches = 0;
          for (int64_t bi = 0; bi < batch; ++bi) {
            const std::vector<double> want =
                Product(std::vector<double>(a_real.begin() + bi * m * k, a_real.begin() + (bi + 1) * m * k),
                        std::vector<double>(b.begin() + bi * k * n, b.begin() + (bi + 1) * k * n), m, k, n);
            for (int64_t i = 0; i < m * n; ++i) {
              const double expected = ConvertValue(want[static_cast<size_t>(i)], outDtype).real();
              const double value = got[static_cast<size_t>(bi * m * n + i)];
              if (value != expected && ++mismatches <= 5) {
                ADD_FAILURE() << "out[" << bi << ", " << i / n << ", " << i % n << "] = " << value << ", exact "
                              << expected;
              }
            }
          }
          EXPECT_EQ(mismatches, 0);
        }
      }
    }
  }
}

// Infinities, NaN and values bf16 cannot hold (f32's largest, which rounds to
// inf in bf16) give what f32 arithmetic gives: inf * y stays inf (y a bf16
// value, whose low piece is 0, must not make it inf * 0 = NaN), inf - inf and
// inf * 0 are NaN, NaN spreads, and 3.4e38 * 0.5 is finite.
TEST(MatmulOnBf16Units, SpecialValuesAsInF32) {
  constexpr int64_t m = 64, k = 64, n = 64;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double f32_max = std::numeric_limits<float>::max();
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (int8_t cube : {kAllowFp32DownPrecision, kUseHf32, kKeepDtype}) {
      SCOPED_TRACE(std::string(Name(dtype)) + " cube " + std::to_string(cube));
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, Shape{m, k});
      DeviceTensor mat2(dtype, Shape{k, n});
      Values a = self.FillRandom(rng, Range{-1, 1});
      Values b = mat2.FillRandom(rng, Range{-1, 1});
      // Rows 0-3 of self: one special value in column 0 (row 3: f32's largest,
      // fp16's for fp16). Column 0 of mat2 holds bf16 values (low piece 0),
      // column 1 a zero in row 0, column 2 a -inf in row 5.
      const double big = dtype == ACL_FLOAT ? f32_max : 65504.0;
      a[0] = inf, a[static_cast<size_t>(1 * k)] = -inf, a[static_cast<size_t>(2 * k)] = nan;
      for (int64_t p = 0; p < k; ++p) a[static_cast<size_t>(3 * k + p)] = p == 0 ? big : 0.0;
      for (int64_t p = 0; p < k; ++p) b[static_cast<size_t>(p * n)] = p % 2 == 0 ? 0.5 : -1.0;
      b[1] = 0.0;
      b[static_cast<size_t>(5 * n + 2)] = -inf;
      self.WriteView(a);
      mat2.WriteView(b);
      DeviceTensor out(ACL_FLOAT, Shape{m, n});
      out.Poison();
      const OpRun run = RunProduct(Op::kMm, self, mat2, out, cube);
      ASSERT_TRUE(run.ok()) << Describe(run);
      const std::vector<double> want = Product(RealParts(a), RealParts(b), m, k, n);
      const std::vector<double> got = RealParts(out.ReadView());
      int bad = 0;
      for (size_t i = 0; i < want.size(); ++i) {
        const bool same = std::isnan(want[i]) ? std::isnan(got[i])
                          : std::isinf(want[i])
                              ? got[i] == want[i]
                              : std::isfinite(got[i]) && std::abs(got[i] - want[i]) <= 1e-3 * (1 + std::abs(want[i]));
        if (!same && ++bad <= 5) {
          ADD_FAILURE() << "out[" << i / n << ", " << i % n << "] = " << got[i] << ", f32 gives " << want[i];
        }
      }
      EXPECT_EQ(bad, 0);
      EXPECT_TRUE(std::isinf(want[0]) && std::isnan(want[1]));  // the cases above are there
    }
  }
}

}  // namespace
}  // namespace canopy_test
