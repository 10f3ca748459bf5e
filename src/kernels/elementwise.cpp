#include "elementwise.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "common/dtype.h"
#include "cpu_features.h"
#include "dtype_dispatch.h"
#include "fused_float.h"
#include "parallel_for.h"
#include "strided_copy.h"

namespace canopy::kernels {
namespace {

// Elements converted per chunk: three buffers of the widest compute type fit in L1.
constexpr int64_t kChunk = 512;
// Elements worth a thread of their own (ParallelFor's grain): below it waking
// the team costs more than it gains.
constexpr int64_t kParallelGrain = 32768;

// ---- arithmetic on chunks ---------------------------------------------------

// Exact integer division rounded toward zero, as C++ `/`. CANN leaves a zero
// divisor undefined; here it gives 0 (as NumPy does), and MIN / -1 wraps to
// MIN, so no input can raise SIGFPE.
template <typename T>
inline T TruncDivide(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(std::make_unsigned_t<T>(0) - static_cast<std::make_unsigned_t<T>>(a));
  }
  return a / b;
}

// Exact integer division rounded toward negative infinity (Python's //).
template <typename T>
inline T FloorDivide(T a, T b) {
  const T quotient = TruncDivide(a, b);
  if constexpr (std::is_signed_v<T>) {
    if (b != 0 && b != -1 && a % b != 0 && ((a < 0) != (b < 0))) return quotient - 1;
  }
  return quotient;
}

// The loops, written once; inlined into a baseline and (for f32/f64) an
// AVX-512 build of the same code, chosen at run time.
template <typename T>
__attribute__((always_inline)) inline void ComputeLoops(ElementwiseOp op, const T* a, const T* b, T* out, int64_t n,
                                                        T alpha) {
  if constexpr (std::is_integral_v<T>) {
    // Integer results wrap, as on the device; unsigned arithmetic keeps that defined.
    using U = std::make_unsigned_t<T>;
    const U ua = static_cast<U>(alpha);
    switch (op) {
      case ElementwiseOp::kAdd:
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(static_cast<U>(a[i]) + ua * static_cast<U>(b[i]));
        return;
      case ElementwiseOp::kSub:
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(static_cast<U>(a[i]) - ua * static_cast<U>(b[i]));
        return;
      case ElementwiseOp::kMul:
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(static_cast<U>(a[i]) * static_cast<U>(b[i]));
        return;
      case ElementwiseOp::kDiv:
      case ElementwiseOp::kDivTrunc:
        for (int64_t i = 0; i < n; ++i) out[i] = TruncDivide(a[i], b[i]);
        return;
      case ElementwiseOp::kDivFloor:
        for (int64_t i = 0; i < n; ++i) out[i] = FloorDivide(a[i], b[i]);
        return;
      default:
        break;
    }
  }
  switch (op) {
    case ElementwiseOp::kCopy:
      if (out != a) std::memmove(out, a, sizeof(T) * n);
      return;
    case ElementwiseOp::kFill:
      std::fill(out, out + n, alpha);
      return;
    case ElementwiseOp::kAdd:
      if (alpha == T(1)) {
        for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = a[i] + alpha * b[i];
      }
      return;
    case ElementwiseOp::kSub:
      if (alpha == T(1)) {
        for (int64_t i = 0; i < n; ++i) out[i] = a[i] - b[i];
      } else {
        for (int64_t i = 0; i < n; ++i) out[i] = a[i] - alpha * b[i];
      }
      return;
    case ElementwiseOp::kMul:
      for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
      return;
    case ElementwiseOp::kDiv:
      for (int64_t i = 0; i < n; ++i) out[i] = a[i] / b[i];
      return;
    case ElementwiseOp::kDivTrunc:
    case ElementwiseOp::kDivFloor:
      if constexpr (std::is_floating_point_v<T>) {
        if (op == ElementwiseOp::kDivTrunc) {
          for (int64_t i = 0; i < n; ++i) out[i] = std::trunc(a[i] / b[i]);
        } else {
          for (int64_t i = 0; i < n; ++i) out[i] = std::floor(a[i] / b[i]);
        }
      } else {  // complex operands are rejected in phase 1
        ComputeLoops(ElementwiseOp::kDiv, a, b, out, n, alpha);
      }
      return;
  }
}

#if defined(__x86_64__)
// The same loops compiled for AVX-512, chosen at run time (x86-64 only).
__attribute__((target("avx512f,avx512vl,avx512bw"))) void ComputeAvx512(ElementwiseOp op, const float* a,
                                                                        const float* b, float* out, int64_t n,
                                                                        float alpha) {
  ComputeLoops(op, a, b, out, n, alpha);
}

__attribute__((target("avx512f,avx512vl,avx512bw"))) void ComputeAvx512(ElementwiseOp op, const double* a,
                                                                        const double* b, double* out, int64_t n,
                                                                        double alpha) {
  ComputeLoops(op, a, b, out, n, alpha);
}
#endif

template <typename T>
void Compute(ElementwiseOp op, const T* a, const T* b, T* out, int64_t n, T alpha) {
#if defined(__x86_64__)
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (Cpu().Avx512()) return ComputeAvx512(op, a, b, out, n, alpha);
  }
#endif
  ComputeLoops(op, a, b, out, n, alpha);
}

