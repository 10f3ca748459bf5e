// Interesting values for the arguments the fuzzers build: dtypes, formats,
// dimensions, strides and scalars. Each picker spends a few input bytes and
// mostly returns values that pass the checks (so inputs reach deep), sometimes
// edge cases and invalid values.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "acl/acl.h"
#include "common/fuzz_support.h"

namespace canopy::fuzz {

// Every dtype Canopy stores and computes on.
inline constexpr int kStorableDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE,    ACL_INT8,
                                          ACL_UINT8, ACL_INT16,   ACL_UINT16, ACL_INT32,     ACL_UINT32,
                                          ACL_INT64, ACL_UINT64,  ACL_BOOL,   ACL_COMPLEX64, ACL_COMPLEX128};

// Named dtypes Canopy does not compute on, and unnamed values inside the enum's
// range ([-64, 63]: every value a C++ caller can legally put in an aclDataType).
inline constexpr int kOddDtypeValues[] = {ACL_DT_UNDEFINED,
                                          ACL_STRING,
                                          ACL_INT4,
                                          ACL_UINT1,
                                          ACL_COMPLEX32,
                                          ACL_HIFLOAT8,
                                          ACL_FLOAT8_E5M2,
                                          ACL_FLOAT8_E4M3FN,
                                          ACL_FLOAT8_E8M0,
                                          ACL_FLOAT6_E3M2,
                                          ACL_FLOAT6_E2M3,
                                          ACL_FLOAT4_E2M1,
                                          ACL_FLOAT4_E1M2,
                                          5,
                                          14,
                                          15,
                                          18,
                                          26,
                                          28,
                                          31,
                                          42,
                                          63,
                                          -2,
                                          -64};

// Values a C client may pass but that lie outside the C++ enum's range.
inline constexpr int kOutOfRangeEnumValues[] = {64, 1000, -65, std::numeric_limits<int32_t>::max(),
                                                std::numeric_limits<int32_t>::min()};

inline constexpr int kPlainFormats[] = {ACL_FORMAT_ND,    ACL_FORMAT_NCHW,  ACL_FORMAT_NHWC,
                                        ACL_FORMAT_NCDHW, ACL_FORMAT_NDHWC, ACL_FORMAT_HWCN,
                                        ACL_FORMAT_NC,    ACL_FORMAT_NCL,   ACL_FORMAT_UNDEFINED};
inline constexpr int kOddFormatValues[] = {ACL_FORMAT_NC1HWC0,
                                           ACL_FORMAT_FRACTAL_Z,
                                           ACL_FORMAT_NC1HWC0_C04,
                                           ACL_FORMAT_FRACTAL_NZ,
                                           ACL_FORMAT_NDC1HWC0,
                                           ACL_FRACTAL_Z_3D,
                                           ACL_FORMAT_FRACTAL_NZ_C0_16,
                                           ACL_FORMAT_FRACTAL_NZ_C0_8,
                                           5,
                                           40,
                                           63,
                                           -2};

template <typename T, size_t N>
T PickFrom(FuzzedDataProvider& in, const T (&values)[N]) {
  return values[in.ConsumeIntegralInRange<size_t>(0, N - 1)];
}

// Dtypes and formats travel as ints and reach the API through common/c_calls.c,
// as from a C client: values outside the C++ enum's range are legal there.
// Canopy must never load such a value as the C++ enum (UBSan -fsanitize=enum; K7).

inline int PickOddDtype(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange(0, 7) == 0) return PickFrom(in, kOutOfRangeEnumValues);
  return PickFrom(in, kOddDtypeValues);
}

// Mostly storable dtypes, sometimes odd ones.
inline int PickDtype(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange(0, 7) == 0) return PickOddDtype(in);
  return PickFrom(in, kStorableDtypes);
}

inline int PickFormat(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 15)) {
    case 0:
      if (in.ConsumeBool()) return PickFrom(in, kOutOfRangeEnumValues);
      return PickFrom(in, kOddFormatValues);
    case 1:
    case 2:
      return PickFrom(in, kPlainFormats);
    default:
      return ACL_FORMAT_ND;
  }
}

