// Dtype dispatch shared by every kernel family: visit the C++ storage type of
// an aclDataType, and load / store runs of elements of any storage dtype as a
// compute type (float, double, int64_t, complex). One switch over dtypes for
// the whole code base, so a family never writes its own.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "acl/acl_base.h"
#include "common/half.h"
#include "element_types.h"

namespace canopy::kernels {

// Calls f(tag) with a value-initialised object of the storage type of `dtype`
// (float, Half, BFloat16, double, the integer types, Bool8, complex). Dtypes
// with no storage type here (rejected in phase 1) call nothing.
template <typename F>
void VisitStorage(aclDataType dtype, F&& f) {
  switch (dtype) {
    case ACL_FLOAT:
      return f(float{});
    case ACL_FLOAT16:
      return f(Half{});
    case ACL_BF16:
      return f(BFloat16{});
    case ACL_DOUBLE:
      return f(double{});
    case ACL_INT8:
      return f(int8_t{});
    case ACL_UINT8:
      return f(uint8_t{});
    case ACL_INT16:
      return f(int16_t{});
    case ACL_UINT16:
      return f(uint16_t{});
    case ACL_INT32:
      return f(int32_t{});
    case ACL_UINT32:
      return f(uint32_t{});
    case ACL_INT64:
      return f(int64_t{});
    case ACL_UINT64:
      return f(uint64_t{});
    case ACL_BOOL:
      return f(Bool8{});
    case ACL_COMPLEX64:
      return f(std::complex<float>{});
    case ACL_COMPLEX128:
      return f(std::complex<double>{});
    default:
      return;
  }
}

// The aclDataType whose storage type is the compute type T itself (operands
// already in it are used in place).
template <typename T>
inline constexpr aclDataType kNativeDtype = std::is_same_v<T, float>                 ? ACL_FLOAT
                                            : std::is_same_v<T, double>              ? ACL_DOUBLE
                                            : std::is_same_v<T, int64_t>             ? ACL_INT64
                                            : std::is_same_v<T, uint64_t>            ? ACL_UINT64
                                            : std::is_same_v<T, std::complex<float>> ? ACL_COMPLEX64
                                                                                     : ACL_COMPLEX128;

// dst[i] = src[i * stride] converted from storage Src to T.
template <typename Src, typename T>
void LoadTyped(const char* src, int64_t stride, int64_t n, T* dst) {
  const auto* s = reinterpret_cast<const Src*>(src);
  if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) dst[i] = Convert<T>(s[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = Convert<T>(s[i * stride]);
  }
}

// dst[i * stride] = src[i] converted from T to storage Dst.
template <typename Dst, typename T>
void StoreTyped(const T* src, char* dst, int64_t stride, int64_t n) {
  auto* d = reinterpret_cast<Dst*>(dst);
  if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) d[i] = Convert<Dst>(src[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) d[i * stride] = Convert<Dst>(src[i]);
  }
}

// n elements of `dtype` at `src` (stride in elements) into the compute type;
// contiguous fp16 / bf16 into f32 take the bulk converters of common/half.h.
template <typename T>
void Load(aclDataType dtype, const char* src, int64_t stride, int64_t n, T* dst) {
  if constexpr (std::is_same_v<T, float>) {
    if (stride == 1 && dtype == ACL_FLOAT16) return HalfToFloatN(reinterpret_cast<const uint16_t*>(src), dst, n);
    if (stride == 1 && dtype == ACL_BF16) return Bf16ToFloatN(reinterpret_cast<const uint16_t*>(src), dst, n);
  }
  VisitStorage(dtype, [&](auto tag) { LoadTyped<decltype(tag)>(src, stride, n, dst); });
}

// n compute-type elements stored as `dtype` at `dst` (stride in elements).
template <typename T>
void Store(const T* src, aclDataType dtype, char* dst, int64_t stride, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    if (stride == 1 && dtype == ACL_FLOAT16) return FloatToHalfN(src, reinterpret_cast<uint16_t*>(dst), n);
    if (stride == 1 && dtype == ACL_BF16) return FloatToBf16N(src, reinterpret_cast<uint16_t*>(dst), n);
  }
  VisitStorage(dtype, [&](auto tag) { StoreTyped<decltype(tag)>(src, dst, stride, n); });
}

}  // namespace canopy::kernels
