// aclnnQuantMatmulAllReduce, V2 and V3 on the ranks of an HcclCommInitAll
// communicator: every rank's output against a float64 reference of the sum
// over ranks of each rank's dequantised INT8 product (rounded to the output
// dtype, x3 added and rounded again, as the NPU writes its part before the
// sum), for 1, 2 and 4 ranks; each dequantScale dtype the A2 path takes
// (UINT64 / INT64 as TransQuantParamV2 packs an f32, FLOAT, BFLOAT16), per
// tensor and per channel ([n], [1, n]), V2's per-token scale, INT32 bias, x3,
// 3-D x1, transposed and FRACTAL_NZ x2, a strided output; CANN's rejections
// with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_quant_matmul_all_reduce.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v2.h"
#include "aclnnop/aclnn_quant_matmul_all_reduce_v3.h"
#include "llm_test_support.h"
#include "mc2_ranks.h"

namespace canopy_test {
namespace {

enum class Version { kV1, kV2, kV3 };

struct Case {
  std::string name;
  Version version = Version::kV1;
  uint32_t ranks = 2;
  aclDataType out = ACL_FLOAT16;
  aclDataType scale = ACL_UINT64;
  Shape scale_shape = {};  // empty: [n]
  Shape x1 = {5, 16};
  int64_t n = 7;
  bool bias = false, x3 = false, pertoken = false, nz = false;
  bool comm_quant = false;  // V3's commQuantScale1 / commQuantScale2
  View x2_view = View::kContiguous;
  View out_view = View::kContiguous;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

struct RankData {
  std::unique_ptr<DeviceTensor> x1, x2, bias, x3, scale, pertoken, comm1, comm2, out;
  Values x1v, x2v, biasv, x3v, scalev, pertokenv;  // scalev: the f32 each scale word holds
  Values comm1v, comm2v;
};

RankData MakeData(const Case& c, Rng& rng) {
  RankData d;
  const int64_t k = c.x1.back();
  Shape out_shape = c.x1;
  out_shape.back() = c.n;
  const int64_t m = NumElements(out_shape) / c.n;
  d.x1 = std::make_unique<DeviceTensor>(ACL_INT8, c.x1);
  d.x1v = d.x1->FillRandom(rng, Range{-128, 127});
  d.x2 = std::make_unique<DeviceTensor>(ACL_INT8, Shape{k, c.n}, c.x2_view);
  d.x2v = d.x2->FillRandom(rng, Range{-128, 127});
  if (c.bias) {
    d.bias = std::make_unique<DeviceTensor>(ACL_INT32, Shape{c.n});
    d.biasv = d.bias->FillRandom(rng, Range{-5000, 5000});
  }
  const Shape scale_shape = c.scale_shape.empty() ? Shape{c.n} : c.scale_shape;
  d.scale = std::make_unique<DeviceTensor>(c.scale, scale_shape);
  if (c.scale == ACL_UINT64 || c.scale == ACL_INT64) {
    Values words;
    for (int64_t j = 0; j < NumElements(scale_shape); ++j) {
      d.scalev.push_back(Fp19(rng.Uniform(1e-5, 1e-4)));
      words.push_back(PackedScaleWord(d.scalev.back().real()));
    }
    d.scale->WriteView(words);
  } else {
    d.scalev = d.scale->FillRandom(rng, Range{1e-5, 1e-4});
  }
  if (c.pertoken) {
    d.pertoken = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{m});
    d.pertokenv = d.pertoken->FillRandom(rng, Range{0.5, 2});
  }
  if (c.x3) {
    d.x3 = std::make_unique<DeviceTensor>(c.out, out_shape);
    d.x3v = d.x3->FillRandom(rng, Range{-1, 1});
  }
  d.out = std::make_unique<DeviceTensor>(c.out, out_shape, c.out_view);
  d.out->Poison();
  return d;
}

// V3's INT8 communication: a rank's INT8 piece of `part` (part / scale1 in
// f32, to f16, to INT8 half to even, saturated), and the sum of the pieces
// requantised (times scale1 / scale2 in f32, to f16, to INT8).
double SaturatedRint(double v) { return std::clamp(std::nearbyint(v), -128.0, 127.0); }
double CommPiece(double part, double scale1) {
  const float q = static_cast<float>(part) / static_cast<float>(scale1);
  return SaturatedRint(Rounded(q, ACL_FLOAT16).real());
}
double CommRequantised(double pieces, double scale1, double scale2) {
  const float ratio = static_cast<float>(scale1) / static_cast<float>(scale2);
  return SaturatedRint(Rounded(static_cast<float>(pieces) * ratio, ACL_FLOAT16).real());
}

Expected Reference(const Case& c, const std::vector<RankData>& data) {
  const int64_t k = c.x1.back();
  const int64_t m = NumElements(c.x1) / k;
  // Each rank's dequantised product, exact.
  std::vector<std::vector<double>> parts;
  for (const RankData& d : data) {
    std::vector<double> part = Product(d.x1v, d.x2v, c.bias ? &d.biasv : nullptr, m, k, c.n);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        double scale = d.scalev[d.scalev.size() == 1 ? 0 : static_cast<size_t>(j)].real();
        if (c.pertoken) scale *= d.pertokenv[static_cast<size_t>(i)].real();
        part[static_cast<size_t>(i * c.n + j)] *= scale;
      }
    }
    parts.push_back(std::move(part));
  }
  std::vector<const Values*> x3;
  for (const RankData& d : data) x3.push_back(c.x3 ? &d.x3v : nullptr);
  if (!c.comm_quant) return SumOfRoundedParts(parts, x3, c.out);
  // The INT8 communication: each rank's rounded part (x3 added) quantised by scale1, the pieces summed and
  // requantised, then dequantised by scale2.
  const double u = UnitRoundoff(c.out);
  Expected want;
  for (int64_t e = 0; e < m * c.n; ++e) {
    const auto j = static_cast<size_t>(e % c.n);
    const double s1 = data[0].comm1v[j].real(), s2 = data[0].comm2v[j].real();
    double pieces = 0;
    for (size_t r = 0; r < data.size(); ++r) {
      double part = Rounded(parts[r][static_cast<size_t>(e)], c.out).real();
      if (c.x3) part = Rounded(part + data[r].x3v[static_cast<size_t>(e)].real(), c.out).real();
      pieces += CommPiece(part, s1);
    }
    // One INT8 step of scale2 where the f32 dequantisation puts a part a rounding away from ours.
    const Value out = Rounded(CommRequantised(pieces, s1, s2) * s2, c.out);
    want.values.push_back(out);
    want.tolerance.push_back(1.01 * s2 + 4 * u * std::abs(out.real()));
  }
  return want;
}