// A dimension: mostly small, sometimes 0, large, huge or negative.
inline int64_t PickDim(FuzzedDataProvider& in) {
  const int choice = in.ConsumeIntegralInRange(0, 31);
  if (choice < 8) return choice;  // 0..7
  switch (choice) {
    case 8:
      return 16;
    case 9:
      return 32;
    case 10:
      return 64;
    case 11:
      return 1000;
    case 12:
      return int64_t{1} << 31;
    case 13:
      return int64_t{1} << 40;
    case 14:
      return std::numeric_limits<int64_t>::max();
    case 15:
      return -1;
    case 16:
      return in.ConsumeIntegral<int64_t>();
    default:
      return choice - 15;  // 2..16, weighted towards small values
  }
}

// A stride: mostly small and non-negative, sometimes 0, negative or huge.
inline int64_t PickStride(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 11)) {
    case 0:
      return 0;
    case 1:
      return -1;
    case 2:
      return -3;
    case 3:
      return std::numeric_limits<int64_t>::max();
    case 4:
      return std::numeric_limits<int64_t>::min();
    case 5:
      return int64_t{1} << 40;
    case 6:
      return in.ConsumeIntegral<int64_t>();
    default:
      return in.ConsumeIntegralInRange<int64_t>(1, 64);
  }
}

// An element offset: mostly 0 or small, sometimes negative or huge.
inline int64_t PickOffset(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 15)) {
    case 0:
      return in.ConsumeIntegralInRange<int64_t>(1, 4096);
    case 1:
      return -1;
    case 2:
      return std::numeric_limits<int64_t>::max();
    case 3:
      return int64_t{1} << 40;
    case 4:
      return in.ConsumeIntegral<int64_t>();
    case 5:
    case 6:
      return in.ConsumeIntegralInRange<int64_t>(1, 16);
    default:
      return 0;
  }
}

// 16 bytes of scalar value (enough for every dtype, complex128 included):
// interesting values in the dtype's own representation, or raw input bytes.
struct ScalarBytes {
  alignas(16) unsigned char bytes[16] = {};
};

inline ScalarBytes PickScalarBytes(FuzzedDataProvider& in, int dtype) {
  ScalarBytes value;
  const int choice = in.ConsumeIntegralInRange(0, 9);
  const auto put = [&](auto v) { std::memcpy(value.bytes, &v, sizeof(v)); };
  const bool floating = dtype == ACL_FLOAT || dtype == ACL_DOUBLE || dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128;
  if (floating) {
    const double interesting[] = {0.0,
                                  1.0,
                                  -1.0,
                                  0.5,
                                  3.0,
                                  -2.5,
                                  65504.0,
                                  1e30,
                                  -1e300,
                                  std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN()};
    const double v =
        choice < 9 ? interesting[in.ConsumeIntegralInRange<size_t>(0, 10)] : in.ConsumeFloatingPoint<double>();
    if (dtype == ACL_FLOAT || dtype == ACL_COMPLEX64) {
      const float f[2] = {static_cast<float>(v), static_cast<float>(choice == 3 ? 1.0 : 0.0)};
      std::memcpy(value.bytes, f, sizeof(f));
    } else {
      const double d[2] = {v, choice == 3 ? -1.0 : 0.0};
      std::memcpy(value.bytes, d, sizeof(d));
    }
    return value;
  }
  if (choice < 7) {
    put(in.ConsumeIntegralInRange<int64_t>(-3, 3));
  } else if (choice == 7) {
    put(in.ConsumeBool() ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max());
  } else {
    const std::vector<uint8_t> raw = in.ConsumeBytes<uint8_t>(sizeof(value.bytes));
    if (!raw.empty()) std::memcpy(value.bytes, raw.data(), raw.size());
  }
  return value;
}

}  // namespace canopy::fuzz
