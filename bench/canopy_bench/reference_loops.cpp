#include "reference_loops.h"

#include <omp.h>

#include <chrono>
#include <cstring>

#include "x86_intrinsics.h"

#define BENCH_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,f16c,fma")))

namespace canopy_bench {
namespace {

enum class Kind { kF32, kF16, kBf16 };
constexpr int kLanes = 16;

bool KindOf(aclDataType dtype, Kind& kind) {
  switch (dtype) {
    case ACL_FLOAT:
      kind = Kind::kF32;
      return true;
    case ACL_FLOAT16:
      kind = Kind::kF16;
      return true;
    case ACL_BF16:
      kind = Kind::kBf16;
      return true;
    default:
      return false;
  }
}

// ---- one element (tails and machines without AVX-512) -------------------------------

template <Kind K>
inline float LoadOne(const void* base, int64_t i) {
  if constexpr (K == Kind::kF32) {
    return static_cast<const float*>(base)[i];
  } else if constexpr (K == Kind::kF16) {
    return static_cast<float>(static_cast<const _Float16*>(base)[i]);
  } else {
    const uint32_t wide = uint32_t{static_cast<const uint16_t*>(base)[i]} << 16;
    float value;
    std::memcpy(&value, &wide, sizeof(value));
    return value;
  }
}

template <Kind K>
inline void StoreOne(void* base, int64_t i, float value) {
  if constexpr (K == Kind::kF32) {
    static_cast<float*>(base)[i] = value;
  } else if constexpr (K == Kind::kF16) {
    static_cast<_Float16*>(base)[i] = static_cast<_Float16>(value);
  } else {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    const bool nan = (bits & 0x7fffffffu) > 0x7f800000u;
    bits = nan ? bits | 0x400000u : bits + 0x7fffu + ((bits >> 16) & 1u);
    static_cast<uint16_t*>(base)[i] = static_cast<uint16_t>(bits >> 16);
  }
}

template <BinaryOp Op>
inline float ApplyOne(float a, float b) {
  if constexpr (Op == BinaryOp::kAdd) return a + b;
  if constexpr (Op == BinaryOp::kSub) return a - b;
  if constexpr (Op == BinaryOp::kMul) return a * b;
  return a / b;
}

// ---- sixteen lanes --------------------------------------------------------------------

template <Kind K>
BENCH_AVX512 inline __m512 Load16(const void* base, int64_t i) {
  if constexpr (K == Kind::kF32) {
    return _mm512_loadu_ps(static_cast<const float*>(base) + i);
  } else if constexpr (K == Kind::kF16) {
    return _mm512_cvtph_ps(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const uint16_t*>(base) + i)));
  } else {
    const __m256i half = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const uint16_t*>(base) + i));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(half), 16));
  }
}

template <Kind K>
BENCH_AVX512 inline void Store16(void* base, int64_t i, __m512 value) {
  if constexpr (K == Kind::kF32) {
    _mm512_storeu_ps(static_cast<float*>(base) + i, value);
  } else if constexpr (K == Kind::kF16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(static_cast<uint16_t*>(base) + i),
                        _mm512_cvtps_ph(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  } else {
    // Round to nearest even; a NaN keeps its payload's top bits and becomes quiet.
    const __m512i bits = _mm512_castps_si512(value);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(value, value, _CMP_UNORD_Q);
    const __m512i result = _mm512_mask_or_epi32(rounded, nan, bits, _mm512_set1_epi32(0x400000));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(static_cast<uint16_t*>(base) + i),
                        _mm512_cvtepi32_epi16(_mm512_srli_epi32(result, 16)));
  }
}

template <BinaryOp Op>
BENCH_AVX512 inline __m512 Apply16(__m512 a, __m512 b) {
  if constexpr (Op == BinaryOp::kAdd) return _mm512_add_ps(a, b);
  if constexpr (Op == BinaryOp::kSub) return _mm512_sub_ps(a, b);
  if constexpr (Op == BinaryOp::kMul) return _mm512_mul_ps(a, b);
  return _mm512_div_ps(a, b);
}

template <Kind K, BinaryOp Op>
BENCH_AVX512 void BinaryRangeAvx512(const void* a, const void* b, void* out, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + kLanes <= end; i += kLanes) Store16<K>(out, i, Apply16<Op>(Load16<K>(a, i), Load16<K>(b, i)));
  for (; i < end; ++i) StoreOne<K>(out, i, ApplyOne<Op>(LoadOne<K>(a, i), LoadOne<K>(b, i)));
}

template <Kind K, BinaryOp Op>
void BinaryRangePortable(const void* a, const void* b, void* out, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) StoreOne<K>(out, i, ApplyOne<Op>(LoadOne<K>(a, i), LoadOne<K>(b, i)));
}

