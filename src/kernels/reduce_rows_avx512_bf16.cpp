// The whole-row kernels for bf16 rows with their results rounded by the
// AVX-512 BF16 instruction (avx512::Bf16Ne; reduce_rows_avx512_impl.h built once
// more, with AVX-512 BF16): called only where the CPU has it.
#define CANOPY_ROWS_ISA rows_avx512_bf16
#include "reduce_rows_avx512_impl.h"

namespace canopy::kernels {

const StoredRowKernels* Avx512Bf16StoredRows(bool stream) {
  return stream ? &rows_avx512_bf16::Stored<avx512::Bf16Ne, true>::kKernels
                : &rows_avx512_bf16::Stored<avx512::Bf16Ne, false>::kKernels;
}

}  // namespace canopy::kernels
