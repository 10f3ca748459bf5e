// aclnnQuantMatmulV5's Atlas A2 modes beyond the INT8 product, against float64 on fresh
// random data:
// * A8W4: INT8 x1, INT32 x2 (eight INT4 values a word, low nibble first), UINT64 / INT64
//   x2Scale words (TransQuantParamV2's), per channel or per group of 256 along K (K-G),
//   out = (sum over groups of ((x1 - 8) @ x2_g) * x2Scale_g + yOffset) * x1Scale, with
//   the doc's program shapes, decode m = 1, the fused and the dense path, a transposed x2
//   (per channel), strided x1 and out views, and the doc's prescribed yOffset
//   (8 * sum x2 * x2Scale) giving x1 @ (x2 * x2Scale) * x1Scale;
// * G-B: INT8 x1 [m, k] and x2 [n, k], x1Scale [m, k / 128], x2Scale [n / 128, k / 128],
//   FLOAT bias, BFLOAT16 out, groupSize given or inferred, x2 given as a transposed view;
// * K-G A4W4: INT4 (or INT32-packed) x1 and x2, FLOAT x1Scale [m, 1], FLOAT x2Scale and
//   FLOAT16 x2Offset [k / 256, n]: out = x1Scale * sum over groups of
//   (x1_g @ (x2_g - x2Offset_g)) * x2Scale_g;
// and every rejection of the three modes with its code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>

#include "aclnnop/aclnn_quant_matmul_v5.h"
#include "llm_test_support.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr int64_t kGroup = 256;
constexpr int64_t kBlock = 128;
constexpr int64_t kPerBlockGroupSize = (int64_t{1} << 32) | (kBlock << 16) | kBlock;  // [1, 128, 128]

// Random INT4 values [rows, 8 * words] and their INT32 words [rows, words], value 8c + q in
// bits 4q..4q+3 of word c.
struct PackedInt4 {
  std::vector<int> values;
  Values words;
};
PackedInt4 RandomWords(Rng& rng, int64_t rows, int64_t words) {
  PackedInt4 p;
  p.values.resize(static_cast<size_t>(rows * words * 8));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < words; ++c) {
      uint32_t word = 0;
      for (int q = 0; q < 8; ++q) {
        const int v = static_cast<int>(std::lround(rng.Uniform(-8.49, 7.49)));
        p.values[static_cast<size_t>((r * words + c) * 8 + q)] = v;
        word |= (static_cast<uint32_t>(v) & 0xFu) << (4 * q);
      }
      p.words.push_back(static_cast<double>(static_cast<int32_t>(word)));
    }
  }
  return p;
}

// ---------------------------------------------------------------- A8W4

struct A8W4Case {
  std::string name;
  int64_t m = 4, k = 512, n = 32;
  bool per_group = true;
  bool t2 = false;  // per channel only: x2 [n, k / 8]
  aclDataType out = ACL_BF16, scale = ACL_UINT64;
  View x1_view = View::kContiguous, out_view = View::kContiguous;
  bool prescribed_offset = false;  // yOffset = 8 * sum over k of x2 * x2Scale
};
void PrintTo(const A8W4Case& c, std::ostream* os) { *os << c.name; }

class QuantMatmulV5A8W4 : public ::testing::TestWithParam<A8W4Case> {};

