#include "binary_pointwise.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "binary_pointwise_functors.h"
#include "common/dtype.h"
#include "compute_type_dispatch.h"
#include "cpu_features.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "pointwise_activation_functors.h"
#include "pointwise_loss_functors.h"
#include "pointwise_pow.h"
#include "pointwise_special_functors.h"

namespace canopy::kernels {
namespace {

// Elements converted per chunk: five f64 buffers fit in L1.
constexpr int64_t kChunk = 512;
// Elements worth a thread of their own (ParallelFor's grain).
constexpr int64_t kParallelGrain = 32768;

template <typename Fn>
constexpr bool kComplexFn = requires {
  Fn::kComplex;
};

// out[i] = fn(operands[0][i], ..., operands[arity-1][i]) over one chunk.
template <typename Fn, typename T, size_t... K>
__attribute__((always_inline)) inline void ApplyLoop(const Fn& fn, const T* const* operands, T* out, int64_t n,
                                                     std::index_sequence<K...>) {
  for (int64_t i = 0; i < n; ++i) out[i] = fn(operands[K][i]...);
}

template <typename Fn, typename T>
__attribute__((always_inline)) inline void ApplyChunk(const Fn& fn, const T* const* operands, T* out, int64_t n) {
  ApplyLoop(fn, operands, out, n, std::make_index_sequence<Fn::kArity>{});
}

#if defined(__x86_64__)
// The same loop compiled for AVX-512 (comparisons, min / max, selects and
// Addcdiv vectorise there), chosen at run time (x86-64 only).
template <typename Fn, typename T>
__attribute__((target("avx512f,avx512vl,avx512bw"))) void ApplyChunkAvx512(const Fn& fn, const T* const* operands,
                                                                           T* out, int64_t n) {
  ApplyChunk(fn, operands, out, n);
}
#endif

template <typename Fn>
class PointwiseStep final : public Step {
 public:
  explicit PointwiseStep(const PointwiseDesc& desc) : desc_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const ElementwiseDesc& v = desc_.view;
    int64_t total = 1;
    for (int d = 0; d < v.rank; ++d) total *= v.shape[d];
    if (total == 0) return ACLNN_SUCCESS;
    if (desc_.compute == ComputeType::kI64 && desc_.unsigned_compute) {
      ParallelFor(total, kParallelGrain, [&](int64_t begin, int64_t end) { RunRange<uint64_t>(context, begin, end); });
      return ACLNN_SUCCESS;
    }
    ParallelForComputeType<kComplexFn<Fn>>(
        desc_.compute, total, kParallelGrain,
        [&]<typename T>(int64_t begin, int64_t end) { RunRange<T>(context, begin, end); });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    const ElementwiseDesc& v = desc_.view;
    std::ostringstream text;
    text << "pointwise " << PointwiseOpName(desc_.op) << " (";
    for (int k = 0, tensor = 0; k < desc_.num_operands; ++k) {
      text << (k ? ", " : "") << (desc_.is_scalar[k] ? "scalar" : DtypeName(v.inputs[tensor++].dtype));
    }
    text << ") over [";
    for (int d = 0; d < v.rank; ++d) text << (d ? "," : "") << v.shape[d];
    text << "] -> " << DtypeName(v.out.dtype);
    return text.str();
  }

