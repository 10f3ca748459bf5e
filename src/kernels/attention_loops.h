// The inner loops of the attention kernel (attention.cpp), written once and
// built for each instruction set (attention.cpp, attention_avx2.cpp,
// attention_avx512.cpp) inside the namespace CANOPY_ATTENTION_ISA names. Each
// loop runs over independent lanes (keys, or value dims) in a fixed order, so
// the compiler vectorises it without reassociating a sum: within one build the
// result does not depend on how work is split.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace canopy::kernels::CANOPY_ATTENTION_ISA {

// out[e] = (q[e] + offset[e]) * scale[e], e < n, in f32: one contiguous INT8
// key or value row dequantised as attention.cpp loads it (KV antiquantisation).
// Element-wise, so every build gives the same result.
inline void DequantRow(const int8_t* q, int64_t n, const float* scale, const float* offset, float* out) {
#pragma omp simd
  for (int64_t e = 0; e < n; ++e) out[e] = (static_cast<float>(q[e]) + offset[e]) * scale[e];
}

// Keys of a block of BlockDots' fixed-size path (attention.cpp's key block).
constexpr int64_t kBlockKeys = 64;
// Query rows whose sums the fixed-size path keeps in registers at once.
constexpr int kBlockRows = 4;

// acc[r][t] = sum over e of q[r * d + e] * key_t[e * kBlockKeys + t] for R
// rows: each key row of the transposed block is loaded once for R rows.
template <int R>
inline void FullBlockDots(const float* q, const float* key_t, int64_t d, float* dots, int64_t dots_stride) {
  float acc[R][kBlockKeys] = {};
  for (int64_t e = 0; e < d; ++e) {
    const float* kt = key_t + e * kBlockKeys;
    for (int r = 0; r < R; ++r) {
      const float qe = q[r * d + e];
#pragma omp simd
      for (int64_t t = 0; t < kBlockKeys; ++t) acc[r][t] += qe * kt[t];
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int64_t t = 0; t < kBlockKeys; ++t) dots[r * dots_stride + t] = acc[r][t];
  }
}

// dots[r * dots_stride + t] = sum over e of q[r * d + e] * key_t[e * stride +
// t], for r < rows and t < keys (key_t: a key block transposed, [dim][key]);
// each sum in increasing e, whichever path takes it.
inline void BlockDots(const float* q, int64_t rows, const float* key_t, int64_t d, int64_t stride, int64_t keys,
                      float* dots, int64_t dots_stride) {
  int64_t r = 0;
  if (keys == kBlockKeys && stride == kBlockKeys) {
    for (; r + kBlockRows <= rows; r += kBlockRows) {
      FullBlockDots<kBlockRows>(q + r * d, key_t, d, dots + r * dots_stride, dots_stride);
    }
  }
  for (; r < rows; ++r) {
    float* row = dots + r * dots_stride;
    for (int64_t t = 0; t < keys; ++t) row[t] = 0.0f;
    for (int64_t e = 0; e < d; ++e) {
      const float qe = q[r * d + e];
      const float* kt = key_t + e * stride;
#pragma omp simd
      for (int64_t t = 0; t < keys; ++t) row[t] += qe * kt[t];
    }
  }
}

// Lanes of the per-key dot products (KeyDots): the same count on every
// instruction set, so the summation order does not depend on the vector width.
constexpr int64_t kDotLanes = 16;

// The sum of kDotLanes lanes as a fixed tree (16 -> 8 -> 4 -> 2 -> 1).
inline float LaneTree(const float (&lanes)[kDotLanes]) {
  static_assert(kDotLanes == 16, "the tree sums 16 lanes");
  float half[8], quarter[4];
#pragma omp simd
  for (int64_t l = 0; l < 8; ++l) half[l] = lanes[l] + lanes[l + 8];
#pragma omp simd
  for (int64_t l = 0; l < 4; ++l) quarter[l] = half[l] + half[l + 4];
  return (quarter[0] + quarter[2]) + (quarter[1] + quarter[3]);
}

// dots[r * dots_stride + t] = sum over e of q[r * d + e] * keys[t * d + e], for
// r < rows and t < keys (keys: a block of key rows, [key][dim]). Dim e (below
// the last whole group of kDotLanes) adds into lane e % kDotLanes in increasing
// e; the lanes are summed as a fixed tree (16 -> 8 -> 4 -> 2 -> 1), then the
// remaining dims in order. Each key row is reused by every query row while it
// is in cache: decode's few query rows need no transposed key block.
inline void KeyDots(const float* q, int64_t rows, const float* keys, int64_t d, int64_t keys_count, float* dots,
                    int64_t dots_stride) {
  const int64_t whole = d / kDotLanes * kDotLanes;
  for (int64_t t = 0; t < keys_count; ++t) {
    const float* k = keys + t * d;
    for (int64_t r = 0; r < rows; ++r) {
      const float* qr = q + r * d;
      float lanes[kDotLanes] = {};
      for (int64_t e = 0; e < whole; e += kDotLanes) {
#pragma omp simd
        for (int64_t l = 0; l < kDotLanes; ++l) lanes[l] += qr[e + l] * k[e + l];
      }
      float dot = LaneTree(lanes);
      for (int64_t e = whole; e < d; ++e) dot += qr[e] * k[e];
      dots[r * dots_stride + t] = dot;
    }
  }
}