TEST_P(QuantMatmulV5A8W4, MatchesFloat64) {
  const A8W4Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = c.m, k = c.k, n = c.n, groups = c.per_group ? k / kGroup : 1;
  DeviceTensor x1(ACL_INT8, {m, k}, c.x1_view);
  const Values v1 = x1.FillRandom(rng, Range{-128, 127});
  const Shape x2_shape = c.t2 ? Shape{n, k / 8} : Shape{k, n / 8};
  DeviceTensor x2(ACL_INT32, x2_shape);
  const PackedInt4 w = RandomWords(rng, x2_shape[0], x2_shape[1]);
  x2.WriteView(w.words);
  const auto weight = [&](int64_t l, int64_t j) {
    return static_cast<double>(w.values[static_cast<size_t>(c.t2 ? j * k + l : l * n + j)]);
  };
  DeviceTensor x1_scale(ACL_FLOAT, c.per_group ? Shape{m, 1} : Shape{m});
  const Values v1s = x1_scale.FillRandom(rng, Range{0.5, 2});
  DeviceTensor x2_scale(c.scale, c.per_group ? Shape{groups, n} : Shape{n});
  Values words, s2;
  for (int64_t i = 0; i < groups * n; ++i) {
    const double scale = Fp19(rng.Uniform(1e-3, 1e-2));  // what TransQuantParamV2 keeps
    words.push_back(PackedScaleWord(scale));
    s2.push_back(scale);
  }
  x2_scale.WriteView(words);
  const auto scale_of = [&](int64_t l, int64_t j) {
    return s2[static_cast<size_t>((l / (k / groups)) * n + j)].real();
  };
  DeviceTensor y_offset(ACL_FLOAT, {n});
  Values vy;
  if (c.prescribed_offset) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) sum += 8 * weight(l, j) * scale_of(l, j);
      vy.push_back(static_cast<double>(static_cast<float>(sum)));
    }
    y_offset.WriteView(vy);
  } else {
    vy = y_offset.FillRandom(rng, Range{-4, 4});
  }
  DeviceTensor out(c.out, {m, n}, c.out_view);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnQuantMatmulV5GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(x1_scale), a.Tensor(x2_scale),
                                                  nullptr, nullptr, nullptr, a.Tensor(y_offset), nullptr, false, c.t2,
                                                  c.per_group ? kGroup : 0, a.Tensor(out), ws, e);
      },
      aclnnQuantMatmulV5);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want;
  std::vector<double> magnitude;
  for (int64_t i = 0; i < m; ++i) {
    const double token = v1s[static_cast<size_t>(i)].real();
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, size = 0;
      for (int64_t l = 0; l < k; ++l) {
        const double x = v1[static_cast<size_t>(i * k + l)].real();
        // The kernel's x1 - 8; with the prescribed yOffset the 8 comes back: x1 @ (x2 * x2Scale).
        const double term = (x - 8) * weight(l, j) * scale_of(l, j);
        sum += term;
        size += std::abs(term);
      }
      const double bias = vy[static_cast<size_t>(j)].real();
      want.push_back((sum + bias) * token);
      magnitude.push_back((size + std::abs(bias)) * token);
    }
  }
  if (c.prescribed_offset) {  // the doc's formula, x1 @ (x2 * x2Scale) * x1Scale, within f32 rounding of yOffset
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double direct = 0;
        for (int64_t l = 0; l < k; ++l)
          direct += v1[static_cast<size_t>(i * k + l)].real() * weight(l, j) * scale_of(l, j);
        const size_t at = static_cast<size_t>(i * n + j);
        EXPECT_NEAR(want[at].real(), direct * v1s[static_cast<size_t>(i)].real(), 1e-5 * magnitude[at]);
      }
    }
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, c.out, 2, magnitude), "out");
}

