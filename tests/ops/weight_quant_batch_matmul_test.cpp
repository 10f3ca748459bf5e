// aclnnWeightQuantBatchMatmul (the first form) against float64: for m <= 64 the weight is
// (x2 + deqOffset) * deqScale (UINT64 words holding an f32), for m > 64 CANN's chain of FLOAT16 steps
// ((x2 + antiquantOffset) * antiquantScale + addOffset) * mulScale; then x1 @ w + bias in FLOAT16.
// Transposes, vector shapes, a strided out, empty m and k, and the rejections with CANN's codes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_weight_quant_batch_matmul.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct WqbmmCase {
  std::string name;
  int64_t m = 5, k = 40, n = 24;
  bool t1 = false, t2 = false;
  Shape offsetShape = {24}, scaleShape = {24};  // deqOffset / deqScale, or addOffset / mulScale ({}: null)
  bool bias = true;
  float antiquantScale = 0.5f, antiquantOffset = -3.0f;
  View outView = View::kContiguous;
};

void PrintTo(const WqbmmCase& c, std::ostream* os) { *os << c.name; }

// A UINT64 word holding the f32 `scale` in its low 32 bits (aclnnTransQuantParam's encoding).
double ScaleWord(float scale) {
  uint32_t bits = 0;
  std::memcpy(&bits, &scale, sizeof bits);
  return static_cast<double>(uint64_t{bits} | (uint64_t{1} << 46));
}

// Column j's value of a dequantisation vector: one for all, or one per n ([n], [1, n], or [n, 1] against a
// transposed x2 [n, k]).
double VectorAt(const Values& v, int64_t j) { return v[v.size() == 1 ? 0 : static_cast<size_t>(j)].real(); }

void RunWqbmm(const WqbmmCase& c) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const bool fixpipe = c.m <= 64;
  DeviceTensor x1(ACL_FLOAT16, c.t1 ? Shape{c.k, c.m} : Shape{c.m, c.k});
  DeviceTensor x2(ACL_INT8, c.t2 ? Shape{c.n, c.k} : Shape{c.k, c.n});
  const Values v1 = x1.FillRandom(rng, Range{-1, 1});
  const Values v2 = x2.FillRandom(rng, Range{-128, 127});
  DeviceTensor diag(ACL_INT8, {32, 32});
  Values eye(32 * 32, 0.0);
  for (size_t i = 0; i < 32; ++i) eye[i * 33] = 1.0;
  diag.WriteView(eye);
  std::unique_ptr<DeviceTensor> offset, scale, bias;
  Values offsets, scales, biases;
  if (!c.offsetShape.empty()) {
    offset = std::make_unique<DeviceTensor>(fixpipe ? ACL_INT32 : ACL_FLOAT16, c.offsetShape);
    offsets = offset->FillRandom(rng, fixpipe ? Range{-20, 20} : Range{-2, 2});
  }
  if (!c.scaleShape.empty()) {
    scale = std::make_unique<DeviceTensor>(fixpipe ? ACL_UINT64 : ACL_FLOAT16, c.scaleShape);
    if (fixpipe) {
      Values words;
      for (int64_t i = 0; i < NumElements(c.scaleShape); ++i) {
        const auto f = static_cast<float>(rng.Uniform(1e-3, 1e-2));
        scales.push_back(Value(static_cast<double>(f)));
        words.push_back(ScaleWord(f));
      }
      scale->WriteView(words);
    } else {
      scales = scale->FillRandom(rng, Range{0.01, 0.1});
    }
  }
  if (c.bias) {
    bias = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{c.n});
    biases = bias->FillRandom(rng, Range{-1, 1});
  }
  DeviceTensor out(ACL_FLOAT16, {c.m, c.n}, c.outView);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensor* off = offset ? a.Tensor(*offset) : nullptr;
        aclTensor* sc = scale ? a.Tensor(*scale) : nullptr;
        return aclnnWeightQuantBatchMatmulGetWorkspaceSize(
            a.Tensor(x1), a.Tensor(x2), fixpipe ? a.Tensor(diag) : nullptr, fixpipe ? off : nullptr,
            fixpipe ? sc : nullptr, fixpipe ? nullptr : off, fixpipe ? nullptr : sc, bias ? a.Tensor(*bias) : nullptr,
            c.t1, c.t2, c.antiquantScale, c.antiquantOffset, a.Tensor(out), w, e);
      },
      aclnnWeightQuantBatchMatmul);
  ASSERT_TRUE(run.ok()) << Describe(run);

  const auto half = [](double v) { return ConvertValue(Value(v), ACL_FLOAT16).real(); };
  std::vector<double> weight(static_cast<size_t>(c.k * c.n));
  for (int64_t kk = 0; kk < c.k; ++kk) {
    for (int64_t j = 0; j < c.n; ++j) {
      const double q = v2[static_cast<size_t>(c.t2 ? j * c.k + kk : kk * c.n + j)].real();
      double w = 0;
      if (fixpipe) {
        w = half((q + VectorAt(offsets, j)) * VectorAt(scales, j));
      } else {
        w = half((q + c.antiquantOffset) * c.antiquantScale);
        if (offset) w = half(w + VectorAt(offsets, j));
        if (scale) w = half(w * VectorAt(scales, j));
      }
      weight[static_cast<size_t>(kk * c.n + j)] = w;
    }
  }
  Values want;
  std::vector<double> magnitude;
  for (int64_t i = 0; i < c.m; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      double sum = 0, mag = 0;
      for (int64_t kk = 0; kk < c.k; ++kk) {
        const double a = v1[static_cast<size_t>(c.t1 ? kk * c.m + i : i * c.k + kk)].real();
        sum += a * weight[static_cast<size_t>(kk * c.n + j)];
        mag += std::fabs(a * weight[static_cast<size_t>(kk * c.n + j)]);
      }
      if (bias) {
        const double b = fixpipe ? biases[static_cast<size_t>(j)].real() : half(biases[static_cast<size_t>(j)].real());
        sum += b;
        mag += std::fabs(b);
      }
      want.push_back(Value(sum));
      magnitude.push_back(mag);
    }
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, ACL_FLOAT16, 2, magnitude), "out");
}