template <Kind In, Kind Out>
BENCH_AVX512 void CastRangeAvx512(const void* src, void* out, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + kLanes <= end; i += kLanes) Store16<Out>(out, i, Load16<In>(src, i));
  for (; i < end; ++i) StoreOne<Out>(out, i, LoadOne<In>(src, i));
}

template <Kind In, Kind Out>
void CastRangePortable(const void* src, void* out, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) StoreOne<Out>(out, i, LoadOne<In>(src, i));
}

bool HasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("f16c");
  return has;
}

// Runs range(begin, end) on every OpenMP thread over static contiguous ranges.
template <typename Range>
void Parallel(int64_t n, Range range) {
#pragma omp parallel
  {
    const int64_t count = omp_get_num_threads(), id = omp_get_thread_num();
    const int64_t begin = n * id / count, end = n * (id + 1) / count;
    if (end > begin) range(begin, end);
  }
}

template <Kind K, BinaryOp Op>
void RunBinary(const void* a, const void* b, void* out, int64_t n) {
  const bool avx512 = HasAvx512();
  Parallel(n, [&](int64_t begin, int64_t end) {
    if (avx512) {
      BinaryRangeAvx512<K, Op>(a, b, out, begin, end);
    } else {
      BinaryRangePortable<K, Op>(a, b, out, begin, end);
    }
  });
}

template <Kind K>
void DispatchBinary(BinaryOp op, const void* a, const void* b, void* out, int64_t n) {
  switch (op) {
    case BinaryOp::kAdd:
      return RunBinary<K, BinaryOp::kAdd>(a, b, out, n);
    case BinaryOp::kSub:
      return RunBinary<K, BinaryOp::kSub>(a, b, out, n);
    case BinaryOp::kMul:
      return RunBinary<K, BinaryOp::kMul>(a, b, out, n);
    case BinaryOp::kDiv:
      return RunBinary<K, BinaryOp::kDiv>(a, b, out, n);
  }
}

template <Kind In, Kind Out>
void RunCast(const void* src, void* out, int64_t n) {
  const bool avx512 = HasAvx512();
  Parallel(n, [&](int64_t begin, int64_t end) {
    if (avx512) {
      CastRangeAvx512<In, Out>(src, out, begin, end);
    } else {
      CastRangePortable<In, Out>(src, out, begin, end);
    }
  });
}

template <Kind In>
void DispatchCast(Kind out_kind, const void* src, void* out, int64_t n) {
  switch (out_kind) {
    case Kind::kF32:
      return RunCast<In, Kind::kF32>(src, out, n);
    case Kind::kF16:
      return RunCast<In, Kind::kF16>(src, out, n);
    case Kind::kBf16:
      return RunCast<In, Kind::kBf16>(src, out, n);
  }
}

}  // namespace

bool PlainBinaryLoop(BinaryOp op, aclDataType dtype, const void* a, const void* b, void* out, int64_t n) {
  Kind kind;
  if (!KindOf(dtype, kind)) return false;
  switch (kind) {
    case Kind::kF32:
      DispatchBinary<Kind::kF32>(op, a, b, out, n);
      break;
    case Kind::kF16:
      DispatchBinary<Kind::kF16>(op, a, b, out, n);
      break;
    case Kind::kBf16:
      DispatchBinary<Kind::kBf16>(op, a, b, out, n);
      break;
  }
  return true;
}

bool PlainCastLoop(aclDataType src_dtype, aclDataType dst_dtype, const void* src, void* out, int64_t n) {
  Kind in, to;
  if (!KindOf(src_dtype, in) || !KindOf(dst_dtype, to)) return false;
  switch (in) {
    case Kind::kF32:
      DispatchCast<Kind::kF32>(to, src, out, n);
      break;
    case Kind::kF16:
      DispatchCast<Kind::kF16>(to, src, out, n);
      break;
    case Kind::kBf16:
      DispatchCast<Kind::kBf16>(to, src, out, n);
      break;
  }
  return true;
}

double PlainReadLoop(const void* data, size_t bytes) {
  const auto* words = static_cast<const uint64_t*>(data);
  const auto count = static_cast<int64_t>(bytes / sizeof(uint64_t));
  uint64_t sum = 0;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
  for (int64_t i = 0; i < count; ++i) sum += words[i];
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  volatile uint64_t sink = sum;
  (void)sink;
  return us;
}

double PlainCopyLoop(void* src, void* dst, size_t bytes, int threads, bool first_touch) {
  auto* s = static_cast<unsigned char*>(src);
  auto* d = static_cast<unsigned char*>(dst);
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads)
  {
    const size_t count = omp_get_num_threads(), id = omp_get_thread_num();
    const size_t begin = bytes * id / count, end = bytes * (id + 1) / count;
    if (first_touch) {
      std::memset(s + begin, 1, end - begin);
      std::memset(d + begin, 0, end - begin);
    } else {
      std::memcpy(d + begin, s + begin, end - begin);
    }
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace canopy_bench
