// The unary kernels' 16-bit loops on AVX-512 (for unary_avx512.cpp and
// unary_avx512_bf16.cpp, after unary_functors.h): 32 elements a block
// (pointwise_avx512_blocks.h), and for sqrt and rsqrt kernels that give the
// same 16-bit results for fewer instructions than their f32 forms. A 16-bit
// unary op moves 4 bytes an element, so on two cores a copy of the same bytes
// leaves it about 6 cycles for 16 elements: vsqrtps alone takes 12 (Sapphire
// Rapids), the sixteen-lane bf16 widening and rounding 11 instructions.
#pragma once

#include <type_traits>

#include "pointwise_avx512_blocks.h"
#include "stream_prefetch.h"
#include "unary_functors.h"

namespace canopy::kernels {
namespace {  // each file that includes this keeps its own copy

// sqrt of fp16 or bf16 values rounded to the same dtype, bit for bit the f32
// root rounded once more (itself the correctly rounded root: 24 bits are at
// least 2p + 2 for p = 11 and 8), from vrsqrt14's estimate r (relative error
// below 2^-14) and one Newton step: y = x r, y + r / 2 (x - y y), whose exact
// value is within 1.6 * 2^-28 of sqrt(x), rounded toward zero and its last bit
// set (round to odd). A 16-bit midpoint m (p + 1 significant bits) is never a
// root of a p-bit x and lies at least 2^-25 (fp16; bf16: 2^-19) of the root
// away from it, relative, since x - m^2 is a nonzero multiple of m's last
// unit squared; so the step's value lies on the root's side of every
// midpoint, rounding toward zero keeps it on that side or on a midpoint
// (whose last bit is 0), and the odd last bit moves it off: the 16-bit
// rounding then picks the value the root rounds to. vfixupimm puts back the
// exact results the step loses: +0, -0 and +inf give themselves; negative
// values and NaN give NaN either way (tests/ops/unary_test.cpp checks every
// fp16 and bf16 value).
struct SqrtToSixteenBitFn {
  explicit SqrtToSixteenBitFn(const UnaryParams&) {}
  static V16 Vector(V16 x) {
    const __m512 r = _mm512_maskz_rsqrt14_ps(0xffff, x.v);  // maskz: GCC 12's PR105593, as simd_lanes.h
    const __m512 y = _mm512_mul_ps(x.v, r);
    const __m512 residual = _mm512_fnmadd_ps(y, y, x.v);
    const __m512 step = _mm512_fmadd_round_ps(residual, _mm512_mul_ps(r, _mm512_set1_ps(0.5f)), y,
                                              _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m512 odd = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(step), _mm512_set1_epi32(1)));
    // vfixupimm's table, four bits per class of x: zero (class 2) and +inf (5) give x itself (response 1).
    return {_mm512_fixupimm_ps(odd, x.v, _mm512_set1_epi32(0x00100100), 0)};
  }
};

// Sigmoid and SiLU rounded to fp16 or bf16: SigmoidAvx512 (unary_functors.h;
// about 2 ulp of f32 in all, against SLEEF's expf and vdivps, which take about
// twice as long). The f32 kernels keep SLEEF's exp and the division; a 16-bit
// result can differ from theirs only where the f32 value lies within a few of
// its units of a 16-bit rounding boundary.
struct SigmoidToSixteenBitFn {
  explicit SigmoidToSixteenBitFn(const UnaryParams&) {}
  static V16 Vector(V16 x) { return {SigmoidAvx512(x.v)}; }
};
struct SiluToSixteenBitFn {
  explicit SiluToSixteenBitFn(const UnaryParams&) {}
  static V16 Vector(V16 x) { return {_mm512_mul_ps(x.v, SigmoidAvx512(x.v))}; }
};

// The functor a 16-bit loop runs for Fn.
template <typename Fn>
struct SixteenBitKernel {
  using Type = Fn;
};
template <>
struct SixteenBitKernel<SqrtFn> {
  using Type = SqrtToSixteenBitFn;
};
template <>
struct SixteenBitKernel<SigmoidFn> {
  using Type = SigmoidToSixteenBitFn;
};
template <>
struct SixteenBitKernel<SiluFn> {
  using Type = SiluToSixteenBitFn;
};

// dst = fn(src) on n elements of one 16-bit storage (Block: pointwise_avx512_blocks.h).
template <typename Block, typename Fn>
void BlockLoop(const Fn& fn, const void* src, void* dst, int64_t n) {
  const auto* s = static_cast<const typename Block::Element*>(src);
  auto* d = static_cast<typename Block::Element*>(dst);
  int64_t i = 0;
  for (; i + Block::kElements <= n; i += Block::kElements) {
    PrefetchRead(s + i);  // a block is one line of each
    PrefetchWrite(d + i);
    __m512 first, second;
    Block::Load(s + i, first, second);
    Block::Store(d + i, fn.Vector(V16{first}).v, fn.Vector(V16{second}).v);
  }
  if (i < n) {
    // Masked-off elements read 0 and are never stored.
    const __mmask32 m = avx512::BlockLanesBelow(n - i);
    __m512 first, second;
    Block::Load(s + i, m, first, second);
    Block::Store(d + i, m, fn.Vector(V16{first}).v, fn.Vector(V16{second}).v);
  }
}

template <typename Block, typename Fn>
void SixteenBitLoop(const UnaryParams& params, const void* src, void* dst, int64_t n) {
  const typename SixteenBitKernel<Fn>::Type fn(params);
  BlockLoop<Block>(fn, src, dst, n);
}

}  // namespace
}  // namespace canopy::kernels
