// The storage types of aclDataType values and exact conversions between them,
// shared by every kernel that loads or stores elements.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "common/half.h"

namespace canopy::kernels {

// Storage tags for dtypes that have no C++ arithmetic type of their own.
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
struct Bool8 {  // a bool byte; any non-zero byte reads as true
  uint8_t byte;
};

template <typename T>
inline constexpr bool kIsComplex = false;
template <typename T>
inline constexpr bool kIsComplex<std::complex<T>> = true;

// float -> integer: NaN becomes 0, out-of-range values saturate to int64 and then
// wrap to the target width (C's conversion is undefined there).
template <typename To, typename From>
inline To FloatToInt(From value) {
  if (std::isnan(value)) return To(0);
  if constexpr (std::is_same_v<To, uint64_t>) {
    constexpr From kTwo63 = static_cast<From>(9223372036854775808.0);
    if (value >= kTwo63) {
      if (value >= kTwo63 * 2) return std::numeric_limits<uint64_t>::max();
      return static_cast<uint64_t>(static_cast<int64_t>(value - kTwo63)) + (uint64_t{1} << 63);
    }
  }
  constexpr From kMax = static_cast<From>(9223372036854775807.0);
  constexpr From kMin = static_cast<From>(-9223372036854775808.0);
  int64_t wide;
  if (value >= kMax) {
    wide = std::numeric_limits<int64_t>::max();
  } else if (value <= kMin) {
    wide = std::numeric_limits<int64_t>::min();
  } else {
    wide = static_cast<int64_t>(value);
  }
  return static_cast<To>(wide);
}

template <typename To, typename From>
inline To Convert(From value) {
  if constexpr (std::is_same_v<From, Half>) {
    return Convert<To>(HalfToFloat(value.bits));
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return Convert<To>(Bf16ToFloat(value.bits));
  } else if constexpr (std::is_same_v<From, Bool8>) {
    return Convert<To>(static_cast<uint8_t>(value.byte != 0 ? 1 : 0));
  } else if constexpr (std::is_same_v<To, Half>) {
    return Half{FloatToHalf(Convert<float>(value))};
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{FloatToBf16(Convert<float>(value))};
  } else if constexpr (std::is_same_v<To, Bool8>) {
    if constexpr (kIsComplex<From>) {
      return Bool8{static_cast<uint8_t>(value.real() != 0 || value.imag() != 0)};
    } else {
      return Bool8{static_cast<uint8_t>(value != From(0))};
    }
  } else if constexpr (kIsComplex<From>) {
    if constexpr (kIsComplex<To>) {
      return To(static_cast<typename To::value_type>(value.real()), static_cast<typename To::value_type>(value.imag()));
    } else {
      return Convert<To>(value.real());  // complex -> real keeps the real part
    }
  } else if constexpr (kIsComplex<To>) {
    return To(static_cast<typename To::value_type>(value), 0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return FloatToInt<To>(value);
  } else {
    return static_cast<To>(value);
  }
}

// A scalar in a form that converts exactly to every compute type.
struct ScalarValue {
  double real = 0;
  double imag = 0;
  int64_t integer = 0;
  bool is_integer = false;
  // A UINT64 past INT64_MAX: integer math takes `integer`, its bits wrapped
  // (as the NPU's integer kernels do), float math `real`, its value (2^64 - 1
  // times 1.0 is 1.8e19, not -1).
  bool past_int64 = false;

  static ScalarValue Integer(int64_t v) { return {static_cast<double>(v), 0, v, true}; }
  static ScalarValue Unsigned(uint64_t v) {
    return {static_cast<double>(v), 0, static_cast<int64_t>(v), true, v > uint64_t{INT64_MAX}};
  }
  static ScalarValue Real(double v) { return {v, 0, 0, false}; }
  static ScalarValue Complex(double re, double im) { return {re, im, 0, false}; }

  // The value as T, a compute or a storage type: integers exactly where T
  // holds them (an int64 converts to float once, not through double).
  template <typename T>
  T As() const {
    const bool exact_integer = is_integer && (!past_int64 || std::is_integral_v<T>);
    if constexpr (kIsComplex<T>) {
      return T(static_cast<typename T::value_type>(exact_integer ? static_cast<double>(integer) : real),
               static_cast<typename T::value_type>(imag));
    } else if (exact_integer) {
      return Convert<T>(integer);
    } else {
      return Convert<T>(real);
    }
  }
};

}  // namespace canopy::kernels
