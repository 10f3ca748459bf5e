// TransQuantParamV3 through the public API: roundMode 0 gives V2's words;
// roundMode 1 rounds the scale to FP19 (10 mantissa bits) to nearest with
// ties to even, checked against frexp / nearbyint in float64 on random
// scales of many magnitudes and signs, ties both ways, a carry into the
// exponent and a subnormal (flushed); offsets as V2; the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_trans_quant_param_v3.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

uint64_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// The nearest FP19 (ties to even) of a normal float, by its mantissa.
uint64_t Fp19Word(float scale) {
  int exponent = 0;
  const double m = std::frexp(static_cast<double>(scale), &exponent);  // |m| in [0.5, 1)
  const auto rounded = static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(m, 11)), exponent - 11));
  return (Bits(rounded) & 0xFFFFE000u) | (uint64_t{1} << 46);
}

Values RunV3(const Values& scales, int64_t roundMode, aclDataType outDtype = ACL_UINT64) {
  const auto n = static_cast<int64_t>(scales.size());
  const auto scale = Upload(ACL_FLOAT, {n}, scales);
  DeviceTensor out(outDtype, {n});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTransQuantParamV3GetWorkspaceSize(a.Tensor(*scale), nullptr, roundMode, a.Tensor(out), w, e);
      },
      aclnnTransQuantParamV3);
  // Read the words' bits back (UINT64 values above 2^53 do not survive Values).
  const std::vector<uint8_t> bytes = out.DownloadBytes();
  Values words;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i * 8, sizeof w);
    words.emplace_back(static_cast<double>(w & 0xFFFFFFFFull), static_cast<double>(w >> 32));
  }
  return words;
}

Value Split(uint64_t w) { return {static_cast<double>(w & 0xFFFFFFFFull), static_cast<double>(w >> 32)}; }

TEST(TransQuantParamV3, RoundModeOneRoundsToNearestFp19) {
  Rng rng = Rng::ForCurrentTest();
  std::vector<float> scales = {1.0F + std::ldexp(1.0F, -11),      // a tie, the even neighbour below
                               1.0F + 3 * std::ldexp(1.0F, -11),  // a tie, the even neighbour above
                               std::nextafter(2.0F, 0.0F),        // rounds up into the next exponent
                               0.0F,
                               -3.25F,
                               1e-30F,
                               7.5e20F};
  for (int i = 0; i < 200; ++i) {
    const double magnitude = std::pow(10.0, rng.Uniform(-20, 20));
    scales.push_back(static_cast<float>((i % 2 == 0 ? 1 : -1) * magnitude * rng.Uniform(1, 10)));
  }
  Values input, want;
  for (float s : scales) {
    input.emplace_back(s);
    want.push_back(Split(s == 0.0F ? (uint64_t{1} << 46) : Fp19Word(s)));
  }
  ExpectExact(RunV3(input, 1), want, "roundMode 1");
  // A positive subnormal flushes to zero.
  ExpectExact(RunV3({Value(1e-40)}, 1), {Split(uint64_t{1} << 46)}, "subnormal");
}

TEST(TransQuantParamV3, RoundModeZeroIsV2) {
  Values input, want;
  for (float s : {1.0F + 3 * std::ldexp(1.0F, -11), -0.3F, 123.456F}) {
    input.emplace_back(s);
    want.push_back(Split((Bits(s) & 0xFFFFE000u) | (uint64_t{1} << 46)));
  }
  ExpectExact(RunV3(input, 0), want, "roundMode 0");
  ExpectExact(RunV3(input, 0, ACL_INT64), want, "INT64 out");
}

TEST(TransQuantParamV3, Rejections) {
  for (const int64_t mode : {int64_t{2}, int64_t{-1}}) {
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnTransQuantParamV3GetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3}), nullptr, mode,
                                                        a.NewTensor(ACL_UINT64, {3}), w, e);
        },
        aclnnTransQuantParamV3);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
    EXPECT_NE(run.message.find("'roundMode'"), std::string::npos) << run.message;
  }
  const OpRun f16 = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnTransQuantParamV3GetWorkspaceSize(a.NewTensor(ACL_FLOAT16, {3}), nullptr, 1,
                                                      a.NewTensor(ACL_UINT64, {3}), w, e);
      },
      aclnnTransQuantParamV3);
  EXPECT_EQ(f16.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(f16);
}

}  // namespace
}  // namespace canopy_test