// weights[t] = exp(scores[t] - max) (0 for a score of -inf), t < keys; returns
// their sum: key t (below the last whole group of kDotLanes) adds into lane
// t % kDotLanes in increasing t, the lanes summed as LaneTree, then the
// remaining keys in order. `exp` is the instruction set's (vector) exponential
// over kDotLanes values.
template <typename VectorExp>
inline float SoftmaxWeightsWith(const float* scores, int64_t keys, float max, float* weights, VectorExp exp16) {
  const int64_t whole = keys / kDotLanes * kDotLanes;
  float lanes[kDotLanes] = {};
  for (int64_t t = 0; t < whole; t += kDotLanes) {
    exp16(scores + t, max, weights + t);
#pragma omp simd
    for (int64_t l = 0; l < kDotLanes; ++l) lanes[l] += weights[t + l];
  }
  float sum = LaneTree(lanes);
  for (int64_t t = whole; t < keys; ++t) {
    weights[t] = std::exp(scores[t] - max);
    sum += weights[t];
  }
  return sum;
}

inline float SoftmaxWeights(const float* scores, int64_t keys, float max, float* weights) {
  return SoftmaxWeightsWith(scores, keys, max, weights, [](const float* in, float m, float* out) {
    for (int64_t l = 0; l < kDotLanes; ++l) out[l] = std::exp(in[l] - m);
  });
}

// scores[t] = dots[t] * scale for keys t in [first, last), -inf for the other
// keys below `keys` (a row without mask or pse); returns the largest score
// (NaN scores left out, as std::max leaves them).
inline float ScaledScores(const float* dots, int64_t first, int64_t last, int64_t keys, float scale, float* scores) {
  float max = -INFINITY;
  for (int64_t t = 0; t < first; ++t) scores[t] = -INFINITY;
  for (int64_t t = first; t < last; ++t) {
    scores[t] = dots[t] * scale;
    max = std::max(max, scores[t]);
  }
  for (int64_t t = last; t < keys; ++t) scores[t] = -INFINITY;
  return max;
}

// a[r][l] += p[r * p_stride + t] * v[t * dv + l] for NR rows and NE dims, keys
// in increasing t (a row whose p[t] is 0 skips key t, so that a value it gives
// no weight cannot bring a NaN in). NR x NE sums fit the registers: each value
// row loaded serves NR rows.
template <int NR, int64_t NE>
inline void ValuePass(const float* p, int64_t p_stride, const float* v, int64_t keys, int64_t dv, float (&a)[NR][NE]) {
  for (int64_t t = 0; t < keys; ++t) {
    const float* vt = v + t * dv;
    for (int r = 0; r < NR; ++r) {
      const float pt = p[r * p_stride + t];
      if (pt == 0.0f) continue;
#pragma omp simd
      for (int64_t l = 0; l < NE; ++l) a[r][l] += pt * vt[l];
    }
  }
}

// Rows [r0, r0 + nr) and dims [e0, e0 + ne) of AccumulateValues, in passes of
// NR rows and NE dims (the edges one row at a time).
template <int NR, int64_t NE>
inline void ValueTile(const float* p, int64_t p_stride, int64_t r0, int64_t nr, const float* values, int64_t keys,
                      int64_t dv, int64_t e0, int64_t ne, const float* rescale, float* acc) {
  float a[NR][NE];
  for (int64_t r = 0; r < nr; ++r) {
    const float* row = acc + (r0 + r) * dv + e0;
    for (int64_t l = 0; l < ne; ++l) a[r][l] = row[l] * rescale[r0 + r];
  }
  const float* pr = p + r0 * p_stride;
  if (nr == NR && ne == NE) {
    ValuePass<NR, NE>(pr, p_stride, values + e0, keys, dv, a);
  } else {
    for (int64_t t = 0; t < keys; ++t) {
      const float* vt = values + t * dv + e0;
      for (int64_t r = 0; r < nr; ++r) {
        const float pt = pr[r * p_stride + t];
        if (pt == 0.0f) continue;
        for (int64_t l = 0; l < ne; ++l) a[r][l] += pt * vt[l];
      }
    }
  }
  for (int64_t r = 0; r < nr; ++r) {
    float* row = acc + (r0 + r) * dv + e0;
    for (int64_t l = 0; l < ne; ++l) row[l] = a[r][l];
  }
}

// Rows and value dims of one pass of AccumulateValues.
constexpr int kValueRows = 4;
constexpr int64_t kValueDims = 64;

// For rows r < rows: acc[r * dv + e] = acc[r * dv + e] * rescale[r] + sum over
// t of p[r * p_stride + t] * values[t * dv + e], keys in increasing t, keys
// with p = 0 skipped. Per row and dim the same operations in the same order
// whatever the tiling; the rows of a pass share each load of a value row.
inline void AccumulateValues(const float* p, int64_t p_stride, int64_t rows, const float* values, int64_t keys,
                             int64_t dv, const float* rescale, float* acc) {
  for (int64_t r0 = 0; r0 < rows; r0 += kValueRows) {
    for (int64_t e0 = 0; e0 < dv; e0 += kValueDims) {
      ValueTile<kValueRows, kValueDims>(p, p_stride, r0, std::min<int64_t>(kValueRows, rows - r0), values, keys, dv, e0,
                                        std::min(kValueDims, dv - e0), rescale, acc);
    }
  }
}

}  // namespace canopy::kernels::CANOPY_ATTENTION_ISA
