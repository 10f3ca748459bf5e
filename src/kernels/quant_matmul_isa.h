// The quantised-product loops of one instruction set, as quant_matmul.cpp picks them.
#pragma once

#include "quant_matmul.h"

namespace canopy::kernels {

struct QuantLoops {
  // scale and offset of w.scale_dtype (see QuantWeight).
  void (*columns)(const QuantMatmulDesc& d, const float* x, const float* xe, const float* xo, const float* sums,
                  const char* wbase, const void* scale, const void* offset, const float* bias, float* y, int64_t c0,
                  int64_t c1);
  // Stored rows [row0, row1) into out, which points at row0's first element.
  void (*dequantize)(const QuantWeight& w, const char* wbase, const float* scale, const float* offset, float* out,
                     int64_t row0, int64_t row1);
};

extern const QuantLoops kQuantLoopsAvx512;
extern const QuantLoops kQuantLoopsAvx2;

}  // namespace canopy::kernels
