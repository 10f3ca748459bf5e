#include "skinny_matmul.h"

#include <algorithm>
#include <sstream>

#include "avx512_lanes.h"
#include "common/dtype.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

using avx512::LanesBelow;

// B with unit stride along N: blocks of RowBlockFor(m) rows, swept 64 columns
// (four vectors) at a time, so the rows of a block are read as parallel
// contiguous runs, prefetched kPrefetchBytes ahead (the hardware prefetchers
// lose each run at every page boundary); a block of a thread's columns stays
// in L2 while further groups of A's rows pass over it. Partial sums between
// row blocks live in a scratch copy of C's shape. The constants were measured
// (docs/perf.md, "Skinny products").
constexpr int kPanelVectors = 4;
constexpr int64_t kPanelColumns = 16 * kPanelVectors;
constexpr int kMaxPanelRows = 6;  // 6 x 4 accumulators + 4 B vectors + 1 A broadcast <= 32 registers
constexpr int64_t kPrefetchBytes = 512;
// Short blocks keep the parallel row streams few; with more than one group of
// A's rows the partial sums (an f32 load and store per block and group) would
// cost more than reading B, so the blocks grow.
inline int64_t RowBlockFor(int64_t m) { return m <= kMaxPanelRows ? 16 : 64; }

// B with unit stride along K: each output is a dot product of a row of A and a
// row of B^T; four B^T rows at a time against up to four A rows. A row of B^T
// (a few KB) is too short a stream for the hardware prefetchers, so each line
// prefetches the same line kPrefetchDotRows rows of B^T on, which the loop
// reaches that much later.
constexpr int kDotColumns = 4;
constexpr int kMaxDotRows = 4;
constexpr int64_t kPrefetchDotRows = 8;

// Fewer multiply-adds than this are not worth a thread of their own.
constexpr int64_t kParallelWork = 1 << 16;

// acc[m][j] += sum over k < rows of a[m, k] * b[k, 16 j ..]: one 64-column
// panel; only the edge panel pays for masked loads.
template <typename S, int MR, bool kMasked>
CANOPY_AVX512 void PanelProducts(const float* a, int64_t lda, const typename S::Element* b, int64_t ldb, int64_t rows,
                                 const __mmask16* masks, __m512 (&acc)[MR][kPanelVectors]) {
  for (int64_t k = 0; k < rows; ++k) {
    const typename S::Element* row = b + k * ldb;
    if constexpr (!kMasked) {
      // The hardware prefetchers lose a row's stream at every page boundary.
      const char* ahead = reinterpret_cast<const char*>(row) + kPrefetchBytes;
#pragma GCC unroll 4
      for (size_t line = 0; line < sizeof(typename S::Element); ++line) _mm_prefetch(ahead + 64 * line, _MM_HINT_T0);
    }
    __m512 bv[kPanelVectors];
#pragma GCC unroll 4
    for (int j = 0; j < kPanelVectors; ++j) bv[j] = kMasked ? S::Load(row + 16 * j, masks[j]) : S::Load(row + 16 * j);
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
      const __m512 av = _mm512_set1_ps(a[m * lda + k]);
#pragma GCC unroll 4
      for (int j = 0; j < kPanelVectors; ++j) acc[m][j] = _mm512_fmadd_ps(av, bv[j], acc[m][j]);
    }
  }
}

// Rows [0, rows) of B against MR rows of A, for columns [0, columns): one
// 64-column panel after another along the rows, so each row of B is read in
// long runs. Each block sums its rows from zero and then adds `partial` (unless
// `first`): a sum of K terms rounds as K / rows block sums of `rows` terms, not
// as one running sum (2^25 ones added one by one stop at 2^24). The `last`
// block writes C = alpha * sum + beta * C, the others write `partial`.
template <typename S, int MR>
CANOPY_AVX512_TARGET void PanelRows(const float* a, int64_t lda, const typename S::Element* b, int64_t ldb,
                                    int64_t rows, int64_t columns, float* partial, int64_t ldp, float* c, int64_t ldc,
                                    bool first, bool last, float alpha, float beta) {
  const __m512 alpha_v = _mm512_set1_ps(alpha), beta_v = _mm512_set1_ps(beta);
  for (int64_t n0 = 0; n0 < columns; n0 += kPanelColumns) {
    __mmask16 masks[kPanelVectors];
#pragma GCC unroll 4
    for (int j = 0; j < kPanelVectors; ++j) {
      const int64_t left = columns - n0 - 16 * j;
      masks[j] = LanesBelow(left);
    }
    __m512 acc[MR][kPanelVectors];
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
#pragma GCC unroll 4
      for (int j = 0; j < kPanelVectors; ++j) acc[m][j] = _mm512_setzero_ps();
    }
    if (n0 + kPanelColumns <= columns) {
      PanelProducts<S, MR, false>(a, lda, b + n0, ldb, rows, masks, acc);
    } else {
      PanelProducts<S, MR, true>(a, lda, b + n0, ldb, rows, masks, acc);
    }
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
#pragma GCC unroll 4
      for (int j = 0; j < kPanelVectors; ++j) {
        float* sum = partial + m * ldp + n0 + 16 * j;
        if (!first) acc[m][j] = _mm512_add_ps(acc[m][j], _mm512_maskz_loadu_ps(masks[j], sum));
        if (!last) {
          _mm512_mask_storeu_ps(sum, masks[j], acc[m][j]);
          continue;
        }
        float* out = c + m * ldc + n0 + 16 * j;
        __m512 result = _mm512_mul_ps(alpha_v, acc[m][j]);
        if (beta != 0.0f) result = _mm512_fmadd_ps(beta_v, _mm512_maskz_loadu_ps(masks[j], out), result);
        _mm512_mask_storeu_ps(out, masks[j], result);
      }
    }
  }
}

