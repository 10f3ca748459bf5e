// The quantised-product loops built for AVX-512 (see quant_matmul_impl.h).
#define CANOPY_QMM_ISA avx512_isa
#include "quant_matmul_impl.h"
#include "quant_matmul_isa.h"

namespace canopy::kernels {
const QuantLoops kQuantLoopsAvx512 = {avx512_isa::QuantColumns, avx512_isa::DequantizeRows};
}  // namespace canopy::kernels
