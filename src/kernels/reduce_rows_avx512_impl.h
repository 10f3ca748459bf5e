// The row primitives' AVX-512 loops (see reduce_rows.h), written once and
// built by reduce_rows_avx512.cpp (AVX-512 F/BW/VL and FMA, called only where
// Cpu().Avx512()) and reduce_rows_avx512_bf16.cpp (bf16 rows rounded by the
// AVX-512 BF16 instruction, called only where the CPU has it), each inside the
// namespace CANOPY_ROWS_ISA names, so that the two builds never mix.
// Sixteen f32 lanes, loaded from f32, fp16 or bf16 storage (avx512_lanes.h);
// the sums' terms (values, squares, exps) are f32, added four vectors at a time
// in f32 and those blocks in two f64 vectors; the tail is a masked vector, so
// the order of the additions is set by n alone.
#pragma once

#ifndef CANOPY_ROWS_ISA
#error "define CANOPY_ROWS_ISA (the namespace of this build) before including reduce_rows_avx512_impl.h"
#endif

#include "x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "avx512_lanes.h"
#include "reduce_rows.h"

namespace canopy::kernels::CANOPY_ROWS_ISA {
constexpr int kLanes = 16;
constexpr int64_t kLine = 64;

inline __m512d LowWide(__m512 v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
inline __m512d HighWide(__m512 v) {
  return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}

inline double Total(__m512d lo, __m512d hi) { return _mm512_reduce_add_pd(_mm512_add_pd(lo, hi)); }

// Prefetches `bytes` from `base` spread evenly over the n elements of a loop, a
// line whenever the loop has passed its share (the next row, while this one
// computes), into L2: a row of 4096 f32, its terms, the next row and the output
// row together overfill L1, and prefetching them there evicted the row in use
// (f32 softmax / LayerNorm / RmsNorm over 4096x4096: 11-14 % faster into L2).
class Spread {
 public:
  Spread(const char* base, int64_t bytes, int64_t n) : base_(base), bytes_(base == nullptr ? 0 : bytes), n_(n) {}
  // `vectors` more vectors of the loop done.
  void Step(int vectors = 1) {
    progress_ += bytes_ * kLanes * vectors;
    for (; next_ < bytes_ && next_ * n_ < progress_; next_ += kLine) _mm_prefetch(base_ + next_, _MM_HINT_T1);
  }
  void Finish() {
    for (; next_ < bytes_; next_ += kLine) _mm_prefetch(base_ + next_, _MM_HINT_T1);
  }

 private:
  const char* base_;
  int64_t bytes_, n_, next_ = 0, progress_ = 0;
};

// exp(x) for softmax's x - max (at most 0, -inf, or NaN; any x works): 2^n p(r)
// with n = round(x log2 e), r = x - n ln 2 in two steps (Cody and Waite), p the
// degree-6 polynomial interpolating exp at the Chebyshev nodes of |r| <= ln2 / 2
// (within 0.05 ulp of exp there, p(0) = 1), scaled by vscalefps (exact, with
// gradual underflow to 0). Within 1.1 ulp over every f32 x in [-87.3, 0] (the
// degree-7 Taylor form it replaces: 0.92, one more fma); half the instructions
// of SLEEF's expf, the bulk of softmax's arithmetic. exp(0) is 1 exactly; NaN
// stays NaN.
inline __m512 Exp(__m512 x) {
  x = _mm512_max_ps(_mm512_set1_ps(-104.0f), x);  // the second operand where NaN: NaN stays
  x = _mm512_min_ps(_mm512_set1_ps(89.0f), x);
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145751953125f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.42860682030941723212e-6f), r);
  __m512 p = _mm512_set1_ps(1.3941108445916731e-3f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.375126398467159e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1666352896620275e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666415514648852e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.000000047117755e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.000000037716215f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

// exp(x - shift) over sixteen lanes of rows stored as S. f32 rows: Exp of the
// difference (within 1.1 ulp). Rows of 16 bits, whose results round to 8 or 11
// bits: 2^t with t = (x - shift) log2 e (the difference first, exact where x
// is near the shift, so that the shift's size costs nothing: a product of the
// shift alone rounds by up to 2^-24 |shift| log2 e, hundreds of binades at
// 1e10), t = n + f with |f| <= 1/2, 2^f = 1 + f q(f) with q of degree 4
// interpolating at the Chebyshev nodes (within 2.1e-7; 2^0 is 1 exactly, so
// the row's largest term is), scaled by vscalefps. The two roundings of t
// leave each term within 1.2e-6 of exp(x - shift) where it is above 2^-24 of
// the largest (the terms a 16-bit result can show). 12 instructions where Exp
// and the subtraction take 15. NaN stays NaN; -inf gives 0.
template <typename S>
class ShiftedExp {
 public:
  explicit ShiftedExp(float shift) : shift_(_mm512_set1_ps(shift)) {}
  __m512 operator()(__m512 x) const {
    const __m512 d = _mm512_sub_ps(x, shift_);
    if constexpr (kWide) return Exp(d);
    // 2^-151 scales to 0; NaN stays (the second operand).
    const __m512 t = _mm512_max_ps(_mm512_set1_ps(-151.0f), _mm512_mul_ps(d, _mm512_set1_ps(kLog2e)));
    const __m512 n = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 f = _mm512_sub_ps(t, n);
    __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(1.3381302123889327e-3f), f, _mm512_set1_ps(9.66636836528778e-3f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.5503811687231064e-2f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.402234971523285e-1f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.931471824645996e-1f));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0f));
    return _mm512_scalef_ps(p, n);
  }

 private:
  static constexpr bool kWide = sizeof(typename S::Element) == 4;
  static constexpr float kLog2e = 1.44269504088896341f;
  __m512 shift_;
};

