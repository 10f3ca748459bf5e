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

// The calling thread's OpenMP thread count is 1 while this lives: a oneDNN
// primitive made and run under it does its whole reduction on one thread, in
// an order that does not depend on how many threads the process has
// (ACL_OPT_DETERMINISTIC; oneDNN sizes its work split when a primitive is made).
class OneThreadScope {
 public:
  OneThreadScope();
  ~OneThreadScope();
  OneThreadScope(const OneThreadScope&) = delete;
  OneThreadScope& operator=(const OneThreadScope&) = delete;

 private:
  int saved_;
};

// oneDNN's name for a dtype: f32, f16 or bf16 (anything else is never handed to oneDNN).
dnnl::memory::data_type OnednnType(aclDataType dtype);

}  // namespace canopy::kernels
