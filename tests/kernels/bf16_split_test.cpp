// The bf16 pieces of f32 and fp16 values (kernels/bf16_split.h), through the
// path this CPU takes (AVX-512, or portable in the CANOPY_CPU_FEATURES=none
// variant): every value's pieces equal the scalar definition bit for bit, sum
// back to the value (exactly for fp16, within 2^-17 for f32), and inf / NaN
// are reported; the finite high plane zeroes exactly the non-finite values.
#include "kernels/bf16_split.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "common/half.h"

namespace canopy::kernels {
namespace {

std::vector<float> SampleValues(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-140, 127);
  std::vector<float> values(count);
  for (float& v : values) v = std::ldexp(mantissa(rng), exponent(rng));
  // Special and edge values at positions the vector loop meets in its body and its tail.
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::denorm_min(),
                            1.0f + 0x1p-9f,
                            65504.0f};
  for (size_t i = 0; i < std::size(specials); ++i) values[i * 37 % count] = specials[i];
  return values;
}

float Widen(uint16_t bits) { return Bf16ToFloat(bits); }

TEST(Bf16Split, F32PiecesMatchTheDefinitionAndSumBack) {
  for (const size_t count : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{1000}, size_t{70001}}) {
    SCOPED_TRACE(count);
    std::vector<float> values = SampleValues(count, static_cast<uint32_t>(count));
    std::vector<uint16_t> hi(count), lo(count);
    bool any_special = false;
    for (float v : values) any_special = any_special || !std::isfinite(v);
    EXPECT_EQ(SplitIntoBf16Planes(values.data(), ACL_FLOAT, static_cast<int64_t>(count), hi.data(), lo.data()),
              any_special);
    for (size_t i = 0; i < count; ++i) {
      const float x = values[i];
      ASSERT_EQ(hi[i], Bf16PieceOf(x, Bf16Piece::kHigh)) << "hi of " << x;
      ASSERT_EQ(lo[i], Bf16PieceOf(x, Bf16Piece::kLow)) << "lo of " << x;
      if (std::isfinite(x)) {
        const double sum = static_cast<double>(Widen(hi[i])) + static_cast<double>(Widen(lo[i]));
        // Below f32's normal range the low piece may itself round away.
        EXPECT_LE(std::abs(sum - x), std::max(std::abs(static_cast<double>(x)) * 0x1p-17, 0x1p-133)) << x;
      } else {
        EXPECT_EQ(lo[i], 0) << x;
        EXPECT_TRUE(std::isnan(x) ? std::isnan(Widen(hi[i])) : Widen(hi[i]) == x);
      }
    }
    // f32's largest value rounds to inf in bf16; its high piece stays finite.
    EXPECT_TRUE(std::isfinite(Widen(Bf16PieceOf(std::numeric_limits<float>::max(), Bf16Piece::kHigh))));
  }
}

TEST(Bf16Split, Fp16PiecesSumBackExactly) {
  std::vector<uint16_t> values;
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) values.push_back(static_cast<uint16_t>(bits));  // every fp16
  const auto count = static_cast<int64_t>(values.size());
  std::vector<uint16_t> hi(values.size()), lo(values.size());
  EXPECT_TRUE(SplitIntoBf16Planes(values.data(), ACL_FLOAT16, count, hi.data(), lo.data()));
  for (size_t i = 0; i < values.size(); ++i) {
    const float x = HalfToFloat(values[i]);
    ASSERT_EQ(hi[i], Bf16PieceOf(x, Bf16Piece::kHigh)) << i;
    ASSERT_EQ(lo[i], Bf16PieceOf(x, Bf16Piece::kLow)) << i;
    if (std::isfinite(x)) {
      ASSERT_EQ(Widen(hi[i]) + Widen(lo[i]), x) << "fp16 bits " << i;
    }
  }
  std::vector<uint16_t> finite(values.size());
  FiniteBf16Plane(hi.data(), finite.data(), count);
  for (size_t i = 0; i < values.size(); ++i) {
    const float x = HalfToFloat(values[i]);
    EXPECT_EQ(finite[i], std::isfinite(x) ? hi[i] : uint16_t{0}) << i;
  }
}

}  // namespace
}  // namespace canopy::kernels