template <typename S>
float Max(const typename S::Element* x, int64_t n, Spread& spread) {
  const __m512 lowest = _mm512_set1_ps(-INFINITY);
  __m512 a = lowest, b = lowest;
  __mmask16 nan = 0;
  int64_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    const __m512 u = S::Load(x + i), v = S::Load(x + i + kLanes);
    nan = static_cast<__mmask16>(nan | _mm512_cmp_ps_mask(u, v, _CMP_UNORD_Q));
    a = _mm512_max_ps(a, u);
    b = _mm512_max_ps(b, v);
    spread.Step();
    spread.Step();
  }
  spread.Finish();
  for (; i < n; i += kLanes) {
    const __mmask16 m = avx512::LanesBelow(n - i);
    const __m512 u = _mm512_mask_mov_ps(lowest, m, S::Load(x + i, m));
    nan = static_cast<__mmask16>(nan | _mm512_cmp_ps_mask(u, u, _CMP_UNORD_Q));
    a = _mm512_max_ps(a, u);
  }
  return nan != 0 ? NAN : _mm512_reduce_max_ps(_mm512_max_ps(a, b));
}

// The f32 sum of four vectors (a + b) + (c + d), widened into lo and hi: the
// sums' blocks of 64 elements, each added in f32 (within 2 roundings of the
// block's magnitude) and then in f64, a quarter of the widenings of adding
// every vector in f64.
inline void AddBlock(__m512 a, __m512 b, __m512 c, __m512 d, __m512d& lo, __m512d& hi) {
  const __m512 block = _mm512_add_ps(_mm512_add_ps(a, b), _mm512_add_ps(c, d));
  lo = _mm512_add_pd(lo, LowWide(block));
  hi = _mm512_add_pd(hi, HighWide(block));
}

// lo and hi (f64) plus the sixteen f32 terms of t: the sums' tails, a vector at a time.
inline void AddWide(__m512 t, __m512d& lo, __m512d& hi) {
  lo = _mm512_add_pd(lo, LowWide(t));
  hi = _mm512_add_pd(hi, HighWide(t));
}

