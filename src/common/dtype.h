// Facts about aclDataType values: sizes, categories, names, and dtype sets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>

#include "acl/acl_base.h"

namespace canopy {

enum class DtypeCategory : uint8_t { kInvalid, kBool, kSigned, kUnsigned, kFloat, kComplex };

// Element size in bytes; 0 for dtypes Canopy does not store (string, sub-byte types).
size_t DtypeSize(aclDataType dtype);
DtypeCategory CategoryOf(aclDataType dtype);
// "FLOAT16", "BF16", ...: used in error messages.
const char* DtypeName(aclDataType dtype);

// The least and greatest finite values a real dtype holds (bool: 0 and 1);
// (0, 0) for the others.
std::pair<double, double> DtypeRange(aclDataType dtype);

// A complex dtype's part dtype (COMPLEX64: FLOAT); any other dtype itself.
aclDataType PartDtype(aclDataType dtype);
// The significand digits of a float dtype, or of a complex dtype's parts
// (FLOAT16: 11, BF16: 8, FLOAT: 24, DOUBLE: 53); 0 for the others.
int SignificandDigits(aclDataType dtype);

inline bool IsFloating(aclDataType d) { return CategoryOf(d) == DtypeCategory::kFloat; }
inline bool IsComplex(aclDataType d) { return CategoryOf(d) == DtypeCategory::kComplex; }
inline bool IsBool(aclDataType d) { return d == ACL_BOOL; }
// Integral in PyTorch's sense: signed or unsigned integers, not bool.
inline bool IsIntegral(aclDataType d) {
  const auto c = CategoryOf(d);
  return c == DtypeCategory::kSigned || c == DtypeCategory::kUnsigned;
}

// A set of dtypes, for "is this dtype supported" checks (values are < 64).
class DtypeSet {
 public:
  constexpr DtypeSet() = default;
  constexpr DtypeSet(std::initializer_list<aclDataType> dtypes) {
    for (aclDataType d : dtypes) bits_ |= Bit(d);
  }
  constexpr bool Contains(aclDataType d) const { return (bits_ & Bit(d)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr DtypeSet operator|(DtypeSet other) const { return FromBits(bits_ | other.bits_); }
  constexpr DtypeSet Without(std::initializer_list<aclDataType> dtypes) const {
    uint64_t bits = bits_;
    for (aclDataType d : dtypes) bits &= ~Bit(d);
    return FromBits(bits);
  }
  // "FLOAT, FLOAT16, ..." for error messages.
  std::string ToString() const;

 private:
  static constexpr uint64_t Bit(aclDataType d) {
    const int v = static_cast<int>(d);
    return v >= 0 && v < 64 ? uint64_t{1} << v : 0;
  }
  static constexpr DtypeSet FromBits(uint64_t bits) {
    DtypeSet s;
    s.bits_ = bits;
    return s;
  }
  uint64_t bits_ = 0;
};

// A C caller may pass any int where an enum is declared, but reading a value
// outside the C++ enum's range as that enum is undefined behaviour: entry points
// read the argument's bits instead and check them before using the enum.
template <typename Enum>
int RawEnumValue(const Enum& value) {
  static_assert(std::is_enum_v<Enum> && sizeof(Enum) == sizeof(int));
  int raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}
inline bool IsDtypeValue(int raw) { return raw >= ACL_DT_UNDEFINED && raw <= ACL_FLOAT4_E1M2; }
inline bool IsFormatValue(int raw) { return raw >= ACL_FORMAT_UNDEFINED && raw <= ACL_FORMAT_FRACTAL_NZ_C0_8; }

// PyTorch-style promotion of two tensor dtypes as CANN documents it;
// ACL_DT_UNDEFINED when the pair cannot be promoted.
aclDataType PromoteTypes(aclDataType a, aclDataType b);

// Whether a result of dtype `from` may be written into a tensor of dtype `to`
// (CANN's CanCast: no complex -> real, no floating -> integral, nothing -> bool but bool).
bool CanCast(aclDataType from, aclDataType to);

}  // namespace canopy
