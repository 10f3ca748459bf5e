// f32 lane types for kernels written once over the vector width: V16 (AVX-512)
// and V8 (AVX2), with arithmetic and SLEEF's vector math (1.0-ulp variants;
// erfc has only SLEEF's 1.5-ulp one), and the exact rounding instructions.
// Only for files compiled with that instruction set enabled (-mavx512f /
// -mavx2: SLEEF's header declares a width's functions only then); everything
// here is internal to such a file.
#pragma once

// First: <immintrin.h> without GCC 12's PR105593 warnings (sleef.h includes it too).
#include "x86_intrinsics.h"

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
// 1 / sqrt(a): vrsqrt14's estimate (relative error below 2^-14) and one
// Newton step, y + y / 2 (1 - a y y) with its products fused: within 1.6 units
// of roundoff (the step's rounding, the product a y, the estimate's error
// squared), where a division after the root costs two. Zero and +inf keep the
// estimate (inf, 0: exact); NaN and negative values give NaN either way.
inline V16 Rsqrt(V16 a) {
  // The zero-masked form: GCC 12 flags the plain one's undefined pass-through (PR105593).
  const __m512 y = _mm512_maskz_rsqrt14_ps(0xffff, a.v);
  const __m512 error = _mm512_fnmadd_ps(_mm512_mul_ps(a.v, y), y, _mm512_set1_ps(1.0f));
  const __m512 refined = _mm512_fmadd_ps(_mm512_mul_ps(y, _mm512_set1_ps(0.5f)), error, y);
  const __mmask16 exact = _mm512_kor(_mm512_cmp_ps_mask(a.v, _mm512_setzero_ps(), _CMP_EQ_OQ),
                                     _mm512_cmp_ps_mask(a.v, _mm512_set1_ps(__builtin_inff()), _CMP_EQ_OQ));
  return {_mm512_mask_blend_ps(exact, refined, y)};
}
inline V16 Sin(V16 a) { return {Sleef_sinf16_u10avx512f(a.v)}; }
inline V16 Cos(V16 a) { return {Sleef_cosf16_u10avx512f(a.v)}; }
inline V16 Log(V16 a) { return {Sleef_logf16_u10avx512f(a.v)}; }
inline V16 Expm1(V16 a) { return {Sleef_expm1f16_u10avx512f(a.v)}; }
inline V16 Log1p(V16 a) { return {Sleef_log1pf16_u10avx512f(a.v)}; }
inline V16 Erfc(V16 a) { return {Sleef_erfcf16_u15avx512f(a.v)}; }
inline V16 Exp2(V16 a) { return {Sleef_exp2f16_u10avx512f(a.v)}; }
inline V16 Log2(V16 a) { return {Sleef_log2f16_u10avx512f(a.v)}; }
inline V16 Log10(V16 a) { return {Sleef_log10f16_u10avx512f(a.v)}; }
inline V16 Erf(V16 a) { return {Sleef_erff16_u10avx512f(a.v)}; }
inline V16 Tan(V16 a) { return {Sleef_tanf16_u10avx512f(a.v)}; }
inline V16 Asin(V16 a) { return {Sleef_asinf16_u10avx512f(a.v)}; }
inline V16 Acos(V16 a) { return {Sleef_acosf16_u10avx512f(a.v)}; }
inline V16 Atan(V16 a) { return {Sleef_atanf16_u10avx512f(a.v)}; }
inline V16 Sinh(V16 a) { return {Sleef_sinhf16_u10avx512f(a.v)}; }
inline V16 Cosh(V16 a) { return {Sleef_coshf16_u10avx512f(a.v)}; }
inline V16 Asinh(V16 a) { return {Sleef_asinhf16_u10avx512f(a.v)}; }
inline V16 Acosh(V16 a) { return {Sleef_acoshf16_u10avx512f(a.v)}; }
inline V16 Atanh(V16 a) { return {Sleef_atanhf16_u10avx512f(a.v)}; }
inline V16 Pow(V16 a, V16 b) { return {Sleef_powf16_u10avx512f(a.v, b.v)}; }
// Rounding to an integral value (exact): down, up, to nearest even, toward zero.
inline V16 Floor(V16 a) { return {_mm512_roundscale_ps(a.v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)}; }
inline V16 Ceil(V16 a) { return {_mm512_roundscale_ps(a.v, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)}; }
inline V16 RoundEven(V16 a) { return {_mm512_roundscale_ps(a.v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)}; }
inline V16 Trunc(V16 a) { return {_mm512_roundscale_ps(a.v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)}; }
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
// AVX2's estimate has 12 bits; one Newton step leaves too much: the exact root and quotient.
inline V8 Rsqrt(V8 a) { return {_mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(a.v))}; }
inline V8 Sin(V8 a) { return {Sleef_sinf8_u10avx2(a.v)}; }
inline V8 Cos(V8 a) { return {Sleef_cosf8_u10avx2(a.v)}; }
inline V8 Log(V8 a) { return {Sleef_logf8_u10avx2(a.v)}; }
inline V8 Expm1(V8 a) { return {Sleef_expm1f8_u10avx2(a.v)}; }
inline V8 Log1p(V8 a) { return {Sleef_log1pf8_u10avx2(a.v)}; }
inline V8 Erfc(V8 a) { return {Sleef_erfcf8_u15avx2(a.v)}; }
inline V8 Exp2(V8 a) { return {Sleef_exp2f8_u10avx2(a.v)}; }
inline V8 Log2(V8 a) { return {Sleef_log2f8_u10avx2(a.v)}; }
inline V8 Log10(V8 a) { return {Sleef_log10f8_u10avx2(a.v)}; }
inline V8 Erf(V8 a) { return {Sleef_erff8_u10avx2(a.v)}; }
inline V8 Tan(V8 a) { return {Sleef_tanf8_u10avx2(a.v)}; }
inline V8 Asin(V8 a) { return {Sleef_asinf8_u10avx2(a.v)}; }
inline V8 Acos(V8 a) { return {Sleef_acosf8_u10avx2(a.v)}; }
inline V8 Atan(V8 a) { return {Sleef_atanf8_u10avx2(a.v)}; }
inline V8 Sinh(V8 a) { return {Sleef_sinhf8_u10avx2(a.v)}; }
inline V8 Cosh(V8 a) { return {Sleef_coshf8_u10avx2(a.v)}; }
inline V8 Asinh(V8 a) { return {Sleef_asinhf8_u10avx2(a.v)}; }
inline V8 Acosh(V8 a) { return {Sleef_acoshf8_u10avx2(a.v)}; }
inline V8 Atanh(V8 a) { return {Sleef_atanhf8_u10avx2(a.v)}; }
inline V8 Pow(V8 a, V8 b) { return {Sleef_powf8_u10avx2(a.v, b.v)}; }
inline V8 Floor(V8 a) { return {_mm256_round_ps(a.v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)}; }
inline V8 Ceil(V8 a) { return {_mm256_round_ps(a.v, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)}; }
inline V8 RoundEven(V8 a) { return {_mm256_round_ps(a.v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)}; }
inline V8 Trunc(V8 a) { return {_mm256_round_ps(a.v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)}; }
inline V8 MaxKeepNan(V8 a, V8 b) { return {_mm256_max_ps(a.v, b.v)}; }
inline V8 Min(V8 a, V8 b) { return {_mm256_min_ps(a.v, b.v)}; }
inline __m256 IsGreater(V8 a, V8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ); }
inline __m256 IsEqual(V8 a, V8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ); }
inline __m256 IsNegative(V8 a) { return _mm256_cmp_ps(a.v, _mm256_setzero_ps(), _CMP_LT_OQ); }
inline V8 Select(__m256 m, V8 a, V8 b) { return {_mm256_blendv_ps(b.v, a.v, m)}; }
#endif

}  // namespace
}  // namespace canopy::kernels
