#include "half.h"

#include "kernels/cpu_features.h"

// The F16C and AVX-512 loops exist on x86-64 only; elsewhere the portable loops
// below are the only ones (cpu_features.h reports no x86 feature there).
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// GCC 12 reports the undefined pass-through vector inside its own AVX-512
// conversion intrinsics as uninitialised once they are inlined: a false
// positive, silenced for this file only (as in attention_avx512.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

// GCC vectorises the AVX-512 loops below fully only at -O3; clang has no
// optimize attribute (and vectorises them at -O2).
#if defined(__clang__)
#define CANOPY_OPTIMIZE_O3
#else
#define CANOPY_OPTIMIZE_O3 __attribute__((optimize("O3")))
#endif

namespace canopy {
namespace {

#if defined(__x86_64__)
// cpu_features.h decides (CANOPY_CPU_FEATURES can force the portable loops).
bool CpuHasF16c() { return kernels::Cpu().f16c; }

__attribute__((target("avx,f16c"))) void HalfToFloatF16c(const uint16_t* src, float* dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; ++i) dst[i] = _cvtsh_ss(src[i]);
}

__attribute__((target("avx,f16c"))) void FloatToHalfF16c(const float* src, uint16_t* dst, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
  }
  for (; i < n; ++i) dst[i] = _cvtss_sh(src[i], _MM_FROUND_TO_NEAREST_INT);
}

bool CpuHasAvx512() {
  const kernels::CpuFeatures& cpu = kernels::Cpu();
  return cpu.avx512f && cpu.avx512bw && cpu.avx512vl;
}

// The F16C conversions sixteen lanes at a time (the same rounding, so the
// same results): a head-dim row of an f16 KV cache is 8 of them, not 16.
__attribute__((target("avx512f,avx512bw,avx512vl,f16c"))) void HalfToFloatAvx512(const uint16_t* src, float* dst,
                                                                                 int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(dst + i, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i))));
  }
  if (i < n) {
    const auto m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, src + i)));
  }
}

__attribute__((target("avx512f,avx512bw,avx512vl,f16c"))) void FloatToHalfAvx512(const float* src, uint16_t* dst,
                                                                                 int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT));
  }
  if (i < n) {
    const auto m = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm256_mask_storeu_epi16(dst + i, m, _mm512_cvtps_ph(_mm512_maskz_loadu_ps(m, src + i), _MM_FROUND_TO_NEAREST_INT));
  }
}

// Round to nearest even, NaN stays NaN, denormals kept: bit-identical to
// FloatToBf16 (the AVX512-BF16 instruction would flush denormals to zero).
__attribute__((target("avx512f,avx512bw,avx512vl"))) CANOPY_OPTIMIZE_O3 void FloatToBf16Avx512(const float* src,
                                                                                               uint16_t* dst,
                                                                                               int64_t n) {
  const auto* bits = reinterpret_cast<const uint32_t*>(src);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = bits[i];
    const uint32_t rounded = (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
    const uint32_t quiet_nan = (b >> 16) | 0x40u;
    dst[i] = static_cast<uint16_t>((b & 0x7fffffffu) > 0x7f800000u ? quiet_nan : rounded);
  }
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) CANOPY_OPTIMIZE_O3 void Bf16ToFloatAvx512(const uint16_t* src,
                                                                                               float* dst, int64_t n) {
  auto* bits = reinterpret_cast<uint32_t*>(dst);
  for (int64_t i = 0; i < n; ++i) bits[i] = uint32_t{src[i]} << 16;
}
#endif

float HalfToFloatPortable(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t FloatToHalfPortable(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);   // NaN
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (magnitude < 0x38800000u) {                                               // subnormal or zero in fp16
    if (magnitude < 0x33000000u) return sign;                                  // rounds to zero
    const uint32_t exponent = magnitude >> 23;
    const uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - exponent;  // 14 + (112 - exponent) + 1 - 1
    uint32_t half_mantissa = mantissa >> (shift - 0);
    const uint32_t remainder = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (half_mantissa & 1u))) ++half_mantissa;
    return static_cast<uint16_t>(sign | half_mantissa);
  }
  uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

}  // namespace

float HalfToFloat(uint16_t bits) { return HalfToFloatPortable(bits); }
uint16_t FloatToHalf(float value) { return FloatToHalfPortable(value); }

void HalfToFloatN(const uint16_t* src, float* dst, int64_t n) {
#if defined(__x86_64__)
  if (CpuHasAvx512() && CpuHasF16c()) return HalfToFloatAvx512(src, dst, n);
  if (CpuHasF16c()) return HalfToFloatF16c(src, dst, n);
#endif
  for (int64_t i = 0; i < n; ++i) dst[i] = HalfToFloatPortable(src[i]);
}

void FloatToHalfN(const float* src, uint16_t* dst, int64_t n) {
#if defined(__x86_64__)
  if (CpuHasAvx512() && CpuHasF16c()) return FloatToHalfAvx512(src, dst, n);
  if (CpuHasF16c()) return FloatToHalfF16c(src, dst, n);
#endif
  for (int64_t i = 0; i < n; ++i) dst[i] = FloatToHalfPortable(src[i]);
}

void Bf16ToFloatN(const uint16_t* src, float* dst, int64_t n) {
#if defined(__x86_64__)
  if (CpuHasAvx512()) return Bf16ToFloatAvx512(src, dst, n);
#endif
  for (int64_t i = 0; i < n; ++i) dst[i] = Bf16ToFloat(src[i]);
}

void FloatToBf16N(const float* src, uint16_t* dst, int64_t n) {
#if defined(__x86_64__)
  if (CpuHasAvx512()) return FloatToBf16Avx512(src, dst, n);
#endif
  for (int64_t i = 0; i < n; ++i) dst[i] = FloatToBf16(src[i]);
}

}  // namespace canopy
