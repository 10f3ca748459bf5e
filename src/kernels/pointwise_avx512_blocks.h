// Thirty-two elements of 16-bit storage per block, as two registers of sixteen
// f32 lanes, for one-pass pointwise loops (widen, compute in f32, round) that
// must cost less per element than a copy of the same bytes. Compared with
// avx512_lanes.h's sixteen-lane F16 / Bf16, a block moves whole 64-byte lines
// and bf16 widens with one instruction a register (even elements shifted up,
// odd ones masked in place) and rounds two registers into one with a single
// blend: an elementwise op does not care which element sits in which lane, so
// a block's two registers may hold any fixed permutation of its elements.
// Rounding is the same as avx512_lanes.h's: nearest even, NaN kept quiet, bf16
// subnormals kept. Compiled with CANOPY_AVX512_TARGET (callers check
// Cpu().Avx512()).
#pragma once

#include <cstdint>

#include "avx512_lanes.h"

namespace canopy::kernels::avx512 {

// The lowest `left` of a block's 32 elements: none for left <= 0, all from 32 on.
inline __mmask32 BlockLanesBelow(int64_t left) {
  if (left <= 0) return 0;
  return left >= 32 ? ~__mmask32{0} : static_cast<__mmask32>((uint32_t{1} << left) - 1);
}

// fp16: elements 0-15 in the first register, 16-31 in the second.
struct F16Block {
  using Element = uint16_t;
  static constexpr int kElements = 32;
  CANOPY_AVX512 static void Load(const Element* p, __m512& first, __m512& second) {
    first = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    second = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 16)));
  }
  // Masked-off elements read 0.
  CANOPY_AVX512 static void Load(const Element* p, __mmask32 m, __m512& first, __m512& second) {
    const __m512i bits = _mm512_maskz_loadu_epi16(m, p);
    first = _mm512_cvtph_ps(_mm512_castsi512_si256(bits));
    second = _mm512_cvtph_ps(_mm512_extracti64x4_epi64(bits, 1));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 first, __m512 second) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), F16::Round(first));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p + 16), F16::Round(second));
  }
  CANOPY_AVX512 static void Store(Element* p, __mmask32 m, __m512 first, __m512 second) {
    const __m512i bits = _mm512_inserti64x4(_mm512_castsi256_si512(F16::Round(first)), F16::Round(second), 1);
    _mm512_mask_storeu_epi16(p, m, bits);
  }
};

// bf16: the even elements in the first register (each 32-bit lane's low half
// shifted up), the odd ones in the second (the high halves, low bits cleared).
struct Bf16Block {
  using Element = uint16_t;
  static constexpr int kElements = 32;
  CANOPY_AVX512 static void Widen(__m512i bits, __m512& even, __m512& odd) {
    even = _mm512_castsi512_ps(_mm512_slli_epi32(bits, 16));
    odd = _mm512_castsi512_ps(_mm512_and_si512(bits, _mm512_set1_epi32(static_cast<int>(0xffff0000u))));
  }
  CANOPY_AVX512 static void Load(const Element* p, __m512& even, __m512& odd) {
    Widen(_mm512_loadu_si512(p), even, odd);
  }
  CANOPY_AVX512 static void Load(const Element* p, __mmask32 m, __m512& even, __m512& odd) {
    Widen(_mm512_maskz_loadu_epi16(m, p), even, odd);
  }
  // Each lane rounded to nearest even in its high half (the low half is
  // garbage): Bf16::Round's integer arithmetic without the narrowing.
  CANOPY_AVX512 static __m512i RoundHigh(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x400000));
  }
  // The 32 elements back in memory order: the even ones' high halves moved down, the odd ones' kept.
  CANOPY_AVX512 static __m512i Round(__m512 even, __m512 odd) {
    return _mm512_mask_blend_epi16(0xaaaaaaaau, _mm512_srli_epi32(RoundHigh(even), 16), RoundHigh(odd));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 even, __m512 odd) { _mm512_storeu_si512(p, Round(even, odd)); }
  CANOPY_AVX512 static void Store(Element* p, __mmask32 m, __m512 even, __m512 odd) {
    _mm512_mask_storeu_epi16(p, m, Round(even, odd));
  }
};

}  // namespace canopy::kernels::avx512
