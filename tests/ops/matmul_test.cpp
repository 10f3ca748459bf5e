// Matmul (torch.matmul semantics, 1-D to 6-D with batch broadcast), Mm,
// BatchMatMul and Addmm / InplaceAddmm against a float64 reference with a
// K-scaled tolerance: f32, f16 and bf16, every cubeMathType, transposed and
// strided operands, strided outputs, K = 0 and empty results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

const Range kMatrixRange{-1, 1};
const View c = View::kContiguous;

// ---- Matmul / Mm / BatchMatMul ------------------------------------------------------------------

enum class MatmulOp { kMatmul, kMm, kBatchMatMul };

const char* MatmulOpName(MatmulOp op) {
  switch (op) {
    case MatmulOp::kMatmul:
      return "Matmul";
    case MatmulOp::kMm:
      return "Mm";
    case MatmulOp::kBatchMatMul:
      return "BatchMatMul";
  }
  return "?";
}

struct MatmulCase {
  std::string name;
  MatmulOp op;
  Shape self, mat2;
  aclDataType selfDtype = ACL_FLOAT;
  aclDataType mat2Dtype = ACL_FLOAT;
  aclDataType outDtype = ACL_FLOAT;
  int8_t cubeMathType = kKeepDtype;
  View selfView = View::kContiguous;
  View mat2View = View::kContiguous;
  View outView = View::kContiguous;
};

void PrintTo(const MatmulCase& x, std::ostream* os) { *os << x.name; }

struct ShapeRow {
  const char* name;
  Shape self, mat2;
};

// torch.matmul shapes: 1-D operands, batch broadcast, ranks up to 6.
const std::vector<ShapeRow>& MatmulShapes() {
  static const std::vector<ShapeRow> rows = {
      {"dot", {16}, {16}},
      {"vector_matrix", {16}, {16, 8}},
      {"matrix_vector", {8, 16}, {16}},
      {"matrix_matrix", {8, 16}, {16, 12}},
      {"batch_matrix", {3, 8, 16}, {16, 12}},
      {"matrix_batch", {8, 16}, {3, 16, 12}},
      {"vector_batch", {16}, {3, 16, 12}},
      {"batch_vector", {3, 8, 16}, {16}},
      {"batch_batch", {3, 8, 16}, {3, 16, 12}},
      {"batch1_broadcast", {1, 8, 16}, {4, 16, 12}},
      {"rank4_broadcast", {2, 1, 8, 16}, {3, 16, 12}},
      {"rank5_broadcast", {2, 1, 3, 4, 8}, {1, 2, 1, 8, 5}},
      {"rank6_broadcast", {1, 2, 1, 2, 4, 8}, {2, 1, 2, 1, 8, 3}},
      {"rank6_with_vector", {2, 1, 2, 1, 4, 8}, {8}},
      {"large_k", {32, 256}, {256, 24}},
      {"large", {128, 256}, {256, 96}},
      // Past deterministic mode's 64x256 tiles: whole, edge and corner tiles.
      {"tile_edges", {130, 40}, {40, 300}},
      {"batch_tile_edges", {2, 70, 24}, {24, 260}},
  };
  return rows;
}

