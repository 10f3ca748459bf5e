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
