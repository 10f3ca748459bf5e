#include "unary.h"

#include <algorithm>
#include <sstream>

#include "common/dtype.h"
#include "compute_type_dispatch.h"
#include "cpu_features.h"
#include "dtype_dispatch.h"
#include "fused_float.h"
#include "parallel_for.h"
#include "unary_functors.h"

namespace canopy::kernels {
namespace {

// Elements converted per chunk on the buffered paths (two f64 buffers fit in L1).
constexpr int64_t kChunk = 1024;
// Elements worth a thread of their own (ParallelFor's grain).
constexpr int64_t kParallelGrain = 16384;

// Functors with exact integer semantics (abs, neg) say so; the others see
// integers only as float64 values.
template <typename Fn>
constexpr bool kIntegerFn = requires {
  Fn::kIntegers;
};
// Functors defined on complex numbers say so; phase 1 gives the others no complex operand.
template <typename Fn>
constexpr bool kComplexFn = requires {
  Fn::kComplex;
};

// The reference on a chunk in compute type T: real types evaluate in double,
// complex ones in complex<double>, integers in int64 where the functor has
// integer semantics.
template <typename Fn, typename T>
void ReferenceChunk(const Fn& fn, const T* src, T* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (kIsComplex<T>) {
      static_assert(kComplexFn<Fn>);
      const std::complex<double> r = fn(std::complex<double>(src[i].real(), src[i].imag()));
      dst[i] = T(static_cast<typename T::value_type>(r.real()), static_cast<typename T::value_type>(r.imag()));
    } else if constexpr (std::is_integral_v<T> && kIntegerFn<Fn>) {
      dst[i] = fn(src[i]);
    } else {
      dst[i] = Convert<T>(fn(static_cast<double>(src[i])));
    }
  }
}

template <typename Fn>
class UnaryStep final : public Step {
 public:
  explicit UnaryStep(const UnaryDesc& desc) : desc_(desc), fn_(desc.params) {
    const ElementwiseDesc& v = desc_.view;
    const int inner = v.rank - 1;
    one_pass_ = desc_.compute == ComputeType::kF32 && Cpu().Avx512() && IsFusedFloatStorage(v.inputs[0].dtype) &&
                IsFusedFloatStorage(v.out.dtype) && v.inputs[0].strides[inner] == 1 && v.out.strides[inner] == 1;
  }

  aclnnStatus Run(const RunContext& context) const override {
    const ElementwiseDesc& v = desc_.view;
    int64_t total = 1;
    for (int d = 0; d < v.rank; ++d) total *= v.shape[d];
    if (total == 0) return ACLNN_SUCCESS;
    ParallelForComputeType<kComplexFn<Fn>>(
        desc_.compute, total, kParallelGrain,
        [&]<typename T>(int64_t begin, int64_t end) { RunRange<T>(context, begin, end); });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    const ElementwiseDesc& v = desc_.view;
    std::ostringstream text;
    text << "unary " << UnaryOpName(desc_.op) << " " << DtypeName(v.inputs[0].dtype) << " over [";
    for (int d = 0; d < v.rank; ++d) text << (d ? "," : "") << v.shape[d];
    text << "] -> " << DtypeName(v.out.dtype);
    if (one_pass_) text << " (one pass)";
    return text.str();
  }

 private:
  // Elements [begin, end) of the row-major walk of the (ordered, coalesced) view.
  template <typename T>
  void RunRange(const RunContext& context, int64_t begin, int64_t end) const {
    const ElementwiseDesc& v = desc_.view;
    const int rank = v.rank, inner = rank - 1;
    const StridedOperand& in = v.inputs[0];
    const StridedOperand& out = v.out;
    const char* in_base = context.Resolve(in.buffer);
    char* out_base = context.Resolve(out.buffer);
    const int64_t in_size = static_cast<int64_t>(DtypeSize(in.dtype));
    const int64_t out_size = static_cast<int64_t>(DtypeSize(out.dtype));
    int64_t index[kMaxRank];
    int64_t rest = begin;
    for (int d = rank - 1; d >= 0; --d) {
      index[d] = rest % v.shape[d];
      rest /= v.shape[d];
    }
    alignas(64) T buffer[kChunk];
    const int64_t max_length = one_pass_ ? end - begin : kChunk;
    for (int64_t position = begin; position < end;) {
      const int64_t length = std::min({v.shape[inner] - index[inner], end - position, max_length});
      int64_t in_offset = 0, out_offset = 0;
      for (int d = 0; d < rank; ++d) {
        in_offset += index[d] * in.strides[d];
        out_offset += index[d] * out.strides[d];
      }
      const char* src = in_base + in_offset * in_size;
      char* dst = out_base + out_offset * out_size;
      if (one_pass_) {
#if defined(__x86_64__)  // the one-pass loop is AVX-512 code, chosen only there
        UnaryAvx512(desc_.op, desc_.params, in.dtype, src, out.dtype, dst, length);
#endif
      } else {
        Load<T>(in.dtype, src, in.strides[inner], length, buffer);
        Compute<T>(buffer, length);
        Store<T>(buffer, out.dtype, dst, out.strides[inner], length);
      }
      position += length;
      index[inner] += length;
      for (int d = inner; d > 0 && index[d] == v.shape[d]; --d) {
        index[d] = 0;
        ++index[d - 1];
      }
    }
  }

  // In place on a chunk of the compute type: the widest vector kernel the CPU
  // has for f32, the float64 reference otherwise.
  template <typename T>
  void Compute(T* chunk, int64_t n) const {
    if constexpr (std::is_same_v<T, float>) {
      UnaryF32InPlace(desc_.op, desc_.params, chunk, n);
    } else {
      ReferenceChunk(fn_, chunk, chunk, n);
    }
  }

  UnaryDesc desc_;
  Fn fn_;
  bool one_pass_ = false;
};

}  // namespace

const char* UnaryOpName(UnaryOp op) {
  switch (op) {
#define CANOPY_UNARY_NAME(name, fn) \
  case UnaryOp::name:               \
    return &#name[1]; /* the enumerator without its k */
    CANOPY_UNARY_OPS(CANOPY_UNARY_NAME)
#undef CANOPY_UNARY_NAME
  }
  return "?";
}

void UnaryF32InPlace(UnaryOp op, const UnaryParams& params, float* values, int64_t n) {
#if defined(__x86_64__)
  if (Cpu().Avx512()) return UnaryAvx512(op, params, ACL_FLOAT, values, ACL_FLOAT, values, n);
  if (Cpu().Avx2()) return UnaryAvx2(op, params, values, values, n);
#endif
  switch (op) {
#define CANOPY_UNARY_REFERENCE(name, fn) \
  case UnaryOp::name:                    \
    return ReferenceChunk(fn(params), values, values, n);
    CANOPY_UNARY_OPS(CANOPY_UNARY_REFERENCE)
#undef CANOPY_UNARY_REFERENCE
  }
}

std::unique_ptr<Step> MakeUnaryStep(const UnaryDesc& desc) {
  UnaryDesc walked = desc;
  walked.view.num_inputs = 1;
  walked.view = OrderAndCoalesce(walked.view);
  switch (desc.op) {
#define CANOPY_UNARY_MAKE(name, fn) \
  case UnaryOp::name:               \
    return std::make_unique<UnaryStep<fn>>(walked);  // NOLINT(bugprone-macro-parentheses): a template argument
    CANOPY_UNARY_OPS(CANOPY_UNARY_MAKE)
#undef CANOPY_UNARY_MAKE
  }
  return nullptr;
}

}  // namespace canopy::kernels
