// The reduction engine: reduces any set of dimensions of a strided view in
// place, with no transposing copy. Phase 1 orders the kept and the reduced
// dimensions by stride and coalesces them; phase 2 then runs one of two loops:
//  * inner: the smallest stride is a reduced one, so each output is the sum of
//    runs of memory (blocked sums of loaded runs);
//  * outer: the smallest stride is a kept one, so a tile of neighbouring
//    outputs accumulates whole rows at once, as contiguous vectors.
// Sums are blocked and combined pairwise (a cascade), over fixed-size chunks of
// the reduced elements whose partial sums are combined in order: the result
// depends only on the shapes, never on the thread count. 16-bit floats
// accumulate in f32, f64 in f64, integers and bools in int64 (wrapping), complex
// in its own type. The p-norm maps each loaded element (|x|^p) before the sum and
// takes the root of each result.
#pragma once

#include <cstdint>
#include <memory>

#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

enum class ReduceKind : uint8_t {
  kSum,
  kMean,  // the sum times 1 / (number of reduced elements); NaN for none
  kMax,   // NaN propagates; the caller rejects an empty reduction
  kMin,
  kNorm,  // the p-norm (ReduceDesc::p): (sum |x|^p)^(1/p); p 0 counts non-zeros, +-inf is max / min |x|
};

struct ReduceDesc {
  ReduceKind kind = ReduceKind::kSum;
  double p = 2;  // kNorm's order
  int rank = 0;  // of the input
  int64_t shape[kMaxRank] = {};
  bool reduced[kMaxRank] = {};
  StridedOperand in;   // strides per input dimension
  StridedOperand out;  // strides per input dimension; ignored along reduced ones
};

// The accumulator dtype a reduction into `out` uses (f32, f64, int64, complex);
// max and min compare in it too (exact: it holds every value of out's dtype).
aclDataType ReduceAccumulatorDtype(aclDataType out);

std::unique_ptr<Step> MakeReduceStep(const ReduceDesc& desc);

}  // namespace canopy::kernels
