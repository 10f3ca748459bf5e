// The quantised-product loops built for AVX2 (see quant_matmul_impl.h).
#define CANOPY_QMM_ISA avx2_isa
#include "quant_matmul_impl.h"
#include "quant_matmul_isa.h"

namespace canopy::kernels {
const QuantLoops kQuantLoopsAvx2 = {avx2_isa::QuantColumns, avx2_isa::DequantizeRows, nullptr};
}  // namespace canopy::kernels