// sum of exp(x - shift) in f64 over blocks of 64 terms added in f32 (AddBlock);
// the terms stored at e where kStore. Four independent exponentials a block,
// written out so that the compiler keeps them in registers.
template <typename S, bool kStore>
double ExpSumOf(const typename S::Element* x, int64_t n, float shift, float* e, Spread& spread) {
  const ShiftedExp<S> exp(shift);
  __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
  int64_t i = 0;
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const __m512 t0 = exp(S::Load(x + i));
    const __m512 t1 = exp(S::Load(x + i + kLanes));
    const __m512 t2 = exp(S::Load(x + i + 2 * kLanes));
    const __m512 t3 = exp(S::Load(x + i + 3 * kLanes));
    if constexpr (kStore) {
      _mm512_storeu_ps(e + i, t0);
      _mm512_storeu_ps(e + i + kLanes, t1);
      _mm512_storeu_ps(e + i + 2 * kLanes, t2);
      _mm512_storeu_ps(e + i + 3 * kLanes, t3);
    }
    AddBlock(t0, t1, t2, t3, lo, hi);
    spread.Step(4);
  }
  spread.Finish();
  for (; i < n; i += kLanes) {
    const __mmask16 m = avx512::LanesBelow(n - i);
    const __m512 t = _mm512_maskz_mov_ps(m, exp(S::Load(x + i, m)));
    if constexpr (kStore) _mm512_mask_storeu_ps(e + i, m, t);
    AddWide(t, lo, hi);
  }
  return Total(lo, hi);
}

template <typename S>
double ExpSum(const typename S::Element* x, int64_t n, float shift, float* e, Spread& spread) {
  return e != nullptr ? ExpSumOf<S, true>(x, n, shift, e, spread) : ExpSumOf<S, false>(x, n, shift, e, spread);
}

// sum over x of term(v), the f32 terms of sixteen lanes, in f64 over blocks of
// 64 terms added in f32 (AddBlock), then the tail a vector at a time.
template <typename S, typename Term>
double WideSum(const typename S::Element* x, int64_t n, Spread& spread, const Term& term) {
  __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
  int64_t i = 0;
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const __m512 a = term(S::Load(x + i)), b = term(S::Load(x + i + kLanes));
    const __m512 c = term(S::Load(x + i + 2 * kLanes)), d = term(S::Load(x + i + 3 * kLanes));
    AddBlock(a, b, c, d, lo, hi);
    spread.Step(4);
  }
  spread.Finish();
  for (; i < n; i += kLanes) {
    const __mmask16 m = avx512::LanesBelow(n - i);
    // Masked-off lanes are left out (their term is 0 only for the plain sums).
    const __m512 t = _mm512_maskz_mov_ps(m, term(S::Load(x + i, m)));
    AddWide(t, lo, hi);
  }
  return Total(lo, hi);
}

template <typename S>
double Sum(const typename S::Element* x, int64_t n, Spread& spread) {
  return WideSum<S>(x, n, spread, [](__m512 v) { return v; });
}

template <typename S>
double SumSquares(const typename S::Element* x, int64_t n, Spread& spread) {
  return WideSum<S>(x, n, spread, [](__m512 v) { return _mm512_mul_ps(v, v); });
}

// The deviations from the mean rounded to f32 (exact where x is within a factor
// of two of it, Sterbenz), squared in f32.
template <typename S>
double SumSquaredDeviations(const typename S::Element* x, int64_t n, double mean, Spread& spread) {
  const __m512 m = _mm512_set1_ps(static_cast<float>(mean));
  return WideSum<S>(x, n, spread, [m](__m512 v) {
    const __m512 d = _mm512_sub_ps(v, m);
    return _mm512_mul_ps(d, d);
  });
}

// Stores 16 lanes at p, 64-byte (f32) or 32-byte (16-bit) aligned, past the caches.
template <typename Out>
void StreamStore(typename Out::Element* p, __m512 v) {
  if constexpr (sizeof(typename Out::Element) == 4) {
    _mm512_stream_ps(p, v);
  } else {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), Out::Round(v));
  }
}

