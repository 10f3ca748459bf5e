// aclnnTransSparse4to2Para and aclnnSparse4to2QuantMatmulWeightNz through the
// public C API: CANN's compressed bytes for every group pattern, the documented
// example (every output 256), random 4:2-sparse weights at odd sizes against an
// exact INT32 product dequantised in f32 (bit for bit) and a float64
// reference, strided x and out, index bytes that name one position twice, and
// the rejections with CANN's codes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_sparse4to2quant_matmul_weight_nz.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// What aclnnTransSparse4to2Para returns, owned.
struct Compressed {
  std::unique_ptr<int8_t[]> values;
  std::unique_ptr<uint8_t[]> index;
  std::unique_ptr<int64_t[]> valueDims, indexDims;
  uint64_t valueDimsNum = 0, indexDimsNum = 0;
  Shape ValueStorage() const { return Shape(valueDims.get(), valueDims.get() + valueDimsNum); }
  Shape IndexStorage() const { return Shape(indexDims.get(), indexDims.get() + indexDimsNum); }
  int64_t ValueBytes() const { return NumElements(ValueStorage()); }
  int64_t IndexBytes() const { return NumElements(IndexStorage()); }
};

aclnnStatus Compress(const std::vector<int8_t>& dense, int64_t n, int64_t k, Compressed& c) {
  const int64_t dims[] = {n, k};
  aclIntArray* shape = aclCreateIntArray(dims, 2);
  int8_t* values = nullptr;
  uint8_t* index = nullptr;
  int64_t *valueDims = nullptr, *indexDims = nullptr;
  const aclnnStatus status = aclnnTransSparse4to2Para(dense.data(), shape, &values, &valueDims, &c.valueDimsNum, &index,
                                                      &indexDims, &c.indexDimsNum);
  aclDestroyIntArray(shape);
  c.values.reset(values);
  c.index.reset(index);
  c.valueDims.reset(valueDims);
  c.indexDims.reset(indexDims);
  return status;
}

// A dense [n, k] weight with at most two non-zero values in each group of four
// along k (k padded to 8): groups of 0, 1 and 2 non-zeros at random places.
std::vector<int8_t> SparseWeight(Rng& rng, int64_t n, int64_t k) {
  std::vector<int8_t> w(static_cast<size_t>(n * k), 0);
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t g = 0; g < CeilDiv(k, 4); ++g) {
      const int kept = static_cast<int>(rng.Uniform(0, 3));  // 0, 1 or 2 values
      int first = static_cast<int>(rng.Uniform(0, 4));
      int second = (first + 1 + static_cast<int>(rng.Uniform(0, 3))) % 4;
      for (int j = 0; j < kept; ++j) {
        const int64_t col = g * 4 + (j == 0 ? first : second);
        int v = 0;
        while (v == 0) v = static_cast<int>(rng.Uniform(-128, 128));
        if (col < k) w[static_cast<size_t>(r * k + col)] = static_cast<int8_t>(v);
      }
    }
  }
  return w;
}

struct Product {
  int64_t m = 0, n = 0, k = 0;
  std::vector<int8_t> x = {};     // [m, k]
  std::vector<int64_t> acc = {};  // [m, n], exact
  std::vector<float> xScale = {}, weightScale = {};
  std::vector<uint16_t> bias = {};  // empty: no bias
};

// A contiguous view of `shape` over a buffer of `storage`'s shape.
Layout OverStorage(const Shape& shape, const Shape& storage) {
  Layout layout;
  layout.shape = shape;
  layout.strides = ContiguousStrides(shape);
  layout.storageShape = storage;
  return layout;
}

