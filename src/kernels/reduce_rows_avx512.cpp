// The row primitives' AVX-512 forms (see reduce_rows.h, the loops in
// reduce_rows_avx512_impl.h); this file is compiled with AVX-512 F/BW/VL and
// FMA, and is called only where Cpu().Avx512().
#define CANOPY_ROWS_ISA rows_avx512
#include "reduce_rows_avx512_impl.h"

namespace canopy::kernels {
namespace {

using rows_avx512::None;
using rows_avx512::Spread;
using rows_avx512::Stored;

// ---- the forms over f32 buffers (RowKernels) --------------------------------------------------------

float MaxF32(const float* x, int64_t n) {
  Spread none = None();
  return rows_avx512::Max<avx512::F32>(x, n, none);
}
double ExpSumF32(const float* x, int64_t n, float shift, float* e) {
  Spread none = None();
  return rows_avx512::ExpSum<avx512::F32>(x, n, shift, e, none);
}
double SumF32(const float* x, int64_t n) {
  Spread none = None();
  return rows_avx512::Sum<avx512::F32>(x, n, none);
}
double SumSquaresF32(const float* x, int64_t n) {
  Spread none = None();
  return rows_avx512::SumSquares<avx512::F32>(x, n, none);
}
double SumSquaredDeviationsF32(const float* x, int64_t n, double mean) {
  Spread none = None();
  return rows_avx512::SumSquaredDeviations<avx512::F32>(x, n, mean, none);
}

constexpr RowKernels kAvx512 = {MaxF32, ExpSumF32, SumF32, SumSquaresF32, SumSquaredDeviationsF32};

}  // namespace

const RowKernels& Avx512Rows() { return kAvx512; }

const StoredRowKernels* Avx512StoredRows(aclDataType dtype, bool stream) {
  switch (dtype) {
    case ACL_FLOAT:
      return stream ? &Stored<avx512::F32, true>::kKernels : &Stored<avx512::F32, false>::kKernels;
    case ACL_FLOAT16:
      return stream ? &Stored<avx512::F16, true>::kKernels : &Stored<avx512::F16, false>::kKernels;
    case ACL_BF16:
      return stream ? &Stored<avx512::Bf16, true>::kKernels : &Stored<avx512::Bf16, false>::kKernels;
    default:
      return nullptr;
  }
}

}  // namespace canopy::kernels
