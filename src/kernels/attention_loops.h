// The inner loops of the attention kernel (attention.cpp), written once and
// built for each instruction set (attention.cpp, attention_avx2.cpp,
// attention_avx512.cpp) inside the namespace CANOPY_ATTENTION_ISA names. Each
// loop runs over independent lanes (keys, or value dims) in a fixed order, so
// the compiler vectorises it without reassociating a sum: within one build the
// result does not depend on how work is split.
#pragma once

#include <cstdint>

namespace canopy::kernels::CANOPY_ATTENTION_ISA {

// dots[t] = sum over e of q[e] * key_t[e * stride + t], for t < keys (key_t: a
// key block transposed, [dim][key]).
inline void BlockDots(const float* q, const float* key_t, int64_t d, int64_t stride, int64_t keys, float* dots) {
  for (int64_t t = 0; t < keys; ++t) dots[t] = 0.0f;
  for (int64_t e = 0; e < d; ++e) {
    const float qe = q[e];
    const float* kt = key_t + e * stride;
#pragma omp simd
    for (int64_t t = 0; t < keys; ++t) dots[t] += qe * kt[t];
  }
}

// Lanes of the per-key dot products (KeyDots): the same count on every
// instruction set, so the summation order does not depend on the vector width.
constexpr int64_t kDotLanes = 16;

// dots[r * dots_stride + t] = sum over e of q[r * d + e] * keys[t * d + e], for
// r < rows and t < keys (keys: a block of key rows, [key][dim]). Dim e (below
// the last whole group of kDotLanes) adds into lane e % kDotLanes in increasing
// e; the lanes are summed as a fixed tree (16 -> 8 -> 4 -> 2 -> 1), then the
// remaining dims in order. Each key row is reused by every query row while it
// is in cache: decode's few query rows need no transposed key block.
inline void KeyDots(const float* q, int64_t rows, const float* keys, int64_t d, int64_t keys_count, float* dots,
                    int64_t dots_stride) {
  static_assert(kDotLanes == 16, "the tree below sums 16 lanes");
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
      float half[8], quarter[4];
#pragma omp simd
      for (int64_t l = 0; l < 8; ++l) half[l] = lanes[l] + lanes[l + 8];
#pragma omp simd
      for (int64_t l = 0; l < 4; ++l) quarter[l] = half[l] + half[l + 4];
      float dot = (quarter[0] + quarter[2]) + (quarter[1] + quarter[3]);
      for (int64_t e = whole; e < d; ++e) dot += qr[e] * k[e];
      dots[r * dots_stride + t] = dot;
    }
  }
}

// acc[e] = acc[e] * rescale + sum over t of p[t] * values[t * dv + e] (keys with p[t] = 0 skipped).
inline void AccumulateValues(const float* p, const float* values, int64_t keys, int64_t dv, float rescale, float* acc) {
  if (rescale != 1.0f) {
#pragma omp simd
    for (int64_t e = 0; e < dv; ++e) acc[e] *= rescale;
  }
  for (int64_t t = 0; t < keys; ++t) {
    const float pt = p[t];
    if (pt == 0.0f) continue;
    const float* v = values + t * dv;
#pragma omp simd
    for (int64_t e = 0; e < dv; ++e) acc[e] += pt * v[e];
  }
}

}  // namespace canopy::kernels::CANOPY_ATTENTION_ISA
