// The quantised-product loops built for AVX-512 (see quant_matmul_impl.h), with
// the K-contiguous weight (ggml's layout, the decode hot path) in explicit
// vector code: one 16-byte load gives 16 INT8 or 32 INT4 weights, converted in
// registers, with the group's partial sums kept in one vector per row of x.
// GCC 12 warns that the unmasked AVX-512 conversions inside avx512fintrin.h
// use an uninitialised pass-through vector (its own undefined-vector idiom) once
// they are inlined here: a false positive, silenced for this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <algorithm>

#define CANOPY_QMM_ISA avx512_isa
#include "quant_dequantize_avx512.h"
#include "quant_matmul_impl.h"
#include "quant_matmul_isa.h"

namespace canopy::kernels {
namespace {

// The columns lie side by side: each group's loads prefetch the same group
// this many columns on, which the loop reaches that much later (a column is
// too short a stream for the hardware prefetcher to run ahead of).
constexpr int64_t kPrefetchColumns = 8;

inline __mmask16 Lanes(int64_t count) {
  return count >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << count) - 1u);
}

// part[r][j] += x_r . q_j over elements [0, len) of one group (len > 0), for C
// weight columns `ldq` bytes apart: each vector of x is loaded once for all C.
template <int R, int C>
inline void GroupInt8(const float* x, int64_t ldx, const int8_t* q, int64_t ldq, int64_t len, __m512 (&part)[R][C]) {
  for (int64_t i = 0; i < len; i += 16) {
    const __mmask16 mask = Lanes(len - i);
    __m512 w[C];
    for (int j = 0; j < C; ++j) {
      w[j] = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(mask, q + j * ldq + i)));
    }
    for (int r = 0; r < R; ++r) {
      const __m512 xv = _mm512_maskz_loadu_ps(mask, x + r * ldx + i);
      for (int j = 0; j < C; ++j) part[r][j] = _mm512_fmadd_ps(xv, w[j], part[r][j]);
    }
  }
}

// The same over `bytes` INT4 bytes a column: low nibbles meet xe, high nibbles xo.
template <int R, int C>
inline void GroupInt4(const float* xe, const float* xo, int64_t ldx, const uint8_t* p, int64_t ldp, int64_t bytes,
                      __m512 (&part)[R][C]) {
  for (int64_t i = 0; i < bytes; i += 16) {
    const __mmask16 mask = Lanes(bytes - i);
    __m512 lo[C], hi[C];
    for (int j = 0; j < C; ++j) {
      const __m512i v = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(mask, p + j * ldp + i));
      lo[j] = _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 28), 28));
      hi[j] = _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 24), 28));
    }
    for (int r = 0; r < R; ++r) {
      const __m512 ev = _mm512_maskz_loadu_ps(mask, xe + r * ldx + i);
      const __m512 ov = _mm512_maskz_loadu_ps(mask, xo + r * ldx + i);
      for (int j = 0; j < C; ++j) {
        part[r][j] = _mm512_fmadd_ps(ev, lo[j], part[r][j]);
        part[r][j] = _mm512_fmadd_ps(ov, hi[j], part[r][j]);
      }
    }
  }
}