std::vector<A8W4Case> A8W4Cases() {
  std::vector<A8W4Case> cases;
  const auto add = [&](A8W4Case c) { cases.push_back(std::move(c)); };
  // The doc's A2 program (#4): x1 [1, 8192], x2 [8192, 128] words, x2Scale [32, 1024], FLOAT16 out.
  add({.name = "doc_program_shapes", .m = 1, .k = 8192, .n = 1024, .out = ACL_FLOAT16});
  add({.name = "k_g_decode_bf16", .m = 1, .k = 512, .n = 64});
  add({.name = "k_g_fused_rows", .m = 5, .k = 768, .n = 40, .out = ACL_FLOAT16, .scale = ACL_INT64});
  add({.name = "k_g_dense_rows", .m = 21, .k = 512, .n = 48});
  add({.name = "k_g_strided_x1_and_out",
       .m = 6,
       .k = 256,
       .n = 16,
       .x1_view = View::kStepped,
       .out_view = View::kStepped});
  add({.name = "k_g_prescribed_y_offset", .m = 3, .k = 512, .n = 24, .prescribed_offset = true});
  add({.name = "k_c_decode", .m = 1, .k = 10, .n = 16, .per_group = false});
  add({.name = "k_c_rows_f16", .m = 7, .k = 70, .n = 8, .per_group = false, .out = ACL_FLOAT16});
  add({.name = "k_c_dense_rows", .m = 18, .k = 96, .n = 24, .per_group = false, .scale = ACL_INT64});
  add({.name = "k_c_transposed_x2", .m = 3, .k = 48, .n = 20, .per_group = false, .t2 = true});
  add({.name = "k_c_transposed_x2_dense",
       .m = 19,
       .k = 64,
       .n = 12,
       .per_group = false,
       .t2 = true,
       .out = ACL_FLOAT16});
  add({.name = "k_c_strided_out", .m = 4, .k = 16, .n = 8, .per_group = false, .out_view = View::kTransposed});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(Cases, QuantMatmulV5A8W4, ::testing::ValuesIn(A8W4Cases()),
                         [](const auto& info) { return info.param.name; });

// One A8W4 call with random tensors; each field can be changed to break it.
struct A8W4Call {
  Shape x1 = {4, 512}, x2 = {512, 4}, x1_scale = {4, 1}, x2_scale = {2, 32}, y_offset = {32}, out = {4, 32};
  aclDataType x2_dtype = ACL_INT32, x1_scale_dtype = ACL_FLOAT, x2_scale_dtype = ACL_UINT64, y_offset_dtype = ACL_FLOAT,
              out_dtype = ACL_BF16;
  aclFormat x2_format = ACL_FORMAT_ND;
  bool x1_scale_null = false, y_offset_null = false, t1 = false, t2 = false;
  Shape x1_offset, x2_offset, y_scale, bias;  // absent when empty... a shape {0} means an empty tensor
  bool has_x1_offset = false, has_x2_offset = false, has_y_scale = false, has_bias = false;
  int64_t group_size = kGroup;
};
template <typename Edit>
A8W4Call A8W4With(Edit edit) {
  A8W4Call c;
  edit(c);
  return c;
}
OpRun RunA8W4(const A8W4Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        const auto optional = [&](bool has, aclDataType dtype, const Shape& shape) {
          return has ? a.NewTensor(dtype, shape) : nullptr;
        };
        return aclnnQuantMatmulV5GetWorkspaceSize(
            a.NewTensor(ACL_INT8, c.x1), a.NewTensor(c.x2_dtype, c.x2, View::kContiguous, c.x2_format),
            c.x1_scale_null ? nullptr : a.NewTensorIn(Range{0.5, 2}, c.x1_scale_dtype, c.x1_scale),
            a.NewTensor(c.x2_scale_dtype, c.x2_scale), optional(c.has_y_scale, ACL_UINT64, c.y_scale),
            optional(c.has_x1_offset, ACL_FLOAT, c.x1_offset), optional(c.has_x2_offset, ACL_FLOAT, c.x2_offset),
            c.y_offset_null ? nullptr : a.NewTensor(c.y_offset_dtype, c.y_offset),
            optional(c.has_bias, ACL_FLOAT, c.bias), c.t1, c.t2, c.group_size, a.NewTensor(c.out_dtype, c.out), w, e);
      },
      aclnnQuantMatmulV5);
}

