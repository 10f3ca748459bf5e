#include "onednn_engine.h"

#include <omp.h>

#include "cpu_features.h"

namespace canopy::kernels {
namespace {

// oneDNN's name for the highest level Canopy's features allow.
dnnl::cpu_isa OneDnnIsa(IsaLevel level) {
  switch (level) {
    case IsaLevel::kPortable:
      return dnnl::cpu_isa::sse41;
    case IsaLevel::kAvx2:
      return dnnl::cpu_isa::avx2;
    case IsaLevel::kAvx512:
      return dnnl::cpu_isa::avx512_core;
    case IsaLevel::kAvx512Bf16:
    case IsaLevel::kAvx512Fp16:  // oneDNN 2.x has no FP16 level between BF16 and AMX
      return dnnl::cpu_isa::avx512_core_bf16;
    case IsaLevel::kAmx:
      break;
  }
  return dnnl::cpu_isa::all;
}

dnnl::engine MakeEngine() {
  // Must come before oneDNN generates its first kernel; it does so only once
  // this engine exists, and every Canopy kernel goes through this function.
  // A refusal (oneDNN built without the cap, or a host program that already
  // used oneDNN) leaves oneDNN uncapped rather than failing the op.
  const IsaLevel level = HighestIsaLevel(Cpu());
  if (level != IsaLevel::kAmx) static_cast<void>(dnnl::set_max_cpu_isa(OneDnnIsa(level)));
  return dnnl::engine(dnnl::engine::kind::cpu, 0);
}

}  // namespace

dnnl::engine& OneDnnEngine() {
  static dnnl::engine engine = MakeEngine();
  return engine;
}

OneThreadScope::OneThreadScope() : saved_(omp_get_max_threads()) { omp_set_num_threads(1); }
OneThreadScope::~OneThreadScope() { omp_set_num_threads(saved_); }

dnnl::memory::data_type OnednnType(aclDataType dtype) {
  switch (dtype) {
    case ACL_BF16:
      return dnnl::memory::data_type::bf16;
    case ACL_FLOAT16:
      return dnnl::memory::data_type::f16;
    case ACL_INT8:  // QuantMatmul's operands and accumulator
      return dnnl::memory::data_type::s8;
    case ACL_INT32:
      return dnnl::memory::data_type::s32;
    default:
      return dnnl::memory::data_type::f32;
  }
}

dnnl::stream& OneDnnThreadStream() {
  thread_local dnnl::stream stream(OneDnnEngine());
  return stream;
}

}  // namespace canopy::kernels