aclnnStatus Phase1(const Case& c, const RankData& d, const char* group, OpArgs& args, uint64_t* size,
                   aclOpExecutor** executor) {
  aclTensor* x1 = args.Tensor(*d.x1);
  aclTensor* x2 = args.Tensor(*d.x2, c.nz ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND);
  aclTensor* bias = d.bias ? args.Tensor(*d.bias) : nullptr;
  aclTensor* x3 = d.x3 ? args.Tensor(*d.x3) : nullptr;
  aclTensor* scale = args.Tensor(*d.scale);
  aclTensor* pertoken = d.pertoken ? args.Tensor(*d.pertoken) : nullptr;
  aclTensor* out = args.Tensor(*d.out);
  switch (c.version) {
    case Version::kV1:
      return aclnnQuantMatmulAllReduceGetWorkspaceSize(x1, x2, bias, x3, scale, group, "sum", 0, 1, out, size,
                                                       executor);
    case Version::kV2:
      return aclnnQuantMatmulAllReduceV2GetWorkspaceSize(x1, x2, bias, x3, scale, pertoken, group, "sum", 0, 1, out,
                                                         size, executor);
    case Version::kV3:
      break;
  }
  aclTensor* comm1 = d.comm1 ? args.Tensor(*d.comm1) : nullptr;
  aclTensor* comm2 = d.comm2 ? args.Tensor(*d.comm2) : nullptr;
  return aclnnQuantMatmulAllReduceV3GetWorkspaceSize(x1, x2, bias, x3, scale, pertoken, comm1, comm2, group, "sum", 0,
                                                     1, out, size, executor);
}

Phase2 Phase2Of(Version v) {
  return v == Version::kV1   ? aclnnQuantMatmulAllReduce
         : v == Version::kV2 ? aclnnQuantMatmulAllReduceV2
                             : aclnnQuantMatmulAllReduceV3;
}

class QuantMatmulAllReduceTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantMatmulAllReduceTest, EveryRankGetsTheSumOfTheRanksDequantisedProducts) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const Ranks ranks(c.ranks);
  std::vector<RankData> data = OnEachRank(ranks, [&](uint32_t) { return MakeData(c, rng); });
  if (c.comm_quant) {
    // The communication scales, [n] or [1, n] as dequantScale, the same on every rank.
    const Shape shape = c.scale_shape.size() == 2 ? Shape{1, c.n} : Shape{c.n};
    Values s1, s2;
    for (int64_t j = 0; j < c.n; ++j) {
      s1.push_back(rng.Uniform(0.02, 0.04));
      s2.push_back(s1.back().real() * c.ranks * rng.Uniform(0.8, 1.2));
    }
    for (uint32_t r = 0; r < c.ranks; ++r) {
      ranks.OnDevice(r);
      RankData& d = data[r];
      d.comm1 = std::make_unique<DeviceTensor>(c.out, shape);
      d.comm2 = std::make_unique<DeviceTensor>(c.out, shape);
      d.comm1->WriteView(s1);
      d.comm2->WriteView(s2);
      d.comm1v = d.comm1->ReadView();
      d.comm2v = d.comm2->ReadView();
    }
  }
  const auto runs =
      ranks.Run([&](uint32_t r, OpArgs& args, uint64_t* size,
                    aclOpExecutor** executor) { return Phase1(c, data[r], ranks.group(), args, size, executor); },
                Phase2Of(c.version));
  ExpectEveryRankGets(
      runs, [&](uint32_t r) { return data[r].out->ReadView(); }, Reference(c, data));
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // The A2 combinations: f16 out with a packed scale (or FLOAT, which CANN's
  // host code lets through), or FLOAT with a per-token scale; bf16 out with a
  // BFLOAT16 scale, with or without one.
  struct Combo {
    const char* name;
    aclDataType out, scale;
    bool pertoken;
  };
  const Combo combos[] = {
      {"f16_u64", ACL_FLOAT16, ACL_UINT64, false}, {"f16_i64", ACL_FLOAT16, ACL_INT64, false},
      {"f16_f32", ACL_FLOAT16, ACL_FLOAT, false},  {"f16_f32_pertoken", ACL_FLOAT16, ACL_FLOAT, true},
      {"bf16_bf16", ACL_BF16, ACL_BF16, false},    {"bf16_bf16_pertoken", ACL_BF16, ACL_BF16, true}};
  for (const Combo& k : combos) {
    const Version v = k.pertoken ? Version::kV2 : Version::kV1;
    for (const uint32_t ranks : {1u, 2u, 4u}) {
      const std::string p = std::string(k.name) + "_" + std::to_string(ranks) + "ranks";
      cases.push_back(
          {.name = p, .version = v, .ranks = ranks, .out = k.out, .scale = k.scale, .pertoken = k.pertoken});
    }
    cases.push_back({.name = std::string(k.name) + "_bias_x3",
                     .version = v,
                     .out = k.out,
                     .scale = k.scale,
                     .bias = true,
                     .x3 = true,
                     .pertoken = k.pertoken});
    cases.push_back({.name = std::string(k.name) + "_v3_3d_transposed_x2_bias",
                     .version = Version::kV3,
                     .ranks = 4,
                     .out = k.out,
                     .scale = k.scale,
                     .x1 = {2, 3, 32},
                     .n = 9,
                     .bias = true,
                     .pertoken = k.pertoken,
                     .x2_view = View::kTransposed});
    cases.push_back({.name = std::string(k.name) + "_per_tensor_nz",
                     .version = v,
                     .out = k.out,
                     .scale = k.scale,
                     .scale_shape = {1},
                     .pertoken = k.pertoken,
                     .nz = true});
    cases.push_back({.name = std::string(k.name) + "_row_scale_strided_out_x3",
                     .version = Version::kV2,
                     .out = k.out,
                     .scale = k.scale,
                     .scale_shape = {1, 7},
                     .x3 = true,
                     .pertoken = k.pertoken,
                     .out_view = View::kStepped});
    // V3's INT8 communication, x3 added before it.
    for (const uint32_t ranks : {1u, 2u, 4u}) {
      cases.push_back({.name = std::string(k.name) + "_v3_comm_int8_" + std::to_string(ranks) + "ranks",
                       .version = Version::kV3,
                       .ranks = ranks,
                       .out = k.out,
                       .scale = k.scale,
                       .scale_shape = ranks == 2 ? Shape{1, 7} : Shape{},
                       .bias = true,
                       .x3 = ranks == 4,
                       .pertoken = k.pertoken,
                       .comm_quant = true,
                       .out_view = ranks == 2 ? View::kStepped : View::kContiguous});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Ranks, QuantMatmulAllReduceTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- rejections -----------------------------------------------------------------------------------

struct Bad {
  std::string name;
  aclnnStatus expected;
  std::string keyword;
  Version version = Version::kV3;
  aclDataType x1 = ACL_INT8, x2 = ACL_INT8, bias = ACL_INT32, x3 = ACL_BF16, scale = ACL_BF16, pertoken = ACL_FLOAT,
              out = ACL_BF16, comm1 = ACL_BF16, comm2 = ACL_BF16;
  Shape x1_shape{4, 8}, x2_shape{8, 3}, bias_shape{3}, x3_shape{4, 3}, scale_shape{3}, pertoken_shape{4},
      out_shape{4, 3}, comm1_shape{3}, comm2_shape{3};
  bool with_bias = true, with_x3 = true, with_pertoken = true, with_comm1 = false, with_comm2 = false;
  bool null_x1 = false, null_scale = false;
  const char* reduce_op = "sum";
  int64_t comm_turn = 0, stream_mode = 1;
  const char* group = nullptr;  // the communicator's own name
};

void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class QuantMatmulAllReduceRejectionTest : public ::testing::TestWithParam<Bad> {};

TEST_P(QuantMatmulAllReduceRejectionTest, IsRejectedWithCannsCode) {
  const Bad& b = GetParam();
  const Ranks ranks(2);
  const char* group = b.group != nullptr ? b.group : ranks.group();
  const auto phase1 = [&](OpArgs& args, uint64_t* size, aclOpExecutor** executor) {
    aclTensor* const x1 = b.null_x1 ? nullptr : args.NewTensor(b.x1, b.x1_shape);
    aclTensor* const x2 = args.NewTensor(b.x2, b.x2_shape);
    aclTensor* const bias = b.with_bias ? args.NewTensor(b.bias, b.bias_shape) : nullptr;
    aclTensor* const x3 = b.with_x3 ? args.NewTensor(b.x3, b.x3_shape) : nullptr;
    aclTensor* const scale = b.null_scale ? nullptr : args.NewTensor(b.scale, b.scale_shape);
    aclTensor* const out = args.NewTensor(b.out, b.out_shape);
    if (b.version == Version::kV1) {
      return aclnnQuantMatmulAllReduceGetWorkspaceSize(x1, x2, bias, x3, scale, group, b.reduce_op, b.comm_turn,
                                                       b.stream_mode, out, size, executor);
    }
    aclTensor* const pertoken = b.with_pertoken ? args.NewTensor(b.pertoken, b.pertoken_shape) : nullptr;
    if (b.version == Version::kV2) {
      return aclnnQuantMatmulAllReduceV2GetWorkspaceSize(x1, x2, bias, x3, scale, pertoken, group, b.reduce_op,
                                                         b.comm_turn, b.stream_mode, out, size, executor);
    }
    aclTensor* const comm1 = b.with_comm1 ? args.NewTensor(b.comm1, b.comm1_shape) : nullptr;
    aclTensor* const comm2 = b.with_comm2 ? args.NewTensor(b.comm2, b.comm2_shape) : nullptr;
    return aclnnQuantMatmulAllReduceV3GetWorkspaceSize(x1, x2, bias, x3, scale, pertoken, comm1, comm2, group,
                                                       b.reduce_op, b.comm_turn, b.stream_mode, out, size, executor);
  };
  ExpectRejectedWith(Phase1Only(phase1), b.expected, {b.keyword});
}

std::vector<Bad> BadCases() {
  constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR, kInvalid = ACLNN_ERR_PARAM_INVALID,
                        kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  return {
      {.name = "null_x1", .expected = kNull, .keyword = "x1", .null_x1 = true},
      {.name = "null_dequant_scale_v1",
       .expected = kNull,
       .keyword = "dequantScale",
       .version = Version::kV1,
       .null_scale = true},
      {.name = "x1_f16", .expected = kInvalid, .keyword = "x1", .x1 = ACL_FLOAT16},
      {.name = "x2_int4", .expected = kInvalid, .keyword = "x2", .x2 = ACL_INT4},
      {.name = "scale_f16", .expected = kInvalid, .keyword = "dequantScale", .scale = ACL_FLOAT16},
      {.name = "output_f32", .expected = kInvalid, .keyword = "output", .out = ACL_FLOAT},
      {.name = "bias_f16", .expected = kInvalid, .keyword = "bias", .bias = ACL_FLOAT16},
      {.name = "x3_other_half", .expected = kInvalid, .keyword = "x3", .x3 = ACL_FLOAT16},
      {.name = "bf16_out_f32_scale", .expected = kInvalid, .keyword = "dequantScale", .scale = ACL_FLOAT},
      {.name = "f16_out_bf16_scale",
       .expected = kInvalid,
       .keyword = "dequantScale",
       .x3 = ACL_FLOAT16,
       .out = ACL_FLOAT16,
       .with_pertoken = false},
      {.name = "pertoken_bf16", .expected = kInvalid, .keyword = "pertokenScale", .pertoken = ACL_BF16},
      {.name = "f16_out_pertoken_u64_scale",
       .expected = kInvalid,
       .keyword = "dequantScale",
       .x3 = ACL_FLOAT16,
       .scale = ACL_UINT64,
       .out = ACL_FLOAT16},
      {.name = "comm_scale_f16",
       .expected = kInvalid,
       .keyword = "commQuantScale1",
       .comm1 = ACL_FLOAT16,
       .with_comm1 = true,
       .with_comm2 = true},
      {.name = "reduce_op_max", .expected = kInvalid, .keyword = "reduceOp", .reduce_op = "max"},
      {.name = "stream_mode_0", .expected = kInvalid, .keyword = "streamMode", .stream_mode = 0},
      {.name = "x1_4d", .expected = kInvalid, .keyword = "x1", .x1_shape = {1, 1, 4, 8}, .out_shape = {1, 1, 4, 3}},
      {.name = "x2_3d", .expected = kInvalid, .keyword = "x2", .x2_shape = {1, 8, 3}},
      {.name = "k_differs", .expected = kInvalid, .keyword = "x2", .x2_shape = {7, 3}},
      {.name = "output_shape", .expected = kInvalid, .keyword = "output", .out_shape = {4, 4}},
      {.name = "bias_length", .expected = kInvalid, .keyword = "bias", .bias_shape = {4}},
      {.name = "x3_shape", .expected = kInvalid, .keyword = "x3", .x3_shape = {1, 3}},
      {.name = "scale_length", .expected = kInvalid, .keyword = "dequantScale", .scale_shape = {2}},
      {.name = "scale_2x3", .expected = kInvalid, .keyword = "dequantScale", .scale_shape = {2, 3}},
      {.name = "pertoken_length", .expected = kInvalid, .keyword = "pertokenScale", .pertoken_shape = {3}},
      {.name = "one_comm_scale", .expected = kInvalid, .keyword = "commQuantScale", .with_comm1 = true},
      {.name = "comm_scales_ranks_differ",
       .expected = kInvalid,
       .keyword = "commQuantScale",
       .comm1_shape = {1, 3},
       .with_comm1 = true,
       .with_comm2 = true},
      {.name = "comm_scale2_length",
       .expected = kInvalid,
       .keyword = "commQuantScale2",
       .comm2_shape = {4},
       .with_comm1 = true,
       .with_comm2 = true},
      {.name = "comm_scale1_length_in_tiling",
       .expected = kTiling,
       .keyword = "commQuantScale1",
       .comm1_shape = {4},
       .with_comm1 = true,
       .with_comm2 = true},
      {.name = "comm_turn_1", .expected = kTiling, .keyword = "commTurn", .comm_turn = 1},
      {.name = "unknown_group", .expected = kTiling, .keyword = "group", .group = "no_such_group"},
      {.name = "empty_output",
       .expected = kTiling,
       .keyword = "empty",
       .x1_shape = {0, 8},
       .x3_shape = {0, 3},
       .pertoken_shape = {0},
       .out_shape = {0, 3}},
      {.name = "k_0", .expected = kTiling, .keyword = "k is 0", .x1_shape = {4, 0}, .x2_shape = {0, 3}},
  };
}

INSTANTIATE_TEST_SUITE_P(Cann, QuantMatmulAllReduceRejectionTest, ::testing::ValuesIn(BadCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
