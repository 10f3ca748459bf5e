// The loops of the quantised products (quant_matmul.h), written once and built
// for each instruction set (quant_matmul.cpp, _avx2.cpp, _avx512.cpp) inside
// the namespace CANOPY_QMM_ISA names. Every inner loop runs over a fixed number
// of independent lanes, which the compiler turns into vector code without
// reassociating a sum (results do not depend on the instruction set's width
// beyond the lanes' order, which is fixed).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/half.h"

#include "quant_matmul.h"

namespace canopy::kernels::CANOPY_QMM_ISA {

constexpr int kLanes = 16;
constexpr int kRowBlock = 4;          // rows of x per pass over a block of the weight
constexpr int64_t kColumnBlock = 64;  // columns per pass (N-contiguous layout)
// Every block of rows of x runs over one chunk of columns before the next
// chunk starts, so that the chunk's weights (about kChunkBytes) are still in
// cache for the later row blocks: the weight is read from memory once,
// however many rows x has.
constexpr int64_t kChunkBytes = int64_t{128} << 10;

inline int64_t ColumnChunk(const QuantWeight& w) {
  const int64_t column_bytes = std::max<int64_t>(1, w.dtype == ACL_INT4 ? (w.k + 1) / 2 : w.k);
  return std::max<int64_t>(1, kChunkBytes / column_bytes / kColumnBlock) * kColumnBlock;
}

inline float Low(uint8_t b) { return static_cast<float>(static_cast<int8_t>(static_cast<uint8_t>(b << 4)) >> 4); }
inline float High(uint8_t b) { return static_cast<float>(static_cast<int8_t>(b) >> 4); }

// Row sums of x over each group: the offset term is offset * sum(x).
inline void GroupSums(const float* x, int64_t m, int64_t k, int64_t group_size, float* sums) {
  const int64_t groups = (k + group_size - 1) / group_size;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t k0 = g * group_size, k1 = std::min(k, k0 + group_size);
      float lanes[kLanes] = {};
      int64_t i = k0;
      for (; i + kLanes <= k1; i += kLanes) {
        for (int l = 0; l < kLanes; ++l) lanes[l] += x[r * k + i + l];
      }
      float sum = 0;
      for (int l = 0; l < kLanes; ++l) sum += lanes[l];
      for (; i < k1; ++i) sum += x[r * k + i];
      sums[r * groups + g] = sum;
    }
  }
}

// The offset term of one output, sum over groups of scale * offset * sum(x)
// (the group sums of its row of x), for the vector loops that keep it apart
// from scale * (x . q).
inline float OffsetTerm(const float* scale, const float* offset, const float* row_sums, int64_t groups) {
  float term = 0;
  for (int64_t g = 0; g < groups; ++g) term += scale[g] * offset[g] * row_sums[g];
  return term;
}

// ---- K contiguous: each output is a dot product along a stored row --------------------------

// part[r][l] += x_r[i] * q[i] over the lanes of [0, len) (len's remainder
// below a whole vector goes to tail[r]), for R rows of x (rows `ldx` apart).
template <int R>
inline void PartialsInt8(const float* x, int64_t ldx, const int8_t* q, int64_t len, float (&part)[R][kLanes],
                         float (&tail)[R]) {
  int64_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    float w[kLanes];
    for (int l = 0; l < kLanes; ++l) w[l] = static_cast<float>(q[i + l]);
    for (int r = 0; r < R; ++r) {
      for (int l = 0; l < kLanes; ++l) part[r][l] += x[r * ldx + i + l] * w[l];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int64_t j = i; j < len; ++j) tail[r] += x[r * ldx + j] * static_cast<float>(q[j]);
  }
}

// The same for INT4 bytes `p` holding elements [0, 2 * bytes): x split into its
// even (xe) and odd (xo) elements, so low and high nibbles meet their own lanes.
template <int R>
inline void PartialsInt4(const float* xe, const float* xo, int64_t ldx, const uint8_t* p, int64_t bytes,
                         float (&part)[R][kLanes], float (&tail)[R]) {
  int64_t i = 0;
  for (; i + kLanes <= bytes; i += kLanes) {
    float lo[kLanes], hi[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      lo[l] = Low(p[i + l]);
      hi[l] = High(p[i + l]);
    }
    for (int r = 0; r < R; ++r) {
      for (int l = 0; l < kLanes; ++l) part[r][l] += xe[r * ldx + i + l] * lo[l] + xo[r * ldx + i + l] * hi[l];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int64_t j = i; j < bytes; ++j) tail[r] += xe[r * ldx + j] * Low(p[j]) + xo[r * ldx + j] * High(p[j]);
  }
}