const char* OpName(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::kCopy:
      return "copy";
    case ElementwiseOp::kFill:
      return "fill";
    case ElementwiseOp::kAdd:
      return "add";
    case ElementwiseOp::kSub:
      return "sub";
    case ElementwiseOp::kMul:
      return "mul";
    case ElementwiseOp::kDiv:
      return "div";
    case ElementwiseOp::kDivTrunc:
      return "div_trunc";
    case ElementwiseOp::kDivFloor:
      return "div_floor";
  }
  return "?";
}

const char* ComputeName(ComputeType c) {
  switch (c) {
    case ComputeType::kF32:
      return "f32";
    case ComputeType::kF64:
      return "f64";
    case ComputeType::kI64:
      return "i64";
    case ComputeType::kC64:
      return "c64";
    case ComputeType::kC128:
      return "c128";
  }
  return "?";
}

// Which one-pass loop of fused_float.h serves a step, if any: every operand
// contiguous along the inner dimension and stored as f32 / fp16 / bf16.
enum class FusedPath : uint8_t { kNone, kConvert, kBinary };

FusedPath ChooseFusedPath(const ElementwiseDesc& d) {
  if (d.compute != ComputeType::kF32 || !Cpu().Avx512()) return FusedPath::kNone;
  const int inner = d.rank - 1;
  if (d.out.strides[inner] != 1 || !IsFusedFloatStorage(d.out.dtype)) return FusedPath::kNone;
  for (int k = 0; k < d.num_inputs; ++k) {
    if (d.inputs[k].strides[inner] != 1 || !IsFusedFloatStorage(d.inputs[k].dtype)) return FusedPath::kNone;
  }
  switch (d.op) {
    case ElementwiseOp::kCopy:
      return FusedPath::kConvert;
    case ElementwiseOp::kAdd:
    case ElementwiseOp::kSub:
    case ElementwiseOp::kMul:
    case ElementwiseOp::kDiv:
      // Every float storage: f32 too, whose chunked path ran at 0.83-0.95 of a
      // plain loop on a Xeon with AMX (1.0 on Zen 5); one pass, 0.93-1.07.
      for (int k = 0; k < d.num_inputs; ++k) {
        if (d.inputs[k].dtype != d.out.dtype) return FusedPath::kNone;
      }
      return FusedPath::kBinary;
    default:
      return FusedPath::kNone;
  }
}

#if defined(__x86_64__)
FusedBinaryOp FusedOpOf(ElementwiseOp op) {
  switch (op) {
    case ElementwiseOp::kSub:
      return FusedBinaryOp::kSub;
    case ElementwiseOp::kMul:
      return FusedBinaryOp::kMul;
    case ElementwiseOp::kDiv:
      return FusedBinaryOp::kDiv;
    default:
      return FusedBinaryOp::kAdd;
  }
}
#endif