std::vector<MatmulCase> MatmulCases() {
  std::vector<MatmulCase> cases;
  const MatmulOp mm = MatmulOp::kMatmul;
  for (const ShapeRow& s : MatmulShapes()) {
    cases.push_back({std::string("Matmul_f32_") + s.name, mm, s.self, s.mat2});
  }
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (const char* name : {"matrix_matrix", "batch_matrix", "rank4_broadcast", "vector_matrix", "large"}) {
      for (const ShapeRow& s : MatmulShapes()) {
        if (std::string(s.name) == name) {
          cases.push_back({std::string("Matmul_") + Name(dt) + "_" + s.name, mm, s.self, s.mat2, dt, dt, dt});
        }
      }
    }
  }
  // Mixed dtypes and a wider out.
  cases.push_back({"Matmul_f16_inputs_f32_out", mm, {8, 64}, {64, 12}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT});
  cases.push_back({"Matmul_bf16_inputs_f32_out", mm, {8, 64}, {64, 12}, ACL_BF16, ACL_BF16, ACL_FLOAT});
  cases.push_back({"Matmul_f16_times_f32", mm, {8, 64}, {64, 12}, ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT});
  cases.push_back({"Matmul_f32_times_f16", mm, {3, 8, 64}, {64, 12}, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT});
  // Every math mode on every dtype.
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
      cases.push_back({std::string("Matmul_cube") + std::to_string(cube) + "_" + Name(dt),
                       mm,
                       {2, 16, 64},
                       {64, 24},
                       dt,
                       dt,
                       dt,
                       cube});
    }
  }
  // Strided operands and outputs.
  cases.push_back(
      {"Matmul_transposed_mat2", mm, {8, 32}, {32, 12}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, c, View::kTransposed});
  cases.push_back(
      {"Matmul_transposed_self", mm, {8, 32}, {32, 12}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, View::kTransposed, c});
  cases.push_back({"Matmul_transposed_both_f16",
                   mm,
                   {8, 32},
                   {32, 12},
                   ACL_FLOAT16,
                   ACL_FLOAT16,
                   ACL_FLOAT16,
                   0,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back({"Matmul_transposed_batch_bf16",
                   mm,
                   {3, 8, 32},
                   {3, 32, 12},
                   ACL_BF16,
                   ACL_BF16,
                   ACL_BF16,
                   0,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back({"Matmul_stepped_inputs_and_out",
                   mm,
                   {2, 8, 16},
                   {16, 12},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   View::kStepped,
                   View::kStepped,
                   View::kStepped});
  cases.push_back({"Matmul_offsets",
                   mm,
                   {8, 16},
                   {16, 12},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   View::kOffset,
                   View::kOffset,
                   View::kOffset});
  cases.push_back(
      {"Matmul_transposed_out", mm, {8, 16}, {16, 12}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, c, c, View::kTransposed});
  cases.push_back({"Matmul_broadcast_view_mat2",
                   mm,
                   {3, 8, 16},
                   {3, 16, 12},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   c,
                   View::kBroadcast});
  cases.push_back({"Matmul_vector_stepped",
                   mm,
                   {16},
                   {16, 8},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   View::kStepped,
                   View::kTransposed});
  cases.push_back(
      {"Matmul_reversed_rank3", mm, {4, 8, 16}, {16, 12}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, View::kReversed, c});
  // Few rows (M <= 16) with fp16 weights take the skinny kernel, which streams
  // mat2 as stored: rows of mat2 or (transposed) columns, K across several row
  // blocks and with a tail of fewer than 16, N with a partial 64-column panel, M
  // in full and partial row groups, fp16 and f32 activations and outputs.
  for (int64_t rows : {1, 5, 7, 16}) {
    for (View mat2View : {c, View::kTransposed, View::kStepped}) {
      const std::string view = mat2View == c ? "rows" : mat2View == View::kTransposed ? "columns" : "stepped";
      cases.push_back({"Matmul_skinny_f16_m" + std::to_string(rows) + "_" + view,
                       mm,
                       {rows, 601},
                       {601, 83},
                       ACL_FLOAT16,
                       ACL_FLOAT16,
                       ACL_FLOAT16,
                       kKeepDtype,
                       c,
                       mat2View});
    }
  }
  cases.push_back({"Matmul_skinny_f32_times_f16", mm, {3, 1, 300}, {300, 70}, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT});
  cases.push_back({"Matmul_skinny_f16_strided_self_and_out",
                   mm,
                   {6, 40},
                   {40, 33},
                   ACL_FLOAT16,
                   ACL_FLOAT16,
                   ACL_FLOAT,
                   kKeepDtype,
                   View::kStepped,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back({"Matmul_skinny_f32_cube_fp16", mm, {2, 520}, {520, 17}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kUseFp16});
  // K = 0 fills out with zeros; an empty out is a no-op.
  cases.push_back({"Matmul_k0_gives_zeros", mm, {4, 0}, {0, 5}});
  cases.push_back({"Matmul_k0_batch_gives_zeros", mm, {2, 3, 0}, {0, 4}});
  cases.push_back({"Matmul_empty_m", mm, {0, 16}, {16, 8}});
  cases.push_back({"Matmul_empty_batch", mm, {0, 4, 16}, {16, 8}});

  const MatmulOp m2 = MatmulOp::kMm;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back({std::string("Mm_") + Name(dt), m2, {24, 40}, {40, 20}, dt, dt, dt});
    cases.push_back({std::string("Mm_large_") + Name(dt), m2, {64, 256}, {256, 128}, dt, dt, dt});
    for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
      cases.push_back(
          {std::string("Mm_cube") + std::to_string(cube) + "_" + Name(dt), m2, {16, 48}, {48, 8}, dt, dt, dt, cube});
    }
  }
  cases.push_back({"Mm_f16_inputs_f32_out", m2, {16, 48}, {48, 8}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT});
  cases.push_back(
      {"Mm_transposed_self", m2, {16, 48}, {48, 8}, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, View::kTransposed, c});
  cases.push_back({"Mm_transposed_mat2_f16",
                   m2,
                   {16, 48},
                   {48, 8},
                   ACL_FLOAT16,
                   ACL_FLOAT16,
                   ACL_FLOAT16,
                   0,
                   c,
                   View::kTransposed});
  cases.push_back({"Mm_stepped_out",
                   m2,
                   {16, 48},
                   {48, 8},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   View::kStepped,
                   View::kOffset,
                   View::kStepped});
  cases.push_back({"Mm_square_1", m2, {1, 1}, {1, 1}});
  cases.push_back({"Mm_k0_gives_zeros", m2, {3, 0}, {0, 4}});
  cases.push_back({"Mm_empty_n", m2, {3, 5}, {5, 0}});

  const MatmulOp b = MatmulOp::kBatchMatMul;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    cases.push_back({std::string("BatchMatMul_") + Name(dt), b, {3, 8, 32}, {3, 32, 12}, dt, dt, dt});
    cases.push_back({std::string("BatchMatMul_mat2_batch1_") + Name(dt), b, {3, 8, 32}, {1, 32, 12}, dt, dt, dt});
    cases.push_back({std::string("BatchMatMul_self_batch1_") + Name(dt), b, {1, 8, 32}, {4, 32, 12}, dt, dt, dt});
    for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
      cases.push_back({std::string("BatchMatMul_cube") + std::to_string(cube) + "_" + Name(dt),
                       b,
                       {2, 8, 64},
                       {2, 64, 8},
                       dt,
                       dt,
                       dt,
                       cube});
    }
  }
  cases.push_back({"BatchMatMul_large", b, {4, 64, 128}, {4, 128, 64}});
  cases.push_back({"BatchMatMul_transposed_inner",
                   b,
                   {3, 8, 32},
                   {3, 32, 12},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   View::kTransposed,
                   View::kTransposed});
  cases.push_back({"BatchMatMul_reversed_self_stepped_out",
                   b,
                   {3, 8, 32},
                   {3, 32, 12},
                   ACL_FLOAT,
                   ACL_FLOAT,
                   ACL_FLOAT,
                   0,
                   View::kReversed,
                   c,
                   View::kStepped});
  cases.push_back({"BatchMatMul_f16_inputs_f32_out", b, {2, 8, 32}, {2, 32, 12}, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT});
  cases.push_back({"BatchMatMul_k0_gives_zeros", b, {2, 3, 0}, {2, 0, 4}});
  cases.push_back({"BatchMatMul_empty_batch", b, {0, 3, 4}, {0, 4, 5}});
  return cases;
}

aclnnStatus MatmulPhase1(MatmulOp op, aclTensor* self, aclTensor* mat2, aclTensor* out, int8_t cube,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  switch (op) {
    case MatmulOp::kMatmul:
      return aclnnMatmulGetWorkspaceSize(self, mat2, out, cube, workspaceSize, executor);
    case MatmulOp::kMm:
      return aclnnMmGetWorkspaceSize(self, mat2, out, cube, workspaceSize, executor);
    case MatmulOp::kBatchMatMul:
      return aclnnBatchMatMulGetWorkspaceSize(self, mat2, out, cube, workspaceSize, executor);
  }
  return -1;
}

Phase2 MatmulPhase2(MatmulOp op) {
  switch (op) {
    case MatmulOp::kMatmul:
      return aclnnMatmul;
    case MatmulOp::kMm:
      return aclnnMm;
    case MatmulOp::kBatchMatMul:
      return aclnnBatchMatMul;
  }
  return nullptr;
}

// ACL_OPT_DETERMINISTIC on for a test's lifetime: the matmul then runs in fixed
// one-thread tiles (kernels/matmul.cpp), and every case is run again that way.
template <typename Case>
class DeterministicModeTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS); }
};