// out as CANN's kernel computes it: f32 (acc * weightScale) * xScale + bias, rounded to bf16.
Values KernelOut(const Product& p) {
  Values out;
  for (int64_t i = 0; i < p.m; ++i) {
    for (int64_t j = 0; j < p.n; ++j) {
      float y = static_cast<float>(p.acc[static_cast<size_t>(i * p.n + j)]) * p.weightScale[static_cast<size_t>(j)] *
                p.xScale[static_cast<size_t>(i)];
      if (!p.bias.empty()) y += static_cast<float>(Bf16ToDouble(p.bias[static_cast<size_t>(j)]));
      out.emplace_back(Bf16ToDouble(DoubleToBf16(y)));
    }
  }
  return out;
}

// The same in float64, within bf16's rounding (and f32's on the way).
Expected ReferenceOut(const Product& p) {
  Expected want;
  for (int64_t i = 0; i < p.m; ++i) {
    for (int64_t j = 0; j < p.n; ++j) {
      double y = static_cast<double>(p.acc[static_cast<size_t>(i * p.n + j)]) * p.weightScale[static_cast<size_t>(j)] *
                 p.xScale[static_cast<size_t>(i)];
      if (!p.bias.empty()) y += Bf16ToDouble(p.bias[static_cast<size_t>(j)]);
      want.values.emplace_back(y);
      want.tolerance.push_back(std::fabs(y) * (2 * UnitRoundoff(ACL_BF16) + 1e-6) + 1e-30);
    }
  }
  return want;
}

// Runs the op on `p` with the compressed weight, x and out in the given views.
Values RunProduct(const Product& p, const Compressed& c, View xView = View::kContiguous,
                  View outView = View::kContiguous) {
  DeviceTensor x(ACL_INT8, {p.m, p.k}, xView);
  Values xv;
  for (const int8_t v : p.x) xv.emplace_back(v);
  x.WriteView(xv);
  DeviceTensor weight(ACL_INT8, OverStorage({p.n, CeilDiv(p.k, 8) * 4}, c.ValueStorage()));
  weight.UploadBytes(std::vector<uint8_t>(c.values.get(), c.values.get() + c.ValueBytes()));
  DeviceTensor index(ACL_UINT8, OverStorage({p.n, CeilDiv(p.k, 8)}, c.IndexStorage()));
  index.UploadBytes(std::vector<uint8_t>(c.index.get(), c.index.get() + c.IndexBytes()));
  DeviceTensor xScale(ACL_FLOAT, {p.m}), weightScale(ACL_FLOAT, {p.n}), bias(ACL_BF16, {p.n});
  Values v;
  for (const float s : p.xScale) v.emplace_back(s);
  xScale.WriteView(v);
  v.clear();
  for (const float s : p.weightScale) v.emplace_back(s);
  weightScale.WriteView(v);
  if (!p.bias.empty()) {
    v.clear();
    for (const uint16_t b : p.bias) v.emplace_back(Bf16ToDouble(b));
    bias.WriteView(v);
  }
  DeviceTensor out(ACL_BF16, {p.m, p.n}, outView);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnSparse4to2QuantMatmulWeightNzGetWorkspaceSize(
            args.Tensor(x), args.Tensor(weight), args.Tensor(index), args.Tensor(xScale), args.Tensor(weightScale),
            p.bias.empty() ? nullptr : args.Tensor(bias), args.Tensor(out), workspaceSize, executor);
      },
      aclnnSparse4to2QuantMatmulWeightNz);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return out.ReadView();
}

Product RandomProduct(Rng& rng, int64_t m, int64_t n, int64_t k, const std::vector<int8_t>& dense, bool withBias) {
  Product p{.m = m, .n = n, .k = k};
  for (int64_t i = 0; i < m * k; ++i) p.x.push_back(static_cast<int8_t>(std::floor(rng.Uniform(-128, 128))));
  p.acc.assign(static_cast<size_t>(m * n), 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        sum += int64_t{p.x[static_cast<size_t>(i * k + l)]} * dense[static_cast<size_t>(j * k + l)];
      }
      p.acc[static_cast<size_t>(i * n + j)] = sum;
    }
  }
  for (int64_t i = 0; i < m; ++i) p.xScale.push_back(static_cast<float>(rng.Uniform(0.5, 1.5)));
  for (int64_t j = 0; j < n; ++j) p.weightScale.push_back(static_cast<float>(rng.Uniform(1e-4, 2e-3)));
  if (withBias) {
    for (int64_t j = 0; j < n; ++j) p.bias.push_back(DoubleToBf16(rng.Uniform(-4, 4)));
  }
  return p;
}