TEST(QuantMatmulV5A8W4Rejects, EachCase) {
  const OpRun valid = RunA8W4(A8W4Call{});
  EXPECT_TRUE(valid.ok()) << Describe(valid);
  const OpRun per_channel = RunA8W4(A8W4With([](A8W4Call& c) {
    c.x1_scale = {4};
    c.x2_scale = {32};
    c.group_size = 0;
  }));
  EXPECT_TRUE(per_channel.ok()) << Describe(per_channel);
  // An empty x1Offset and yScale are taken (CANN checks yScale only in the other modes, then finds it null).
  EXPECT_TRUE(RunA8W4(A8W4With([](A8W4Call& c) {
                c.has_x1_offset = true;
                c.x1_offset = {0};
              })).ok());

  // CheckInputExistence (161001)
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.has_x1_offset = true;
                       c.x1_offset = {2};
                     })),
                     kNull, {"'x1Offset'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.has_x2_offset = true;
                       c.x2_offset = {0};
                     })),
                     kNull, {"'x2Offset'"});
  // attributes
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.t1 = true; })), kInvalid, {"transposeX1"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.group_size = 0; })), kInvalid, {"groupSize"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.group_size = 128; })), kInvalid, {"groupSize"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.group_size = kPerBlockGroupSize; })), kInvalid,
                     {"groupSize"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1_scale = {4};
                       c.x2_scale = {32};
                     })),
                     kInvalid, {"groupSize"});
  // ranks
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1 = {1, 4, 512};
                       c.out = {1, 4, 32};
                     })),
                     kInvalid, {"'x1'", "rank"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.has_bias = true;
                       c.bias = {32};
                     })),
                     kInvalid, {"'bias'", "rank"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x2_scale = {1, 2, 32}; })), kInvalid, {"'x2Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x1_scale = {4}; })), kInvalid, {"x1Scale", "rank"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.has_y_scale = true;
                       c.y_scale = {32};
                     })),
                     kInvalid, {"'yScale'", "rank"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.y_offset = {1, 32}; })), kInvalid, {"'yOffset'", "rank"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.out = {1, 4, 32}; })), kInvalid, {"'out'", "rank"});
  // CheckDtypeA8W4Int
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x1_scale_null = true; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x1_scale = {0, 1}; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x2_scale = {0, 32}; })), kInvalid, {"'x2Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.has_bias = true;
                       c.bias = {1, 32};
                     })),
                     kInvalid, {"bias"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.has_y_scale = true;
                       c.y_scale = {1, 32};
                     })),
                     kInvalid, {"yScale"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.y_offset_null = true; })), kInvalid, {"'yOffset'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.y_offset = {0}; })), kInvalid, {"'yOffset'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x1_scale_dtype = ACL_BF16; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x2_scale_dtype = ACL_FLOAT; })), kInvalid, {"'x2Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.y_offset_dtype = ACL_FLOAT16; })), kInvalid, {"'yOffset'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.out_dtype = ACL_FLOAT; })), kInvalid, {"'out'"});
  // formats
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x2_format = ACL_FORMAT_FRACTAL_NZ; })), kInvalid,
                     {"'x2'", "ND"});
  // shapes
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1 = {0, 512};
                       c.x1_scale = {0, 1};
                       c.out = {0, 32};
                     })),
                     kInvalid, {"'x1Scale'"});  // CheckDtypeA8W4Int finds the empty x1Scale first
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1 = {0, 512};
                       c.x1_scale = {1, 1};
                       c.out = {0, 32};
                     })),
                     kInvalid, {"m is 0"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1 = {4, 29696};
                       c.x2 = {29696, 4};
                       c.x2_scale = {116, 32};
                     })),
                     kInvalid, {"k is 29696"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x2 = {768, 4}; })), kInvalid, {"differ"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1 = {4, 384};
                       c.x2 = {384, 4};
                     })),
                     kInvalid, {"multiple of 256"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1 = {4, 7};
                       c.x2 = {7, 4};
                       c.x1_scale = {4};
                       c.x2_scale = {32};
                       c.group_size = 0;
                     })),
                     kInvalid, {"multiple of 2"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x1_scale = {4, 2}; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.x2_scale = {2, 31}; })), kInvalid, {"'x2Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x1_scale = {4};
                       c.x2_scale = {33};
                       c.group_size = 0;
                     })),
                     kInvalid, {"'x2Scale'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.y_offset = {31}; })), kInvalid, {"'yOffset'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) { c.out = {4, 31}; })), kInvalid, {"'out'"});
  // the tiling: the per-group kernel reads x2 as [k, n / 8] only
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.t2 = true;
                       c.x2 = {32, 64};
                     })),
                     kTiling, {"transposeX2"});
  // An INT4 x2 with INT8 x1: CANN's host code refuses a yOffset (161001), then requires one (161002).
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x2_dtype = ACL_INT4;
                       c.x2 = {512, 32};
                     })),
                     kNull, {"'yOffset'"});
  ExpectRejectedWith(RunA8W4(A8W4With([](A8W4Call& c) {
                       c.x2_dtype = ACL_INT4;
                       c.x2 = {512, 32};
                       c.y_offset_null = true;
                     })),
                     kInvalid, {"INT4"});
}

// ---------------------------------------------------------------- G-B

struct BlockCase {
  std::string name;
  int64_t m = 3, k = 512, n = 256;
  int64_t group_size = kPerBlockGroupSize;
  View x1_view = View::kContiguous, out_view = View::kContiguous;
  bool x2_as_kn_view = false;  // x2 given as the [k, n] transposed view of its [n, k] storage, transposeX2 false
};
void PrintTo(const BlockCase& c, std::ostream* os) { *os << c.name; }

class QuantMatmulV5PerBlock : public ::testing::TestWithParam<BlockCase> {};