void CheckMatmulCase(const MatmulCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(x.selfDtype, x.self, x.selfView);
  DeviceTensor mat2(x.mat2Dtype, x.mat2, x.mat2View);
  const Values a = self.FillRandom(rng, kMatrixRange);
  const Values bValues = mat2.FillRandom(rng, kMatrixRange);
  Shape outShape;
  const std::optional<Expected> want = ReferenceMatmul(
      a, x.self, bValues, x.mat2, MatmulPrecisionFor(x.selfDtype, x.mat2Dtype, x.outDtype, x.cubeMathType), &outShape);
  ASSERT_TRUE(want.has_value()) << "bad test case: shapes do not multiply";
  DeviceTensor out(x.outDtype, outShape, x.outView);
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return MatmulPhase1(x.op, args.Tensor(self), args.Tensor(mat2), args.Tensor(out), x.cubeMathType, workspaceSize,
                            executor);
      },
      MatmulPhase2(x.op));
  ASSERT_TRUE(run.ok()) << MatmulOpName(x.op) << ": " << Describe(run);
  ExpectNear(out.ReadView(), *want, x.name + " out " + ShapeString(outShape));
  ExpectOutsideViewUnchanged(out, before, "out storage");
  ExpectExact(self.ReadView(), a, "self must not change");
  ExpectExact(mat2.ReadView(), bValues, "mat2 must not change");
  if (NumElements(outShape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "an empty result needs no workspace";
  }
}

class MatmulTest : public ::testing::TestWithParam<MatmulCase> {};
TEST_P(MatmulTest, MatchesReference) { CheckMatmulCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, MatmulTest, ::testing::ValuesIn(MatmulCases()),
                         [](const ::testing::TestParamInfo<MatmulCase>& info) {
                           return SanitizeName(info.param.name);
                         });

using DeterministicMatmulTest = DeterministicModeTest<MatmulCase>;
TEST_P(DeterministicMatmulTest, MatchesReference) { CheckMatmulCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, DeterministicMatmulTest, ::testing::ValuesIn(MatmulCases()),
                         [](const ::testing::TestParamInfo<MatmulCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// out = self @ mat2 through `op` with cubeMathType USE_FP16.
OpRun RunUseFp16(MatmulOp op, const DeviceTensor& self, const DeviceTensor& mat2, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return MatmulPhase1(op, args.Tensor(self), args.Tensor(mat2), args.Tensor(out), kUseFp16, workspaceSize,
                            executor);
      },
      MatmulPhase2(op));
}

// cubeMathType USE_FP16 rounds the operands to fp16; one that is fp16 already is
// read where it lies. ggml's CANN backend multiplies f32 activations by an fp16
// weight it passes transposed (strides [1, K]) with USE_FP16 on every decode
// step: a contiguous copy of the weight per call made the product cost a copy of
// the whole weight (and its workspace). The workspace size tells the copy apart
// without timing anything: a transposed fp16 mat2 needs no more of it than a
// contiguous one (where the ISA has no fp16 product both are widened alike).
// An f32 self times a mat2 of `dtype` under USE_FP16, checked against float64
// (mat2's values are exact in fp16) and mat2 left as it was; returns the
// call's workspace size.
// BatchMatMul takes `batch` matrices of mat2 against `selfBatch` (1: broadcast) of `rows` rows.
uint64_t CheckUseFp16Product(MatmulOp op, aclDataType dtype, View mat2View, int64_t k, int64_t n, int64_t batch = 1,
                             int64_t rows = 3, int64_t selfBatch = 1) {
  const bool batched = op == MatmulOp::kBatchMatMul;
  const Shape selfShape = batched ? Shape{selfBatch, rows, k} : Shape{rows, k};
  const Shape mat2Shape = batched ? Shape{batch, k, n} : Shape{k, n};
  SCOPED_TRACE(std::string(MatmulOpName(op)) + " " + Name(dtype) +
               (mat2View == View::kTransposed ? " transposed" : " contiguous") + " batch " + std::to_string(batch) +
               " rows " + std::to_string(rows) + " self batch " + std::to_string(selfBatch));
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(ACL_FLOAT, selfShape);
  DeviceTensor mat2(dtype, mat2Shape, mat2View);
  const Values a = self.FillRandom(rng, kMatrixRange);
  const Values bValues = mat2.FillRandom(rng, kMatrixRange);
  Shape outShape;
  const std::optional<Expected> want = ReferenceMatmul(
      a, selfShape, bValues, mat2Shape, MatmulPrecisionFor(ACL_FLOAT, dtype, ACL_FLOAT, kUseFp16), &outShape);
  EXPECT_TRUE(want.has_value());
  if (!want.has_value()) return 0;
  DeviceTensor out(ACL_FLOAT, outShape);
  out.Poison();
  const OpRun run = RunUseFp16(op, self, mat2, out);
  EXPECT_TRUE(run.ok()) << Describe(run);
  if (!run.ok()) return 0;
  ExpectNear(out.ReadView(), *want, "out");
  ExpectExact(mat2.ReadView(), bValues, "mat2 must not change");
  return run.workspaceSize;
}

TEST(MatmulUseFp16, Fp16OperandIsNotCopied) {
  for (MatmulOp op : {MatmulOp::kMm, MatmulOp::kBatchMatMul}) {
    const uint64_t transposed = CheckUseFp16Product(op, ACL_FLOAT16, View::kTransposed, 256, 192);
    const uint64_t contiguous = CheckUseFp16Product(op, ACL_FLOAT16, View::kContiguous, 256, 192);
    EXPECT_LE(transposed, contiguous) << MatmulOpName(op) << ": the transposed fp16 mat2 was copied";
  }
}