// ---- the host function -------------------------------------------------------------------------

// One row holding, group by group, every pattern CANN's host code accepts: the
// index bytes and kept values it writes (code per group: bits 1:0 the first
// kept value's position, bits 3:2 the second's minus one).
TEST(TransSparse4to2Para, WritesCannsCodesForEveryPattern) {
  struct Pattern {
    int8_t group[4];
    uint8_t code;
    int8_t first, second;
  };
  const std::vector<Pattern> patterns = {
      {{0, 0, 0, 0}, 0b0000, 0, 0},     {{0, 0, 0, 5}, 0b1000, 0, 5},     {{0, 0, 6, 0}, 0b0010, 6, 0},
      {{0, 0, 7, 8}, 0b1010, 7, 8},     {{0, 9, 0, 0}, 0b0001, 9, 0},     {{0, 10, 0, 11}, 0b1001, 10, 11},
      {{0, 12, 13, 0}, 0b0101, 12, 13}, {{14, 0, 0, 0}, 0b0000, 14, 0},   {{15, 0, 0, 16}, 0b1000, 15, 16},
      {{17, 0, 18, 0}, 0b0100, 17, 18}, {{19, 20, 0, 0}, 0b0000, 19, 20}, {{-1, 0, 0, -2}, 0b1000, -1, -2}};
  const int64_t k = 4 * static_cast<int64_t>(patterns.size());  // 48: one NZ slice, partly filled
  const int64_t n = 2;                                          // row 1 all zeros
  std::vector<int8_t> dense(static_cast<size_t>(n * k), 0);
  for (size_t g = 0; g < patterns.size(); ++g) std::memcpy(&dense[4 * g], patterns[g].group, 4);
  Compressed c;
  ASSERT_EQ(Compress(dense, n, k, c), ACLNN_SUCCESS);
  EXPECT_EQ(c.ValueStorage(), (Shape{1, 1, 16, 32}));
  EXPECT_EQ(c.IndexStorage(), (Shape{1, 1, 16, 8}));
  for (size_t g = 0; g < patterns.size(); ++g) {
    const size_t block = g / 2, half = g % 2;
    EXPECT_EQ((c.index[block] >> (4 * half)) & 0xF, patterns[g].code) << "group " << g;
    EXPECT_EQ(c.values[block * 4 + half * 2], patterns[g].first) << "group " << g;
    EXPECT_EQ(c.values[block * 4 + half * 2 + 1], patterns[g].second) << "group " << g;
  }
  for (int64_t i = 32 * 1; i < c.ValueBytes(); ++i) EXPECT_EQ(c.values[static_cast<size_t>(i)], 0) << i;
  for (int64_t i = 8; i < c.IndexBytes(); ++i) EXPECT_EQ(c.index[static_cast<size_t>(i)], 0) << i;
}

TEST(TransSparse4to2Para, StorageShapesAndRowPlacement) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t n = 19, k = 150;  // two NZ row blocks, three k slices, a tail
  const std::vector<int8_t> dense = SparseWeight(rng, n, k);
  Compressed c;
  ASSERT_EQ(Compress(dense, n, k, c), ACLNN_SUCCESS);
  ASSERT_EQ(c.ValueStorage(), (Shape{3, 2, 16, 32}));
  ASSERT_EQ(c.IndexStorage(), (Shape{3, 2, 16, 8}));
  // Decoding each row's values back by their codes gives the dense weight.
  for (int64_t r = 0; r < n; ++r) {
    std::vector<int> row(static_cast<size_t>(CeilDiv(k, 8) * 8), 0);
    for (int64_t block = 0; block < CeilDiv(k, 8); ++block) {
      const int64_t slice = block / 8, col = block % 8;
      const uint8_t byte = c.index[static_cast<size_t>((slice * 32 + r) * 8 + col)];
      const int8_t* kept = &c.values[static_cast<size_t>((slice * 32 + r) * 32 + col * 4)];
      for (int g = 0; g < 2; ++g) {
        const int code = (byte >> (4 * g)) & 0xF;
        row[static_cast<size_t>(block * 8 + g * 4 + (code & 3))] += kept[2 * g];
        row[static_cast<size_t>(block * 8 + g * 4 + ((code >> 2) & 3) + 1)] += kept[2 * g + 1];
      }
    }
    for (int64_t l = 0; l < k; ++l) {
      ASSERT_EQ(row[static_cast<size_t>(l)], dense[static_cast<size_t>(r * k + l)]) << "row " << r << " col " << l;
    }
  }
}

