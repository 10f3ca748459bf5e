// A quantised weight dequantised on AVX-512 into f32, bf16 or fp16 storage, for
// the products that hand the dense weight to oneDNN (prefill rows). The
// portable path widens in scalar loops, and for 16-bit storage rounds each
// block in a second pass; here 32 weights a step are widened, scaled and
// rounded in registers.
//
// Values are those of DequantizeRows (then FloatToBf16N / FloatToHalfN), bit
// for bit: (q + offset) * scale in f32 (q * scale without an offset), rounded
// to nearest even by S::Store (avx512_lanes.h). Built by quant_matmul_avx512.cpp
// (integer bf16 rounding) and quant_matmul_avx512_bf16.cpp (vcvtneps2bf16),
// each inside its CANOPY_QMM_ISA namespace, so that the two builds never mix.
#pragma once

#ifndef CANOPY_QMM_ISA
#error "define CANOPY_QMM_ISA (the namespace of this build) before including quant_dequantize_avx512.h"
#endif

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "avx512_lanes.h"
#include "quant_matmul.h"

namespace canopy::kernels::CANOPY_QMM_ISA {

// Elements [j, j + count) of a stored row (count <= 32) as two f32 vectors.
inline void LoadWeights(const QuantWeight& w, const char* row, int64_t j, int64_t count, __m512& low, __m512& high) {
  __m128i first, second;  // 16 INT8 values each
  if (w.dtype == ACL_INT4) {
    const int64_t bytes = (count + 1) / 2;
    const __m128i packed = _mm_maskz_loadu_epi8(static_cast<__mmask16>(avx512::LanesBelow(bytes)), row + j / 2);
    // Each nibble as a signed value: the table maps 8..15 to -8..-1.
    const __m128i table = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    const __m128i even = _mm_shuffle_epi8(table, _mm_and_si128(packed, nibble));
    const __m128i odd = _mm_shuffle_epi8(table, _mm_and_si128(_mm_srli_epi16(packed, 4), nibble));
    first = _mm_unpacklo_epi8(even, odd);
    second = _mm_unpackhi_epi8(even, odd);
  } else {
    const __mmask32 mask = count >= 32 ? ~__mmask32{0} : (__mmask32{1} << count) - 1;
    const __m256i bytes = _mm256_maskz_loadu_epi8(mask, row + j);
    first = _mm256_castsi256_si128(bytes);
    second = _mm256_extracti128_si256(bytes, 1);
  }
  low = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(first));
  high = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(second));
}

// Stored rows [row0, row1) of w into out (row0's first element), as S, where
// DequantizeVectorsFit(w) (quant_matmul_isa.h).
template <typename S>
void DequantizeVectors(const QuantWeight& w, const char* wbase, const float* scale, const float* offset,
                       typename S::Element* out, int64_t row0, int64_t row1) {
  const int64_t length = w.k_contiguous ? w.k : w.n;  // elements of a stored row
  const int64_t row_bytes = w.dtype == ACL_INT4 ? w.ld / 2 : w.ld;
  const auto put = [&](typename S::Element* dst, int64_t j, int64_t count, __m512 low, __m512 high) {
    if (count >= 32) {
      S::Store(dst + j, low);
      S::Store(dst + j + 16, high);
    } else {
      S::Store(dst + j, low, avx512::LanesBelow(count));
      if (count > 16) S::Store(dst + j + 16, high, avx512::LanesBelow(count - 16));
    }
  };
  for (int64_t r = row0; r < row1; ++r) {
    const char* row = wbase + r * row_bytes;
    typename S::Element* dst = out + (r - row0) * length;
    if (w.k_contiguous) {  // row r is column r: a scale per group along the row
      for (int64_t j0 = 0, at = r * w.Groups(); j0 < length; j0 += w.group_size, ++at) {
        const __m512 s = _mm512_set1_ps(scale[at]);
        const __m512 o = _mm512_set1_ps(w.has_offset ? offset[at] : 0.0f);
        const int64_t j1 = std::min(length, j0 + w.group_size);
        for (int64_t j = j0; j < j1; j += 32) {
          const int64_t count = std::min<int64_t>(32, j1 - j);
          __m512 low, high;
          LoadWeights(w, row, j, count, low, high);
          if (w.has_offset) {
            low = _mm512_add_ps(low, o);
            high = _mm512_add_ps(high, o);
          }
          put(dst, j, count, _mm512_mul_ps(low, s), _mm512_mul_ps(high, s));
        }
      }
    } else {  // row r is k = r: the scales of its group, one per column
      const float* s = scale + (r / w.group_size) * w.n;
      const float* o = w.has_offset ? offset + (r / w.group_size) * w.n : nullptr;
      for (int64_t j = 0; j < length; j += 32) {
        const int64_t count = std::min<int64_t>(32, length - j);
        const __mmask16 first = avx512::LanesBelow(count), second = avx512::LanesBelow(count - 16);
        __m512 low, high;
        LoadWeights(w, row, j, count, low, high);
        if (o != nullptr) {
          low = _mm512_add_ps(low, _mm512_maskz_loadu_ps(first, o + j));
          high = _mm512_add_ps(high, _mm512_maskz_loadu_ps(second, o + j + 16));
        }
        put(dst, j, count, _mm512_mul_ps(low, _mm512_maskz_loadu_ps(first, s + j)),
            _mm512_mul_ps(high, _mm512_maskz_loadu_ps(second, s + j + 16)));
      }
    }
  }
}

}  // namespace canopy::kernels::CANOPY_QMM_ISA