// Whether Canopy's skinny kernel can run here: AVX-512 (F/BW/VL), not capped
// below it by CANOPY_MAX_ISA or with CANOPY_CPU_FEATURES (the ctest variants).
bool SkinnyKernelRuns() {
#if defined(__x86_64__)
  for (const char* variable : {"CANOPY_MAX_ISA", "CANOPY_CPU_FEATURES"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && (std::strstr(value, "avx2") != nullptr || std::strstr(value, "portable") != nullptr ||
                             std::strstr(value, "-") != nullptr || std::strcmp(value, "none") == 0)) {
      return false;
    }
  }
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

// A few rows against a row-major weight (the skinny kernel where the CPU has
// AVX-512): each output sums K products in blocks, so a large first term
// followed by ones loses at most a block's worth of them. One running f32 sum
// lost every one after 2^24 (2^24 + 4095 came back as 2^24); 2^25 ones summed
// to 2^24.
TEST(MatmulSkinny, LongSumsAreAddedInBlocks) {
  if (!SkinnyKernelRuns()) GTEST_SKIP() << "the skinny kernel needs AVX-512 (oneDNN's gemm keeps 2^24 + 2048 here)";
  constexpr int64_t k = 4096, n = 64;
  for (int64_t m : {1, 5}) {
    SCOPED_TRACE("m " + std::to_string(m));
    DeviceTensor self(ACL_FLOAT, Shape{m, k}), mat2(ACL_FLOAT, Shape{k, n}), out(ACL_FLOAT, Shape{m, n});
    self.WriteView(Values(static_cast<size_t>(m * k), 1.0));
    Values b(static_cast<size_t>(k * n), 1.0);
    for (int64_t j = 0; j < n; ++j) b[static_cast<size_t>(j)] = 16777216.0;  // row 0: 2^24
    mat2.WriteView(b);
    out.Poison();
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          return aclnnMmGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(out), 0, workspaceSize,
                                         executor);
        },
        aclnnMm);
    ASSERT_TRUE(run.ok()) << Describe(run);
    for (const Value& v : out.ReadView()) EXPECT_NEAR(v.real(), 16777216.0 + (k - 1), 64.0);
  }
}

// beta * self + alpha * (mat1 @ mat2) with alpha == beta != 1 and self one
// repeated row: the row was added inside oneDNN's product before alpha scaled
// the sum, which overflowed (0.5 * (3e38 + 3e38) = inf where the result is
// 3e38). 17 rows keep the product off the skinny kernel.
TEST(MatmulRowBias, EqualAlphaAndBetaScaleEachTermBeforeTheSum) {
  constexpr int64_t m = 17, n = 4;
  DeviceTensor self(ACL_FLOAT, Shape{n}), mat1(ACL_FLOAT, Shape{m, 1}), mat2(ACL_FLOAT, Shape{1, n});
  DeviceTensor out(ACL_FLOAT, Shape{m, n});
  self.WriteView(Values(n, 3e38));
  mat1.WriteView(Values(m, 3e19));
  mat2.WriteView(Values(n, 1e19));
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnAddmmGetWorkspaceSize(args.Tensor(self), args.Tensor(mat1), args.Tensor(mat2),
                                          args.Scalar(ACL_FLOAT, 0.5), args.Scalar(ACL_FLOAT, 0.5), args.Tensor(out), 0,
                                          workspaceSize, executor);
      },
      aclnnAddmm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  for (const Value& v : out.ReadView()) EXPECT_NEAR(v.real(), 3e38, 3e38 * 1e-6);
}

// ggml's MUL_MAT_ID multiplies each selected expert's few rows through
// BatchMatMul: f32 rows, the experts' fp16 weights gathered and passed
// transposed, USE_FP16. Each matrix of such a batch is multiplied by the
// skinny kernel where its weight lies; the batched product widened every
// weight to a contiguous f32 copy first (50 ms for 8 experts of 768 x 2048).
// Checked against float64 with 1, 5 and 16 rows, batches of 2 and 5, self
// broadcast or not; the workspace tells the copy apart without timing.
TEST(MatmulUseFp16, BatchOfFewRowsReadsEachWeightWhereItLies) {
  constexpr int64_t k = 320, n = 448;  // 280 KiB of fp16 per matrix: each worth a step of its own
  const bool skinny = SkinnyKernelRuns();
  for (const auto& [batch, rows, selfBatch] :
       std::vector<std::tuple<int64_t, int64_t, int64_t>>{{2, 1, 2}, {5, 5, 5}, {5, 1, 1}, {2, 16, 2}}) {
    for (View mat2View : {View::kTransposed, View::kContiguous}) {
      const uint64_t workspace =
          CheckUseFp16Product(MatmulOp::kBatchMatMul, ACL_FLOAT16, mat2View, k, n, batch, rows, selfBatch);
      if (skinny) {
        EXPECT_LT(workspace, static_cast<uint64_t>(batch * k * n) * sizeof(float))
            << "batch " << batch << " rows " << rows << ": every weight was widened to f32";
      }
    }
  }
}

// A bf16 operand under USE_FP16 is rounded to fp16 in its own order (a
// transposed weight stays transposed): the product is the same either way.
TEST(MatmulUseFp16, Bf16OperandRoundedInItsOwnOrder) {
  for (MatmulOp op : {MatmulOp::kMm, MatmulOp::kBatchMatMul}) {
    for (View mat2View : {View::kTransposed, View::kContiguous}) CheckUseFp16Product(op, ACL_BF16, mat2View, 160, 72);
  }
}

// USE_FP16 rounds every value of an f32 or bf16 weight to fp16, whether the
// weight is copied to fp16 first or rounded as the decode kernel loads it (in
// both orders): rows of self that each pick one row of mat2 give back exactly
// that row rounded to fp16. The values carry bits below fp16's precision and
// reach into its subnormals, where even bf16 values do not survive unchanged.
TEST(MatmulUseFp16, EachWeightValueRoundedToFp16) {
  constexpr int64_t k = 40, n = 80;
  const std::vector<int64_t> picked = {0, 17, 39};
  const auto m = static_cast<int64_t>(picked.size());
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (View mat2View : {View::kTransposed, View::kContiguous}) {
      SCOPED_TRACE(std::string(Name(dtype)) + (mat2View == View::kTransposed ? " transposed" : " contiguous"));
      DeviceTensor self(ACL_FLOAT, Shape{m, k});
      Values a(static_cast<size_t>(m * k), 0.0);
      for (int64_t i = 0; i < m; ++i) a[static_cast<size_t>(i * k + picked[static_cast<size_t>(i)])] = 1.0;
      self.WriteView(a);
      DeviceTensor mat2(dtype, Shape{k, n}, mat2View);
      Values b(static_cast<size_t>(k * n));
      for (Value& value : b) {  // |value| from 2^-26 (below fp16's subnormals) to 2^10
        const double magnitude = std::ldexp(rng.Uniform(1.0, 2.0), static_cast<int>(rng.Uniform(-26.0, 11.0)));
        value = rng.Uniform(0.0, 1.0) < 0.5 ? -magnitude : magnitude;
      }
      mat2.WriteView(b);
      const Values stored = mat2.ReadView();
      DeviceTensor out(ACL_FLOAT, Shape{m, n});
      out.Poison();
      const OpRun run = RunOp(
          [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnMmGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(out), kUseFp16,
                                           workspaceSize, executor);
          },
          aclnnMm);
      ASSERT_TRUE(run.ok()) << Describe(run);
      Values want(static_cast<size_t>(m * n));
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          const double weight = stored[static_cast<size_t>(picked[static_cast<size_t>(i)] * n + j)].real();
          want[static_cast<size_t>(i * n + j)] = HalfToDouble(DoubleToHalf(weight));
        }
      }
      ExpectExact(out.ReadView(), want, "out");
    }
  }
}