// y = f(x, i, lanes) over n elements, sixteen at a time, the prefetch spread
// over the loop. kStream: the whole vectors of y aligned to their width go
// past the caches (non-temporal stores, no read for ownership: outputs far
// larger than the caches), the few before them and the tail stored as usual.
template <typename In, typename Out, bool kStream, typename F>
// The spread and f are copies, so that their state stays in registers through
// the loop (the stores, of may-alias vector types, would otherwise make the
// compiler reload a reference's fields every vector).
void Map(const typename In::Element* x, typename Out::Element* y, int64_t n, Spread spread, const F f) {
  int64_t i = 0;
  if constexpr (kStream) {
    constexpr auto kElement = static_cast<int64_t>(sizeof(typename Out::Element));
    constexpr int64_t kWidth = kLanes * kElement;
    const auto address = static_cast<int64_t>(reinterpret_cast<uintptr_t>(y) % kWidth);
    if (address % kElement == 0) {
      const int64_t head = std::min(n, (kWidth - address) % kWidth / kElement);
      if (head > 0) {
        const __mmask16 m = avx512::LanesBelow(head);
        Out::Store(y, f(In::Load(x, m), 0, m), m);
        i = head;
      }
      for (; i + kLanes <= n; i += kLanes) {
        StreamStore<Out>(y + i, f(In::Load(x + i), i, static_cast<__mmask16>(0xffff)));
        spread.Step();
      }
      _mm_sfence();
    }
  }
  for (; i + kLanes <= n; i += kLanes) {
    Out::Store(y + i, f(In::Load(x + i), i, static_cast<__mmask16>(0xffff)));
    spread.Step();
  }
  if (i < n) {
    const __mmask16 m = avx512::LanesBelow(n - i);
    Out::Store(y + i, f(In::Load(x + i, m), i, m), m);
  }
  spread.Finish();
}

inline Spread None() { return {nullptr, 0, 1}; }

// ---- whole rows in their storage (StoredRowKernels) ---------------------------------------------------