TEST(TransSparse4to2Para, Rejects) {
  std::vector<int8_t> dense(16, 0);
  dense[4] = dense[5] = dense[7] = 1;  // three non-zero values in group 1
  Compressed c;
  EXPECT_EQ(Compress(dense, 2, 8, c), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(c.values, nullptr);
  EXPECT_EQ(c.index, nullptr);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("more than two"), std::string::npos);

  const int64_t dims[] = {2, 8}, one[] = {16};
  aclIntArray* shape = aclCreateIntArray(dims, 2);
  aclIntArray* flat = aclCreateIntArray(one, 1);
  int8_t* values = nullptr;
  uint8_t* index = nullptr;
  int64_t *valueDims = nullptr, *indexDims = nullptr;
  uint64_t valueDimsNum = 0, indexDimsNum = 0;
  std::vector<int8_t> ok(16, 0);
  // A failure leaves no array behind, whatever the pointers held.
  int8_t sentinel = 0;
  values = &sentinel;
  EXPECT_EQ(
      aclnnTransSparse4to2Para(ok.data(), flat, &values, &valueDims, &valueDimsNum, &index, &indexDims, &indexDimsNum),
      ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(values, nullptr);
  // CANN's code returns its inner null-pointer status for every null argument.
  EXPECT_EQ(
      aclnnTransSparse4to2Para(nullptr, shape, &values, &valueDims, &valueDimsNum, &index, &indexDims, &indexDimsNum),
      ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclnnTransSparse4to2Para(ok.data(), nullptr, &values, &valueDims, &valueDimsNum, &index, &indexDims,
                                     &indexDimsNum),
            ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclnnTransSparse4to2Para(ok.data(), shape, &values, &valueDims, &valueDimsNum, nullptr, &indexDims,
                                     &indexDimsNum),
            ACLNN_ERR_INNER_NULLPTR);
  aclDestroyIntArray(shape);
  aclDestroyIntArray(flat);
}

// ---- the product -------------------------------------------------------------------------------

// CANN's example program: x all 1, a weight of two ones in every group of
// four, scales 1 and a bias of bf16 bits 0x0001: every output is 256.
TEST(Sparse4to2QuantMatmulWeightNz, DocumentedExample) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = 64, k = 512, n = 128;
  std::vector<int8_t> dense(static_cast<size_t>(n * k), 1);
  for (int64_t g = 0; g < n * k / 4; ++g) {
    const int a = static_cast<int>(rng.Uniform(0, 4));
    const int b = (a + 1 + static_cast<int>(rng.Uniform(0, 3))) % 4;
    dense[static_cast<size_t>(g * 4 + a)] = dense[static_cast<size_t>(g * 4 + b)] = 0;
  }
  Compressed c;
  ASSERT_EQ(Compress(dense, n, k, c), ACLNN_SUCCESS);
  EXPECT_EQ(c.ValueStorage(), (Shape{8, 8, 16, 32}));
  Product p{.m = m, .n = n, .k = k};
  p.x.assign(static_cast<size_t>(m * k), 1);
  p.acc.assign(static_cast<size_t>(m * n), 256);
  p.xScale.assign(static_cast<size_t>(m), 1.0F);
  p.weightScale.assign(static_cast<size_t>(n), 1.0F);
  p.bias.assign(static_cast<size_t>(n), 0x0001);
  const Values got = RunProduct(p, c);
  ExpectExact(got, Values(static_cast<size_t>(m * n), 256.0), "out");
}

