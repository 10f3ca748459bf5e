// TurboQuantCompressLatent through the public C API against a float64 reference: random latents in plain,
// stepped and transposed views with CANN's example centroids and random ascending ones, an out view of its
// own, NaN and infinite tokens as CANN documents them, empty latents and the rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_turbo_quant_compress_latent.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr int64_t kHeadDim = 512, kSlot = 320, kCentroids = 16;

// The nibbles (as their possible values: a value within rounding of a midpoint may land on either side)
// and the norm of one token, in float64.
struct TokenRef {
  std::vector<std::pair<int, int>> nibbles;  // [lowest, highest] accepted
  double norm = 0;
};

TokenRef Reference(const Values& z, const Values& centroids, int64_t token) {
  TokenRef ref;
  double squares = 0;
  for (int64_t d = 0; d < kHeadDim; ++d) squares += std::pow(z[token * kHeadDim + d].real(), 2);
  ref.norm = std::sqrt(squares + 1e-16);
  for (int64_t d = 0; d < kHeadDim; ++d) {
    const double u = z[token * kHeadDim + d].real() / ref.norm;
    int low = 0, high = 0;
    for (int64_t b = 0; b + 1 < kCentroids; ++b) {
      const double bound = (centroids[b].real() + centroids[b + 1].real()) / 2;
      const double slack = 1e-6 * std::max(1.0, std::abs(bound));
      low += u >= bound + slack ? 1 : 0;
      high += u >= bound - slack ? 1 : 0;
    }
    ref.nibbles.emplace_back(low, high);
  }
  return ref;
}

// A FLOAT16 bit pattern's value.
double FloatOfHalfBits(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
  const double sign = (bits & 0x8000) != 0 ? -1 : 1;
  if (exponent == 0x1F) return mantissa != 0 ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// The norm's two bytes after the nibbles of token `t`.
uint16_t NormBits(const Values& slots, int64_t t) {
  const auto low = static_cast<int>(slots[t * kSlot + kHeadDim / 2].real());
  const auto high = static_cast<int>(slots[t * kSlot + kHeadDim / 2 + 1].real());
  return static_cast<uint16_t>(low | (high << 8));
}

struct Case {
  std::string name;
  int64_t tokens = 3;
  View view = View::kContiguous;
  View outView = View::kContiguous;
  bool randomCentroids = false;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// A symmetric codebook: the 16 Lloyd-Max levels of a unit Gaussian scaled by 1 / sqrt(512), the spread of a
// rotated unit-norm latent's values.
Values ExampleCentroids() {
  const double levels[] = {-2.7326, -2.0690, -1.6180, -1.2562, -0.9423, -0.6568, -0.3881, -0.1284,
                           0.1284,  0.3881,  0.6568,  0.9423,  1.2562,  1.6180,  2.0690,  2.7326};
  Values c;
  for (double v : levels) c.push_back(ConvertValue(v / std::sqrt(512.0), ACL_FLOAT));
  return c;
}

class TurboQuantTest : public ::testing::TestWithParam<Case> {};

TEST_P(TurboQuantTest, MatchesFloat64Reference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor latent(ACL_FLOAT, {c.tokens, kHeadDim}, c.view), centroids(ACL_FLOAT, {kCentroids});
  const Values z = latent.FillRandom(rng, Range{-3, 3});
  Values cs = ExampleCentroids();
  if (c.randomCentroids) {
    cs = centroids.FillRandom(rng, Range{-0.2, 0.2});
    std::vector<double> sorted;
    for (const Value& v : cs) sorted.push_back(v.real());
    std::sort(sorted.begin(), sorted.end());
    cs.assign(sorted.begin(), sorted.end());
  }
  centroids.WriteView(cs);
  DeviceTensor out(ACL_UINT8, {c.tokens, kSlot}, c.outView);
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnTurboQuantCompressLatentGetWorkspaceSize(a.Tensor(latent), a.Tensor(centroids), a.Tensor(out), ws,
                                                             e);
      },
      aclnnTurboQuantCompressLatent);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values got = out.ReadView();
  for (int64_t t = 0; t < c.tokens; ++t) {
    const TokenRef ref = Reference(z, cs, t);
    for (int64_t d = 0; d < kHeadDim; ++d) {
      const auto byte = static_cast<int>(got[t * kSlot + d / 2].real());
      const int nibble = d % 2 == 0 ? byte & 0xF : byte >> 4;
      const auto [low, high] = ref.nibbles[static_cast<size_t>(d)];
      ASSERT_TRUE(nibble >= low && nibble <= high) << "token " << t << " dim " << d << ": " << nibble;
    }
    EXPECT_EQ(FloatOfHalfBits(NormBits(got, t)), ConvertValue(ref.norm, ACL_FLOAT16).real()) << "token " << t;
    for (int64_t k = kHeadDim / 2 + 2; k < kSlot; ++k) EXPECT_EQ(got[t * kSlot + k].real(), 0) << "pad byte " << k;
  }
  ExpectExact(latent.ReadView(), z, "latent must not change");
}