class ElementwiseStep final : public Step {
 public:
  explicit ElementwiseStep(const ElementwiseDesc& desc) : desc_(desc), fused_(ChooseFusedPath(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    int64_t total = 1;
    for (int d = 0; d < desc_.rank; ++d) total *= desc_.shape[d];
    if (total == 0) return ACLNN_SUCCESS;
    switch (desc_.compute) {
      case ComputeType::kF32:
        RunAll<float>(context, total);
        break;
      case ComputeType::kF64:
        RunAll<double>(context, total);
        break;
      case ComputeType::kI64:
        RunAll<int64_t>(context, total);
        break;
      case ComputeType::kC64:
        RunAll<std::complex<float>>(context, total);
        break;
      case ComputeType::kC128:
        RunAll<std::complex<double>>(context, total);
        break;
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "elementwise " << OpName(desc_.op) << " in " << ComputeName(desc_.compute) << " over [";
    for (int d = 0; d < desc_.rank; ++d) text << (d ? "," : "") << desc_.shape[d];
    text << "] -> " << DtypeName(desc_.out.dtype);
    if (fused_ != FusedPath::kNone) text << " (one pass)";
    return text.str();
  }

 private:
  template <typename T>
  void RunAll(const RunContext& context, int64_t total) const {
    ParallelFor(total, kParallelGrain, [&](int64_t begin, int64_t end) { RunRange<T>(context, begin, end); });
  }

  template <typename T>
  void RunRange(const RunContext& context, int64_t begin, int64_t end) const {
    const int rank = desc_.rank;
    const int inner = rank - 1;
    const int inputs = desc_.num_inputs;
    char* out_base = context.Resolve(desc_.out.buffer);
    const char* in_base[2] = {};
    for (int k = 0; k < inputs; ++k) in_base[k] = context.Resolve(desc_.inputs[k].buffer);
    const size_t out_size = DtypeSize(desc_.out.dtype);
    size_t in_size[2] = {};
    for (int k = 0; k < inputs; ++k) in_size[k] = DtypeSize(desc_.inputs[k].dtype);

    alignas(64) T buffers[3][kChunk];
    const T alpha = desc_.op == ElementwiseOp::kFill ? desc_.scalar.As<T>() : desc_.alpha.As<T>();
    const bool scalar_b = inputs == 1 && desc_.op != ElementwiseOp::kCopy;
    if (scalar_b) std::fill(buffers[1], buffers[1] + kChunk, desc_.scalar.As<T>());

    int64_t index[kMaxRank];
    int64_t rest = begin;
    for (int d = rank - 1; d >= 0; --d) {
      index[d] = rest % desc_.shape[d];
      rest /= desc_.shape[d];
    }
    const bool copy = desc_.op == ElementwiseOp::kCopy;
    // The one-pass loops need no buffers, so they take whole rows.
    const int64_t max_length = fused_ == FusedPath::kNone ? kChunk : end - begin;
    for (int64_t position = begin; position < end;) {
      const int64_t length = std::min({desc_.shape[inner] - index[inner], end - position, max_length});
      int64_t out_offset = 0;
      for (int d = 0; d < rank; ++d) out_offset += index[d] * desc_.out.strides[d];
      char* dst = out_base + out_offset * static_cast<int64_t>(out_size);
      const bool direct = desc_.out.dtype == kNativeDtype<T> && desc_.out.strides[inner] == 1;
      if (fused_ != FusedPath::kNone) {
#if defined(__x86_64__)  // the one-pass loops are AVX-512 code, chosen only there
        const char* src[2] = {};
        for (int k = 0; k < inputs; ++k) {
          int64_t offset = 0;
          for (int d = 0; d < rank; ++d) offset += index[d] * desc_.inputs[k].strides[d];
          src[k] = in_base[k] + offset * static_cast<int64_t>(in_size[k]);
        }
        if (fused_ == FusedPath::kConvert) {
          FusedConvert(desc_.inputs[0].dtype, src[0], desc_.out.dtype, dst, length);
        } else {
          FusedBinary(FusedOpOf(desc_.op), desc_.out.dtype, src[0], src[1], desc_.scalar.As<float>(), dst, length,
                      desc_.alpha.As<float>());
        }
#endif
      } else if (copy) {
        // A conversion goes straight from source to destination: one pass, no staging
        // copy, the compute type only in between when neither side is in it.
        const StridedOperand& in = desc_.inputs[0];
        int64_t offset = 0;
        for (int d = 0; d < rank; ++d) offset += index[d] * in.strides[d];
        const char* src = in_base[0] + offset * static_cast<int64_t>(in_size[0]);
        const bool direct_in = in.dtype == kNativeDtype<T> && in.strides[inner] == 1;
        if (direct && direct_in) {
          if (dst != src) std::memmove(dst, src, sizeof(T) * length);
        } else if (direct) {
          Load<T>(in.dtype, src, in.strides[inner], length, reinterpret_cast<T*>(dst));
        } else if (direct_in) {
          Store<T>(reinterpret_cast<const T*>(src), desc_.out.dtype, dst, desc_.out.strides[inner], length);
        } else {
          Load<T>(in.dtype, src, in.strides[inner], length, buffers[0]);
          Store<T>(buffers[0], desc_.out.dtype, dst, desc_.out.strides[inner], length);
        }
      } else {
        ComputeChunk<T>(in_base, in_size, index, length, dst, direct, buffers, scalar_b, alpha);
      }
      position += length;
      index[inner] += length;
      for (int d = inner; d > 0 && index[d] == desc_.shape[d]; --d) {
        index[d] = 0;
        ++index[d - 1];
      }
    }
  }

  // One chunk of arithmetic: operands converted into the compute type where
  // they are not already in it, the result converted out where needed.
  template <typename T>
  void ComputeChunk(const char* const* in_base, const size_t* in_size, const int64_t* index, int64_t length, char* dst,
                    bool direct, T (*buffers)[kChunk], bool scalar_b, T alpha) const {
    const int rank = desc_.rank;
    const int inner = rank - 1;
    const T* operands[2] = {nullptr, scalar_b ? buffers[1] : nullptr};
    for (int k = 0; k < desc_.num_inputs; ++k) {
      const StridedOperand& in = desc_.inputs[k];
      int64_t offset = 0;
      for (int d = 0; d < rank; ++d) offset += index[d] * in.strides[d];
      const char* src = in_base[k] + offset * static_cast<int64_t>(in_size[k]);
      if (in.dtype == kNativeDtype<T> && in.strides[inner] == 1) {
        operands[k] = reinterpret_cast<const T*>(src);
      } else {
        Load<T>(in.dtype, src, in.strides[inner], length, buffers[k]);
        operands[k] = buffers[k];
      }
    }
    T* result = direct ? reinterpret_cast<T*>(dst) : buffers[2];
    Compute<T>(desc_.op, operands[0], operands[1], result, length, alpha);
    if (!direct) Store<T>(result, desc_.out.dtype, dst, desc_.out.strides[inner], length);
  }

  ElementwiseDesc desc_;
  FusedPath fused_;
};

// Whether dimension `a` should be walked outside dimension `b` (positive),
// inside it (negative), or either (0): the first operand, output
// first, whose strides tell them apart decides, broadcast (stride 0) operands
// abstaining; equal strides put the longer dimension outside (PyTorch's
// TensorIterator::reorder_dimensions rule).
int CompareDims(const ElementwiseDesc& d, const StridedOperand* const* operands, int count, int a, int b) {
  for (int k = 0; k < count; ++k) {
    const int64_t sa = operands[k]->strides[a], sb = operands[k]->strides[b];
    if (sa == 0 || sb == 0) continue;
    if (sa != sb) return sa > sb ? 1 : -1;
    if (d.shape[a] > d.shape[b]) return 1;
  }
  return 0;
}

// Orders the dimensions by stride, outermost first, so dense operands in any
// permuted layout are walked in memory order: an iteration order only, the
// element each index addresses stays the same (writes still go through the
// output's strides, broadcasts keep stride 0).
ElementwiseDesc OrderByStride(const ElementwiseDesc& in) {
  const StridedOperand* operands[1 + kMaxElementwiseInputs] = {&in.out};
  for (int k = 0; k < in.num_inputs; ++k) operands[1 + k] = &in.inputs[k];
  const int count = 1 + in.num_inputs;
  // order[0] is the innermost dimension; an insertion sort keeps ties as given.
  int order[kMaxRank];
  for (int i = 0; i < in.rank; ++i) order[i] = in.rank - 1 - i;
  for (int i = 1; i < in.rank; ++i) {
    int moving = i;  // where dimension order[i] has got to
    for (int j = i - 1; j >= 0; --j) {
      const int c = CompareDims(in, operands, count, order[j], order[moving]);
      if (c > 0) {
        std::swap(order[j], order[moving]);
        moving = j;
      } else if (c < 0) {
        break;
      }  // undecided: compare with the next one further in, as TensorIterator does
    }
  }
  ElementwiseDesc out = in;
  StridedOperand* targets[1 + kMaxElementwiseInputs] = {&out.out};
  for (int k = 0; k < in.num_inputs; ++k) targets[1 + k] = &out.inputs[k];
  for (int d = 0; d < in.rank; ++d) {
    const int from = order[in.rank - 1 - d];
    out.shape[d] = in.shape[from];
    for (int k = 0; k < count; ++k) targets[k]->strides[d] = operands[k]->strides[from];
  }
  return out;
}

// Merges adjacent dimensions that every operand walks contiguously and drops
// size-1 dimensions, so the inner loop runs as long as possible.
ElementwiseDesc Coalesce(const ElementwiseDesc& in) {
  ElementwiseDesc out = in;
  StridedOperand* operands[1 + kMaxElementwiseInputs] = {&out.out};
  const StridedOperand* sources[1 + kMaxElementwiseInputs] = {&in.out};
  for (int k = 0; k < in.num_inputs; ++k) {
    operands[1 + k] = &out.inputs[k];
    sources[1 + k] = &in.inputs[k];
  }
  const int count = 1 + in.num_inputs;
  int rank = 0;
  for (int d = 0; d < in.rank; ++d) {
    if (in.shape[d] == 1) continue;
    bool merge = rank > 0;
    for (int k = 0; k < count && merge; ++k) {
      merge = operands[k]->strides[rank - 1] == sources[k]->strides[d] * in.shape[d];
    }
    if (merge) {
      out.shape[rank - 1] *= in.shape[d];
      for (int k = 0; k < count; ++k) operands[k]->strides[rank - 1] = sources[k]->strides[d];
    } else {
      out.shape[rank] = in.shape[d];
      for (int k = 0; k < count; ++k) operands[k]->strides[rank] = sources[k]->strides[d];
      ++rank;
    }
  }
  if (rank == 0) {  // a single element (or a rank-0 tensor)
    out.shape[0] = 1;
    for (int k = 0; k < count; ++k) operands[k]->strides[0] = 1;
    rank = 1;
  }
  for (int d = rank; d < kMaxRank; ++d) out.shape[d] = 0;
  out.rank = rank;
  return out;
}

}  // namespace

ElementwiseDesc OrderAndCoalesce(const ElementwiseDesc& desc) { return Coalesce(OrderByStride(desc)); }

ComputeType ComputeTypeOf(aclDataType dtype) {
  switch (CategoryOf(dtype)) {
    case DtypeCategory::kFloat:
      return dtype == ACL_DOUBLE ? ComputeType::kF64 : ComputeType::kF32;
    case DtypeCategory::kComplex:
      return dtype == ACL_COMPLEX128 ? ComputeType::kC128 : ComputeType::kC64;
    default:
      return ComputeType::kI64;
  }
}

ComputeType CastComputeType(aclDataType src, aclDataType dst) {
  if (IsComplex(src) || IsComplex(dst)) {
    return src == ACL_COMPLEX128 || dst == ACL_COMPLEX128 || src == ACL_DOUBLE || dst == ACL_DOUBLE ? ComputeType::kC128
                                                                                                    : ComputeType::kC64;
  }
  const bool src_float = IsFloating(src), dst_float = IsFloating(dst);
  if (!src_float && !dst_float) return ComputeType::kI64;  // integers and bool, bit-exact
  // Anything with an f64 side goes through f64. The rest through f32: an
  // integer rounds into FLOAT once, as static_cast and PyTorch round it (through
  // f64, 2^60 + 2^36 + 1 landed on a tie and rounded down), and into a 16-bit
  // float through FLOAT, as PyTorch's c10 types do; f32 holds every 16-bit value.
  if (src == ACL_DOUBLE || dst == ACL_DOUBLE) return ComputeType::kF64;
  return ComputeType::kF32;
}

std::unique_ptr<Step> MakeElementwiseStep(const ElementwiseDesc& desc) {
  if (IsBitCopy(desc)) return MakeBitCopyStep(desc);  // same-dtype copies move bytes (strided_copy.h)
  return std::make_unique<ElementwiseStep>(OrderAndCoalesce(desc));
}

}  // namespace canopy::kernels