TEST_P(QuantMatmulV5PerBlock, MatchesFloat64) {
  const BlockCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = c.m, k = c.k, n = c.n, bk = k / kBlock, bn = n / kBlock;
  DeviceTensor x1(ACL_INT8, {m, k}, c.x1_view);
  const Values v1 = x1.FillRandom(rng, Range{-128, 127});
  DeviceTensor x2(ACL_INT8, c.x2_as_kn_view ? Shape{k, n} : Shape{n, k},
                  c.x2_as_kn_view ? View::kTransposed : View::kContiguous);
  const Values v2 = x2.FillRandom(rng, Range{-128, 127});
  const auto weight = [&](int64_t j, int64_t l) {
    return v2[static_cast<size_t>(c.x2_as_kn_view ? l * n + j : j * k + l)].real();
  };
  DeviceTensor x1_scale(ACL_FLOAT, {m, bk});
  const Values s1 = x1_scale.FillRandom(rng, Range{1e-3, 1e-2});
  DeviceTensor x2_scale(ACL_FLOAT, {bn, bk});
  const Values s2 = x2_scale.FillRandom(rng, Range{1e-3, 1e-2});
  DeviceTensor bias(ACL_FLOAT, {n});
  const Values vb = bias.FillRandom(rng, Range{-2, 2});
  DeviceTensor out(ACL_BF16, {m, n}, c.out_view);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantMatmulV5GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(x1_scale), a.Tensor(x2_scale),
                                                  nullptr, nullptr, nullptr, nullptr, a.Tensor(bias), false,
                                                  !c.x2_as_kn_view, c.group_size, a.Tensor(out), w, e);
      },
      aclnnQuantMatmulV5);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want;
  std::vector<double> magnitude;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = vb[static_cast<size_t>(j)].real(), size = std::abs(sum);
      for (int64_t b = 0; b < bk; ++b) {
        int64_t block = 0, block_size = 0;
        for (int64_t l = b * kBlock; l < (b + 1) * kBlock; ++l) {
          const auto p = static_cast<int64_t>(v1[static_cast<size_t>(i * k + l)].real() * weight(j, l));
          block += p;
          block_size += std::abs(p);
        }
        const double scale =
            s1[static_cast<size_t>(i * bk + b)].real() * s2[static_cast<size_t>((j / kBlock) * bk + b)].real();
        sum += static_cast<double>(block) * scale;
        size += static_cast<double>(block_size) * scale;
      }
      want.push_back(sum);
      magnitude.push_back(size);
    }
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, ACL_BF16, 2, magnitude), "out");
}

std::vector<BlockCase> BlockCases() {
  return {
      {.name = "given_group_size"},
      {.name = "inferred_group_size", .m = 5, .k = 1024, .n = 512, .group_size = 0},
      {.name = "inferred_m_only", .m = 2, .k = 512, .n = 256, .group_size = (kBlock << 16) | kBlock},
      {.name = "decode", .m = 1, .k = 1024, .n = 768},
      {.name = "many_rows", .m = 37, .k = 512, .n = 256},
      {.name = "high_bits_ignored", .m = 2, .group_size = kPerBlockGroupSize | (int64_t{0x7FFF} << 48)},
      {.name = "strided_x1_and_out", .m = 4, .x1_view = View::kStepped, .out_view = View::kStepped},
      {.name = "x2_transposed_view", .m = 3, .x2_as_kn_view = true},
  };
}
INSTANTIATE_TEST_SUITE_P(Cases, QuantMatmulV5PerBlock, ::testing::ValuesIn(BlockCases()),
                         [](const auto& info) { return info.param.name; });

struct BlockCall {
  Shape x1 = {2, 512}, x2 = {256, 512}, x1_scale = {2, 4}, x2_scale = {2, 4}, bias = {256}, out = {2, 256};
  aclDataType x1_scale_dtype = ACL_FLOAT, x2_scale_dtype = ACL_FLOAT, bias_dtype = ACL_FLOAT, out_dtype = ACL_BF16;
  aclFormat x2_format = ACL_FORMAT_ND;
  bool has_bias = true, t1 = false, t2 = true;
  int64_t group_size = kPerBlockGroupSize;
};
template <typename Edit>
BlockCall BlockWith(Edit edit) {
  BlockCall c;
  edit(c);
  return c;
}
OpRun RunBlock(const BlockCall& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantMatmulV5GetWorkspaceSize(
            a.NewTensor(ACL_INT8, c.x1), a.NewTensor(ACL_INT8, c.x2, View::kContiguous, c.x2_format),
            a.NewTensor(c.x1_scale_dtype, c.x1_scale), a.NewTensor(c.x2_scale_dtype, c.x2_scale), nullptr, nullptr,
            nullptr, nullptr, c.has_bias ? a.NewTensor(c.bias_dtype, c.bias) : nullptr, c.t1, c.t2, c.group_size,
            a.NewTensor(c.out_dtype, c.out), w, e);
      },
      aclnnQuantMatmulV5);
}

