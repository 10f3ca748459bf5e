// Element updates the shape family's scatter-style steps share (ScatterAdd,
// Scatter's add and multiply, IndexAdd): each reads one element of a storage
// type S, combines it with another in a wider type and rounds the result back
// to S, as an element-by-element kernel does.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/element_types.h"

namespace canopy::ops {

// The type a storage type S combines in: integers wrap modulo their width,
// bool adds as an integer (any non-zero sum is true), floats in double.
template <typename S>
using CombineType =
    std::conditional_t<kernels::kIsComplex<S>, std::complex<double>,
                       std::conditional_t<std::is_integral_v<S>, uint64_t,
                                          std::conditional_t<std::is_same_v<S, kernels::Bool8>, int64_t, double>>>;

// The scalar `value` as S's combine type (an integer scalar exactly).
template <typename S>
CombineType<S> CombineScalar(const kernels::ScalarValue& value) {
  return value.As<CombineType<S>>();
}

// *to = *to + alpha * *from, or *to * *from when `multiply`, rounded to S.
template <typename S>
void CombineElement(char* to, const char* from, CombineType<S> alpha, bool multiply = false) {
  S d, s;
  std::memcpy(&d, to, sizeof d);
  std::memcpy(&s, from, sizeof s);
  using C = CombineType<S>;
  const C a = kernels::Convert<C>(d), b = kernels::Convert<C>(s);
  const S result = kernels::Convert<S>(multiply ? a * b : a + alpha * b);
  std::memcpy(to, &result, sizeof result);
}

}  // namespace canopy::ops