struct SparseCase {
  std::string name;
  int64_t m, n, k;
  bool bias = true;
  View xView = View::kContiguous, outView = View::kContiguous;
};
void PrintTo(const SparseCase& c, std::ostream* os) { *os << c.name; }

class Sparse4to2Product : public ::testing::TestWithParam<SparseCase> {};

TEST_P(Sparse4to2Product, MatchesExactProduct) {
  const SparseCase& s = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const std::vector<int8_t> dense = SparseWeight(rng, s.n, s.k);
  Compressed c;
  ASSERT_EQ(Compress(dense, s.n, s.k, c), ACLNN_SUCCESS);
  const Product p = RandomProduct(rng, s.m, s.n, s.k, dense, s.bias);
  const Values got = RunProduct(p, c, s.xView, s.outView);
  ExpectExact(got, KernelOut(p), "out, as CANN's kernel rounds");
  ExpectNear(got, ReferenceOut(p), "out against float64");
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Sparse4to2Product,
    ::testing::Values(SparseCase{.name = "one_element", .m = 1, .n = 1, .k = 1},
                      SparseCase{.name = "tails", .m = 5, .n = 23, .k = 70},
                      SparseCase{.name = "slices_no_bias", .m = 3, .n = 33, .k = 129, .bias = false},
                      SparseCase{.name = "aligned", .m = 17, .n = 32, .k = 256},
                      SparseCase{.name = "strided_x", .m = 6, .n = 20, .k = 72, .xView = View::kStepped},
                      SparseCase{.name = "offset_x", .m = 4, .n = 9, .k = 40, .xView = View::kOffset},
                      SparseCase{.name = "transposed_out", .m = 7, .n = 18, .k = 64, .outView = View::kTransposed}),
    [](const ::testing::TestParamInfo<SparseCase>& info) { return info.param.name; });

// Index bytes CANN's host code never writes can name one position for both of a
// group's values, or a position past k: the product takes each kept value with
// the x element its code names, as the NPU's sparse load does.
TEST(Sparse4to2QuantMatmulWeightNz, EveryCodeNamesItsXElement) {
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = 3, n = 17, k = 75;
  Compressed c;
  ASSERT_EQ(Compress(std::vector<int8_t>(static_cast<size_t>(n * k), 0), n, k, c), ACLNN_SUCCESS);
  for (int64_t i = 0; i < c.ValueBytes(); ++i) {
    c.values[static_cast<size_t>(i)] = static_cast<int8_t>(std::floor(rng.Uniform(-128, 128)));
  }
  for (int64_t i = 0; i < c.IndexBytes(); ++i) {
    c.index[static_cast<size_t>(i)] = static_cast<uint8_t>(std::floor(rng.Uniform(0, 256)));
  }
  Product p{.m = m, .n = n, .k = k};
  for (int64_t i = 0; i < m * k; ++i) p.x.push_back(static_cast<int8_t>(std::floor(rng.Uniform(-128, 128))));
  p.acc.assign(static_cast<size_t>(m * n), 0);
  const int64_t rowBlocks = CeilDiv(n, 16) * 16;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t block = 0; block < CeilDiv(k, 8); ++block) {
      const int64_t slice = block / 8, col = block % 8;
      const uint8_t byte = c.index[static_cast<size_t>((slice * rowBlocks + j) * 8 + col)];
      const int8_t* kept = &c.values[static_cast<size_t>((slice * rowBlocks + j) * 32 + col * 4)];
      for (int g = 0; g < 2; ++g) {
        const int code = (byte >> (4 * g)) & 0xF;
        const int64_t positions[2] = {block * 8 + g * 4 + (code & 3), block * 8 + g * 4 + ((code >> 2) & 3) + 1};
        for (int v = 0; v < 2; ++v) {
          if (positions[v] >= k) continue;  // x ends at k
          for (int64_t i = 0; i < m; ++i) {
            p.acc[static_cast<size_t>(i * n + j)] +=
                int64_t{p.x[static_cast<size_t>(i * k + positions[v])]} * kept[2 * g + v];
          }
        }
      }
    }
  }
  p.xScale.assign(static_cast<size_t>(m), 1.0F);
  p.weightScale.assign(static_cast<size_t>(n), 1.0F / 64);
  const Values got = RunProduct(p, c);
  ExpectExact(got, KernelOut(p), "out");
}