TEST(QuantMatmulV5PerBlockRejects, EachCase) {
  const OpRun valid = RunBlock(BlockCall{});
  EXPECT_TRUE(valid.ok()) << Describe(valid);
  // CheckDimRange, then InferGroupSize
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x1 = {512}; })), kInvalid, {"'x1'", "rank"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.out = {512}; })), kInvalid, {"'out'", "rank"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x1 = {0, 512};
                       c.x1_scale = {0, 4};
                       c.out = {0, 256};
                     })),
                     kInvalid, {"m dimension is 0"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x1_scale = {2, 3};
                       c.group_size = 0;
                     })),
                     kInvalid, {"cannot be inferred"});
  // dtypes
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x1_scale_dtype = ACL_BF16; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x2_scale_dtype = ACL_FLOAT16; })), kInvalid,
                     {"'x2Scale'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.bias_dtype = ACL_FLOAT16; })), kInvalid, {"'bias'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.out_dtype = ACL_FLOAT; })), kInvalid, {"'out'"});
  // a BFLOAT16 x2Scale is no per-block scale: x1Scale must then be 1-D
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x2_scale_dtype = ACL_BF16; })), kInvalid, {"per-block"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x1_scale = {1, 2, 4};
                       c.group_size = 0;
                     })),
                     kInvalid, {"per-block"});
  // shapes
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x2 = {256, 1024}; })), kInvalid, {"differ"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x1_scale = {2, 5}; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x1_scale = {1, 4}; })), kInvalid, {"'x1Scale'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x2_scale = {3, 4}; })), kInvalid, {"'x2Scale'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.bias = {128}; })), kInvalid, {"'bias'"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.out = {2, 128}; })), kInvalid, {"'out'"});
  // the tiling (561002)
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.has_bias = false; })), kTiling, {"bias"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.group_size = (int64_t{1} << 32) | (128 << 16) | 256; })),
                     kTiling, {"groupSizeK"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.t2 = false;
                       c.x2 = {512, 256};
                       c.x2_scale = {4, 2};
                     })),
                     kTiling, {"transposeX2"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.t1 = true;
                       c.x1 = {512, 2};
                       c.x1_scale = {4, 2};
                     })),
                     kTiling, {"transposeX1"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.bias_dtype = ACL_BF16; })), kTiling, {"FLOAT bias"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.out_dtype = ACL_FLOAT16;
                       c.bias_dtype = ACL_FLOAT;
                     })),
                     kTiling, {"BFLOAT16"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x1 = {1, 2, 512};
                       c.x1_scale = {1, 2, 4};
                       c.out = {1, 2, 256};
                       c.x2 = {256, 512};
                     })),
                     kTiling, {"2-D"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x2 = {128, 512};
                       c.x2_scale = {1, 4};
                       c.bias = {128};
                       c.out = {2, 128};
                     })),
                     kTiling, {"n is 128"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x1 = {2, 256};
                       c.x2 = {256, 256};
                       c.x1_scale = {2, 2};
                       c.x2_scale = {2, 2};
                     })),
                     kTiling, {"k is 256"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) { c.x2_format = ACL_FORMAT_FRACTAL_NZ; })), kTiling, {"ND"});
  ExpectRejectedWith(RunBlock(BlockWith([](BlockCall& c) {
                       c.x1 = {4, 512};
                       c.x1_scale = {2, 4};
                       c.out = {4, 256};
                       c.group_size = (int64_t{2} << 32) | (128 << 16) | 128;
                     })),
                     kTiling, {"rows"});
}

// ---------------------------------------------------------------- K-G A4W4

// An INT4 matrix [rows, cols] in device memory, row-major (two values a byte, the even one in the low nibble),
// or INT32 words of eight.
struct Int4Matrix {
  int64_t rows = 0, cols = 0;
  bool words = false;
  std::vector<int> values;  // [rows][cols]
  std::unique_ptr<DeviceBuffer> buffer;

