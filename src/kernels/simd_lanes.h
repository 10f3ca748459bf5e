// f32 lane types for kernels written once over the vector width: V16 (AVX-512)
// and V8 (AVX2), with arithmetic and SLEEF's vector math (1.0-ulp variants;
// erfc has only SLEEF's 1.5-ulp one).
// Only for files compiled with that instruction set enabled (-mavx512f /
// -mavx2: SLEEF's header declares a width's functions only then); everything
// here is internal to such a file.
#pragma once

#include <immintrin.h>
#include <sleef.h>

namespace canopy::kernels {
namespace {  // each instruction-set file keeps its own copy: nothing is shared across them

#if defined(__AVX512F__)
struct V16 {
  static constexpr int kLanes = 16;
  __m512 v;
  static V16 Set(float x) { return {_mm512_set1_ps(x)}; }
};
inline V16 Add(V16 a, V16 b) { return {_mm512_add_ps(a.v, b.v)}; }
inline V16 Sub(V16 a, V16 b) { return {_mm512_sub_ps(a.v, b.v)}; }
inline V16 Mul(V16 a, V16 b) { return {_mm512_mul_ps(a.v, b.v)}; }
inline V16 Div(V16 a, V16 b) { return {_mm512_div_ps(a.v, b.v)}; }
inline V16 Neg(V16 a) {
  return {_mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a.v), _mm512_set1_epi32(INT32_MIN)))};
}
inline V16 Abs(V16 a) { return {_mm512_abs_ps(a.v)}; }
inline V16 Exp(V16 a) { return {Sleef_expf16_u10avx512f(a.v)}; }
inline V16 Tanh(V16 a) { return {Sleef_tanhf16_u10avx512f(a.v)}; }
inline V16 Sqrt(V16 a) { return {_mm512_sqrt_ps(a.v)}; }
inline V16 Sin(V16 a) { return {Sleef_sinf16_u10avx512f(a.v)}; }
inline V16 Cos(V16 a) { return {Sleef_cosf16_u10avx512f(a.v)}; }
inline V16 Log(V16 a) { return {Sleef_logf16_u10avx512f(a.v)}; }
inline V16 Expm1(V16 a) { return {Sleef_expm1f16_u10avx512f(a.v)}; }
inline V16 Log1p(V16 a) { return {Sleef_log1pf16_u10avx512f(a.v)}; }
inline V16 Erfc(V16 a) { return {Sleef_erfcf16_u15avx512f(a.v)}; }
// max(a, b), b where either is NaN (vmaxps returns its second operand then).
inline V16 MaxKeepNan(V16 a, V16 b) { return {_mm512_max_ps(a.v, b.v)}; }
inline V16 Min(V16 a, V16 b) { return {_mm512_min_ps(a.v, b.v)}; }
inline __mmask16 IsGreater(V16 a, V16 b) { return _mm512_cmp_ps_mask(a.v, b.v, _CMP_GT_OQ); }
inline __mmask16 IsEqual(V16 a, V16 b) { return _mm512_cmp_ps_mask(a.v, b.v, _CMP_EQ_OQ); }
// Lane masks: IsNegative is x < 0 (false for NaN and -0); Select(m, a, b) takes a where m holds.
inline __mmask16 IsNegative(V16 a) { return _mm512_cmp_ps_mask(a.v, _mm512_setzero_ps(), _CMP_LT_OQ); }
inline V16 Select(__mmask16 m, V16 a, V16 b) { return {_mm512_mask_blend_ps(m, b.v, a.v)}; }
#endif

#if defined(__AVX2__)
struct V8 {
  static constexpr int kLanes = 8;
  __m256 v;
  static V8 Set(float x) { return {_mm256_set1_ps(x)}; }
};
inline V8 Add(V8 a, V8 b) { return {_mm256_add_ps(a.v, b.v)}; }
inline V8 Sub(V8 a, V8 b) { return {_mm256_sub_ps(a.v, b.v)}; }
inline V8 Mul(V8 a, V8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
inline V8 Div(V8 a, V8 b) { return {_mm256_div_ps(a.v, b.v)}; }
inline V8 Neg(V8 a) { return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))}; }
inline V8 Abs(V8 a) { return {_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v)}; }
inline V8 Exp(V8 a) { return {Sleef_expf8_u10avx2(a.v)}; }
inline V8 Tanh(V8 a) { return {Sleef_tanhf8_u10avx2(a.v)}; }
inline V8 Sqrt(V8 a) { return {_mm256_sqrt_ps(a.v)}; }
inline V8 Sin(V8 a) { return {Sleef_sinf8_u10avx2(a.v)}; }
inline V8 Cos(V8 a) { return {Sleef_cosf8_u10avx2(a.v)}; }
inline V8 Log(V8 a) { return {Sleef_logf8_u10avx2(a.v)}; }
inline V8 Expm1(V8 a) { return {Sleef_expm1f8_u10avx2(a.v)}; }
inline V8 Log1p(V8 a) { return {Sleef_log1pf8_u10avx2(a.v)}; }
inline V8 Erfc(V8 a) { return {Sleef_erfcf8_u15avx2(a.v)}; }
inline V8 MaxKeepNan(V8 a, V8 b) { return {_mm256_max_ps(a.v, b.v)}; }
inline V8 Min(V8 a, V8 b) { return {_mm256_min_ps(a.v, b.v)}; }
inline __m256 IsGreater(V8 a, V8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ); }
inline __m256 IsEqual(V8 a, V8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ); }
inline __m256 IsNegative(V8 a) { return _mm256_cmp_ps(a.v, _mm256_setzero_ps(), _CMP_LT_OQ); }
inline V8 Select(__m256 m, V8 a, V8 b) { return {_mm256_blendv_ps(b.v, a.v, m)}; }
#endif

}  // namespace
}  // namespace canopy::kernels