// ---- rejections --------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
  std::string keyword;
  Shape x = {4, 64};
  aclDataType xDtype = ACL_INT8;
  View xView = View::kContiguous;
  aclFormat xFormat = ACL_FORMAT_ND;
  int64_t n = 16;
  bool weightNd = false;  // the weight's storage its own view shape
  Shape index = {16, 8};
  aclDataType indexDtype = ACL_UINT8;
  Shape indexStorage = {1, 1, 16, 8};
  Shape xScale = {4}, weightScale = {16}, bias = {16}, out = {4, 16};
  aclDataType scaleDtype = ACL_FLOAT, biasDtype = ACL_BF16, outDtype = ACL_BF16;
  bool nullXScale = false;
};
void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class Sparse4to2Rejects : public ::testing::TestWithParam<Bad> {};

TEST_P(Sparse4to2Rejects, WithCannsCode) {
  const Bad& b = GetParam();
  const int64_t halfK = CeilDiv(64, 8) * 4;  // the weight is for k = 64
  DeviceTensor weight(
      ACL_INT8,
      OverStorage({b.n, halfK}, b.weightNd ? Shape{b.n, halfK} : Shape{CeilDiv(halfK, 32), CeilDiv(b.n, 16), 16, 32}));
  DeviceTensor index(b.indexDtype, OverStorage(b.index, b.indexStorage));
  DeviceTensor x(b.xDtype, b.x, b.xView), xScale(b.scaleDtype, b.xScale), weightScale(b.scaleDtype, b.weightScale),
      bias(b.biasDtype, b.bias), out(b.outDtype, b.out);
  ExpectRejection(RejectionCase{b.name,
                                [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                                  return aclnnSparse4to2QuantMatmulWeightNzGetWorkspaceSize(
                                      args.Tensor(x, b.xFormat), args.Tensor(weight), args.Tensor(index),
                                      b.nullXScale ? nullptr : args.Tensor(xScale), args.Tensor(weightScale),
                                      args.Tensor(bias), args.Tensor(out), workspaceSize, executor);
                                },
                                aclnnSparse4to2QuantMatmulWeightNz, b.keyword, b.expected});
}