// ---- Addmm / InplaceAddmm -----------------------------------------------------------------------

struct AddmmCase {
  std::string name;
  Shape self;
  int64_t m, k, n;
  aclDataType dtype = ACL_FLOAT;     // self, mat1, mat2
  aclDataType outDtype = ACL_FLOAT;  // out (InplaceAddmm: ignored, selfRef is the out)
  Value beta = 1.0, alpha = 1.0;
  aclDataType scalarDtype = ACL_FLOAT;
  int8_t cubeMathType = kKeepDtype;
  bool inplace = false;
  View mat1View = View::kContiguous;
  View mat2View = View::kContiguous;
  View selfView = View::kContiguous;
  View outView = View::kContiguous;
};

void PrintTo(const AddmmCase& x, std::ostream* os) { *os << x.name; }

std::vector<AddmmCase> AddmmCases() {
  std::vector<AddmmCase> cases;
  constexpr int64_t M = 12, K = 40, N = 10;
  struct SelfShape {
    const char* name;
    Shape shape;
  };
  const std::vector<SelfShape> selfShapes = {{"N", {N}}, {"1xN", {1, N}}, {"Mx1", {M, 1}}, {"MxN", {M, N}}};
  struct Coefficients {
    const char* name;
    Value beta, alpha;
    aclDataType dtype;
  };
  const std::vector<Coefficients> coefficients = {
      {"beta1_alpha1_f32", 1.0, 1.0, ACL_FLOAT},     {"beta0.5_alpha2_f64", 0.5, 2.0, ACL_DOUBLE},
      {"beta0_alpha1.5_f16", 0.0, 1.5, ACL_FLOAT16}, {"beta-1_alpha3_s32", -1.0, 3.0, ACL_INT32},
      {"beta2_alpha-1_s64", 2.0, -1.0, ACL_INT64},   {"beta1_alpha0_s8", 1.0, 0.0, ACL_INT8},
      {"beta3_alpha1_u8", 3.0, 1.0, ACL_UINT8},      {"beta-2_alpha2_s16", -2.0, 2.0, ACL_INT16},
  };
  for (const SelfShape& s : selfShapes) {
    for (const Coefficients& k : coefficients) {
      cases.push_back({std::string("Addmm_self_") + s.name + "_" + k.name, s.shape, M, K, N, ACL_FLOAT, ACL_FLOAT,
                       k.beta, k.alpha, k.dtype});
    }
  }
  for (aclDataType dt : {ACL_FLOAT16, ACL_BF16}) {
    for (const SelfShape& s : selfShapes) {
      cases.push_back({std::string("Addmm_") + Name(dt) + "_self_" + s.name, s.shape, M, K, N, dt, dt, 0.5, 2.0});
    }
  }
  // fp16 with few rows (the skinny kernel): beta and alpha applied by it, K over
  // several row blocks, mat2 as rows and as columns.
  for (View mat2View : {c, View::kTransposed}) {
    const char* view = mat2View == c ? "rows" : "columns";
    cases.push_back({std::string("Addmm_skinny_f16_mat2_") + view + "_self_MxN",
                     {5, 70},
                     5,
                     300,
                     70,
                     ACL_FLOAT16,
                     ACL_FLOAT16,
                     0.5,
                     2.0,
                     ACL_FLOAT,
                     kKeepDtype,
                     false,
                     c,
                     mat2View});
    cases.push_back({std::string("Addmm_skinny_f16_mat2_") + view + "_self_N",
                     {70},
                     1,
                     300,
                     70,
                     ACL_FLOAT16,
                     ACL_FLOAT,
                     -1.0,
                     0.5,
                     ACL_FLOAT,
                     kKeepDtype,
                     false,
                     c,
                     mat2View});
    cases.push_back({std::string("InplaceAddmm_skinny_f16_mat2_") + view,
                     {16, 20},
                     16,
                     33,
                     20,
                     ACL_FLOAT16,
                     ACL_FLOAT16,
                     1.5,
                     -1.0,
                     ACL_FLOAT,
                     kKeepDtype,
                     true,
                     c,
                     mat2View});
  }
  // Past deterministic mode's 64x256 tiles, with each bias form sliced per tile.
  for (const SelfShape& s : std::vector<SelfShape>{{"N", {300}}, {"Mx1", {130, 1}}, {"MxN", {130, 300}}}) {
    cases.push_back(
        {std::string("Addmm_tile_edges_self_") + s.name, s.shape, 130, 40, 300, ACL_FLOAT, ACL_FLOAT, 0.5, 2.0});
  }
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (int8_t cube = kKeepDtype; cube <= kUseFp32Add; ++cube) {
      AddmmCase x{std::string("Addmm_cube") + std::to_string(cube) + "_" + Name(dt), {N}, M, K, N, dt, dt, 1.0, 1.0};
      x.cubeMathType = cube;
      cases.push_back(x);
    }
  }
  // Extreme and zero coefficients: beta / alpha is far outside f32's range, so
  // no step may form it; each term alone stays representable. 12 rows run on
  // the skinny kernel, 64 on oneDNN (which fuses a row bias).
  const std::vector<Coefficients> extremes = {
      {"beta1e20_alpha1e-20", 1e20, 1e-20, ACL_FLOAT},
      {"beta1e-20_alpha1e20", 1e-20, 1e20, ACL_FLOAT},
      {"beta-3e30_alpha1e-30", -3e30, 1e-30, ACL_DOUBLE},
      {"beta2_alpha0", 2.0, 0.0, ACL_FLOAT},
      {"beta0_alpha2", 0.0, 2.0, ACL_FLOAT},
      {"beta0_alpha0", 0.0, 0.0, ACL_FLOAT},
      {"beta0.5_alpha-0.5", 0.5, -0.5, ACL_FLOAT},
  };
  for (int64_t rows : {M, int64_t{64}}) {
    const Shape full = {rows, N}, column = {rows, 1};
    const std::vector<SelfShape> shapes = {{"N", {N}}, {"1xN", {1, N}}, {"Mx1", column}, {"MxN", full}};
    for (const SelfShape& s : shapes) {
      for (const Coefficients& k : extremes) {
        cases.push_back({std::string("Addmm_extreme_M") + std::to_string(rows) + "_self_" + s.name + "_" + k.name,
                         s.shape, rows, K, N, ACL_FLOAT, ACL_FLOAT, k.beta, k.alpha, k.dtype});
      }
    }
  }
  // bf16 (the native bf16 product; fp16's range holds no such result).
  for (const Coefficients& k : {extremes[0], extremes[2]}) {
    cases.push_back({std::string("Addmm_extreme_bf16_into_f32_") + k.name,
                     {N},
                     64,
                     K,
                     N,
                     ACL_BF16,
                     ACL_FLOAT,
                     k.beta,
                     k.alpha,
                     k.dtype});
  }
  // USE_FP16 with an f32 or bf16 mat2 the skinny kernel rounds as it loads
  // (rows 1, 16) or oneDNN multiplies as an fp16 copy (17): beta and alpha in
  // the kernel, out of its own and in place, mat2 as rows and as columns.
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
    for (int64_t rows : {int64_t{1}, int64_t{16}, int64_t{17}}) {
      for (View mat2View : {c, View::kTransposed, View::kStepped}) {
        for (bool inplace : {false, true}) {
          for (const Coefficients& k : {coefficients[1], coefficients[2], extremes[6]}) {
            AddmmCase x{std::string(inplace ? "InplaceAddmm" : "Addmm") + "_fp16_rounded_" + Name(dt) + "_M" +
                            std::to_string(rows) + "_mat2_" + ViewName(mat2View) + "_" + k.name,
                        {rows, 65},
                        rows,
                        63,
                        65,
                        dt,
                        dt,
                        k.beta,
                        k.alpha,
                        k.dtype};
            x.cubeMathType = kUseFp16;
            x.inplace = inplace;
            x.mat2View = mat2View;
            cases.push_back(x);
          }
        }
      }
    }
  }
  AddmmCase large{"Addmm_large", {96}, 64, 256, 96, ACL_FLOAT, ACL_FLOAT, 1.0, 1.0};
  cases.push_back(large);
  AddmmCase largeHalf{"Addmm_large_f16", {96}, 64, 256, 96, ACL_FLOAT16, ACL_FLOAT16, 1.0, 1.0};
  cases.push_back(largeHalf);
  AddmmCase f16ToF32{"Addmm_f16_into_f32_out", {N}, M, K, N, ACL_FLOAT16, ACL_FLOAT, 1.0, 1.0};
  cases.push_back(f16ToF32);

  auto with = [&](AddmmCase x, auto&& change) {
    change(x);
    cases.push_back(x);
  };
  const AddmmCase base{"", {M, N}, M, K, N, ACL_FLOAT, ACL_FLOAT, 0.5, 2.0};
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_transposed_mat1";
    x.mat1View = View::kTransposed;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_transposed_mat2";
    x.mat2View = View::kTransposed;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_transposed_both_f16";
    x.dtype = x.outDtype = ACL_FLOAT16;
    x.mat1View = x.mat2View = View::kTransposed;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_stepped_self_and_out";
    x.selfView = x.outView = View::kStepped;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_offsets";
    x.mat1View = x.mat2View = x.outView = View::kOffset;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_transposed_out";
    x.outView = View::kTransposed;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_broadcast_view_self";
    x.selfView = View::kBroadcast;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_k0_gives_beta_self";
    x.k = 0;
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_k0_row_self";
    x.k = 0;
    x.self = {N};
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_empty_m";
    x.m = 0;
    x.self = {N};
  });
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_empty_n";
    x.n = 0;
    x.self = {1, 0};
  });
  // InplaceAddmm: selfRef is [M, N] and is the output.
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm";
    x.inplace = true;
  });
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm_f16_beta0";
    x.inplace = true;
    x.dtype = x.outDtype = ACL_FLOAT16;
    x.beta = 0.0;
  });
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm_bf16_s32_coefficients";
    x.inplace = true;
    x.dtype = x.outDtype = ACL_BF16;
    x.scalarDtype = ACL_INT32;
    x.beta = 2.0;
    x.alpha = -1.0;
  });
  // BF16 coefficients: CANN's code takes any scalar dtype (its arch35 example
  // passes BF16 beta and alpha), though the doc's list has no BF16.
  with(base, [](AddmmCase& x) {
    x.name = "Addmm_bf16_coefficients";
    x.dtype = x.outDtype = ACL_BF16;
    x.scalarDtype = ACL_BF16;
  });
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm_f32_bf16_coefficients";
    x.inplace = true;
    x.scalarDtype = ACL_BF16;
    x.beta = -1.5;
    x.alpha = 0.75;
  });
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm_transposed_self_and_mat2";
    x.inplace = true;
    x.selfView = x.mat2View = View::kTransposed;
  });
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm_cube1";
    x.inplace = true;
    x.cubeMathType = kAllowFp32DownPrecision;
  });
  with(base, [](AddmmCase& x) {
    x.name = "InplaceAddmm_k0";
    x.inplace = true;
    x.k = 0;
  });
  return cases;
}

