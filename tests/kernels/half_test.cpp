// The bulk fp16 conversions (common/half.h) through the path this CPU takes
// (AVX-512, F16C in the avx2 variant, portable in the CANOPY_CPU_FEATURES=none
// one): every fp16 value widens to the scalar definition's f32, and f32 values
// (random, specials, halfway cases, overflow, subnormals) round to its fp16,
// at lengths that end in the vector loop's body and in its masked tail.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "common/half.h"

namespace canopy {
namespace {

uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

bool IsHalfNan(uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }

TEST(HalfBulk, EveryFp16ValueWidensAsTheScalarDefinition) {
  std::vector<uint16_t> all(65536);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
  for (const size_t count : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{33}, all.size()}) {
    SCOPED_TRACE(count);
    // Start at an odd element so the loads are unaligned, and at each end of the value range.
    for (const size_t first : {size_t{0}, size_t{1}, all.size() - count}) {
      if (first + count > all.size()) continue;
      std::vector<float> wide(count + 1, -1.0f);
      HalfToFloatN(all.data() + first, wide.data(), static_cast<int64_t>(count));
      for (size_t i = 0; i < count; ++i) {
        const uint16_t h = all[first + i];
        const float expected = HalfToFloat(h);
        if (IsHalfNan(h)) {
          ASSERT_TRUE(std::isnan(wide[i])) << std::hex << h;
        } else {
          ASSERT_EQ(Bits(wide[i]), Bits(expected)) << std::hex << h;
        }
      }
      EXPECT_EQ(wide[count], -1.0f) << "wrote past the end";
    }
  }
}

TEST(HalfBulk, F32ValuesRoundAsTheScalarDefinition) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mantissa(-2.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-30, 17);  // past both ends of fp16's range
  std::uniform_int_distribution<uint32_t> any;
  std::vector<float> values(4099);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i % 3 == 0) {
      values[i] = std::ldexp(mantissa(rng), exponent(rng));
    } else if (i % 3 == 1) {  // an fp16 value plus exactly half an fp16 ulp (ties to even), or a bit either side
      const uint16_t h = static_cast<uint16_t>(any(rng) & 0x7bffu);
      const uint32_t half_ulp = Bits(HalfToFloat(static_cast<uint16_t>(h | 1u))) - Bits(HalfToFloat(h));
      values[i] = HalfToFloat(h);
      uint32_t b = Bits(values[i]) + half_ulp / 2 + static_cast<uint32_t>(any(rng) % 3) - 1u;
      std::memcpy(&values[i], &b, sizeof(b));
    } else {
      const uint32_t b = any(rng);
      std::memcpy(&values[i], &b, sizeof(b));
    }
  }
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            65504.0f,
                            65520.0f,
                            65519.99f,
                            0x1p-24f,
                            0x1p-25f,
                            0x1.8p-25f,
                            0x1p-26f};
  for (size_t i = 0; i < std::size(specials); ++i) values[i * 41 % values.size()] = specials[i];
  for (const size_t count : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{33}, values.size() - 1}) {
    SCOPED_TRACE(count);
    for (const size_t first : {size_t{0}, size_t{1}}) {
      std::vector<uint16_t> narrow(count + 1, 0xabcd);
      FloatToHalfN(values.data() + first, narrow.data(), static_cast<int64_t>(count));
      for (size_t i = 0; i < count; ++i) {
        const float v = values[first + i];
        if (std::isnan(v)) {
          ASSERT_TRUE(IsHalfNan(narrow[i])) << v;
        } else {
          ASSERT_EQ(narrow[i], FloatToHalf(v)) << std::hexfloat << v;
        }
      }
      EXPECT_EQ(narrow[count], 0xabcd) << "wrote past the end";
    }
  }
}

}  // namespace
}  // namespace canopy