std::vector<WqbmmCase> WqbmmCases() {
  std::vector<WqbmmCase> cases;
  for (int64_t m : {5, 64, 70, 130}) {
    for (bool t2 : {false, true}) {
      WqbmmCase c;
      c.m = m;
      c.t2 = t2;
      if (t2 && m > 64) c.offsetShape = c.scaleShape = {24, 1};  // a 1-D vector must be [1] then
      c.name = "m" + std::to_string(m) + (t2 ? "_transpose_x2" : "");
      cases.push_back(c);
    }
  }
  WqbmmCase c;
  c.name = "fixpipe_scalar_vectors_transpose_x1";
  c.t1 = true;
  c.offsetShape = {1, 1};
  c.scaleShape = {1};
  c.bias = false;
  cases.push_back(c);
  c = WqbmmCase{};
  c.name = "fixpipe_row_vectors_strided_out";
  c.offsetShape = {1, 24};
  c.scaleShape = {1, 24};
  c.outView = View::kTransposed;
  cases.push_back(c);
  c = WqbmmCase{};
  c.m = 80;
  c.name = "antiquant_no_add_mul_default_attributes";
  c.offsetShape = {};
  c.scaleShape = {};
  c.antiquantScale = 1.0f;
  c.antiquantOffset = 0.0f;
  cases.push_back(c);
  c.name = "antiquant_row_vectors_transpose_x1_strided_out";
  c.t1 = true;
  c.offsetShape = {1, 24};
  c.scaleShape = {1};
  c.antiquantScale = 0.25f;
  c.outView = View::kTransposed;
  cases.push_back(c);
  c = WqbmmCase{};
  c.m = 80;
  c.t2 = true;
  c.name = "antiquant_column_vectors_transposed_x2";
  c.offsetShape = {24, 1};
  c.scaleShape = {24, 1};
  cases.push_back(c);
  c = WqbmmCase{};
  c.m = 0;
  c.name = "empty_m";
  cases.push_back(c);
  c = WqbmmCase{};
  c.k = 0;
  c.name = "empty_k_bias";
  cases.push_back(c);
  return cases;
}