void CheckAddmmCase(const AddmmCase& x) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(x.dtype, x.self, x.selfView);
  DeviceTensor mat1(x.dtype, {x.m, x.k}, x.mat1View);
  DeviceTensor mat2(x.dtype, {x.k, x.n}, x.mat2View);
  const Values selfValues = self.FillRandom(rng, kMatrixRange);
  const Values a = mat1.FillRandom(rng, kMatrixRange);
  const Values b = mat2.FillRandom(rng, kMatrixRange);
  std::unique_ptr<DeviceTensor> separateOut;
  const DeviceTensor* out = &self;
  if (!x.inplace) {
    separateOut = std::make_unique<DeviceTensor>(x.outDtype, Shape{x.m, x.n}, x.outView);
    separateOut->Poison();
    out = separateOut.get();
  }
  const std::vector<uint8_t> before = out->DownloadBytes();
  const Value beta = ConvertValue(x.beta, x.scalarDtype), alpha = ConvertValue(x.alpha, x.scalarDtype);
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* selfTensor = args.Tensor(self);
        aclTensor* mat1Tensor = args.Tensor(mat1);
        aclTensor* mat2Tensor = args.Tensor(mat2);
        aclScalar* betaScalar = args.Scalar(x.scalarDtype, beta);
        aclScalar* alphaScalar = args.Scalar(x.scalarDtype, alpha);
        if (x.inplace) {
          return aclnnInplaceAddmmGetWorkspaceSize(selfTensor, mat1Tensor, mat2Tensor, betaScalar, alphaScalar,
                                                   x.cubeMathType, workspaceSize, executor);
        }
        return aclnnAddmmGetWorkspaceSize(selfTensor, mat1Tensor, mat2Tensor, betaScalar, alphaScalar,
                                          args.Tensor(*out), x.cubeMathType, workspaceSize, executor);
      },
      x.inplace ? aclnnInplaceAddmm : aclnnAddmm);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Expected want = ReferenceAddmm(selfValues, x.self, a, {x.m, x.k}, b, {x.k, x.n}, beta, alpha,
                                       MatmulPrecisionFor(x.dtype, x.dtype, out->dtype(), x.cubeMathType));
  ExpectNear(out->ReadView(), want, x.name);
  ExpectOutsideViewUnchanged(*out, before, "out storage");
  if (!x.inplace) ExpectExact(self.ReadView(), selfValues, "self must not change");
  if (x.m * x.n == 0) {
    EXPECT_EQ(run.workspaceSize, 0u) << "an empty result needs no workspace";
  }
}