template <typename S, bool kStream>
struct Stored {
  using E = typename S::Element;
  static Spread Ahead(const void* prefetch, int64_t bytes, int64_t n) {
    return {static_cast<const char*>(prefetch), bytes, n};
  }
  static float RowMax(const void* x, int64_t n, const void* prefetch, int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    return Max<S>(static_cast<const E*>(x), n, spread);
  }
  static double RowExpSum(const void* x, int64_t n, float shift, float* e, const void* prefetch,
                          int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    return ExpSum<S>(static_cast<const E*>(x), n, shift, e, spread);
  }
  static double RowSum(const void* x, int64_t n, const void* prefetch, int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    return Sum<S>(static_cast<const E*>(x), n, spread);
  }
  static double RowSumSquares(const void* x, int64_t n, const void* prefetch, int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    return SumSquares<S>(static_cast<const E*>(x), n, spread);
  }
  static double RowSumSquaredDeviations(const void* x, int64_t n, double mean, const void* prefetch,
                                        int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    return SumSquaredDeviations<S>(static_cast<const E*>(x), n, mean, spread);
  }
  static void ScaleStore(const float* e, void* y, int64_t n, float scale, const void* prefetch,
                         int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    const __m512 s = _mm512_set1_ps(scale);
    Map<avx512::F32, S, kStream>(e, static_cast<E*>(y), n, spread,
                                 [s](__m512 v, int64_t, __mmask16) { return _mm512_mul_ps(v, s); });
  }
  static void ShiftStore(const void* x, void* y, int64_t n, float max, float log_sum, const void* prefetch,
                         int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    const __m512 m = _mm512_set1_ps(max), l = _mm512_set1_ps(log_sum);
    Map<S, S, kStream>(static_cast<const E*>(x), static_cast<E*>(y), n, spread,
                       [m, l](__m512 v, int64_t, __mmask16) { return _mm512_sub_ps(_mm512_sub_ps(v, m), l); });
  }
  // gamma and beta of storage G (f32, or the rows' own). (x - mean) * rstd
  // with the difference first: exact where x is near the mean, so that a row
  // of one large value gives beta (x * rstd - mean * rstd in one fma kept the
  // product's rounding, magnified by the rstd of a constant row); RmsNorm's
  // mean of 0 leaves the product alone.
  template <typename G, bool kCentred>
  static void AffineOf(const void* x, void* y, int64_t n, float mean, float rstd, const void* gamma_data,
                       const void* beta_data, const void* prefetch, int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    const __m512 s = _mm512_set1_ps(rstd), m = _mm512_set1_ps(mean);
    const auto normalised = [s, m](__m512 v) {
      return kCentred ? _mm512_mul_ps(_mm512_sub_ps(v, m), s) : _mm512_mul_ps(v, s);
    };
    const auto* gamma = static_cast<const typename G::Element*>(gamma_data);
    const auto* beta = static_cast<const typename G::Element*>(beta_data);
    if (beta == nullptr) {
      Map<S, S, kStream>(static_cast<const E*>(x), static_cast<E*>(y), n, spread,
                         [normalised, gamma](__m512 v, int64_t i, __mmask16 lanes) {
                           return _mm512_mul_ps(normalised(v), G::Load(gamma + i, lanes));
                         });
    } else {
      Map<S, S, kStream>(static_cast<const E*>(x), static_cast<E*>(y), n, spread,
                         [normalised, gamma, beta](__m512 v, int64_t i, __mmask16 lanes) {
                           return _mm512_fmadd_ps(normalised(v), G::Load(gamma + i, lanes), G::Load(beta + i, lanes));
                         });
    }
  }
  template <typename G>
  static void Affine(const void* x, void* y, int64_t n, float mean, float rstd, const void* gamma, const void* beta,
                     const void* prefetch, int64_t prefetch_bytes) {
    if (mean == 0.0f) return AffineOf<G, false>(x, y, n, mean, rstd, gamma, beta, prefetch, prefetch_bytes);
    AffineOf<G, true>(x, y, n, mean, rstd, gamma, beta, prefetch, prefetch_bytes);
  }
  static void AffineStore(const void* x, void* y, int64_t n, float mean, float rstd, const void* gamma,
                          const void* beta, bool params_f32, const void* prefetch, int64_t prefetch_bytes) {
    if (params_f32) return Affine<avx512::F32>(x, y, n, mean, rstd, gamma, beta, prefetch, prefetch_bytes);
    Affine<S>(x, y, n, mean, rstd, gamma, beta, prefetch, prefetch_bytes);
  }
  // y = exp(x - shift) * scale.
  static void ExpScaleStore(const void* x, void* y, int64_t n, float shift, float scale, const void* prefetch,
                            int64_t prefetch_bytes) {
    Spread spread = Ahead(prefetch, prefetch_bytes, n);
    const ShiftedExp<S> exp(shift);
    const __m512 f = _mm512_set1_ps(scale);
    Map<S, S, kStream>(static_cast<const E*>(x), static_cast<E*>(y), n, spread,
                       [exp, f](__m512 v, int64_t, __mmask16) { return _mm512_mul_ps(exp(v), f); });
  }
  // 64 f32 lanes in four vectors, lane l adding elements l, l + 64, ... in
  // order, the tail into the lowest lanes, then halves added pairwise:
  // reduce.cpp's BlockSum, bit for bit.
  static float BlockSum(const void* data, int64_t n) {
    const auto* x = static_cast<const E*>(data);
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int64_t i = 0;
    for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
      a0 = _mm512_add_ps(a0, S::Load(x + i));
      a1 = _mm512_add_ps(a1, S::Load(x + i + kLanes));
      a2 = _mm512_add_ps(a2, S::Load(x + i + 2 * kLanes));
      a3 = _mm512_add_ps(a3, S::Load(x + i + 3 * kLanes));
    }
    __m512* lanes[] = {&a0, &a1, &a2, &a3};
    for (int v = 0; i < n; ++v, i += kLanes) {
      const __mmask16 m = avx512::LanesBelow(n - i);
      *lanes[v] = _mm512_mask_add_ps(*lanes[v], m, *lanes[v], S::Load(x + i, m));
    }
    const __m512 sixteen = _mm512_add_ps(_mm512_add_ps(a0, a2), _mm512_add_ps(a1, a3));
    const __m256 eight = _mm256_add_ps(_mm512_castps512_ps256(sixteen),
                                       _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(sixteen), 1)));
    const __m128 four = _mm_add_ps(_mm256_castps256_ps128(eight), _mm256_extractf128_ps(eight, 1));
    const __m128 two = _mm_add_ps(four, _mm_movehl_ps(four, four));
    return _mm_cvtss_f32(_mm_add_ss(two, _mm_shuffle_ps(two, two, 1)));
  }
  // acc[i] += x[r * stride + i] for r = 0, 1, ..., rows - 1 in order, 64 columns
  // at a time in registers (reduce.cpp's row sums, bit for bit).
  static void AddRows(const void* data, int64_t stride, int64_t rows, float* acc, int64_t n) {
    const auto* x = static_cast<const E*>(data);
    // 16-bit rows that follow one another (the tile is the whole row): one row
    // at a time, the sums in L1, so the rows are read as one sequential stream
    // (the same sums in the same order). Sixteen rows of 128 bytes a step ran at
    // 31-37 GB/s on a Zen 5 against 45-68 this way; wider rows, whose tiles
    // are runs 32 KiB and more apart, read better as the strips below.
    if (sizeof(E) == 2 && stride == n) {
      for (int64_t r = 0; r < rows; ++r) {
        const E* row = x + r * stride;
        int64_t i = 0;
        for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
          _mm512_storeu_ps(acc + i, _mm512_add_ps(_mm512_loadu_ps(acc + i), S::Load(row + i)));
          _mm512_storeu_ps(acc + i + kLanes,
                           _mm512_add_ps(_mm512_loadu_ps(acc + i + kLanes), S::Load(row + i + kLanes)));
          _mm512_storeu_ps(acc + i + 2 * kLanes,
                           _mm512_add_ps(_mm512_loadu_ps(acc + i + 2 * kLanes), S::Load(row + i + 2 * kLanes)));
          _mm512_storeu_ps(acc + i + 3 * kLanes,
                           _mm512_add_ps(_mm512_loadu_ps(acc + i + 3 * kLanes), S::Load(row + i + 3 * kLanes)));
        }
        for (; i < n; i += kLanes) {
          const __mmask16 m = avx512::LanesBelow(n - i);
          _mm512_mask_storeu_ps(acc + i, m, _mm512_add_ps(_mm512_maskz_loadu_ps(m, acc + i), S::Load(row + i, m)));
        }
      }
      return;
    }
    constexpr int kStrip = 4 * kLanes;
    int64_t i = 0;
    for (; i + kStrip <= n; i += kStrip) {
      __m512 a0 = _mm512_loadu_ps(acc + i), a1 = _mm512_loadu_ps(acc + i + kLanes);
      __m512 a2 = _mm512_loadu_ps(acc + i + 2 * kLanes), a3 = _mm512_loadu_ps(acc + i + 3 * kLanes);
      for (int64_t r = 0; r < rows; ++r) {
        const E* row = x + r * stride + i;
        a0 = _mm512_add_ps(a0, S::Load(row));
        a1 = _mm512_add_ps(a1, S::Load(row + kLanes));
        a2 = _mm512_add_ps(a2, S::Load(row + 2 * kLanes));
        a3 = _mm512_add_ps(a3, S::Load(row + 3 * kLanes));
      }
      _mm512_storeu_ps(acc + i, a0);
      _mm512_storeu_ps(acc + i + kLanes, a1);
      _mm512_storeu_ps(acc + i + 2 * kLanes, a2);
      _mm512_storeu_ps(acc + i + 3 * kLanes, a3);
    }
    for (; i < n; i += kLanes) {
      const __mmask16 m = avx512::LanesBelow(n - i);
      __m512 a = _mm512_maskz_loadu_ps(m, acc + i);
      for (int64_t r = 0; r < rows; ++r) a = _mm512_add_ps(a, S::Load(x + r * stride + i, m));
      _mm512_mask_storeu_ps(acc + i, m, a);
    }
  }
  static constexpr StoredRowKernels kKernels = {
      RowMax,      RowExpSum,     RowSum,   RowSumSquares, RowSumSquaredDeviations, ScaleStore, ShiftStore,
      AffineStore, ExpScaleStore, BlockSum, AddRows};
};

}  // namespace canopy::kernels::CANOPY_ROWS_ISA