INSTANTIATE_TEST_SUITE_P(Cases, TurboQuantTest,
                         ::testing::Values(Case{"plain"}, Case{"stepped_latent", 4, View::kStepped},
                                           Case{"transposed_latent_offset_out", 5, View::kTransposed, View::kOffset},
                                           Case{"random_centroids", 2, View::kContiguous, View::kStepped, true},
                                           Case{"many_tokens", 67}),
                         [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// CANN's documented special values: a token with NaN has every index 0 and a NaN norm; one with an infinity
// has index 0 there, 8 elsewhere (symmetric centroids) and an infinite norm. An empty latent writes nothing.
TEST(TurboQuantCompressLatent, NonFiniteTokensAndEmpty) {
  DeviceTensor latent(ACL_FLOAT, {2, kHeadDim}), centroids(ACL_FLOAT, {kCentroids}), out(ACL_UINT8, {2, kSlot});
  Values z(2 * kHeadDim, 0.5);
  z[3] = std::numeric_limits<double>::quiet_NaN();
  z[kHeadDim + 7] = std::numeric_limits<double>::infinity();
  latent.WriteView(z);
  centroids.WriteView(ExampleCentroids());
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnTurboQuantCompressLatentGetWorkspaceSize(a.Tensor(latent), a.Tensor(centroids), a.Tensor(out), ws,
                                                             e);
      },
      aclnnTurboQuantCompressLatent);
  const Values got = out.ReadView();
  for (int64_t k = 0; k < kHeadDim / 2; ++k) EXPECT_EQ(got[k].real(), 0) << "NaN token byte " << k;
  EXPECT_TRUE(std::isnan(FloatOfHalfBits(NormBits(got, 0))));
  for (int64_t k = 0; k < kHeadDim / 2; ++k) {
    EXPECT_EQ(got[kSlot + k].real(), k == 3 ? 0x08 : 0x88) << "infinite token byte " << k;
  }
  EXPECT_TRUE(std::isinf(FloatOfHalfBits(NormBits(got, 1))));
  DeviceTensor empty(ACL_FLOAT, {0, kHeadDim}), emptyOut(ACL_UINT8, {0, kSlot});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
        return aclnnTurboQuantCompressLatentGetWorkspaceSize(a.Tensor(empty), a.Tensor(centroids), a.Tensor(emptyOut),
                                                             ws, e);
      },
      aclnnTurboQuantCompressLatent);
}

std::vector<RejectionCase> Rejections() {
  struct Bad {
    const char* name;
    aclDataType latent, centroids, out;
    Shape latentShape, centroidsShape, outShape;
    aclnnStatus status;
    const char* keyword;
  };
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const aclDataType f32 = ACL_FLOAT, u8 = ACL_UINT8;
  const Bad cases[] = {
      {"f16_latent", ACL_FLOAT16, f32, u8, {2, 512}, {16}, {2, 320}, kInvalid, "latent"},
      {"bf16_centroids", f32, ACL_BF16, u8, {2, 512}, {16}, {2, 320}, kInvalid, "centroids"},
      {"int8_out", f32, f32, ACL_INT8, {2, 512}, {16}, {2, 320}, kInvalid, "out"},
      {"rank3_latent", f32, f32, u8, {1, 2, 512}, {16}, {2, 320}, kTiling, "latent"},
      {"head_dim_256", f32, f32, u8, {2, 256}, {16}, {2, 192}, kTiling, "headDim"},
      {"15_centroids", f32, f32, u8, {2, 512}, {15}, {2, 320}, kTiling, "centroids"},
      {"out_shape", f32, f32, u8, {2, 512}, {16}, {2, 256}, kTiling, "out"},
  };
  std::vector<RejectionCase> rejections;
  for (const Bad& b : cases) {
    rejections.push_back({b.name,
                          [b](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
                            return aclnnTurboQuantCompressLatentGetWorkspaceSize(
                                a.NewTensor(b.latent, b.latentShape), a.NewTensor(b.centroids, b.centroidsShape),
                                a.NewTensor(b.out, b.outShape), w, e);
                          },
                          aclnnTurboQuantCompressLatent, b.keyword, b.status});
  }
  return rejections;
}

class TurboQuantRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(TurboQuantRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, TurboQuantRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
