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
// in its own type. Some kinds map each loaded element before combining it and
// finish each result: the p-norm (|x|^p, then the root), nansum (NaN as 0),
// any / all (x != 0), and the two centred kinds, which read one value per output
// (ReduceDesc::center, computed by an earlier reduction: the mean for the
// variance, the max for log-sum-exp), so each is two passes over the input.
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
  kNorm,    // the p-norm (ReduceDesc::p): (sum |x|^p)^(1/p); p 0 counts non-zeros, +-inf is max / min |x|
  kProd,    // the product (integers wrap); an empty one is 1
  kNansum,  // the sum with NaN taken as 0
  kAny,     // 1 when some element is non-zero (NaN counts), else 0; accumulates in self's accumulator
  kAll,     // 1 when every element is non-zero; an empty one is 1
  // Centred: sum (x - center)^2 / max(count - correction, 0), the root of it when `root` (std).
  kVariance,
  // Centred: log(sum exp(x - c)) + c, with c the center (the max) where finite and 0 elsewhere.
  kLogSumExp,
};

// Whether `kind` reads ReduceDesc::center.
constexpr bool IsCentered(ReduceKind kind) { return kind == ReduceKind::kVariance || kind == ReduceKind::kLogSumExp; }

struct ReduceDesc {
  ReduceKind kind = ReduceKind::kSum;
  double p = 2;  // kNorm's order
  int rank = 0;  // of the input
  int64_t shape[kMaxRank] = {};
  bool reduced[kMaxRank] = {};
  StridedOperand in;   // strides per input dimension
  StridedOperand out;  // strides per input dimension; ignored along reduced ones
  // The centred kinds: one value per output in the accumulator dtype, laid out
  // as `out` (its strides are out's, so its own are not read).
  StridedOperand center;
  double correction = 0;  // kVariance
  bool root = false;      // kVariance: the standard deviation
};

// The accumulator dtype a reduction into `out` uses (f32, f64, int64, complex);
// max and min compare in it too (exact: it holds every value of out's dtype).
// Any and all test self's elements, so they take self's accumulator instead.
aclDataType ReduceAccumulatorDtype(aclDataType out);
aclDataType ReduceAccumulatorDtype(const ReduceDesc& desc);

std::unique_ptr<Step> MakeReduceStep(const ReduceDesc& desc);

}  // namespace canopy::kernels