// y[r, c] for columns [c0, c1) and R rows from r0, weight K-contiguous, with
// scale and offset starting at column c0 (f32, ChunkScales). Each group's
// partial sums stay in lanes, scaled into lane totals: one reduction per
// output, not per group.
template <int R>
void KContiguousRows(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo, const float* sums,
                     const char* wbase, const float* scale, const float* offset, float* y, int64_t r0, int64_t c0,
                     int64_t c1) {
  const QuantWeight& w = d.w;
  const int64_t k = w.k, n = w.n, groups = w.Groups(), half = k / 2;
  for (int64_t c = c0; c < c1; ++c) {
    float total[R][kLanes] = {};
    float extra[R] = {};  // tails and offset terms
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t k0 = g * w.group_size, len = std::min(k, k0 + w.group_size) - k0;
      float part[R][kLanes] = {};
      float tail[R] = {};
      if (w.dtype == ACL_INT4) {
        const auto* p = reinterpret_cast<const uint8_t*>(wbase) + (c * w.ld + k0) / 2;
        PartialsInt4<R>(xe + r0 * half + k0 / 2, xo + r0 * half + k0 / 2, half, p, len / 2, part, tail);
      } else {
        const auto* q = reinterpret_cast<const int8_t*>(wbase) + c * w.ld + k0;
        PartialsInt8<R>(x + r0 * k + k0, k, q, len, part, tail);
      }
      const float s = scale[(c - c0) * groups + g];
      const float o = w.has_offset ? offset[(c - c0) * groups + g] : 0.0f;
      // Only the lanes and the tail that met elements of the group add to the
      // totals: 0 times an infinite scale would be NaN where the formula has
      // no such term.
      const int64_t count = w.dtype == ACL_INT4 ? len / 2 : len;  // per lane position
      const bool lanes_met = count >= kLanes, tail_met = count % kLanes != 0;
      for (int r = 0; r < R; ++r) {
        if (lanes_met) {
          for (int l = 0; l < kLanes; ++l) total[r][l] += s * part[r][l];
        }
        if (tail_met || w.has_offset) {
          extra[r] += s * (w.has_offset ? tail[r] + o * sums[(r0 + r) * groups + g] : tail[r]);
        }
      }
    }
    for (int r = 0; r < R; ++r) {
      float sum = extra[r];
      for (int l = 0; l < kLanes; ++l) sum += total[r][l];
      y[(r0 + r) * n + c] = sum;
    }
  }
}

// ---- N contiguous: each stored row adds a multiple of itself to the outputs -----------------