template <typename S, int MR>
CANOPY_AVX512_TARGET void DotBlock(const float* a, int64_t lda, const typename S::Element* const* bt, int64_t k_total,
                                   int64_t ahead, int columns, float* c, int64_t ldc, float alpha, float beta) {
  constexpr int64_t kLineElements = 64 / sizeof(typename S::Element);
  __m512 acc[MR][kDotColumns];
#pragma GCC unroll 16
  for (int m = 0; m < MR; ++m) {
#pragma GCC unroll 4
    for (int j = 0; j < kDotColumns; ++j) acc[m][j] = _mm512_setzero_ps();
  }
  for (int64_t k = 0; k < k_total; k += 16) {
    const __mmask16 mask = LanesBelow(k_total - k);
    if (k % kLineElements == 0) {
#pragma GCC unroll 4
      for (int j = 0; j < kDotColumns; ++j) _mm_prefetch(reinterpret_cast<const char*>(bt[j] + k + ahead), _MM_HINT_T0);
    }
    __m512 bv[kDotColumns];
#pragma GCC unroll 4
    for (int j = 0; j < kDotColumns; ++j) bv[j] = S::Load(bt[j] + k, mask);
#pragma GCC unroll 16
    for (int m = 0; m < MR; ++m) {
      const __m512 av = _mm512_maskz_loadu_ps(mask, a + m * lda + k);
#pragma GCC unroll 4
      for (int j = 0; j < kDotColumns; ++j) acc[m][j] = _mm512_fmadd_ps(av, bv[j], acc[m][j]);
    }
  }
  for (int m = 0; m < MR; ++m) {
    for (int j = 0; j < columns; ++j) {
      const float sum = alpha * _mm512_reduce_add_ps(acc[m][j]);
      float& out = c[m * ldc + j];
      out = beta != 0.0f ? beta * out + sum : sum;
    }
  }
}

// Calls f(std::integral_constant<int, R>) for R = rows (1..kMax).
template <int kMax, typename F>
void WithRows(int rows, F&& f) {
  if constexpr (kMax > 0) {
    if (rows == kMax) return f(std::integral_constant<int, kMax>{});
    WithRows<kMax - 1>(rows, std::forward<F>(f));
  }
}

class SkinnyMatmulStep final : public Step {
 public:
  SkinnyMatmulStep(const SkinnyMatmulDesc& desc, BufferRef partial) : d_(desc), partial_(partial) {}