// y[r, c .. c + C) for R rows from r0, weight K-contiguous, with scale and
// offset starting at column c0 (f32, ChunkScales).
template <int R, int C>
void KContiguousBlock(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo, const float* sums,
                      const char* wbase, const float* scale, const float* offset, float* y, int64_t r0, int64_t c0,
                      int64_t c) {
  const QuantWeight& w = d.w;
  const int64_t k = w.k, n = w.n, groups = w.Groups(), half = k / 2;
  __m512 total[R][C];
  float extra[R][C] = {};  // offset terms
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < C; ++j) total[r][j] = _mm512_setzero_ps();
  }
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t k0 = g * w.group_size, len = std::min(k, k0 + w.group_size) - k0;
    __m512 part[R][C];
    for (int r = 0; r < R; ++r) {
      for (int j = 0; j < C; ++j) part[r][j] = _mm512_setzero_ps();
    }
    if (w.dtype == ACL_INT4) {
      const auto* p = reinterpret_cast<const uint8_t*>(wbase) + (c * w.ld + k0) / 2;
      for (int j = 0; j < C; ++j) {
        _mm_prefetch(reinterpret_cast<const char*>(p + (j + kPrefetchColumns) * w.ld / 2), _MM_HINT_T0);
      }
      GroupInt4<R, C>(xe + r0 * half + k0 / 2, xo + r0 * half + k0 / 2, half, p, w.ld / 2, len / 2, part);
    } else {
      const auto* q = reinterpret_cast<const int8_t*>(wbase) + c * w.ld + k0;
      for (int j = 0; j < C; ++j) {
        _mm_prefetch(reinterpret_cast<const char*>(q + (j + kPrefetchColumns) * w.ld), _MM_HINT_T0);
      }
      GroupInt8<R, C>(x + r0 * k + k0, k, q, w.ld, len, part);
    }
    // Lanes that met no element of the group (fewer than 16) add nothing: 0
    // times an infinite scale would be NaN where the formula has no such term.
    const __mmask16 live = Lanes(std::min<int64_t>(16, w.dtype == ACL_INT4 ? len / 2 : len));
    for (int j = 0; j < C; ++j) {
      const float s = scale[(c - c0 + j) * groups + g];
      const __m512 sv = _mm512_set1_ps(s);
      for (int r = 0; r < R; ++r) total[r][j] = _mm512_mask3_fmadd_ps(sv, part[r][j], total[r][j], live);
      if (w.has_offset) {
        const float o = offset[(c - c0 + j) * groups + g];
        for (int r = 0; r < R; ++r) extra[r][j] += s * o * sums[(r0 + r) * groups + g];
      }
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < C; ++j) y[(r0 + r) * n + c + j] = _mm512_reduce_add_ps(total[r][j]) + extra[r][j];
  }
}

// Columns four (one or two rows of x) or two at a time share each load of x.
template <int R>
void KContiguousRowsAvx512(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo,
                           const float* sums, const char* wbase, const float* scale, const float* offset, float* y,
                           int64_t r0, int64_t c0, int64_t c1) {
  constexpr int kC = R <= 2 ? 4 : 2;
  int64_t c = c0;
  for (; c + kC <= c1; c += kC) KContiguousBlock<R, kC>(d, x, xe, xo, sums, wbase, scale, offset, y, r0, c0, c);
  for (; c < c1; ++c) KContiguousBlock<R, 1>(d, x, xe, xo, sums, wbase, scale, offset, y, r0, c0, c);
}

// INT8, K-contiguous, with every run of 32 elements of K inside one group
// (group sizes that are multiples of 32, or one group: ggml's q8_0 has 32):
// 64 weights a column per step, the two halves' sums scaled by their groups'
// scales, with no per-group loop, masks or scalar bookkeeping inside K.
inline bool Int8RunsFit(const QuantWeight& w) {
  return w.dtype == ACL_INT8 && (w.group_size % 32 == 0 || w.Groups() == 1);
}

template <int R, int C, bool kMasked>
inline void Int8Step(const float* x, int64_t k, const int8_t* const (&column)[C], int64_t at, int64_t ahead,
                     const float* const (&scales)[C], int64_t group_size, __m512 (&total)[R][C]) {
  __mmask16 masks[4];
  for (int v = 0; v < 4; ++v) {
    masks[v] = kMasked ? Lanes(std::max<int64_t>(0, k - at - 16 * v)) : static_cast<__mmask16>(0xFFFF);
  }
  for (int j = 0; j < C; ++j) {
    if constexpr (!kMasked) _mm_prefetch(reinterpret_cast<const char*>(column[j] + at + ahead), _MM_HINT_T0);
    __m512 wv[4];
    for (int v = 0; v < 4; ++v) {
      const __m128i bytes = kMasked ? _mm_maskz_loadu_epi8(masks[v], column[j] + at + 16 * v)
                                    : _mm_loadu_si128(reinterpret_cast<const __m128i*>(column[j] + at + 16 * v));
      wv[v] = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes));
    }
    const __m512 s0 = _mm512_set1_ps(scales[j][at / group_size]);
    const __m512 s1 = _mm512_set1_ps(scales[j][std::min(k - 1, at + 32) / group_size]);
    for (int r = 0; r < R; ++r) {
      const float* xr = x + r * k + at;
      __m512 xv[4];
      for (int v = 0; v < 4; ++v)
        xv[v] = kMasked ? _mm512_maskz_loadu_ps(masks[v], xr + 16 * v) : _mm512_loadu_ps(xr + 16 * v);
      const __m512 low = _mm512_fmadd_ps(xv[1], wv[1], _mm512_mul_ps(xv[0], wv[0]));
      const __m512 high = _mm512_fmadd_ps(xv[3], wv[3], _mm512_mul_ps(xv[2], wv[2]));
      // Lanes past K (the last step's) add nothing: their 0 times an
      // infinite scale would be NaN where the formula has no such term.
      total[r][j] = _mm512_mask3_fmadd_ps(high, s1, _mm512_mask3_fmadd_ps(low, s0, total[r][j], masks[0]), masks[2]);
    }
  }
}