std::vector<Bad> BadCases() {
  return {
      {.name = "weight_storage_nd", .keyword = "storage", .weightNd = true},
      {.name = "x_transposed", .keyword = "transposed", .xView = View::kTransposed},
      {.name = "x_rank_3", .keyword = "rank", .x = {1, 4, 64}},
      {.name = "index_rank_4", .keyword = "rank", .index = {1, 1, 16, 8}},
      {.name = "x_int32", .keyword = "dtype", .xDtype = ACL_INT32},
      {.name = "index_int8", .keyword = "dtype", .indexDtype = ACL_INT8},
      {.name = "scales_bf16", .keyword = "dtype", .scaleDtype = ACL_BF16},
      {.name = "bias_fp16", .keyword = "dtype", .biasDtype = ACL_FLOAT16},
      {.name = "out_fp16", .keyword = "dtype", .outDtype = ACL_FLOAT16},
      {.name = "x_nchw", .keyword = "format", .xFormat = ACL_FORMAT_NCHW},
      {.name = "k_mismatch", .keyword = "ceil(k / 8)", .x = {4, 72}},
      {.name = "bias_shape", .keyword = "biasOptional", .bias = {17}},
      {.name = "weight_scale_shape", .keyword = "sparseWeightScale", .weightScale = {1}},
      {.name = "x_scale_shape", .keyword = "xScale", .xScale = {5}},
      {.name = "out_shape", .keyword = "out", .out = {4, 17}},
      {.name = "index_too_small", .keyword = "index", .index = {16, 4}, .indexStorage = {16, 4}},
      {.name = "x_scale_null", .expected = ACLNN_ERR_PARAM_NULLPTR, .keyword = "xScale", .nullXScale = true},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, Sparse4to2Rejects, ::testing::ValuesIn(BadCases()),
                         [](const ::testing::TestParamInfo<Bad>& info) { return info.param.name; });

// A plan-cache hit must not skip the storage checks: the same views over an
// index, then a weight, whose storage is too small (plain ND buffers) are
// rejected after a call with the right storage was planned and cached.
TEST(Sparse4to2QuantMatmulWeightNz, StorageChecksHoldOnAPlanCacheHit) {
  const int64_t m = 1, n = 1, k = 512;
  DeviceTensor x(ACL_INT8, {m, k}), xScale(ACL_FLOAT, {m}), weightScale(ACL_FLOAT, {n}), out(ACL_BF16, {m, n});
  DeviceTensor weight(ACL_INT8, OverStorage({n, k / 2}, {8, 1, 16, 32}));
  DeviceTensor index(ACL_UINT8, OverStorage({n, k / 8}, {8, 1, 16, 8}));
  DeviceTensor flatWeight(ACL_INT8, OverStorage({n, k / 2}, {k / 2}));
  DeviceTensor flatIndex(ACL_UINT8, OverStorage({n, k / 8}, {k / 8}));
  const auto call = [&](const DeviceTensor& w, const DeviceTensor& i) {
    return RunOp(
        [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
          return aclnnSparse4to2QuantMatmulWeightNzGetWorkspaceSize(args.Tensor(x), args.Tensor(w), args.Tensor(i),
                                                                    args.Tensor(xScale), args.Tensor(weightScale),
                                                                    nullptr, args.Tensor(out), workspaceSize, executor);
        },
        aclnnSparse4to2QuantMatmulWeightNz);
  };
  ASSERT_TRUE(call(weight, index).ok());
  ASSERT_TRUE(call(weight, index).ok());  // now a hit
  const OpRun smallIndex = call(weight, flatIndex);
  EXPECT_EQ(smallIndex.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(smallIndex);
  EXPECT_NE(smallIndex.message.find("index holds 64 bytes"), std::string::npos) << smallIndex.message;
  const OpRun flatWeightRun = call(flatWeight, index);
  EXPECT_EQ(flatWeightRun.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(flatWeightRun);
  EXPECT_NE(flatWeightRun.message.find("storage shape"), std::string::npos) << flatWeightRun.message;
}

TEST(Sparse4to2QuantMatmulWeightNz, EmptyXIsRejected) {
  DeviceTensor x(ACL_INT8, {0, 64}), xScale(ACL_FLOAT, {0}), weightScale(ACL_FLOAT, {16}), out(ACL_BF16, {0, 16});
  DeviceTensor weight(ACL_INT8, OverStorage({16, 32}, {1, 1, 16, 32}));
  DeviceTensor index(ACL_UINT8, {16, 8});
  ExpectRejection(RejectionCase{"empty_x",
                                [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                                  return aclnnSparse4to2QuantMatmulWeightNzGetWorkspaceSize(
                                      args.Tensor(x), args.Tensor(weight), args.Tensor(index), args.Tensor(xScale),
                                      args.Tensor(weightScale), nullptr, args.Tensor(out), workspaceSize, executor);
                                },
                                aclnnSparse4to2QuantMatmulWeightNz, "empty", ACLNN_ERR_PARAM_INVALID});
}

}  // namespace
}  // namespace canopy_test
