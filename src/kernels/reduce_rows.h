// The vector primitives of the row operations (softmax, the norms) over runs of
// f32 in cache: each kernel loads a run of its row into an f32 buffer once, then
// finds its statistics and its results with these. Each primitive has a
// portable form, an AVX2 one (reduce_rows_avx2.cpp) and an AVX-512 one
// (reduce_rows_avx512.cpp), chosen once per process (cpu_features.h); each
// combines in a fixed order set by n alone, so a result depends on the data and
// the instruction set, never on the threads.
// Sums accumulate in f64 (the AVX-512 forms add blocks of 64 f32 terms in f32
// first: two roundings of a block's magnitude).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"

namespace canopy::kernels {

struct RowKernels {
  // The largest of x[0, n) (-inf for n 0); NaN when any element is NaN.
  float (*max)(const float* x, int64_t n);
  // sum of exp(x[i] - shift) in f64, each term computed in f32; where `e` is not
  // null the terms are stored there too (e may be x).
  double (*exp_sum)(const float* x, int64_t n, float shift, float* e);
  double (*sum)(const float* x, int64_t n);
  double (*sum_squares)(const float* x, int64_t n);
  // sum of (x[i] - mean)^2, the deviations taken in f64 (AVX-512: in f32 from
  // the f32 mean, exact where x is within a factor of two of it).
  double (*sum_squared_deviations)(const float* x, int64_t n, double mean);
};

// Whole rows of one storage dtype (f32, fp16, bf16), contiguous, read and
// written where they lie: the fast forms of the commonest calls. Each kernel
// also prefetches `prefetch_bytes` from `prefetch` (null: none), spread over its
// loop: the caller spreads the current row's output and the next row's input
// over its passes, so that memory stays busy while a row in cache computes.
struct StoredRowKernels {
  float (*max)(const void* x, int64_t n, const void* prefetch, int64_t prefetch_bytes);
  // e: the f32 terms, or null.
  double (*exp_sum)(const void* x, int64_t n, float shift, float* e, const void* prefetch, int64_t prefetch_bytes);
  double (*sum)(const void* x, int64_t n, const void* prefetch, int64_t prefetch_bytes);
  double (*sum_squares)(const void* x, int64_t n, const void* prefetch, int64_t prefetch_bytes);
  double (*sum_squared_deviations)(const void* x, int64_t n, double mean, const void* prefetch, int64_t prefetch_bytes);
  // y = e * scale (softmax's results from its f32 terms).
  void (*scale_store)(const float* e, void* y, int64_t n, float scale, const void* prefetch, int64_t prefetch_bytes);
  // y = x - max - log_sum (log-softmax).
  void (*shift_store)(const void* x, void* y, int64_t n, float max, float log_sum, const void* prefetch,
                      int64_t prefetch_bytes);
  // y = (x - mean) * rstd * gamma (+ beta where not null); gamma and beta contiguous, f32 where
  // `params_f32`, else of the rows' dtype.
  void (*affine_store)(const void* x, void* y, int64_t n, float mean, float rstd, const void* gamma, const void* beta,
                       bool params_f32, const void* prefetch, int64_t prefetch_bytes);
  // y = exp(x - shift) * scale (softmax's results, exp computed again).
  void (*exp_scale_store)(const void* x, void* y, int64_t n, float shift, float scale, const void* prefetch,
                          int64_t prefetch_bytes);
  // The reduction engine's block sum (reduce.cpp's BlockSum in 64 f32 lanes, bit for bit).
  float (*block_sum)(const void* x, int64_t n);
  // acc[i] += x[r * stride + i] for rows r = 0, 1, ... in order (the engine's sums of whole rows, bit for bit).
  void (*add_rows)(const void* x, int64_t stride, int64_t rows, float* acc, int64_t n);
};

// Whether an output of `elements` elements of `element_bytes` is stored past
// the caches by the whole-row kernels (StoredRows' `stream`): from 256 MiB on,
// far larger than the caches, it would only evict the inputs, and each line
// would be read before written. The environment variable
// CANOPY_STREAM_OUTPUT_BYTES, read on each call, sets another size (tests: 0
// streams every output). Counted without overflow: a broadcast output may
// span more than int64's bytes.
bool StreamsOutput(int64_t elements, int64_t element_bytes);

// The primitives for this CPU.
const RowKernels& Rows();
// The whole-row kernels for rows of `dtype` on this CPU; null where there are none
// (no AVX-512, or another dtype): the caller loads into f32 and uses Rows().
// `stream`: their stores of whole aligned vectors are non-temporal (for outputs
// StreamsOutput names), the same values.
const StoredRowKernels* StoredRows(aclDataType dtype, bool stream = false);
// The vector forms (x86-64 only; Rows() picks the widest the CPU has).
const RowKernels& Avx512Rows();
const RowKernels& Avx2Rows();
const StoredRowKernels* Avx512StoredRows(aclDataType dtype, bool stream);
// bf16 rows whose results round with the AVX-512 BF16 instruction (the same
// bits; CPUs with it only).
const StoredRowKernels* Avx512Bf16StoredRows(bool stream);

}  // namespace canopy::kernels