 private:
  // Elements [begin, end) of the row-major walk of the (ordered, coalesced) view.
  template <typename T>
  void RunRange(const RunContext& context, int64_t begin, int64_t end) const {
    const ElementwiseDesc& v = desc_.view;
    const int rank = v.rank, inner = rank - 1;
    const int arity = desc_.num_operands;
    char* out_base = context.Resolve(v.out.buffer);
    const int64_t out_size = static_cast<int64_t>(DtypeSize(v.out.dtype));
    const char* in_base[kMaxElementwiseInputs] = {};
    int64_t in_size[kMaxElementwiseInputs] = {};
    for (int k = 0; k < v.num_inputs; ++k) {
      in_base[k] = context.Resolve(v.inputs[k].buffer);
      in_size[k] = static_cast<int64_t>(DtypeSize(v.inputs[k].dtype));
    }

    alignas(64) T buffers[kMaxPointwiseOperands + 1][kChunk];
    const T* operands[kMaxPointwiseOperands] = {};
    int tensor_of[kMaxPointwiseOperands] = {};  // operand -> its view input (-1: a scalar)
    for (int k = 0, tensor = 0; k < arity; ++k) {
      if (desc_.is_scalar[k]) {
        std::fill(buffers[k], buffers[k] + kChunk, desc_.scalars[k].As<T>());
        operands[k] = buffers[k];
        tensor_of[k] = -1;
      } else {
        tensor_of[k] = tensor++;
      }
    }
    T* result_buffer = buffers[kMaxPointwiseOperands];

    int64_t index[kMaxRank];
    int64_t rest = begin;
    for (int d = rank - 1; d >= 0; --d) {
      index[d] = rest % v.shape[d];
      rest /= v.shape[d];
    }
    for (int64_t position = begin; position < end;) {
      const int64_t length = std::min({v.shape[inner] - index[inner], end - position, kChunk});
      for (int k = 0; k < arity; ++k) {
        if (tensor_of[k] < 0) continue;
        const StridedOperand& in = v.inputs[tensor_of[k]];
        int64_t offset = 0;
        for (int d = 0; d < rank; ++d) offset += index[d] * in.strides[d];
        const char* src = in_base[tensor_of[k]] + offset * in_size[tensor_of[k]];
        if (in.dtype == kNativeDtype<T> && in.strides[inner] == 1) {
          operands[k] = reinterpret_cast<const T*>(src);  // already in the compute type: read in place
        } else {
          Load<T>(in.dtype, src, in.strides[inner], length, buffers[k]);
          operands[k] = buffers[k];
        }
      }
      int64_t out_offset = 0;
      for (int d = 0; d < rank; ++d) out_offset += index[d] * v.out.strides[d];
      char* dst = out_base + out_offset * out_size;
      const bool direct = v.out.dtype == kNativeDtype<T> && v.out.strides[inner] == 1;
      T* result = direct ? reinterpret_cast<T*>(dst) : result_buffer;
      Apply<T>(operands, result, length);
      if (!direct) Store<T>(result, v.out.dtype, dst, v.out.strides[inner], length);
      position += length;
      index[inner] += length;
      for (int d = inner; d > 0 && index[d] == v.shape[d]; --d) {
        index[d] = 0;
        ++index[d - 1];
      }
    }
  }

  template <typename T>
  void Apply(const T* const* operands, T* out, int64_t n) const {
#if defined(__x86_64__)
    // SLEEF's powf, 1.0 ulp; PowScalarFn's exponent is one value, whose special forms run below.
    constexpr bool kScalarPow = std::is_same_v<Fn, PowScalarFn>;
    if constexpr ((std::is_same_v<Fn, PowFn> || kScalarPow) && std::is_same_v<T, float>) {
      if (!kScalarPow || (n > 0 && !PowScalarFn::Special(operands[1][0]))) {
        if (Cpu().Avx512()) return PowF32Avx512(operands[0], operands[1], out, n);
        if (Cpu().Avx2()) return PowF32Avx2(operands[0], operands[1], out, n);
      }
    }
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (Cpu().Avx512()) return ApplyChunkAvx512(fn_, operands, out, n);
    }
#endif
    ApplyChunk(fn_, operands, out, n);
  }

  PointwiseDesc desc_;
  Fn fn_{};
};

}  // namespace

const char* PointwiseOpName(PointwiseOp op) {
  switch (op) {
#define CANOPY_POINTWISE_NAME(name, fn) \
  case PointwiseOp::name:               \
    return &#name[1]; /* the enumerator without its k */
    CANOPY_POINTWISE_OPS(CANOPY_POINTWISE_NAME)
#undef CANOPY_POINTWISE_NAME
  }
  return "?";
}

int PointwiseArity(PointwiseOp op) {
  switch (op) {
#define CANOPY_POINTWISE_ARITY(name, fn) \
  case PointwiseOp::name:                \
    return fn::kArity;
    CANOPY_POINTWISE_OPS(CANOPY_POINTWISE_ARITY)
#undef CANOPY_POINTWISE_ARITY
  }
  return 0;
}

std::unique_ptr<Step> MakePointwiseStep(const PointwiseDesc& desc) {
  PointwiseDesc walked = desc;
  walked.view = OrderAndCoalesce(desc.view);
  switch (desc.op) {
#define CANOPY_POINTWISE_MAKE(name, fn) \
  case PointwiseOp::name:               \
    return std::make_unique<PointwiseStep<fn>>(walked);  // NOLINT(bugprone-macro-parentheses): a template argument
    CANOPY_POINTWISE_OPS(CANOPY_POINTWISE_MAKE)
#undef CANOPY_POINTWISE_MAKE
  }
  return nullptr;
}

}  // namespace canopy::kernels