  aclTensor* Create() const {
    const int64_t width = words ? cols / 8 : cols;
    const int64_t dims[2] = {rows, width};
    const int64_t strides[2] = {width, 1};
    const int64_t storage = rows * width;
    return aclCreateTensor(dims, 2, words ? ACL_INT32 : ACL_INT4, strides, 0, ACL_FORMAT_ND, &storage, 1,
                           buffer->get());
  }
};
Int4Matrix RandomInt4Matrix(Rng& rng, int64_t rows, int64_t cols, bool words) {
  Int4Matrix t{rows, cols, words, {}, nullptr};
  std::vector<uint8_t> bytes(static_cast<size_t>(rows * cols / 2));
  for (int64_t i = 0; i < rows * cols; ++i) {
    const int v = static_cast<int>(std::lround(rng.Uniform(-8.49, 7.49)));
    t.values.push_back(v);
    uint8_t& b = bytes[static_cast<size_t>(i / 2)];
    b = i % 2 == 0 ? static_cast<uint8_t>((b & 0xF0) | (v & 0x0F))
                   : static_cast<uint8_t>((b & 0x0F) | ((v & 0x0F) << 4));
  }
  t.buffer = std::make_unique<DeviceBuffer>(bytes.size());
  EXPECT_EQ(aclrtMemcpy(t.buffer->get(), bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  return t;
}

struct A4W4Case {
  std::string name;
  int64_t m = 3, k = 1024, n = 256;
  bool x1_words = false, x2_words = false;
  bool t2 = true;  // the doc's x2 [n, k]; false: [k, n]
  aclDataType out = ACL_BF16;
  View out_view = View::kContiguous;
};
void PrintTo(const A4W4Case& c, std::ostream* os) { *os << c.name; }

class QuantMatmulV5A4W4 : public ::testing::TestWithParam<A4W4Case> {};

TEST_P(QuantMatmulV5A4W4, MatchesFloat64) {
  const A4W4Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t m = c.m, k = c.k, n = c.n, groups = k / kGroup;
  const Int4Matrix x1 = RandomInt4Matrix(rng, m, k, c.x1_words);
  const Int4Matrix x2 = c.t2 ? RandomInt4Matrix(rng, n, k, c.x2_words) : RandomInt4Matrix(rng, k, n, c.x2_words);
  const auto weight = [&](int64_t l, int64_t j) {
    return static_cast<double>(x2.values[static_cast<size_t>(c.t2 ? j * k + l : l * n + j)]);
  };
  DeviceTensor x1_scale(ACL_FLOAT, {m, 1});
  const Values s1 = x1_scale.FillRandom(rng, Range{0.5, 2});
  DeviceTensor x2_scale(ACL_FLOAT, {groups, n});
  const Values s2 = x2_scale.FillRandom(rng, Range{1e-3, 1e-2});
  DeviceTensor x2_offset(ACL_FLOAT16, {groups, n});
  const Values off = x2_offset.FillRandom(rng, Range{-8, 8});
  DeviceTensor out(c.out, {m, n}, c.out_view);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclTensor* t1 = x1.Create();
        aclTensor* t2 = x2.Create();
        const aclnnStatus status = aclnnQuantMatmulV5GetWorkspaceSize(
            t1, t2, a.Tensor(x1_scale), a.Tensor(x2_scale), nullptr, nullptr, a.Tensor(x2_offset), nullptr, nullptr,
            false, c.t2, kGroup, a.Tensor(out), w, e);
        aclDestroyTensor(t1);
        aclDestroyTensor(t2);
        return status;
      },
      aclnnQuantMatmulV5);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Values want;
  std::vector<double> magnitude;
  for (int64_t i = 0; i < m; ++i) {
    const double token = s1[static_cast<size_t>(i)].real();
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, size = 0;
      for (int64_t l = 0; l < k; ++l) {
        const size_t g = static_cast<size_t>((l / kGroup) * n + j);
        const double term = x1.values[static_cast<size_t>(i * k + l)] * (weight(l, j) - off[g].real()) * s2[g].real();
        sum += term;
        size += std::abs(term);
      }
      want.push_back(sum * token);
      magnitude.push_back(size * token);
    }
  }
  ExpectNear(out.ReadView(), RelativeTolerance(want, c.out, 2, magnitude), "out");
}

INSTANTIATE_TEST_SUITE_P(Cases, QuantMatmulV5A4W4,
                         ::testing::Values(A4W4Case{.name = "doc_layout_bf16"},
                                           A4W4Case{.name = "decode_f16", .m = 1, .k = 2048, .out = ACL_FLOAT16},
                                           A4W4Case{.name = "dense_rows", .m = 20, .n = 512},
                                           A4W4Case{.name = "int32_words", .m = 4, .x1_words = true, .x2_words = true},
                                           A4W4Case{.name = "x2_k_by_n", .m = 2, .x2_words = true, .t2 = false},
                                           A4W4Case{.name = "strided_out", .m = 3, .out_view = View::kStepped}),
                         [](const auto& info) { return info.param.name; });

