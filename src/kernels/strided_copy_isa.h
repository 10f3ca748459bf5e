// The register transposes of strided_copy.cpp, built for AVX-512
// (strided_copy_avx512.cpp, x86-64 only; callers check Cpu().Avx512()).
#pragma once

#include <cstdint>

namespace canopy::kernels {

// Transposes a strip of 64 / `element_bytes` rows (8 of 8-byte elements, 16
// of 4-byte ones, 32 of 2-byte ones, 64 of bytes) in tiles of as many columns: element c of row r (at
// in + r * in_step + c * element_bytes) goes to out + c * out_step + r *
// element_bytes. Rows are read and written as whole 64-byte runs; `stream`
// writes them with non-temporal stores (every output run 64-byte aligned).
// Returns how many columns it did: `columns` rounded down to whole tiles.
int64_t TransposeStripAvx512(int element_bytes, const char* in, int64_t in_step, char* out, int64_t out_step,
                             int64_t columns, bool stream);

}  // namespace canopy::kernels