class AddmmTest : public ::testing::TestWithParam<AddmmCase> {};
TEST_P(AddmmTest, MatchesReference) { CheckAddmmCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AddmmTest, ::testing::ValuesIn(AddmmCases()),
                         [](const ::testing::TestParamInfo<AddmmCase>& info) { return SanitizeName(info.param.name); });

using DeterministicAddmmTest = DeterministicModeTest<AddmmCase>;
TEST_P(DeterministicAddmmTest, MatchesReference) { CheckAddmmCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, DeterministicAddmmTest, ::testing::ValuesIn(AddmmCases()),
                         [](const ::testing::TestParamInfo<AddmmCase>& info) { return SanitizeName(info.param.name); });

// ---- USE_FP16 against hostile weights ------------------------------------------------------------

// Weights at the edges of fp16: past its range (65520 and up become inf, as a
// copy to fp16 makes them; 65519 stays 65504), infinities, NaN, -0, ties in
// fp16's subnormals and normals, values under its smallest subnormal.
std::vector<double> Fp16EdgeWeights() {
  const double inf = std::numeric_limits<double>::infinity();
  return {65504.0,
          65519.0,
          -65520.0,
          65536.0,
          1e5,
          -3.0e38,
          inf,
          -inf,
          std::numeric_limits<double>::quiet_NaN(),
          -0.0,
          std::ldexp(1.0, -24),
          -std::ldexp(1.0, -25),
          std::ldexp(1.0001, -25),
          std::ldexp(3.0, -25),
          std::ldexp(1.0, -14) * (1.0 - std::ldexp(1.0, -12)),
          1.0 + std::ldexp(1.0, -11),
          -(1.0 + std::ldexp(3.0, -11)),
          std::ldexp(1.0, -30)};
}

// out = self @ mat2 under USE_FP16 where self's rows each hold one power of two
// (exact in fp16) and zeros, so every out value is exactly that multiple of one
// weight rounded to fp16 plus zeros times the column's other weights (NaN where
// the column holds an inf or NaN, as IEEE products give on any path). M from 1
// to 17 (the skinny kernel up to 16), K and N around 16 and 64.
void CheckEdgeWeights(MatmulOp op, aclDataType dtype, View mat2View, int64_t m, int64_t k, int64_t n, Rng& rng) {
  SCOPED_TRACE(std::string(MatmulOpName(op)) + " " + Name(dtype) + " mat2 " + ViewName(mat2View) + " M" +
               std::to_string(m) + " K" + std::to_string(k) + " N" + std::to_string(n));
  const bool batched = op == MatmulOp::kBatchMatMul;
  const Shape selfShape = batched ? Shape{1, m, k} : Shape{m, k};
  const Shape mat2Shape = batched ? Shape{1, k, n} : Shape{k, n};
  DeviceTensor self(ACL_FLOAT, selfShape);
  Values a(static_cast<size_t>(m * k), 0.0);
  const double scales[] = {1.0, -1.0, 2.0, 0.5, -0.25};
  for (int64_t i = 0; i < m; ++i) {
    const auto pick = static_cast<int64_t>(rng.Uniform(0.0, static_cast<double>(k) - 0.5));
    a[static_cast<size_t>(i * k + pick)] = scales[i % 5];
  }
  self.WriteView(a);
  DeviceTensor mat2(dtype, mat2Shape, mat2View);
  Values b = RandomValues(rng, ACL_FLOAT, k * n, Range{-4, 4});
  const std::vector<double> edges = Fp16EdgeWeights();
  // A few edge values per call, so most columns stay finite.
  for (size_t e = 0; e < edges.size(); e += 1 + static_cast<size_t>(rng.Uniform(0.0, 3.0))) {
    b[static_cast<size_t>(rng.Uniform(0.0, static_cast<double>(k * n) - 0.5))] = edges[e];
  }
  mat2.WriteView(b);
  const Values stored = mat2.ReadView();
  DeviceTensor out(ACL_FLOAT, batched ? Shape{1, m, n} : Shape{m, n});
  out.Poison();
  const OpRun run = RunUseFp16(op, self, mat2, out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int64_t p = 0; p < k; ++p) {
        const double weight = HalfToDouble(DoubleToHalf(stored[static_cast<size_t>(p * n + j)].real()));
        sum += a[static_cast<size_t>(i * k + p)].real() * weight;
      }
      want[static_cast<size_t>(i * n + j)] = sum;
    }
  }
  ExpectExact(out.ReadView(), want, "out");
  ExpectExact(mat2.ReadView(), stored, "mat2 must not change");
}

TEST(MatmulUseFp16, EdgeWeightsRoundAsACopyToFp16) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const std::vector<std::pair<int64_t, int64_t>> extents = {{1, 1}, {16, 16}, {17, 15}, {63, 65}, {64, 64}, {65, 129}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (View mat2View : {View::kContiguous, View::kTransposed, View::kStepped}) {
      for (int64_t m = 1; m <= 17; ++m) {
        for (const auto& [k, n] : extents) CheckEdgeWeights(MatmulOp::kMm, dtype, mat2View, m, k, n, rng);
      }
      for (MatmulOp op : {MatmulOp::kMatmul, MatmulOp::kBatchMatMul}) {
        for (int64_t m : {1, 16, 17}) CheckEdgeWeights(op, dtype, mat2View, m, 64, 65, rng);
      }
    }
  }
}