struct A4W4Call {
  Shape x1 = {2, 1024}, x2 = {256, 1024}, x1_scale = {2, 1}, x2_scale = {4, 256}, x2_offset = {4, 256}, out = {2, 256};
  aclDataType x1_scale_dtype = ACL_FLOAT, x2_scale_dtype = ACL_FLOAT, x2_offset_dtype = ACL_FLOAT16,
              out_dtype = ACL_BF16;
  bool has_offset = true, has_bias = false, t1 = false, t2 = true;
  int64_t group_size = kGroup;
};
OpRun RunA4W4(const A4W4Call& c) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnQuantMatmulV5GetWorkspaceSize(a.NewTensor(ACL_INT4, c.x1), a.NewTensor(ACL_INT4, c.x2),
                                                  a.NewTensor(c.x1_scale_dtype, c.x1_scale),
                                                  a.NewTensor(c.x2_scale_dtype, c.x2_scale), nullptr, nullptr,
                                                  c.has_offset ? a.NewTensor(c.x2_offset_dtype, c.x2_offset) : nullptr,
                                                  nullptr, c.has_bias ? a.NewTensor(ACL_INT32, {256}) : nullptr, c.t1,
                                                  c.t2, c.group_size, a.NewTensor(c.out_dtype, c.out), w, e);
      },
      aclnnQuantMatmulV5);
}
template <typename Edit>
A4W4Call A4W4With(Edit edit) {
  A4W4Call c;
  edit(c);
  return c;
}

TEST(QuantMatmulV5A4W4Rejects, EachCase) {
  const OpRun valid = RunA4W4(A4W4Call{});
  EXPECT_TRUE(valid.ok()) << Describe(valid);
  // InferGroupSize
  ExpectRejectedWith(RunA4W4(A4W4With([](A4W4Call& c) {
                       c.x1 = {0, 1024};
                       c.x1_scale = {0, 1};
                       c.out = {0, 256};
                     })),
                     kInvalid, {"m dimension is 0"});
  // not the mode: 161002 whatever is off
  for (const auto& edit : std::vector<std::function<void(A4W4Call&)>>{
           [](A4W4Call& c) { c.has_offset = false; },
           [](A4W4Call& c) { c.has_bias = true; },
           [](A4W4Call& c) { c.x2_offset_dtype = ACL_FLOAT; },
           [](A4W4Call& c) { c.x2_scale_dtype = ACL_BF16; },
           [](A4W4Call& c) { c.x1_scale_dtype = ACL_FLOAT16; },
           [](A4W4Call& c) {
             c.x1_scale = {2, 2};
           },
           [](A4W4Call& c) {
             c.x2_scale = {8, 256};
           },
           [](A4W4Call& c) {
             c.x2_offset = {4, 128};
           },
           [](A4W4Call& c) { c.group_size = 0; },  // inferred from x1Scale [m, 1] as k, which x2Scale does not fit
           [](A4W4Call& c) {
             c.x1 = {2, 512};
             c.x2 = {256, 512};
             c.x2_scale = {2, 256};
             c.x2_offset = {2, 256};
           },
           [](A4W4Call& c) {
             c.x2 = {128, 1024};
             c.x2_scale = {4, 128};
             c.x2_offset = {4, 128};
             c.out = {2, 128};
           },
       }) {
    A4W4Call c;
    edit(c);
    ExpectRejectedWith(RunA4W4(c), kInvalid, {"K-G A4W4"});
  }
  ExpectRejectedWith(RunA4W4(A4W4With([](A4W4Call& c) { c.out_dtype = ACL_FLOAT; })), kInvalid, {"'out'"});
  ExpectRejectedWith(RunA4W4(A4W4With([](A4W4Call& c) {
                       c.t1 = true;
                       c.x1 = {1024, 2};
                     })),
                     kInvalid, {"transposeX1"});
  ExpectRejectedWith(RunA4W4(A4W4With([](A4W4Call& c) { c.x1 = {2, 2048}; })), kInvalid, {"differ"});
  ExpectRejectedWith(RunA4W4(A4W4With([](A4W4Call& c) { c.out = {2, 255}; })), kInvalid, {"'out'"});
  // the tiling: groupSizeK 512 fits the host checks (x2Scale [k / 512, n]) but not the kernel
  ExpectRejectedWith(RunA4W4(A4W4With([](A4W4Call& c) {
                       c.group_size = 512;
                       c.x2_scale = {2, 256};
                       c.x2_offset = {2, 256};
                     })),
                     kTiling, {"groupSizeK"});
}

}  // namespace
}  // namespace canopy_test
