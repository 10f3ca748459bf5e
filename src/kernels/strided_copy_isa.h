// The register transposes of strided_copy.cpp, built for AVX-512
// (strided_copy_avx512.cpp, x86-64 only; callers check Cpu().Avx512()).
#pragma once

#include <cstdint>

namespace canopy::kernels {

// Transposes `strips` stacked strips of 64 / `element_bytes` rows each (4 of
// 16-byte elements, 8 of 8-byte, 16 of 4-byte, 32 of 2-byte, 64 of bytes; the
// rows of strip s start at in + s * rows * in_step) in tiles of as many
// columns: element c of row r (at in + r * in_step + c * element_bytes) goes
// to out + c * out_step + r * element_bytes. Rows are read and written as
// whole 64-byte runs, each column tile of every strip before the next column
// tile, so each output row gets its `strips` lines one after another;
// `stream` writes them with non-temporal stores (every output run 64-byte
// aligned). Returns how many columns it did: `columns` rounded down to whole
// tiles.
int64_t TransposeStripAvx512(int element_bytes, const char* in, int64_t in_step, char* out, int64_t out_step,
                             int64_t columns, int strips, bool stream);

}  // namespace canopy::kernels