  aclnnStatus Run(const RunContext& context) const override {
    switch (d_.b_dtype) {
      case ACL_FLOAT16:
        RunAll<avx512::F16>(context);
        break;
      case ACL_BF16:
        RunRoundedOrNot<avx512::Bf16>(context);
        break;
      default:
        RunRoundedOrNot<avx512::F32>(context);
        break;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "skinny matmul " << d_.m << "x" << d_.k << " f32 @ " << d_.k << "x" << d_.n << " " << DtypeName(d_.b_dtype)
         << (d_.b_rounded_to_fp16 ? " rounded to fp16" : "")
         << (d_.b_stride_n == 1 ? " (rows of B)" : " (columns of B)") << " -> f32";
    if (d_.alpha != 1.0f || d_.beta != 0.0f) text << " alpha=" << d_.alpha << " beta=" << d_.beta;
    return text.str();
  }

 private:
  // B read as S, or rounded to fp16 as it loads (USE_FP16).
  template <typename S>
  void RunRoundedOrNot(const RunContext& context) const {
    if (d_.b_rounded_to_fp16) {
      RunAll<avx512::RoundedToF16<S>>(context);
    } else {
      RunAll<S>(context);
    }
  }

  template <typename S>
  void RunAll(const RunContext& context) const {
    const bool by_rows = d_.b_stride_n == 1;
    // Columns split in whole panels (or dot blocks), each thread given at
    // least kParallelWork multiply-adds' worth of columns.
    const int64_t unit = by_rows ? kPanelColumns : kDotColumns;
    const int64_t per_column = std::max<int64_t>(1, d_.m * d_.k);
    const int64_t grain = (kParallelWork + per_column - 1) / per_column;
    ParallelFor(d_.n, grain, unit, [&](int64_t begin, int64_t end) {
      if (by_rows) {
        RunPanels<S>(context, begin, end);
      } else {
        RunDots<S>(context, begin, end);
      }
    });
  }

  template <typename S>
  void RunPanels(const RunContext& context, int64_t n_begin, int64_t n_end) const {
    const auto* a = reinterpret_cast<const float*>(context.Resolve(d_.a));
    const auto* b = reinterpret_cast<const typename S::Element*>(context.Resolve(d_.b));
    auto* c = reinterpret_cast<float*>(context.Resolve(d_.c));
    auto* partial = reinterpret_cast<float*>(context.Resolve(partial_));
    const int64_t row_block = RowBlockFor(d_.m);
    for (int64_t k0 = 0; k0 < d_.k; k0 += row_block) {
      const int64_t rows = std::min(row_block, d_.k - k0);
      const bool first = k0 == 0, last = k0 + rows == d_.k;
      for (int64_t m0 = 0; m0 < d_.m; m0 += kMaxPanelRows) {
        const int group = static_cast<int>(std::min<int64_t>(kMaxPanelRows, d_.m - m0));
        WithRows<kMaxPanelRows>(group, [&](auto mr) {
          PanelRows<S, decltype(mr)::value>(a + m0 * d_.a_row_stride + k0, d_.a_row_stride,
                                            b + k0 * d_.b_stride_k + n_begin, d_.b_stride_k, rows, n_end - n_begin,
                                            partial + m0 * d_.n + n_begin, d_.n, c + m0 * d_.c_row_stride + n_begin,
                                            d_.c_row_stride, first, last, d_.alpha, d_.beta);
        });
      }
    }
  }

  template <typename S>
  void RunDots(const RunContext& context, int64_t n_begin, int64_t n_end) const {
    const auto* a = reinterpret_cast<const float*>(context.Resolve(d_.a));
    const auto* b = reinterpret_cast<const typename S::Element*>(context.Resolve(d_.b));
    auto* c = reinterpret_cast<float*>(context.Resolve(d_.c));
    for (int64_t n0 = n_begin; n0 < n_end; n0 += kDotColumns) {
      const int columns = static_cast<int>(std::min<int64_t>(kDotColumns, n_end - n0));
      // Missing columns at the edge re-read the last one; their sums are dropped.
      const typename S::Element* rows[kDotColumns];
      for (int j = 0; j < kDotColumns; ++j) rows[j] = b + (n0 + std::min(j, columns - 1)) * d_.b_stride_n;
      for (int64_t m0 = 0; m0 < d_.m; m0 += kMaxDotRows) {
        const int group = static_cast<int>(std::min<int64_t>(kMaxDotRows, d_.m - m0));
        WithRows<kMaxDotRows>(group, [&](auto mr) {
          DotBlock<S, decltype(mr)::value>(a + m0 * d_.a_row_stride, d_.a_row_stride, rows, d_.k,
                                           kPrefetchDotRows * d_.b_stride_n, columns, c + m0 * d_.c_row_stride + n0,
                                           d_.c_row_stride, d_.alpha, d_.beta);
        });
      }
    }
  }

  SkinnyMatmulDesc d_;
  BufferRef partial_;
};

}  // namespace

bool SkinnyMatmulSupports(aclDataType b_dtype, int64_t b_stride_k, int64_t b_stride_n) {
  if (!avx512::Available()) return false;
  if (b_dtype != ACL_FLOAT && b_dtype != ACL_FLOAT16 && b_dtype != ACL_BF16) return false;
  return (b_stride_n == 1 && b_stride_k >= 0) || (b_stride_k == 1 && b_stride_n >= 0);
}

std::unique_ptr<Step> MakeSkinnyMatmulStep(const SkinnyMatmulDesc& desc, BufferRef partial) {
  return std::make_unique<SkinnyMatmulStep>(desc, partial);
}

}  // namespace canopy::kernels
