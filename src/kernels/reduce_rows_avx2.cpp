// The row primitives' AVX2 forms (see reduce_rows.h); this file is compiled
// with AVX2, FMA and F16C, and Rows() picks it only where Cpu().Avx2() and not
// Cpu().Avx512(). Eight f32 lanes, widened into two f64 vectors for the sums;
// the tail is a padded vector whose extra lanes are masked off, so the order of
// the additions is set by n alone.
#include <immintrin.h>
#include <sleef.h>

#include <cmath>

#include "reduce_rows.h"

namespace canopy::kernels {
namespace {

constexpr int kLanes = 8;

// The lowest `count` lanes (0 < count < 8) set, as a mask vector.
inline __m256 LanesBelow(int64_t count) {
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), index));
}

// The tail x[0, count) padded with `fill`.
inline __m256 LoadTail(const float* x, int64_t count, float fill) {
  alignas(32) float padded[kLanes];
  for (int64_t l = 0; l < kLanes; ++l) padded[l] = l < count ? x[l] : fill;
  return _mm256_load_ps(padded);
}

inline __m256d Low(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
inline __m256d High(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }

inline double Total(__m256d lo, __m256d hi) {
  const __m256d sum = _mm256_add_pd(lo, hi);
  const __m128d half = _mm_add_pd(_mm256_castpd256_pd128(sum), _mm256_extractf128_pd(sum, 1));
  return _mm_cvtsd_f64(_mm_add_sd(half, _mm_unpackhi_pd(half, half)));
}

float MaxAvx2(const float* x, int64_t n) {
  __m256 a = _mm256_set1_ps(-INFINITY), b = a, nan = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    const __m256 u = _mm256_loadu_ps(x + i), v = _mm256_loadu_ps(x + i + kLanes);
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(u, v, _CMP_UNORD_Q));
    a = _mm256_max_ps(a, u);
    b = _mm256_max_ps(b, v);
  }
  for (; i < n; i += kLanes) {
    const __m256 u = n - i >= kLanes ? _mm256_loadu_ps(x + i) : LoadTail(x + i, n - i, -INFINITY);
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(u, u, _CMP_UNORD_Q));
    a = _mm256_max_ps(a, u);
  }
  if (_mm256_movemask_ps(nan) != 0) return NAN;
  alignas(32) float lanes[kLanes];
  _mm256_store_ps(lanes, _mm256_max_ps(a, b));
  float max = lanes[0];
  for (int l = 1; l < kLanes; ++l) max = max > lanes[l] ? max : lanes[l];
  return max;
}

double ExpSumAvx2(const float* x, int64_t n, float shift, float* e) {
  const __m256 s = _mm256_set1_ps(shift);
  __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 t = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), s));
    if (e != nullptr) _mm256_storeu_ps(e + i, t);
    lo = _mm256_add_pd(lo, Low(t));
    hi = _mm256_add_pd(hi, High(t));
  }
  if (i < n) {
    const __m256 t = _mm256_and_ps(LanesBelow(n - i), Sleef_expf8_u10avx2(_mm256_sub_ps(LoadTail(x + i, n - i, 0), s)));
    if (e != nullptr) {
      alignas(32) float terms[kLanes];
      _mm256_store_ps(terms, t);
      for (int64_t l = 0; l < n - i; ++l) e[i + l] = terms[l];
    }
    lo = _mm256_add_pd(lo, Low(t));
    hi = _mm256_add_pd(hi, High(t));
  }
  return Total(lo, hi);
}

// sum of the terms accumulate() makes of x's lanes, widened to f64 (lo and hi halves).
template <typename Accumulate>
double WideSum(const float* x, int64_t n, const Accumulate& accumulate) {
  __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const __m256 v = _mm256_loadu_ps(x + i);
    accumulate(Low(v), lo);
    accumulate(High(v), hi);
  }
  if (i < n) {
    const __m256 v = LoadTail(x + i, n - i, 0);
    __m256d a = _mm256_setzero_pd(), b = _mm256_setzero_pd();
    accumulate(Low(v), a);
    accumulate(High(v), b);
    // Padding lanes loaded 0; their terms (0, or mean^2 for the deviations) are left out.
    const __m256 keep = LanesBelow(n - i);
    lo = _mm256_add_pd(
        lo, _mm256_and_pd(
                a, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(_mm256_castps_si256(keep))))));
    hi = _mm256_add_pd(
        hi, _mm256_and_pd(
                b, _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(_mm256_castps_si256(keep), 1)))));
  }
  return Total(lo, hi);
}

double SumAvx2(const float* x, int64_t n) {
  return WideSum(x, n, [](__m256d v, __m256d& acc) { acc = _mm256_add_pd(acc, v); });
}

double SumSquaresAvx2(const float* x, int64_t n) {
  return WideSum(x, n, [](__m256d v, __m256d& acc) { acc = _mm256_fmadd_pd(v, v, acc); });
}

double SumSquaredDeviationsAvx2(const float* x, int64_t n, double mean) {
  const __m256d m = _mm256_set1_pd(mean);
  return WideSum(x, n, [m](__m256d v, __m256d& acc) {
    const __m256d d = _mm256_sub_pd(v, m);
    acc = _mm256_fmadd_pd(d, d, acc);
  });
}

constexpr RowKernels kAvx2 = {MaxAvx2, ExpSumAvx2, SumAvx2, SumSquaresAvx2, SumSquaredDeviationsAvx2};

}  // namespace

const RowKernels& Avx2Rows() { return kAvx2; }

}  // namespace canopy::kernels
