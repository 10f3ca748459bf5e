// Sixteen f32 lanes loaded from and stored to f32, fp16 or bf16 memory, for
// kernels that keep 16-bit data in memory and compute in f32 registers. Each
// storage is a struct with Load (widen) and Store (round to nearest even), plain
// and masked; kernels are templates over it, compiled with CANOPY_AVX512_TARGET.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "cpu_features.h"

// GCC 12 reports the deliberately undefined pass-through operand inside its own
// AVX-512 conversion intrinsics (_mm512_undefined_*) as maybe-uninitialized.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define CANOPY_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,fma")))
#define CANOPY_AVX512 CANOPY_AVX512_TARGET __attribute__((always_inline)) inline
// The same with AVX-512 BF16, for storages only CPUs with it use (Bf16Ne).
#define CANOPY_AVX512_BF16 \
  __attribute__((target("avx512f,avx512bw,avx512vl,fma,avx512bf16"))) __attribute__((always_inline)) inline

namespace canopy::kernels::avx512 {

// AVX-512 F/BW/VL and FMA: what every kernel built on these lanes needs
// (cpu_features.h decides, CANOPY_CPU_FEATURES included).
inline bool Available() { return Cpu().Avx512(); }

// One lane group per storage: Load widens 16 elements to f32, Store rounds them
// back; the masked forms handle the tail without touching bytes past it.
struct F32 {
  using Element = float;
  CANOPY_AVX512 static __m512 Load(const Element* p) { return _mm512_loadu_ps(p); }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) { return _mm512_maskz_loadu_ps(m, p); }
  CANOPY_AVX512 static void Store(Element* p, __m512 v) { _mm512_storeu_ps(p, v); }
  CANOPY_AVX512 static void Store(Element* p, __m512 v, __mmask16 m) { _mm512_mask_storeu_ps(p, m, v); }
};

struct F16 {
  using Element = uint16_t;
  CANOPY_AVX512 static __m512 Load(const Element* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) {
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
  }
  CANOPY_AVX512 static __m256i Round(__m512 v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
  CANOPY_AVX512 static void Store(Element* p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), Round(v));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 v, __mmask16 m) { _mm256_mask_storeu_epi16(p, m, Round(v)); }
};

struct Bf16 {
  using Element = uint16_t;
  CANOPY_AVX512 static __m512 Widen(__m256i bits) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
  }
  CANOPY_AVX512 static __m512 Load(const Element* p) {
    return Widen(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) { return Widen(_mm256_maskz_loadu_epi16(m, p)); }
  // Round to nearest even in integer arithmetic, as FloatToBf16 does (the
  // AVX512-BF16 instruction would flush subnormals). NaN lanes take the quiet
  // bit instead of the rounding increment, so one shift serves both (blending
  // two shifted results cost three more instructions, enough to make f32->bf16
  // casts compute-bound at 85 GB/s).
  CANOPY_AVX512 static __m256i Round(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    const __m512i result = _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x400000));
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(result, 16));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), Round(v));
  }
  CANOPY_AVX512 static void Store(Element* p, __m512 v, __mmask16 m) { _mm256_mask_storeu_epi16(p, m, Round(v)); }
};

// Bf16 whose stores round with the AVX-512 BF16 instruction (only on CPUs
// that have it; files built with it): vcvtneps2bf16 rounds to nearest even and
// quiets NaN as Bf16::Round does, but reads f32 subnormals as zero, so a
// vector holding one takes Bf16::Round. The same bits, in four instructions
// where Bf16::Round takes nine (bf16 RmsNorm over 4096x4096, with the store
// loops' constants kept in registers: 1.66-1.75 -> 1.51-1.52 ms).
struct Bf16Ne : Bf16 {
  CANOPY_AVX512_BF16 static __m256i Round(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __mmask16 subnormal = _mm512_testn_epi32_mask(bits, _mm512_set1_epi32(0x7f800000)) &
                                _mm512_test_epi32_mask(bits, _mm512_set1_epi32(0x007fffff));
    if (__builtin_expect(subnormal != 0, 0)) return Bf16::Round(v);
    const __m256bh rounded = _mm512_cvtneps_pbh(v);
    __m256i result;
    std::memcpy(&result, &rounded, sizeof(result));
    return result;
  }
  CANOPY_AVX512_BF16 static void Store(Element* p, __m512 v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), Round(v));
  }
  CANOPY_AVX512_BF16 static void Store(Element* p, __m512 v, __mmask16 m) { _mm256_mask_storeu_epi16(p, m, Round(v)); }
};

// S's values rounded to fp16 as they load (round to nearest even, fp16's range
// and subnormals): an operand that cubeMathType USE_FP16 multiplies in fp16,
// read where it lies instead of copied to fp16 first.
template <typename S>
struct RoundedToF16 {
  using Element = typename S::Element;
  CANOPY_AVX512 static __m512 Trip(__m512 v) { return _mm512_cvtph_ps(F16::Round(v)); }
  CANOPY_AVX512 static __m512 Load(const Element* p) { return Trip(S::Load(p)); }
  CANOPY_AVX512 static __m512 Load(const Element* p, __mmask16 m) { return Trip(S::Load(p, m)); }
};

// The lowest `left` lanes: none for left <= 0, all 16 from 16 on.
inline __mmask16 LanesBelow(int64_t left) {
  if (left <= 0) return 0;
  return left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
}

}  // namespace canopy::kernels::avx512