class WeightQuantBatchMatmulTest : public ::testing::TestWithParam<WqbmmCase> {};
TEST_P(WeightQuantBatchMatmulTest, MatchesReference) { RunWqbmm(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, WeightQuantBatchMatmulTest, ::testing::ValuesIn(WqbmmCases()),
                         [](const ::testing::TestParamInfo<WqbmmCase>& info) { return SanitizeName(info.param.name); });

struct WqbmmCall {
  int64_t m = 4;
  aclDataType x1 = ACL_FLOAT16, x2 = ACL_INT8, offset = ACL_INT32, scale = ACL_UINT64, bias = ACL_FLOAT,
              out = ACL_FLOAT16;
  Shape x2Shape = {8, 6}, vectorShape = {6}, diagShape = {32, 32}, biasShape = {6};
  bool diag = true, x1Rank3 = false;
};

OpRun RunWqbmmCall(const WqbmmCall& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        const bool fixpipe = c.m <= 64;
        aclTensor* off = a.NewTensor(c.offset, c.vectorShape);
        aclTensor* sc = a.NewTensor(c.scale, c.vectorShape);
        return aclnnWeightQuantBatchMatmulGetWorkspaceSize(
            a.NewTensor(c.x1, c.x1Rank3 ? Shape{1, c.m, 8} : Shape{c.m, 8}), a.NewTensor(c.x2, c.x2Shape),
            c.diag ? a.NewTensor(ACL_INT8, c.diagShape) : nullptr, fixpipe ? off : nullptr, fixpipe ? sc : nullptr,
            fixpipe ? nullptr : off, fixpipe ? nullptr : sc, a.NewTensor(c.bias, c.biasShape), false, false, 1.0f, 0.0f,
            a.NewTensor(c.out, {c.m, 6}), w, e);
      },
      aclnnWeightQuantBatchMatmul);
}

TEST(WeightQuantBatchMatmulRejects, WithCannCodes) {
  const auto with = [](auto edit) {
    WqbmmCall c;
    edit(c);
    return RunWqbmmCall(c);
  };
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  EXPECT_TRUE(RunWqbmmCall(WqbmmCall{}).ok()) << Describe(RunWqbmmCall(WqbmmCall{}));
  ExpectRejectedWith(with([](WqbmmCall& c) { c.diag = false; }), ACLNN_ERR_PARAM_NULLPTR, {"'diagonalMatrix'"});
  EXPECT_TRUE(with([](WqbmmCall& c) {
                c.m = 65;
                c.diag = false;
                c.offset = c.scale = ACL_FLOAT16;
              }).ok());
  ExpectRejectedWith(with([](WqbmmCall& c) { c.x1 = ACL_BF16; }), kInvalid, {"'x1'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.x2 = ACL_INT4; }), kInvalid, {"'x2'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.bias = ACL_FLOAT16; }), kInvalid, {"'bias'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.offset = ACL_FLOAT16; }), kInvalid, {"'deqOffset'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.scale = ACL_FLOAT; }), kInvalid, {"'deqScale'"});
  ExpectRejectedWith(with([](WqbmmCall& c) {
                       c.m = 65;
                       c.offset = c.scale = ACL_FLOAT;
                     }),
                     kInvalid, {"'addOffset'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.out = ACL_INT8; }), kInvalid, {"'out'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.vectorShape = {5}; }), kInvalid, {"'deqOffset'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.diagShape = {16, 16}; }), kInvalid, {"'diagonalMatrix'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.biasShape = {5}; }), kInvalid, {"'bias'"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.x2Shape = {7, 6}; }), kInvalid, {"k"});
  ExpectRejectedWith(with([](WqbmmCall& c) { c.x1Rank3 = true; }), kInvalid, {"'x1'", "rank"});
}

}  // namespace
}  // namespace canopy_test