// y[r0 .. r0 + R, c .. c + C): scale and offset start at column c0 (f32, ChunkScales).
template <int R, int C>
void Int8RunsBlock(const QuantMatmulDesc& d, const float* x, const float* sums, const char* wbase, const float* scale,
                   const float* offset, float* y, int64_t r0, int64_t c0, int64_t c) {
  const QuantWeight& w = d.w;
  const int64_t k = w.k, groups = w.Groups();
  const int8_t* column[C];
  const float* scales[C];
  for (int j = 0; j < C; ++j) {
    column[j] = reinterpret_cast<const int8_t*>(wbase) + (c + j) * w.ld;
    scales[j] = scale + (c - c0 + j) * groups;
  }
  __m512 total[R][C];
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < C; ++j) total[r][j] = _mm512_setzero_ps();
  }
  const int64_t ahead = kPrefetchColumns * w.ld, whole = k / 64 * 64;
  const float* xr = x + r0 * k;
  int64_t at = 0;
  for (; at < whole; at += 64) Int8Step<R, C, false>(xr, k, column, at, ahead, scales, w.group_size, total);
  if (at < k) Int8Step<R, C, true>(xr, k, column, at, ahead, scales, w.group_size, total);
  for (int j = 0; j < C; ++j) {
    for (int r = 0; r < R; ++r) {
      const float extra = w.has_offset ? avx512_isa::OffsetTerm(scales[j], offset + (c - c0 + j) * groups,
                                                                sums + (r0 + r) * groups, groups)
                                       : 0.0f;
      y[(r0 + r) * w.n + c + j] = _mm512_reduce_add_ps(total[r][j]) + extra;
    }
  }
}

template <int R>
void Int8RunsRows(const QuantMatmulDesc& d, const float* x, const float* sums, const char* wbase, const float* scale,
                  const float* offset, float* y, int64_t r0, int64_t c0, int64_t c1) {
  constexpr int kC = R <= 2 ? 4 : 2;
  int64_t c = c0;
  for (; c + kC <= c1; c += kC) Int8RunsBlock<R, kC>(d, x, sums, wbase, scale, offset, y, r0, c0, c);
  for (; c < c1; ++c) Int8RunsBlock<R, 1>(d, x, sums, wbase, scale, offset, y, r0, c0, c);
}

void QuantColumnsAvx512(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo, const float* sums,
                        const char* wbase, const void* scale, const void* offset, const float* bias, float* y,
                        int64_t c0, int64_t c1) {
  avx512_isa::QuantColumnsWith(d, x, sums, wbase, scale, offset, bias, y, c0, c1,
                               [&](auto r, const float* s, const float* o, int64_t r0, int64_t cc, int64_t ce) {
                                 constexpr int R = decltype(r)::value;
                                 if (Int8RunsFit(d.w)) {
                                   Int8RunsRows<R>(d, x, sums, wbase, s, o, y, r0, cc, ce);
                                 } else {
                                   KContiguousRowsAvx512<R>(d, x, xe, xo, sums, wbase, s, o, y, r0, cc, ce);
                                 }
                               });
}

void DequantizeAvx512(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, float* out,
                      int64_t row0, int64_t row1) {
  if (DequantizeVectorsFit(w)) {
    avx512_isa::DequantizeVectors<avx512::F32>(w, wbase, scale, offset, out, row0, row1);
  } else {
    avx512_isa::DequantizeRows(w, wbase, scale, offset, out, row0, row1);
  }
}

void Dequantize16Avx512(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, uint16_t* out,
                        aclDataType out_dtype, int64_t row0, int64_t row1) {
  if (out_dtype == ACL_BF16) {
    avx512_isa::DequantizeVectors<avx512::Bf16>(w, wbase, scale, offset, out, row0, row1);
  } else {
    avx512_isa::DequantizeVectors<avx512::F16>(w, wbase, scale, offset, out, row0, row1);
  }
}

}  // namespace

const QuantLoops kQuantLoopsAvx512 = {QuantColumnsAvx512, DequantizeAvx512, Dequantize16Avx512};

}  // namespace canopy::kernels
