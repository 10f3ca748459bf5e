// The one oneDNN CPU engine and the per-thread stream every oneDNN-backed
// kernel runs on (matmul, convolution, pooling, ...). Creating the engine first
// caps oneDNN's instruction set at what kernels/cpu_features.h leaves
// (CANOPY_MAX_ISA, CANOPY_CPU_FEATURES), so one variable limits every dispatch.
#pragma once

#include "acl/acl_base.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace canopy::kernels {

dnnl::engine& OneDnnEngine();
// One oneDNN stream per executing thread (device engines run kernels on their own thread).
dnnl::stream& OneDnnThreadStream();

// oneDNN's name for a dtype: f32, f16 or bf16 (anything else is never handed to oneDNN).
dnnl::memory::data_type OnednnType(aclDataType dtype);

}  // namespace canopy::kernels
