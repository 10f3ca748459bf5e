// The chunk loop of the pointwise engines: [0, total) split over the engine's
// OpenMP team (ParallelFor), each chunk run in the C++ type of the planned
// compute type. One copy for the unary and the binary pointwise steps.
#pragma once

#include <complex>
#include <cstdint>

#include "elementwise.h"
#include "parallel_for.h"

namespace canopy::kernels {

// Runs body.template operator()<T>(begin, end) on each chunk, T float, double,
// int64_t or a std::complex. The complex types only when kComplex: a functor
// without a complex form is never planned with a complex compute type, and its
// complex instantiation must not be compiled.
template <bool kComplex, typename Body>
void ParallelForComputeType(ComputeType compute, int64_t total, int64_t grain, const Body& body) {
  ParallelFor(total, grain, [&](int64_t begin, int64_t end) {
    switch (compute) {
      case ComputeType::kF32:
        return body.template operator()<float>(begin, end);
      case ComputeType::kF64:
        return body.template operator()<double>(begin, end);
      case ComputeType::kI64:
        return body.template operator()<int64_t>(begin, end);
      case ComputeType::kC64:  // NOLINT(bugprone-branch-clone): identical only without a complex form
        if constexpr (kComplex) body.template operator()<std::complex<float>>(begin, end);
        return;
      case ComputeType::kC128:
        if constexpr (kComplex) body.template operator()<std::complex<double>>(begin, end);
        return;
    }
  });
}

}  // namespace canopy::kernels