// acc[r][0, cols) += sum over the rows of the group of x[r, kk] * q[kk, c0 + j].
template <int R>
void NContiguousGroup(const QuantMatmulDesc& d, const float* x, const char* wbase, int64_t r0, int64_t k0, int64_t k1,
                      int64_t c0, int64_t cols, float (&acc)[R][kColumnBlock]) {
  const QuantWeight& w = d.w;
  const int64_t k = w.k;
  for (int r = 0; r < R; ++r) std::fill(acc[r], acc[r] + kColumnBlock, 0.0f);
  if (w.dtype == ACL_INT4) {
    // Columns c0 + 2j and c0 + 2j + 1 share byte j: even columns gather in
    // acc[r][j], odd ones in acc[r][kColumnBlock / 2 + j].
    const int64_t pairs = (cols + 1) / 2;
    for (int64_t kk = k0; kk < k1; ++kk) {
      const auto* p = reinterpret_cast<const uint8_t*>(wbase) + (kk * w.ld + c0) / 2;
      float lo[kColumnBlock / 2], hi[kColumnBlock / 2];
      for (int64_t j = 0; j < kColumnBlock / 2; ++j) {
        const uint8_t b = j < pairs ? p[j] : 0;
        lo[j] = Low(b);
        hi[j] = High(b);
      }
      for (int r = 0; r < R; ++r) {
        const float xv = x[(r0 + r) * k + kk];
        for (int64_t j = 0; j < kColumnBlock / 2; ++j) {
          acc[r][j] += xv * lo[j];
          acc[r][kColumnBlock / 2 + j] += xv * hi[j];
        }
      }
    }
    for (int r = 0; r < R; ++r) {  // interleave back into column order
      float ordered[kColumnBlock];
      for (int64_t j = 0; j < kColumnBlock / 2; ++j) {
        ordered[2 * j] = acc[r][j];
        ordered[2 * j + 1] = acc[r][kColumnBlock / 2 + j];
      }
      std::memcpy(acc[r], ordered, sizeof ordered);
    }
    return;
  }
  for (int64_t kk = k0; kk < k1; ++kk) {
    const auto* q = reinterpret_cast<const int8_t*>(wbase) + kk * w.ld + c0;
    float wv[kColumnBlock];
    for (int64_t j = 0; j < kColumnBlock; ++j) wv[j] = j < cols ? static_cast<float>(q[j]) : 0.0f;
    for (int r = 0; r < R; ++r) {
      const float xv = x[(r0 + r) * k + kk];
      for (int64_t j = 0; j < kColumnBlock; ++j) acc[r][j] += xv * wv[j];
    }
  }
}

template <int R>
void NContiguousRows(const QuantMatmulDesc& d, const float* x, const float* sums, const char* wbase, const float* scale,
                     const float* offset, float* y, int64_t r0, int64_t c0, int64_t c1) {
  const QuantWeight& w = d.w;
  const int64_t k = w.k, n = w.n, groups = w.Groups();
  for (int64_t cb = c0; cb < c1; cb += kColumnBlock) {
    const int64_t cols = std::min(kColumnBlock, c1 - cb);
    float total[R][kColumnBlock] = {};
    float acc[R][kColumnBlock];
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t k0 = g * w.group_size, k1 = std::min(k, k0 + w.group_size);
      NContiguousGroup<R>(d, x, wbase, r0, k0, k1, cb, cols, acc);
      const float* s = scale + g * n + cb;
      const float* o = w.has_offset ? offset + g * n + cb : nullptr;
      for (int r = 0; r < R; ++r) {
        const float xsum = w.has_offset ? sums[(r0 + r) * groups + g] : 0.0f;
        for (int64_t j = 0; j < cols; ++j) {
          total[r][j] += s[j] * (w.has_offset ? acc[r][j] + o[j] * xsum : acc[r][j]);
        }
      }
    }
    for (int r = 0; r < R; ++r) std::memcpy(y + (r0 + r) * n + cb, total[r], cols * sizeof(float));
  }
}

// The f32 scales of a K-contiguous weight's columns [c0, c1) (groups per
// column, side by side): where they lie when they are f32, else widened into
// `widened`.
inline const float* ChunkScales(const QuantWeight& w, const void* scale, int64_t c0, int64_t c1,
                                std::vector<float>& widened) {
  const int64_t groups = w.Groups(), first = c0 * groups, count = (c1 - c0) * groups;
  if (w.scale_dtype == ACL_FLOAT) return static_cast<const float*>(scale) + first;
  widened.resize(static_cast<size_t>(count));
  const uint16_t* bits = static_cast<const uint16_t*>(scale) + first;
  if (w.scale_dtype == ACL_BF16) {
    Bf16ToFloatN(bits, widened.data(), count);
  } else {
    HalfToFloatN(bits, widened.data(), count);
  }
  return widened.data();
}

// Calls f(std::integral_constant<int, R>) for R = rows (1..kRowBlock).
template <typename F>
void WithRows(int rows, F&& f) {
  switch (rows) {
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    default:
      return f(std::integral_constant<int, 1>{});
  }
}

