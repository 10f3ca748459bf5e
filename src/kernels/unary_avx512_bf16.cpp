// The unary functors' bf16-to-bf16 loops with AVX512-BF16 (this file is
// compiled with it; unary_avx512.cpp calls it only when Cpu() has it): the
// blocks of unary_avx512_loops.h rounded by vcvtne2ps2bf16, which rounds two
// registers to nearest even, NaN quiet, in one instruction where the integer
// rounding takes a dozen. The instruction flushes subnormal values to zero,
// which bf16 keeps (FloatToBf16), so a block holding one rounds the integer
// way instead (a test of each register's classes; rare outside tests).
#define CANOPY_SIMD_LANES 1
#include <bit>

#include "unary_functors.h"

#include "unary_avx512_loops.h"

namespace canopy::kernels {
namespace {

struct Bf16InstructionBlock : avx512::Bf16Block {
  // vcvtne2ps2bf16 packs the even elements' 16 values, then the odd ones':
  // this permutation puts word 2k back from k and word 2k + 1 from 16 + k.
  static __m512i Interleave(__m512i packed) {
    const __m512i order = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22, 6,
                                           21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    return _mm512_permutexvar_epi16(order, packed);
  }
  // The lanes holding a subnormal value: exponent bits clear, fraction bits not
  // (two AVX512F tests; vfpclassps would need AVX512DQ, which Cpu() does not track).
  static __mmask16 Subnormal(__m512 v) {
    const __m512i bits = _mm512_castps_si512(v);
    const __mmask16 tiny = _mm512_testn_epi32_mask(bits, _mm512_set1_epi32(0x7f800000));
    return _mm512_mask_test_epi32_mask(tiny, bits, _mm512_set1_epi32(0x007fffff));
  }
  // A subnormal value rounds to +-0 here: only blocks with a zero result
  // (one test of the 32 words) look for one.
  static __m512i Round(__m512 even, __m512 odd) {
    const __m512i packed = std::bit_cast<__m512i>(_mm512_cvtne2ps_pbh(odd, even));
    if (__builtin_expect(_mm512_testn_epi16_mask(packed, _mm512_set1_epi16(0x7fff)) != 0, 0) &&
        (Subnormal(even) | Subnormal(odd)) != 0) {
      return avx512::Bf16Block::Round(even, odd);
    }
    return Interleave(packed);
  }
  static void Store(Element* p, __m512 even, __m512 odd) { _mm512_storeu_si512(p, Round(even, odd)); }
  static void Store(Element* p, __mmask32 m, __m512 even, __m512 odd) {
    _mm512_mask_storeu_epi16(p, m, Round(even, odd));
  }
};

}  // namespace

void UnaryAvx512Bf16(UnaryOp op, const UnaryParams& params, const void* src, void* dst, int64_t n) {
  switch (op) {
#define CANOPY_UNARY_CASE(name, fn) \
  case UnaryOp::name:               \
    return SixteenBitLoop<Bf16InstructionBlock, fn>(params, src, dst, n);
    CANOPY_UNARY_OPS(CANOPY_UNARY_CASE)
#undef CANOPY_UNARY_CASE
  }
}

}  // namespace canopy::kernels