// A weight shared by the batch (stride 0) under USE_FP16, with a batch of
// one and of three: each batch's rows against the one weight rounded to fp16.
TEST(MatmulUseFp16, BroadcastWeightRoundedOnce) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
    for (int64_t batch : {1, 3}) {
      for (View mat2View : {View::kContiguous, View::kTransposed}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " batch " + std::to_string(batch) + " " + ViewName(mat2View));
        const int64_t m = 2, k = 70, n = 33;
        DeviceTensor self(ACL_FLOAT, Shape{batch, m, k});
        const Values a = self.FillRandom(rng, kMatrixRange);
        DeviceTensor mat2(dtype, Shape{k, n}, mat2View);
        const Values b = mat2.FillRandom(rng, kMatrixRange);
        Shape outShape;
        const std::optional<Expected> want = ReferenceMatmul(
            a, {batch, m, k}, b, {k, n}, MatmulPrecisionFor(ACL_FLOAT, dtype, ACL_FLOAT, kUseFp16), &outShape);
        ASSERT_TRUE(want.has_value());
        DeviceTensor out(ACL_FLOAT, outShape);
        out.Poison();
        ExpectRuns(
            [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
              return aclnnMatmulGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(out), kUseFp16,
                                                 workspaceSize, executor);
            },
            aclnnMatmul);
        ExpectNear(out.ReadView(), *want, "out");
      }
    }
  }
}

// out sharing mat2's storage (a square weight, M == K == N): CANN computes
// into its own result and copies it to out, so out holds the product of the
// weight as it was. Mm and Addmm, rows and columns of the weight, every mode.
TEST(MatmulUseFp16, OutAliasingMat2GetsTheProductOfTheOldWeight) {
  Rng rng = Rng::ForCurrentTest();
  for (int8_t cube : {kKeepDtype, kUseFp16}) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_BF16}) {
      for (int64_t m : {4, 16}) {
        for (bool addmm : {false, true}) {
          SCOPED_TRACE(std::string(addmm ? "Addmm" : "Mm") + " cube " + std::to_string(cube) + " " + Name(dtype) +
                       " M" + std::to_string(m));
          DeviceTensor self(dtype, Shape{m, m});
          const Values a = self.FillRandom(rng, kMatrixRange);
          DeviceTensor mat2(dtype, Shape{m, m});
          const Values b = mat2.FillRandom(rng, kMatrixRange);
          DeviceTensor bias(dtype, Shape{m});
          const Values biasValues = bias.FillRandom(rng, kMatrixRange);
          const MatmulPrecision precision = MatmulPrecisionFor(dtype, dtype, dtype, cube);
          const Expected want =
              ReferenceAddmm(biasValues, {m}, a, {m, m}, b, {m, m}, addmm ? 0.5 : 0.0, addmm ? 2.0 : 1.0, precision);
          const OpRun run = RunOp(
              [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                if (addmm) {
                  return aclnnAddmmGetWorkspaceSize(args.Tensor(bias), args.Tensor(self), args.Tensor(mat2),
                                                    args.Scalar(ACL_FLOAT, 0.5), args.Scalar(ACL_FLOAT, 2.0),
                                                    args.Tensor(mat2), cube, workspaceSize, executor);
                }
                return aclnnMmGetWorkspaceSize(args.Tensor(self), args.Tensor(mat2), args.Tensor(mat2), cube,
                                               workspaceSize, executor);
              },
              addmm ? aclnnAddmm : aclnnMm);
          ASSERT_TRUE(run.ok()) << Describe(run);
          ExpectNear(mat2.ReadView(), want, "out (mat2's storage)");
        }
      }
    }
  }
}

// Decode products under USE_FP16 from two threads on two streams at once, each
// with its own weight rounded as it loads: neither sees the other's values.
TEST(MatmulUseFp16, TwoStreamsAtOnce) {
  constexpr int kRounds = 20;
  TestStream();  // the runtime is up before the threads start
  const auto worker = [](uint64_t seed, aclDataType dtype, bool* ok) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    Rng rng(seed);
    const int64_t m = 3, k = 130, n = 70;
    DeviceTensor self(ACL_FLOAT, Shape{m, k});
    DeviceTensor mat2(dtype, Shape{k, n}, View::kTransposed);
    DeviceTensor out(ACL_FLOAT, Shape{m, n});
    for (int round = 0; round < kRounds; ++round) {
      const Values a = self.FillRandom(rng, kMatrixRange);
      const Values b = mat2.FillRandom(rng, kMatrixRange);
      out.Poison();
      Shape outShape;
      const std::optional<Expected> want =
          ReferenceMatmul(a, {m, k}, b, {k, n}, MatmulPrecisionFor(ACL_FLOAT, dtype, ACL_FLOAT, kUseFp16), &outShape);
      ASSERT_TRUE(want.has_value());
      aclTensor* selfTensor = self.CreateDescriptor();
      aclTensor* mat2Tensor = mat2.CreateDescriptor();
      aclTensor* outTensor = out.CreateDescriptor();
      uint64_t workspaceSize = 0;
      aclOpExecutor* executor = nullptr;
      ASSERT_EQ(aclnnMmGetWorkspaceSize(selfTensor, mat2Tensor, outTensor, kUseFp16, &workspaceSize, &executor),
                ACLNN_SUCCESS);
      DeviceBuffer workspace(std::max<uint64_t>(workspaceSize, 1));
      ASSERT_EQ(aclnnMm(workspace.get(), workspaceSize, executor, stream), ACLNN_SUCCESS);
      aclDestroyTensor(selfTensor);
      aclDestroyTensor(mat2Tensor);
      aclDestroyTensor(outTensor);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
      ExpectNear(out.ReadView(), *want, "out");
    }
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    *ok = true;
  };
  bool ok[2] = {false, false};
  std::thread first(worker, 1, ACL_FLOAT, &ok[0]);
  std::thread second(worker, 2, ACL_BF16, &ok[1]);
  first.join();
  second.join();
  EXPECT_TRUE(ok[0] && ok[1]) << "a worker stopped early";
}

}  // namespace
}  // namespace canopy_test
