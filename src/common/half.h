// IEEE binary16 (fp16) and bfloat16 conversions: scalar forms for any use and
// bulk forms that use F16C / AVX-512 where the CPU has them.
#pragma once

#include <cstdint>
#include <cstring>

namespace canopy {

inline float Bf16ToFloat(uint16_t bits) {
  const uint32_t wide = uint32_t{bits} << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

// Round to nearest even; NaN stays a (quiet) NaN.
inline uint16_t FloatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float HalfToFloat(uint16_t bits);
// Round to nearest even, overflow to infinity, NaN stays NaN.
uint16_t FloatToHalf(float value);

// Bulk conversions of n contiguous elements.
void HalfToFloatN(const uint16_t* src, float* dst, int64_t n);
void FloatToHalfN(const float* src, uint16_t* dst, int64_t n);
void Bf16ToFloatN(const uint16_t* src, float* dst, int64_t n);
void FloatToBf16N(const float* src, uint16_t* dst, int64_t n);

}  // namespace canopy
