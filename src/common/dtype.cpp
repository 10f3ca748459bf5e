#include "dtype.h"

#include <algorithm>

namespace canopy {

size_t DtypeSize(aclDataType dtype) {
  switch (dtype) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

DtypeCategory CategoryOf(aclDataType dtype) {
  switch (dtype) {
    case ACL_BOOL:
      return DtypeCategory::kBool;
    case ACL_INT8:
    case ACL_INT16:
    case ACL_INT32:
    case ACL_INT64:
      return DtypeCategory::kSigned;
    case ACL_UINT8:
    case ACL_UINT16:
    case ACL_UINT32:
    case ACL_UINT64:
      return DtypeCategory::kUnsigned;
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_DOUBLE:
      return DtypeCategory::kFloat;
    case ACL_COMPLEX32:
    case ACL_COMPLEX64:
    case ACL_COMPLEX128:
      return DtypeCategory::kComplex;
    default:
      return DtypeCategory::kInvalid;
  }
}

aclDataType PartDtype(aclDataType dtype) {
  switch (dtype) {
    case ACL_COMPLEX32:
      return ACL_FLOAT16;
    case ACL_COMPLEX64:
      return ACL_FLOAT;
    case ACL_COMPLEX128:
      return ACL_DOUBLE;
    default:
      return dtype;
  }
}

int SignificandDigits(aclDataType dtype) {
  switch (PartDtype(dtype)) {
    case ACL_FLOAT16:
      return 11;
    case ACL_BF16:
      return 8;
    case ACL_FLOAT:
      return 24;
    case ACL_DOUBLE:
      return 53;
    default:
      return 0;
  }
}

std::pair<double, double> DtypeRange(aclDataType dtype) {
  switch (dtype) {
    case ACL_BOOL:
      return {0, 1};
    case ACL_INT8:
      return {-128, 127};
    case ACL_UINT8:
      return {0, 255};
    case ACL_INT16:
      return {-32768, 32767};
    case ACL_UINT16:
      return {0, 65535};
    case ACL_INT32:
      return {-2147483648.0, 2147483647.0};
    case ACL_UINT32:
      return {0, 4294967295.0};
    case ACL_INT64:
      return {-0x1p63, 0x1p63};  // as doubles: int64's greatest rounds up to 2^63
    case ACL_UINT64:
      return {0, 0x1p64};
    case ACL_FLOAT16:
      return {-65504, 65504};
    case ACL_BF16:
      return {-0x1.fep127, 0x1.fep127};
    case ACL_FLOAT:
      return {-0x1.fffffep127, 0x1.fffffep127};
    case ACL_DOUBLE:
      return {-0x1.fffffffffffffp1023, 0x1.fffffffffffffp1023};
    default:
      return {0, 0};
  }
}

const char* DtypeName(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return "FLOAT";
    case ACL_FLOAT16:
      return "FLOAT16";
    case ACL_INT8:
      return "INT8";
    case ACL_INT32:
      return "INT32";
    case ACL_UINT8:
      return "UINT8";
    case ACL_INT16:
      return "INT16";
    case ACL_UINT16:
      return "UINT16";
    case ACL_UINT32:
      return "UINT32";
    case ACL_INT64:
      return "INT64";
    case ACL_UINT64:
      return "UINT64";
    case ACL_DOUBLE:
      return "DOUBLE";
    case ACL_BOOL:
      return "BOOL";
    case ACL_STRING:
      return "STRING";
    case ACL_COMPLEX64:
      return "COMPLEX64";
    case ACL_COMPLEX128:
      return "COMPLEX128";
    case ACL_BF16:
      return "BF16";
    case ACL_INT4:
      return "INT4";
    case ACL_UINT1:
      return "UINT1";
    case ACL_COMPLEX32:
      return "COMPLEX32";
    case ACL_HIFLOAT8:
      return "HIFLOAT8";
    case ACL_FLOAT8_E5M2:
      return "FLOAT8_E5M2";
    case ACL_FLOAT8_E4M3FN:
      return "FLOAT8_E4M3FN";
    case ACL_FLOAT8_E8M0:
      return "FLOAT8_E8M0";
    case ACL_FLOAT6_E3M2:
      return "FLOAT6_E3M2";
    case ACL_FLOAT6_E2M3:
      return "FLOAT6_E2M3";
    case ACL_FLOAT4_E2M1:
      return "FLOAT4_E2M1";
    case ACL_FLOAT4_E1M2:
      return "FLOAT4_E1M2";
    case ACL_DT_UNDEFINED:
      return "UNDEFINED";
    default:
      return "UNKNOWN";
  }
}

std::string DtypeSet::ToString() const {
  std::string text;
  for (int v = 0; v < 64; ++v) {
    const auto d = static_cast<aclDataType>(v);
    if (!Contains(d)) continue;
    if (!text.empty()) text += ", ";
    text += DtypeName(d);
  }
  return text;
}

namespace {

// Rank of a dtype within its kind for promotion; wider wins.
int FloatRank(aclDataType d) {
  switch (d) {
    case ACL_FLOAT16:
    case ACL_BF16:
      return 1;
    case ACL_FLOAT:
      return 2;
    case ACL_DOUBLE:
      return 3;
    default:
      return 0;
  }
}

aclDataType PromoteSignedAndU8(aclDataType a, aclDataType b) {
  auto width = [](aclDataType d) -> int {
    switch (d) {
      case ACL_BOOL:
        return 0;
      case ACL_UINT8:
      case ACL_INT8:
        return 1;
      case ACL_INT16:
        return 2;
      case ACL_INT32:
        return 4;
      case ACL_INT64:
        return 8;
      default:
        return -1;
    }
  };
  if (a == b) return a;
  if (a == ACL_BOOL) return b;
  if (b == ACL_BOOL) return a;
  // u8 with s8 needs both ranges: int16.
  if ((a == ACL_UINT8 && b == ACL_INT8) || (a == ACL_INT8 && b == ACL_UINT8)) return ACL_INT16;
  return width(a) >= width(b) ? a : b;
}

}  // namespace

aclDataType PromoteTypes(aclDataType a, aclDataType b) {
  if (a == b) return a;
  const auto ca = CategoryOf(a), cb = CategoryOf(b);
  if (ca == DtypeCategory::kInvalid || cb == DtypeCategory::kInvalid) return ACL_DT_UNDEFINED;
  // u16/u32/u64 combine only with themselves.
  const auto wide_unsigned = [](aclDataType d) { return d == ACL_UINT16 || d == ACL_UINT32 || d == ACL_UINT64; };
  if (wide_unsigned(a) || wide_unsigned(b)) return ACL_DT_UNDEFINED;

  if (ca == DtypeCategory::kComplex || cb == DtypeCategory::kComplex) {
    // The complex type must hold the other operand's precision.
    auto complex_rank = [](aclDataType d) {
      switch (d) {
        case ACL_COMPLEX32:
          return 1;
        case ACL_COMPLEX64:
          return 2;
        case ACL_COMPLEX128:
          return 3;
        case ACL_FLOAT:
          return 2;
        case ACL_DOUBLE:
          return 3;
        default:
          return 0;  // f16, bf16, integers, bool: any complex holds them
      }
    };
    const int rank = std::max(complex_rank(a), complex_rank(b));
    return rank == 3 ? ACL_COMPLEX128 : rank == 2 ? ACL_COMPLEX64 : ACL_COMPLEX32;
  }
  if (ca == DtypeCategory::kFloat || cb == DtypeCategory::kFloat) {
    if (ca == DtypeCategory::kFloat && cb == DtypeCategory::kFloat) {
      if ((a == ACL_FLOAT16 && b == ACL_BF16) || (a == ACL_BF16 && b == ACL_FLOAT16)) return ACL_FLOAT;
      return FloatRank(a) >= FloatRank(b) ? a : b;
    }
    return ca == DtypeCategory::kFloat ? a : b;
  }
  return PromoteSignedAndU8(a, b);
}

bool CanCast(aclDataType from, aclDataType to) {
  if (IsComplex(from) && !IsComplex(to)) return false;
  if (IsFloating(from) && IsIntegral(to)) return false;
  if (from != ACL_BOOL && to == ACL_BOOL) return false;
  return true;
}

}  // namespace canopy