// Columns [c0, c1) of y for every row of x (the fused kernel's unit of work),
// the K-contiguous rows through k_rows(integral_constant<int, R>, scale,
// offset, r0, cc, ce) (an instruction set's own loops may stand in), scale and
// offset as ChunkScales gives them for columns [cc, ce), or null where
// widen_scales is false (loops that read the stored scales themselves).
template <typename KRows>
void QuantColumnsWith(const QuantMatmulDesc& d, const float* x, const float* sums, const char* wbase, const void* scale,
                      const void* offset, const float* bias, float* y, int64_t c0, int64_t c1, const KRows& k_rows,
                      bool widen_scales = true) {
  const int64_t chunk = ColumnChunk(d.w);
  std::vector<float> scale_chunk, offset_chunk;
  const bool widen = d.w.k_contiguous && widen_scales;
  for (int64_t cc = c0; cc < c1; cc += chunk) {
    const int64_t ce = std::min(c1, cc + chunk);
    const float* s = widen ? ChunkScales(d.w, scale, cc, ce, scale_chunk) : nullptr;
    const float* o = widen && d.w.has_offset ? ChunkScales(d.w, offset, cc, ce, offset_chunk) : nullptr;
    for (int64_t r0 = 0; r0 < d.m; r0 += kRowBlock) {
      const int rows = static_cast<int>(std::min<int64_t>(kRowBlock, d.m - r0));
      WithRows(rows, [&](auto r) {
        constexpr int R = decltype(r)::value;
        if (d.w.k_contiguous) {
          k_rows(r, s, o, r0, cc, ce);
        } else {  // f32 scales [groups, n] (the planner widens them)
          NContiguousRows<R>(d, x, sums, wbase, static_cast<const float*>(scale), static_cast<const float*>(offset), y,
                             r0, cc, ce);
        }
      });
    }
  }
  if (bias != nullptr) {
    for (int64_t r = 0; r < d.m; ++r) {
      for (int64_t c = c0; c < c1; ++c) y[r * d.w.n + c] += bias[c];
    }
  }
}

inline void QuantColumns(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo, const float* sums,
                         const char* wbase, const void* scale, const void* offset, const float* bias, float* y,
                         int64_t c0, int64_t c1) {
  QuantColumnsWith(d, x, sums, wbase, scale, offset, bias, y, c0, c1,
                   [&](auto r, const float* s, const float* o, int64_t r0, int64_t cc, int64_t ce) {
                     KContiguousRows<decltype(r)::value>(d, x, xe, xo, sums, wbase, s, o, y, r0, cc, ce);
                   });
}

// Dequantised stored rows [row0, row1) (rows along the contiguous axis) into
// `out` (row row0's first element), f32, dense in the storage's orientation.
inline void DequantizeRows(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, float* out,
                           int64_t row0, int64_t row1) {
  const int64_t length = w.k_contiguous ? w.k : w.n;  // elements of a stored row
  for (int64_t row = row0; row < row1; ++row) {
    float* dst = out + (row - row0) * length;
    if (w.dtype == ACL_INT4) {
      const auto* p = reinterpret_cast<const uint8_t*>(wbase) + row * w.ld / 2;
      for (int64_t j = 0; j < length / 2; ++j) {
        dst[2 * j] = Low(p[j]);
        dst[2 * j + 1] = High(p[j]);
      }
      if (length % 2 != 0) dst[length - 1] = Low(p[length / 2]);
    } else {
      const auto* q = reinterpret_cast<const int8_t*>(wbase) + row * w.ld;
      for (int64_t j = 0; j < length; ++j) dst[j] = static_cast<float>(q[j]);
    }
    if (w.k_contiguous) {  // row `row` is column n = row; the group changes along the row
      for (int64_t j0 = 0, at = row * w.Groups(); j0 < length; j0 += w.group_size, ++at) {
        const float s = scale[at], o = w.has_offset ? offset[at] : 0.0f;
        const int64_t j1 = std::min(length, j0 + w.group_size);
        for (int64_t j = j0; j < j1; ++j) dst[j] = (dst[j] + o) * s;
      }
    } else {  // row `row` is k = row: one group, a scale per column
      const float* s = scale + (row / w.group_size) * w.n;
      const float* o = w.has_offset ? offset + (row / w.group_size) * w.n : nullptr;
      for (int64_t j = 0; j < length; ++j) dst[j] = (dst[j] + (w.has_offset ? o[j] : 0.0f)) * s[j];
    }
  }
}

}  // namespace canopy::kernels::CANOPY_QMM_ISA
