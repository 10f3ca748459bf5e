// Test support for the aclnn operator suites; see op_test_support.h.
#include "op_test_support.h"

#include "mc2_ranks.h"

#include "registry_example.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

namespace canopy_test {
namespace {

constexpr int64_t kViewOffsetElements = 5;  // kOffset views start this far into the buffer
constexpr int64_t kViewTailElements = 3;    // and leave this much unused storage behind them
constexpr size_t kMinAllocationBytes = 64;  // aclrtMalloc rejects size 0
constexpr uint8_t kPoisonByte = 0xA5;
constexpr int kMaxReportedMismatches = 8;
constexpr int kMaxRedraws = 1000;
// Generated 64-bit integers stay where a double holds them exactly.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

const std::vector<DtypeInfo>& DtypeTable() {
  static const std::vector<DtypeInfo> table = {
      {ACL_FLOAT, "f32", 4, DtypeKind::kFloat},          {ACL_FLOAT16, "f16", 2, DtypeKind::kFloat},
      {ACL_BF16, "bf16", 2, DtypeKind::kFloat},          {ACL_DOUBLE, "f64", 8, DtypeKind::kFloat},
      {ACL_INT8, "s8", 1, DtypeKind::kSigned},           {ACL_UINT8, "u8", 1, DtypeKind::kUnsigned},
      {ACL_INT16, "s16", 2, DtypeKind::kSigned},         {ACL_UINT16, "u16", 2, DtypeKind::kUnsigned},
      {ACL_INT32, "s32", 4, DtypeKind::kSigned},         {ACL_UINT32, "u32", 4, DtypeKind::kUnsigned},
      {ACL_INT64, "s64", 8, DtypeKind::kSigned},         {ACL_UINT64, "u64", 8, DtypeKind::kUnsigned},
      {ACL_BOOL, "bool", 1, DtypeKind::kBool},           {ACL_COMPLEX64, "c64", 8, DtypeKind::kComplex},
      {ACL_COMPLEX128, "c128", 16, DtypeKind::kComplex},
  };
  return table;
}

// Rounds `value` to a binary format with `fractionBits` stored mantissa bits,
// smallest normal exponent `minExponent` and largest exponent `maxExponent`
// (round to nearest even; overflow gives infinity).
double RoundToFormat(double value, int fractionBits, int minExponent, int maxExponent) {
  if (!std::isfinite(value) || value == 0.0) return value;
  int exponent = std::ilogb(value);
  if (exponent < minExponent) exponent = minExponent;  // subnormal spacing
  const double quantum = std::ldexp(1.0, exponent - fractionBits);
  const double rounded = std::nearbyint(value / quantum) * quantum;
  const double maxFinite = std::ldexp(2.0 - std::ldexp(1.0, -fractionBits), maxExponent);
  if (std::fabs(rounded) > maxFinite) return std::copysign(std::numeric_limits<double>::infinity(), value);
  return rounded;
}

constexpr int kHalfFractionBits = 10, kHalfMinExponent = -14, kHalfMaxExponent = 15, kHalfBias = 15;
constexpr int kBf16FractionBits = 7, kBf16MinExponent = -126, kBf16MaxExponent = 127;

// GCC 12 at -O2 folds (double)(float)x to x inside the complex case of
// ConvertValue's switch; the volatile keeps the rounding.
double RoundToFloat(double v) {
  volatile float narrow = static_cast<float>(v);
  return narrow;
}

double RoundHalf(double v) { return RoundToFormat(v, kHalfFractionBits, kHalfMinExponent, kHalfMaxExponent); }
double RoundBf16(double v) { return RoundToFormat(v, kBf16FractionBits, kBf16MinExponent, kBf16MaxExponent); }

template <typename T>
double IntegerValue(double real) {
  if (std::isnan(real)) return 0;
  const double truncated = std::trunc(real);
  const double lo = std::max(static_cast<double>(std::numeric_limits<T>::lowest()), -kMaxExactInteger);
  const double hi = std::min(static_cast<double>(std::numeric_limits<T>::max()), kMaxExactInteger);
  return std::clamp(truncated, lo, hi);
}

template <typename T>
void StoreInteger(double real, void* dst) {
  const T v = static_cast<T>(IntegerValue<T>(real));
  std::memcpy(dst, &v, sizeof(T));
}

template <typename T>
double LoadInteger(const void* src) {
  T v;
  std::memcpy(&v, src, sizeof(T));
  return static_cast<double>(v);
}

void CheckAcl(aclError error, const char* what) {
  if (error != ACL_SUCCESS) {
    const char* message = aclGetRecentErrMsg();
    ADD_FAILURE() << what << " failed with " << error << ": " << (message ? message : "");
  }
}

}  // namespace

// ---- Data types ---------------------------------------------------------------------------------

const DtypeInfo& Info(aclDataType dtype) {
  for (const DtypeInfo& info : DtypeTable()) {
    if (info.dtype == dtype) return info;
  }
  static const DtypeInfo unknown{ACL_DT_UNDEFINED, "unknown", 0, DtypeKind::kBool};
  ADD_FAILURE() << "test support does not know dtype " << static_cast<int>(dtype);
  return unknown;
}

const char* Name(aclDataType dtype) {
  for (const DtypeInfo& info : DtypeTable()) {
    if (info.dtype == dtype) return info.name;
  }
  switch (dtype) {
    case ACL_COMPLEX32:
      return "c32";
    case ACL_INT4:
      return "s4";
    case ACL_FLOAT8_E5M2:
      return "f8e5m2";
    case ACL_FLOAT8_E4M3FN:
      return "f8e4m3";
    case ACL_STRING:
      return "string";
    default:
      return "other";
  }
}

bool IsKnownDtype(aclDataType dtype) {
  return std::any_of(DtypeTable().begin(), DtypeTable().end(),
                     [dtype](const DtypeInfo& info) { return info.dtype == dtype; });
}

// Dtypes the suite cannot encode (c32, fp8, ...) still get storage, for the
// rejection tests.
size_t ElementBytes(aclDataType dtype) {
  if (IsKnownDtype(dtype)) return Info(dtype).bytes;
  switch (dtype) {
    case ACL_COMPLEX32:
      return 4;
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
    case ACL_INT4:
      return 1;
    default:
      return 8;
  }
}
bool IsBool(aclDataType dtype) { return dtype == ACL_BOOL; }
bool IsIntegral(aclDataType dtype) {
  const DtypeKind kind = Info(dtype).kind;
  return kind == DtypeKind::kSigned || kind == DtypeKind::kUnsigned;
}
bool IsUnsigned(aclDataType dtype) { return Info(dtype).kind == DtypeKind::kUnsigned; }
bool IsRealFloat(aclDataType dtype) { return Info(dtype).kind == DtypeKind::kFloat; }
bool IsComplex(aclDataType dtype) { return Info(dtype).kind == DtypeKind::kComplex; }
bool IsFloating(aclDataType dtype) { return IsRealFloat(dtype) || IsComplex(dtype); }

double UnitRoundoff(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
    case ACL_COMPLEX64:
      return std::ldexp(1.0, -24);
    case ACL_FLOAT16:
      return std::ldexp(1.0, -11);
    case ACL_BF16:
      return std::ldexp(1.0, -8);
    case ACL_DOUBLE:
    case ACL_COMPLEX128:
      return std::ldexp(1.0, -53);
    default:
      return 0.0;
  }
}

const std::vector<aclDataType>& AllDtypes() {
  static const std::vector<aclDataType> all = [] {
    std::vector<aclDataType> dtypes;
    for (const DtypeInfo& info : DtypeTable()) dtypes.push_back(info.dtype);
    return dtypes;
  }();
  return all;
}

// ---- fp16 / bf16 --------------------------------------------------------------------------------

uint16_t DoubleToHalf(double value) {
  constexpr uint16_t kSignBit = 0x8000, kInfinity = 0x7C00, kQuietNan = 0x7E00;
  const uint16_t sign = std::signbit(value) ? kSignBit : 0;
  if (std::isnan(value)) return sign | kQuietNan;
  const double rounded = std::fabs(RoundHalf(value));
  if (std::isinf(rounded)) return sign | kInfinity;
  if (rounded == 0.0) return sign;
  const int exponent = std::ilogb(rounded);
  if (exponent < kHalfMinExponent) {  // subnormal: a multiple of 2^-24
    return sign | static_cast<uint16_t>(std::ldexp(rounded, -(kHalfMinExponent - kHalfFractionBits)));
  }
  const auto fraction = static_cast<uint16_t>(std::ldexp(std::ldexp(rounded, -exponent) - 1.0, kHalfFractionBits));
  return sign | static_cast<uint16_t>((exponent + kHalfBias) << kHalfFractionBits) | fraction;
}

double HalfToDouble(uint16_t bits) {
  const bool negative = (bits & 0x8000) != 0;
  const int exponentBits = (bits >> kHalfFractionBits) & 0x1F;
  const int fraction = bits & 0x3FF;
  double magnitude;
  if (exponentBits == 0) {
    magnitude = std::ldexp(fraction, kHalfMinExponent - kHalfFractionBits);
  } else if (exponentBits == 0x1F) {
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else {
    magnitude = std::ldexp(1.0 + std::ldexp(fraction, -kHalfFractionBits), exponentBits - kHalfBias);
  }
  return negative ? -magnitude : magnitude;
}

uint16_t DoubleToBf16(double value) {
  if (std::isnan(value)) return std::signbit(value) ? 0xFFC0 : 0x7FC0;
  // The rounded value is exactly representable in f32; bf16 is its top half.
  const auto f = static_cast<float>(RoundBf16(value));
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

double Bf16ToDouble(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof(f));
  return f;
}

Value ConvertValue(Value value, aclDataType dtype) {
  const double re = value.real();
  switch (dtype) {
    case ACL_BOOL:
      return (value.real() != 0.0 || value.imag() != 0.0) ? 1.0 : 0.0;
    case ACL_INT8:
      return IntegerValue<int8_t>(re);
    case ACL_UINT8:
      return IntegerValue<uint8_t>(re);
    case ACL_INT16:
      return IntegerValue<int16_t>(re);
    case ACL_UINT16:
      return IntegerValue<uint16_t>(re);
    case ACL_INT32:
      return IntegerValue<int32_t>(re);
    case ACL_UINT32:
      return IntegerValue<uint32_t>(re);
    case ACL_INT64:
      return IntegerValue<int64_t>(re);
    case ACL_UINT64:
      return IntegerValue<uint64_t>(re);
    case ACL_FLOAT:
      return RoundToFloat(re);
    case ACL_FLOAT16:
      return RoundHalf(re);
    case ACL_BF16:
      return RoundBf16(re);
    case ACL_DOUBLE:
      return re;
    case ACL_COMPLEX64:
      return {RoundToFloat(value.real()), RoundToFloat(value.imag())};
    case ACL_COMPLEX128:
      return value;
    default:
      ADD_FAILURE() << "ConvertValue: unsupported dtype " << Name(dtype);
      return 0.0;
  }
}

void EncodeValue(Value value, aclDataType dtype, void* dst) {
  const Value v = ConvertValue(value, dtype);
  switch (dtype) {
    case ACL_BOOL: {
      const uint8_t b = v.real() != 0.0 ? 1 : 0;
      std::memcpy(dst, &b, 1);
      return;
    }
    case ACL_INT8:
      StoreInteger<int8_t>(v.real(), dst);
      return;
    case ACL_UINT8:
      StoreInteger<uint8_t>(v.real(), dst);
      return;
    case ACL_INT16:
      StoreInteger<int16_t>(v.real(), dst);
      return;
    case ACL_UINT16:
      StoreInteger<uint16_t>(v.real(), dst);
      return;
    case ACL_INT32:
      StoreInteger<int32_t>(v.real(), dst);
      return;
    case ACL_UINT32:
      StoreInteger<uint32_t>(v.real(), dst);
      return;
    case ACL_INT64:
      StoreInteger<int64_t>(v.real(), dst);
      return;
    case ACL_UINT64:
      StoreInteger<uint64_t>(v.real(), dst);
      return;
    case ACL_FLOAT: {
      const auto f = static_cast<float>(v.real());
      std::memcpy(dst, &f, sizeof(f));
      return;
    }
    case ACL_FLOAT16: {
      const uint16_t h = DoubleToHalf(v.real());
      std::memcpy(dst, &h, sizeof(h));
      return;
    }
    case ACL_BF16: {
      const uint16_t h = DoubleToBf16(v.real());
      std::memcpy(dst, &h, sizeof(h));
      return;
    }
    case ACL_DOUBLE: {
      const double d = v.real();
      std::memcpy(dst, &d, sizeof(d));
      return;
    }
    case ACL_COMPLEX64: {
      const float parts[2] = {static_cast<float>(v.real()), static_cast<float>(v.imag())};
      std::memcpy(dst, parts, sizeof(parts));
      return;
    }
    case ACL_COMPLEX128: {
      const double parts[2] = {v.real(), v.imag()};
      std::memcpy(dst, parts, sizeof(parts));
      return;
    }
    default:
      ADD_FAILURE() << "EncodeValue: unsupported dtype " << Name(dtype);
  }
}

Value DecodeValue(const void* src, aclDataType dtype) {
  switch (dtype) {
    case ACL_BOOL: {
      uint8_t b;
      std::memcpy(&b, src, 1);
      return b != 0 ? 1.0 : 0.0;
    }
    case ACL_INT8:
      return LoadInteger<int8_t>(src);
    case ACL_UINT8:
      return LoadInteger<uint8_t>(src);
    case ACL_INT16:
      return LoadInteger<int16_t>(src);
    case ACL_UINT16:
      return LoadInteger<uint16_t>(src);
    case ACL_INT32:
      return LoadInteger<int32_t>(src);
    case ACL_UINT32:
      return LoadInteger<uint32_t>(src);
    case ACL_INT64:
      return LoadInteger<int64_t>(src);
    case ACL_UINT64:
      return LoadInteger<uint64_t>(src);
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, src, sizeof(f));
      return static_cast<double>(f);
    }
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, src, sizeof(h));
      return HalfToDouble(h);
    }
    case ACL_BF16: {
      uint16_t h;
      std::memcpy(&h, src, sizeof(h));
      return Bf16ToDouble(h);
    }
    case ACL_DOUBLE: {
      double d;
      std::memcpy(&d, src, sizeof(d));
      return d;
    }
    case ACL_COMPLEX64: {
      float parts[2];
      std::memcpy(parts, src, sizeof(parts));
      return {parts[0], parts[1]};
    }
    case ACL_COMPLEX128: {
      double parts[2];
      std::memcpy(parts, src, sizeof(parts));
      return {parts[0], parts[1]};
    }
    default:
      ADD_FAILURE() << "DecodeValue: unsupported dtype " << Name(dtype);
      return 0.0;
  }
}

// ---- Shapes and views ---------------------------------------------------------------------------

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Shape Unravel(int64_t flat, const Shape& shape) {
  Shape index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

int64_t Ravel(const Shape& index, const Shape& shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

Shape ContiguousStrides(const Shape& shape) {
  Shape strides(shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

std::string ShapeString(const Shape& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << ']';
  return out.str();
}

const char* ViewName(View view) {
  switch (view) {
    case View::kContiguous:
      return "contiguous";
    case View::kOffset:
      return "offset";
    case View::kTransposed:
      return "transposed";
    case View::kReversed:
      return "reversed";
    case View::kStepped:
      return "stepped";
    case View::kBroadcast:
      return "broadcast";
  }
  return "?";
}

int64_t Layout::StorageElements() const { return NumElements(storageShape); }

std::vector<int64_t> Layout::ElementIndices() const {
  const int64_t count = NumElements(shape);
  std::vector<int64_t> indices;
  if (count <= 0) return indices;
  indices.reserve(static_cast<size_t>(count));
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t position = offset;
    for (size_t d = 0; d < shape.size(); ++d) position += index[d] * strides[d];
    indices.push_back(position);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return indices;
}

Layout MakeLayout(const Shape& shape, View view) {
  Layout layout;
  layout.shape = shape;
  const size_t rank = shape.size();
  switch (view) {
    case View::kContiguous:
      layout.strides = ContiguousStrides(shape);
      layout.storageShape = shape;
      break;
    case View::kOffset:
      layout.strides = ContiguousStrides(shape);
      layout.offset = kViewOffsetElements;
      layout.storageShape = {NumElements(shape) + kViewOffsetElements + kViewTailElements};
      break;
    case View::kTransposed:
      if (rank < 2) return MakeLayout(shape, View::kContiguous);
      layout.storageShape = shape;
      std::swap(layout.storageShape[rank - 1], layout.storageShape[rank - 2]);
      layout.strides = ContiguousStrides(layout.storageShape);
      std::swap(layout.strides[rank - 1], layout.strides[rank - 2]);
      break;
    case View::kReversed: {
      layout.storageShape.assign(shape.rbegin(), shape.rend());
      const Shape storageStrides = ContiguousStrides(layout.storageShape);
      layout.strides.assign(storageStrides.rbegin(), storageStrides.rend());
      break;
    }
    case View::kStepped: {
      // Each dim takes every other element of a storage dim of 2 * size + 1.
      layout.offset = 1;
      layout.storageShape.resize(rank);
      for (size_t d = 0; d < rank; ++d) layout.storageShape[d] = 2 * shape[d] + 1;
      layout.strides = ContiguousStrides(layout.storageShape);
      for (int64_t& stride : layout.strides) stride *= 2;
      if (rank == 0) layout.storageShape = {2};
      break;
    }
    case View::kBroadcast: {
      layout.storageShape = shape;
      for (size_t d = 0; d < rank; d += 2) {
        if (shape[d] > 1) layout.storageShape[d] = 1;
      }
      layout.strides = ContiguousStrides(layout.storageShape);
      for (size_t d = 0; d < rank; d += 2) {
        if (shape[d] > 1) layout.strides[d] = 0;
      }
      break;
    }
  }
  return layout;
}

// ---- Random data --------------------------------------------------------------------------------

Rng Rng::ForCurrentTest() {
  uint64_t seed = 0x5eed'ca40'97ULL;
  if (const char* env = std::getenv("CANOPY_TEST_SEED")) seed = std::strtoull(env, nullptr, 0);
  if (const auto* test = ::testing::UnitTest::GetInstance()->current_test_info()) {
    seed ^= std::hash<std::string>{}(std::string(test->test_suite_name()) + "." + test->name());
  }
  return Rng(seed);
}

double Rng::Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(engine_); }

Value Rng::Draw(aclDataType dtype, const Range& range) {
  const DtypeKind kind = Info(dtype).kind;
  for (int attempt = 0; attempt < kMaxRedraws; ++attempt) {
    Value v;
    switch (kind) {
      case DtypeKind::kBool:
        if (range.hi < 1) return 0.0;
        if (range.lo >= 1) return 1.0;
        v = std::bernoulli_distribution(0.5)(engine_) ? 1.0 : 0.0;
        break;
      case DtypeKind::kSigned:
      case DtypeKind::kUnsigned: {
        const double typeLo = ConvertValue(-kMaxExactInteger, dtype).real();
        const double typeHi = ConvertValue(kMaxExactInteger, dtype).real();
        const auto lo = static_cast<int64_t>(std::ceil(std::max(range.lo, typeLo)));
        const auto hi = static_cast<int64_t>(std::floor(std::min(range.hi, typeHi)));
        v = static_cast<double>(std::uniform_int_distribution<int64_t>(lo, hi)(engine_));
        break;
      }
      case DtypeKind::kFloat:
        v = ConvertValue(Uniform(range.lo, range.hi), dtype);
        break;
      case DtypeKind::kComplex:
        v = ConvertValue(Value(Uniform(range.lo, range.hi), Uniform(range.lo, range.hi)), dtype);
        break;
    }
    if (std::abs(v) >= range.minAbs) return v;
  }
  ADD_FAILURE() << "Rng::Draw: range [" << range.lo << ", " << range.hi << "] has nothing with |v| >= " << range.minAbs
                << " for " << Name(dtype);
  return ConvertValue(range.hi, dtype);
}

Values RandomValues(Rng& rng, aclDataType dtype, int64_t count, const Range& range) {
  Values values(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (Value& v : values) v = rng.Draw(dtype, range);
  if (range.zeroEvery > 0) {
    for (size_t i = range.zeroEvery - 1; i < values.size(); i += range.zeroEvery) values[i] = 0.0;
  }
  const bool allZero = std::all_of(values.begin(), values.end(), [](Value v) { return v == 0.0; });
  if (allZero && !values.empty() && !range.allowAllZero) {
    const double nonZero = range.hi != 0.0 ? range.hi : range.lo;
    values[0] = ConvertValue(nonZero != 0.0 ? nonZero : 1.0, dtype);
  }
  return values;
}

// ---- Device tensors -----------------------------------------------------------------------------

std::vector<uint8_t> PoisonElement(aclDataType dtype) {
  std::vector<uint8_t> bytes(ElementBytes(dtype), kPoisonByte);
  auto put = [&bytes](size_t at, auto pattern) { std::memcpy(bytes.data() + at, &pattern, sizeof(pattern)); };
  switch (dtype) {
    case ACL_FLOAT:
      put(0, uint32_t{0x7FC0A5A5});
      break;
    case ACL_COMPLEX64:
      put(0, uint32_t{0x7FC0A5A5});
      put(4, uint32_t{0x7FC0A5A5});
      break;
    case ACL_DOUBLE:
      put(0, uint64_t{0x7FF8A5A5A5A5A5A5});
      break;
    case ACL_COMPLEX128:
      put(0, uint64_t{0x7FF8A5A5A5A5A5A5});
      put(8, uint64_t{0x7FF8A5A5A5A5A5A5});
      break;
    case ACL_FLOAT16:
      put(0, uint16_t{0x7EA5});
      break;
    case ACL_BF16:
      put(0, uint16_t{0x7FE5});
      break;
    default:
      break;
  }
  return bytes;
}

DeviceTensor::DeviceTensor(aclDataType dtype, Layout layout) : dtype_(dtype), layout_(std::move(layout)) {
  bytes_ = std::max(static_cast<size_t>(std::max<int64_t>(layout_.StorageElements(), 0)) * ElementBytes(dtype),
                    kMinAllocationBytes);
  CheckAcl(aclrtMalloc(&data_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
}

namespace {

// An INT4 view must start on a whole byte (an even element): its offset view
// starts one element further in.
Layout LayoutFor(aclDataType dtype, const Shape& shape, View view) {
  Layout layout = MakeLayout(shape, view);
  if (dtype == ACL_INT4 && layout.offset % 2 != 0) {
    ++layout.offset;
    if (layout.storageShape.size() == 1) ++layout.storageShape[0];
  }
  return layout;
}

}  // namespace

DeviceTensor::DeviceTensor(aclDataType dtype, const Shape& shape, View view)
    : DeviceTensor(dtype, LayoutFor(dtype, shape, view)) {}

DeviceTensor::~DeviceTensor() {
  if (data_ != nullptr) CheckAcl(aclrtFree(data_), "aclrtFree");
}

aclTensor* DeviceTensor::CreateDescriptor(aclFormat format) const {
  // Clients pass real arrays even for rank 0; the null + 0 form is tested on its own.
  static const int64_t kNoDims[1] = {0};
  const Layout& l = layout_;
  aclTensor* tensor =
      aclCreateTensor(l.shape.empty() ? kNoDims : l.shape.data(), l.shape.size(), dtype_,
                      l.strides.empty() ? kNoDims : l.strides.data(), l.offset, format,
                      l.storageShape.empty() ? kNoDims : l.storageShape.data(), l.storageShape.size(), data_);
  EXPECT_NE(tensor, nullptr) << "aclCreateTensor " << ShapeString(l.shape) << " " << Name(dtype_);
  return tensor;
}

void DeviceTensor::UploadBytes(const std::vector<uint8_t>& bytes) {
  if (bytes.empty()) return;
  CheckAcl(aclrtMemcpy(data_, bytes_, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy H2D");
}

std::vector<uint8_t> DeviceTensor::DownloadBytes() const {
  std::vector<uint8_t> bytes(bytes_);
  CheckAcl(aclrtMemcpy(bytes.data(), bytes.size(), data_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy D2H");
  return bytes;
}

void DeviceTensor::UploadStorage(const Values& storage) {
  std::vector<uint8_t> bytes = DownloadBytes();
  const size_t element = ElementBytes(dtype_);
  for (size_t i = 0; i < storage.size() && (i + 1) * element <= bytes.size(); ++i) {
    EncodeValue(storage[i], dtype_, bytes.data() + i * element);
  }
  UploadBytes(bytes);
}

Values DeviceTensor::DownloadStorage() const {
  const std::vector<uint8_t> bytes = DownloadBytes();
  const size_t element = ElementBytes(dtype_);
  Values storage(static_cast<size_t>(std::max<int64_t>(layout_.StorageElements(), 0)));
  for (size_t i = 0; i < storage.size(); ++i) storage[i] = DecodeValue(bytes.data() + i * element, dtype_);
  return storage;
}

Values DeviceTensor::FillRandom(Rng& rng, const Range& range) {
  Values storage = RandomValues(rng, dtype_, layout_.StorageElements(), range);
  const std::vector<int64_t> indices = layout_.ElementIndices();
  const bool viewAllZero = std::all_of(indices.begin(), indices.end(), [&](int64_t i) { return storage[i] == 0.0; });
  if (viewAllZero && !indices.empty() && !range.allowAllZero) {
    storage[indices.front()] = ConvertValue(range.hi != 0.0 ? range.hi : 1.0, dtype_);
  }
  UploadStorage(storage);
  Values logical;
  logical.reserve(indices.size());
  for (int64_t i : indices) logical.push_back(storage[i]);
  return logical;
}

void DeviceTensor::WriteView(const Values& logical) {
  std::vector<uint8_t> bytes = DownloadBytes();
  const std::vector<int64_t> indices = layout_.ElementIndices();
  const size_t element = ElementBytes(dtype_);
  for (size_t i = 0; i < indices.size() && i < logical.size(); ++i) {
    EncodeValue(logical[i], dtype_, bytes.data() + indices[i] * element);
  }
  UploadBytes(bytes);
}

Values DeviceTensor::ReadView() const {
  const std::vector<uint8_t> bytes = DownloadBytes();
  const std::vector<int64_t> indices = layout_.ElementIndices();
  const size_t element = ElementBytes(dtype_);
  Values logical;
  logical.reserve(indices.size());
  for (int64_t i : indices) logical.push_back(DecodeValue(bytes.data() + i * element, dtype_));
  return logical;
}

void DeviceTensor::Poison() {
  const std::vector<uint8_t> element = PoisonElement(dtype_);
  std::vector<uint8_t> bytes(bytes_, kPoisonByte);
  for (size_t at = 0; at + element.size() <= bytes.size(); at += element.size()) {
    std::memcpy(bytes.data() + at, element.data(), element.size());
  }
  UploadBytes(bytes);
}

void ExpectOutsideViewUnchanged(const DeviceTensor& tensor, const std::vector<uint8_t>& before,
                                const std::string& what) {
  const std::vector<uint8_t> after = tensor.DownloadBytes();
  const std::vector<int64_t> viewIndices = tensor.layout().ElementIndices();
  const std::set<int64_t> inView(viewIndices.begin(), viewIndices.end());
  const size_t element = ElementBytes(tensor.dtype());
  int changed = 0;
  int64_t firstChanged = -1;
  const int64_t storage = tensor.layout().StorageElements();
  for (int64_t i = 0; i < storage; ++i) {
    if (inView.count(i)) continue;
    if (std::memcmp(after.data() + i * element, before.data() + i * element, element) != 0) {
      if (changed++ == 0) firstChanged = i;
    }
  }
  EXPECT_EQ(changed, 0) << what << ": " << changed << " storage element(s) outside the view were written (first at "
                        << firstChanged << ")";
}

// ---- One op call --------------------------------------------------------------------------------

OpArgs::~OpArgs() {
  DestroyDescriptors();
  ReleaseDeviceTensors();
}

aclTensor* OpArgs::Tensor(const DeviceTensor& tensor, aclFormat format) {
  aclTensor* descriptor = tensor.CreateDescriptor(format);
  tensors_.push_back(descriptor);
  return descriptor;
}

aclScalar* OpArgs::Scalar(aclDataType dtype, Value value) {
  alignas(16) uint8_t buffer[16] = {};
  EncodeValue(value, dtype, buffer);
  aclScalar* scalar = aclCreateScalar(buffer, dtype);
  EXPECT_NE(scalar, nullptr) << "aclCreateScalar " << Name(dtype);
  scalars_.push_back(scalar);
  return scalar;
}

namespace {

// Large float tensors whose values nobody reads back (the registry's generic
// calls; an op's declared example may hold tens of millions of elements, as
// MlaProlog's fixed dimensions make it) are filled straight in their bytes:
// uniform in [range.lo, range.hi), without the per-element Value vectors
// FillRandom keeps for a reference. Small ones, and ranges with a minimum
// magnitude or zeros, take FillRandom. One block of kBulkFillElements random
// values repeats through the tensor: drawing each of tens of millions of values
// made these fills most of the rejection suite's time.
constexpr int64_t kBulkFillElements = int64_t{1} << 16;

bool FillBulk(DeviceTensor& tensor, const Range& range) {
  const aclDataType dtype = tensor.dtype();
  if (dtype != ACL_FLOAT && dtype != ACL_FLOAT16 && dtype != ACL_BF16) return false;
  if (range.minAbs != 0 || range.zeroEvery != 0 || !(range.lo < range.hi)) return false;
  const size_t element = ElementBytes(dtype);
  const size_t count = tensor.bytes() / element;
  if (static_cast<int64_t>(count) < kBulkFillElements) return false;
  static uint64_t state = 0x5EED5EED5EED5EEDull;
  std::vector<uint8_t> bytes(count * element);
  const auto block = static_cast<size_t>(kBulkFillElements);
  for (size_t i = 0; i < block; ++i) {
    state += 0x9E3779B97F4A7C15ull;  // splitmix64
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const auto value = static_cast<float>(range.lo + static_cast<double>(z >> 11) * 0x1p-53 * (range.hi - range.lo));
    uint8_t* at = bytes.data() + i * element;
    if (dtype == ACL_FLOAT) {
      std::memcpy(at, &value, sizeof value);
    } else if (dtype == ACL_BF16) {
      // Truncated toward zero; one step away from zero when that left the range.
      uint32_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      auto high = static_cast<uint16_t>(bits >> 16);
      const uint32_t back_bits = uint32_t{high} << 16;
      float back;
      std::memcpy(&back, &back_bits, sizeof back);
      if (back < range.lo || back > range.hi) ++high;
      std::memcpy(at, &high, sizeof high);
    } else {
      EncodeValue(Value(value), dtype, at);
    }
  }
  for (size_t done = block; done < count; done += block) {
    std::memcpy(bytes.data() + done * element, bytes.data(), std::min(block, count - done) * element);
  }
  tensor.UploadBytes(bytes);
  return true;
}

}  // namespace

aclTensor* OpArgs::NewTensor(aclDataType dtype, const Shape& shape, View view, aclFormat format) {
  static Rng rng(0xC0FFEE);
  owned_.push_back(std::make_unique<DeviceTensor>(dtype, shape, view));
  if (IsKnownDtype(dtype) && !FillBulk(*owned_.back(), Range{})) owned_.back()->FillRandom(rng, Range{});
  return Tensor(*owned_.back(), format);
}

// A new random contiguous view of `shape` over a buffer of `storage`'s shape, tagged `format`.
aclTensor* OpArgs::NewOverStorage(aclDataType dtype, const Shape& shape, const Shape& storage, aclFormat format) {
  static Rng rng(0xC0FFEE);
  Layout layout;
  layout.shape = shape;
  layout.strides = ContiguousStrides(shape);
  layout.storageShape = storage;
  owned_.push_back(std::make_unique<DeviceTensor>(dtype, std::move(layout)));
  if (!FillBulk(*owned_.back(), Range{})) owned_.back()->FillRandom(rng, Range{});
  return Tensor(*owned_.back(), format);
}

aclTensor* OpArgs::NewFractalZ3dTensor(aclDataType dtype, const Shape& shape) {
  const int64_t c0 = 32 / static_cast<int64_t>(ElementBytes(dtype));
  const auto blocks = [](int64_t extent, int64_t block) { return (extent + block - 1) / block; };
  return NewOverStorage(dtype, shape,
                        {shape[2] * blocks(shape[1], c0) * shape[3] * shape[4], blocks(shape[0], 16), 16, c0},
                        ACL_FRACTAL_Z_3D);
}

aclTensor* OpArgs::NewFractalNzTensor(aclDataType dtype, const Shape& shape) {
  const int64_t c0 = 32 / static_cast<int64_t>(ElementBytes(dtype));
  return NewOverStorage(dtype, shape, {(shape[1] + c0 - 1) / c0, (shape[0] + 15) / 16, 16, c0}, ACL_FORMAT_FRACTAL_NZ);
}

aclTensor* OpArgs::NewTensorIn(const Range& range, aclDataType dtype, const Shape& shape, View view, aclFormat format) {
  static Rng rng(0xC0FFEE);
  owned_.push_back(std::make_unique<DeviceTensor>(dtype, shape, view));
  if (!FillBulk(*owned_.back(), range)) owned_.back()->FillRandom(rng, range);
  return Tensor(*owned_.back(), format);
}

aclIntArray* OpArgs::IntArray(const std::vector<int64_t>& values) {
  aclIntArray* array = aclCreateIntArray(values.data(), values.size());
  arrays_.push_back(array);
  return array;
}

aclFloatArray* OpArgs::FloatArray(const std::vector<float>& values) {
  aclFloatArray* array = aclCreateFloatArray(values.data(), values.size());
  float_arrays_.push_back(array);
  return array;
}

aclBoolArray* OpArgs::BoolArray(const std::vector<bool>& values) {
  const std::unique_ptr<bool[]> flags(new bool[values.size() + 1]);
  for (size_t i = 0; i < values.size(); ++i) flags[i] = values[i];
  aclBoolArray* array = aclCreateBoolArray(flags.get(), values.size());
  bool_arrays_.push_back(array);
  return array;
}

aclTensorList* OpArgs::TensorList(const std::vector<aclTensor*>& tensors) {
  aclTensorList* list = aclCreateTensorList(tensors.data(), tensors.size());
  tensor_lists_.push_back(list);
  return list;
}

aclScalarList* OpArgs::ScalarList(aclDataType dtype, const std::vector<Value>& values, int nullIndex) {
  std::vector<aclScalar*> scalars;
  for (const Value& value : values) {
    alignas(16) uint8_t buffer[16] = {};
    EncodeValue(value, dtype, buffer);
    scalars.push_back(static_cast<int>(scalars.size()) == nullIndex ? nullptr : aclCreateScalar(buffer, dtype));
  }
  aclScalarList* list = aclCreateScalarList(scalars.data(), scalars.size());
  scalar_lists_.push_back(list);
  return list;
}

void OpArgs::DestroyDescriptors() {
  for (aclTensor* t : tensors_) {
    if (t != nullptr) {
      EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
    }
  }
  for (aclScalar* s : scalars_) {
    if (s != nullptr) {
      EXPECT_EQ(aclDestroyScalar(s), ACLNN_SUCCESS);
    }
  }
  for (aclIntArray* a : arrays_) {
    if (a != nullptr) {
      EXPECT_EQ(aclDestroyIntArray(a), ACLNN_SUCCESS);
    }
  }
  for (aclFloatArray* a : float_arrays_) EXPECT_EQ(aclDestroyFloatArray(a), ACLNN_SUCCESS);
  for (aclBoolArray* a : bool_arrays_) EXPECT_EQ(aclDestroyBoolArray(a), ACLNN_SUCCESS);
  // After the tensors: a list frees only the members still alive (none here).
  for (aclTensorList* l : tensor_lists_) EXPECT_EQ(aclDestroyTensorList(l), ACLNN_SUCCESS);
  for (aclScalarList* l : scalar_lists_) EXPECT_EQ(aclDestroyScalarList(l), ACLNN_SUCCESS);
  tensors_.clear();
  scalars_.clear();
  arrays_.clear();
  float_arrays_.clear();
  bool_arrays_.clear();
  tensor_lists_.clear();
  scalar_lists_.clear();
}

void OpArgs::ReleaseDeviceTensors() { owned_.clear(); }

OpRun RunOp(const Phase1& phase1, Phase2 phase2) {
  OpRun run;
  OpArgs args;
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  run.phase1 = phase1(args, &workspaceSize, &executor);
  run.workspaceSize = workspaceSize;
  if (run.phase1 != ACLNN_SUCCESS) {
    const char* message = aclGetRecentErrMsg();
    run.message = message ? message : "";
    return run;
  }
  void* workspace = nullptr;
  if (workspaceSize > 0) CheckAcl(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "workspace");
  run.phase2 = phase2(workspace, workspaceSize, executor, TestStream());
  args.DestroyDescriptors();  // as clients do, before the work has run
  run.sync = aclrtSynchronizeStream(TestStream());
  if (run.phase2 != ACLNN_SUCCESS || run.sync != ACL_SUCCESS) {
    const char* message = aclGetRecentErrMsg();
    run.message = message ? message : "";
  }
  if (workspace != nullptr) CheckAcl(aclrtFree(workspace), "aclrtFree(workspace)");
  return run;
}

void ExpectRuns(const Phase1& phase1, Phase2 phase2) {
  const OpRun run = RunOp(phase1, phase2);
  ASSERT_TRUE(run.ok()) << Describe(run);
}

std::unique_ptr<DeviceTensor> Upload(aclDataType dtype, const Shape& shape, const Values& values) {
  auto tensor = std::make_unique<DeviceTensor>(dtype, shape);
  tensor->WriteView(values);
  return tensor;
}

std::unique_ptr<DeviceTensor> Poisoned(aclDataType dtype, const Shape& shape) {
  auto tensor = std::make_unique<DeviceTensor>(dtype, shape);
  tensor->Poison();
  return tensor;
}

void ExpectRejection(const RejectionCase& r) {
  const OpRun run = RunOp(r.phase1, r.phase2);
  EXPECT_EQ(run.phase1, r.expected) << Describe(run);
  EXPECT_NE(run.message.find(r.keyword), std::string::npos)
      << "message should name '" << r.keyword << "': " << run.message;
}

std::string Describe(const OpRun& run) {
  std::ostringstream out;
  out << "phase1=" << run.phase1 << " workspace=" << run.workspaceSize << " phase2=" << run.phase2
      << " sync=" << run.sync << " message='" << run.message << "'";
  return out.str();
}

// ---- Calls built from the op registry ------------------------------------------------------------

namespace {
// Argument `index` of an example call, varied as `call` asks: a pointer for the
// pointer kinds, else `number`.
void ExampleValue(const ExampleArgument& a, int kind, int index, const RegistryCall& call, OpArgs& args,
                  const void*& pointer, double& number) {
  using Form = ExampleArgument::Form;
  const bool varied = index == call.rankArg || index == call.formatArg;
  if (a.form == Form::kNull) {
    // Left out, unless the call tests this argument's rank, format or list elements: then
    // an f32 [2, 2] tensor (a list of one) or a list of one f32 1 stands in.
    const ExampleTensor plain{ACL_FLOAT, {2, 2}, false, 0, 0, ACL_FORMAT_ND};
    ExampleArgument stand_in;
    if (kind == CANOPY_ARG_TENSOR && varied) {
      stand_in.form = Form::kTensor;
      stand_in.tensors = {plain};
    } else if (kind == CANOPY_ARG_TENSOR_LIST && (varied || index == call.nullElementArg)) {
      stand_in.form = Form::kTensorList;
      stand_in.tensors = {plain};
    } else if (kind == CANOPY_ARG_SCALAR_LIST && index == call.nullElementArg) {
      stand_in.form = Form::kScalarList;
      stand_in.scalars = {ExampleScalar{ACL_FLOAT, 1.0}};
    } else {
      return;
    }
    ExampleValue(stand_in, kind, index, call, args, pointer, number);
    return;
  }
  // A tensor of the example with the call's view, and the rank or format the call
  // tests at this argument.
  const auto tensor = [&](const ExampleTensor* t, bool vary) -> aclTensor* {
    const Shape& shape = vary && index == call.rankArg ? call.rankShape : t->shape;
    const aclFormat format = vary && index == call.formatArg ? call.format : t->format;
    // A FRACTAL_Z_3D weight is an NCDHW view over its blocked storage, whatever the call's view.
    if (format == ACL_FRACTAL_Z_3D && shape.size() == 5) return args.NewFractalZ3dTensor(t->dtype, shape);
    // So is a FRACTAL_NZ one a 2-D view over its NZ storage.
    if (format == ACL_FORMAT_FRACTAL_NZ && shape.size() == 2) return args.NewFractalNzTensor(t->dtype, shape);
    return t->ranged ? args.NewTensorIn(Range{t->lo, t->hi, 0, 0, true}, t->dtype, shape, call.view, format)
                     : args.NewTensor(t->dtype, shape, call.view, format);
  };
  switch (a.form) {
    case Form::kNull:
      break;
    case Form::kTensor:
      pointer = tensor(&a.tensors[0], true);
      break;
    case Form::kScalar:
      pointer = args.Scalar(a.scalars[0].dtype, a.scalars[0].value);
      break;
    case Form::kIntArray: {
      std::vector<int64_t> values;
      for (const double v : a.numbers) values.push_back(static_cast<int64_t>(v));
      pointer = args.IntArray(values);
      break;
    }
    case Form::kFloatArray:
      pointer = args.FloatArray(std::vector<float>(a.numbers.begin(), a.numbers.end()));
      break;
    case Form::kBoolArray: {
      std::vector<bool> values;
      for (const double v : a.numbers) values.push_back(v != 0);
      pointer = args.BoolArray(values);
      break;
    }
    case Form::kTensorList: {  // the rank or format under test goes to element 0
      std::vector<aclTensor*> members;
      for (size_t m = 0; m < a.tensors.size(); ++m) members.push_back(tensor(&a.tensors[m], m == 0));
      if (index == call.nullElementArg) {
        if (members.size() < 2) members.resize(2);
        members[1] = nullptr;
      }
      pointer = args.TensorList(members);
      break;
    }
    case Form::kScalarList: {
      std::vector<Value> values;
      for (const ExampleScalar& e : a.scalars) values.emplace_back(e.value);
      if (index == call.nullElementArg && values.size() < 2) values.resize(2, values.empty() ? 1.0 : values[0]);
      const aclDataType dtype = a.scalars.empty() ? ACL_FLOAT : a.scalars[0].dtype;
      pointer = args.ScalarList(dtype, values, index == call.nullElementArg ? 1 : -1);
      break;
    }
    case Form::kString:
      if (a.text == kExampleGroup) EnsureExampleGroup();  // an mc2 op's communicator
      pointer = a.text.c_str();  // the parsed example outlives the call: see PackRegistryArguments
      break;
    case Form::kNumber:
      number = a.numbers[0];
      break;
  }
}

}  // namespace

RegistryArguments PackRegistryArguments(const canopyOpInfo& op, const RegistryCall& call, OpArgs& args) {
  // One 8-byte cell per argument: the packed call reads `size` bytes of each.
  RegistryArguments packed;
  std::optional<std::vector<ExampleArgument>> example;
  if (op.example != nullptr) {
    std::string error;
    example = ParseExample(op, error);
    if (!example) ADD_FAILURE() << error;
  }
  packed.example = std::make_shared<std::vector<ExampleArgument>>(example ? *example : std::vector<ExampleArgument>{});
  auto& cells = packed.cells;
  auto& pointers = packed.pointers;
  cells.resize(op.argCount);
  pointers.resize(op.argCount);
  static const char kStringDefault[] = "none";
  const int64_t rank = static_cast<int64_t>(call.shape.size());
  std::vector<int64_t> allDims(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) allDims[static_cast<size_t>(d)] = d;
  for (size_t i = 0; i < op.argCount; ++i) {
    const canopyOpArg& arg = op.args[i];
    const int index = static_cast<int>(i);
    const std::string name = arg.name;
    const Shape& shape = index == call.rankArg               ? call.rankShape
                         : call.outShapeSet && name == "out" ? call.outShape
                                                             : call.shape;
    const aclFormat format = index == call.formatArg ? call.format : ACL_FORMAT_ND;
    const void* pointer = nullptr;
    int64_t integer = 0;
    double real = 1.0;
    if (example) {
      double number = 0;
      ExampleValue((*packed.example)[i], arg.kind, index, call, args, pointer, number);
      integer = static_cast<int64_t>(number);
      real = number;
    } else {
      switch (arg.kind) {
        case CANOPY_ARG_TENSOR:
          if (index != call.rankArg && (name == "index" || name == "indices")) {
            pointer = args.NewTensorIn(Range{0, 1, 0, 0, true}, ACL_INT64, {call.shape[0]}, View::kContiguous, format);
          } else {
            pointer = args.NewTensor(name == "mask" ? ACL_BOOL : ACL_FLOAT, shape, View::kContiguous, format);
          }
          break;
        case CANOPY_ARG_SCALAR:
          pointer = args.Scalar(ACL_FLOAT, 1.0);
          break;
        case CANOPY_ARG_INT_ARRAY:
          pointer = args.IntArray(allDims);
          break;
        case CANOPY_ARG_FLOAT_ARRAY:
          pointer = args.FloatArray(std::vector<float>(static_cast<size_t>(rank), 1.0f));
          break;
        case CANOPY_ARG_BOOL_ARRAY:
          pointer = args.BoolArray(std::vector<bool>(static_cast<size_t>(rank), true));
          break;
        case CANOPY_ARG_TENSOR_LIST:
          pointer = args.TensorList(
              {args.NewTensor(ACL_FLOAT, shape, View::kContiguous, format),
               index == call.nullElementArg ? nullptr : args.NewTensor(ACL_FLOAT, call.shape, View::kContiguous)});
          break;
        case CANOPY_ARG_SCALAR_LIST:
          pointer = args.ScalarList(ACL_FLOAT, {1.0, 1.0}, index == call.nullElementArg ? 1 : -1);
          break;
        case CANOPY_ARG_STRING:
          pointer = kStringDefault;
          break;
        default:  // integers and enums: 0 (ACL_FLOAT for a dtype); bools false; floats 1
          break;
      }
    }
    if (index == call.nullArg) pointer = nullptr;
    const bool isPointer = arg.kind == CANOPY_ARG_TENSOR || arg.kind == CANOPY_ARG_SCALAR ||
                           (arg.kind >= CANOPY_ARG_INT_ARRAY && arg.kind <= CANOPY_ARG_SCALAR_LIST) ||
                           arg.kind == CANOPY_ARG_STRING;
    if (isPointer) {
      std::memcpy(cells[i].data(), &pointer, sizeof pointer);
    } else if (arg.kind == CANOPY_ARG_FLOAT && arg.size == sizeof(float)) {
      const auto single = static_cast<float>(real);
      std::memcpy(cells[i].data(), &single, sizeof single);
    } else if (arg.kind == CANOPY_ARG_FLOAT) {
      std::memcpy(cells[i].data(), &real, sizeof real);
    } else {
      std::memcpy(cells[i].data(), &integer, sizeof integer);  // little-endian: the low `size` bytes
    }
    pointers[i] = cells[i].data();
  }
  return packed;
}

Phase1 RegistryPhase1(const canopyOpInfo& op, const RegistryCall& call) {
  return [&op, call](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
    RegistryArguments packed = PackRegistryArguments(op, call, args);
    return op.callGetWorkspaceSize(packed.pointers.data(), workspaceSize, executor);
  };
}

bool StopsAtRankCount(const OpRun& run) {
  // The rank-count rejection of src/ops/mc2/collective.cpp.
  return run.phase1 == ACLNN_ERR_INNER_TILING_ERROR && run.message.find("ranks; this op runs on") != std::string::npos;
}

RegistryCall RegistryValidCall(const canopyOpInfo& op) {
  if (op.example != nullptr) {  // the op's own valid call
    RegistryCall call;
    const OpRun run = RunOp(RegistryPhase1(op, call), op.run);
    if (run.ok()) return call;
    if (StopsAtRankCount(run)) {
      call.needsPeers = true;
      return call;
    }
    ADD_FAILURE() << "aclnn" << op.name << "'s example call \"" << op.example << "\" fails: " << Describe(run);
    call.shape.clear();
    return call;
  }
  for (const bool reduced : {false, true}) {
    for (const Shape& shape : {Shape{2, 2}, Shape{2, 2, 2}, Shape{2}, Shape{2, 2, 2, 2}}) {
      RegistryCall call;
      call.shape = shape;
      call.outShapeSet = reduced;
      if (RunOp(RegistryPhase1(op, call), op.run).ok()) return call;
    }
  }
  RegistryCall none;
  none.shape.clear();
  return none;
}

Shape RegistryValidShape(const canopyOpInfo& op) { return RegistryValidCall(op).shape; }

std::vector<const canopyOpInfo*> RegisteredOps() {
  std::vector<const canopyOpInfo*> ops;
  for (size_t i = 0; i < canopyOpCount(); ++i) ops.push_back(canopyOpAt(i));
  return ops;
}

// ---- Device and stream --------------------------------------------------------------------------

namespace {

struct TestRuntime {
  std::once_flag once;
  aclrtStream stream = nullptr;
  bool initialised = false;
};

TestRuntime& GetTestRuntime() {
  static TestRuntime runtime;
  return runtime;
}

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { TestStream(); }
  void TearDown() override {
    TestRuntime& runtime = GetTestRuntime();
    if (!runtime.initialised) return;
    CheckAcl(aclrtDestroyStream(runtime.stream), "aclrtDestroyStream");
    CheckAcl(aclrtResetDevice(0), "aclrtResetDevice");
    CheckAcl(aclFinalize(), "aclFinalize");
    runtime.initialised = false;
  }
};

[[maybe_unused]] ::testing::Environment* const kAclEnvironment =
    ::testing::AddGlobalTestEnvironment(new AclEnvironment);

}  // namespace

aclrtStream TestStream() {
  TestRuntime& runtime = GetTestRuntime();
  std::call_once(runtime.once, [&runtime] {
    CheckAcl(aclInit(nullptr), "aclInit");
    CheckAcl(aclrtSetDevice(0), "aclrtSetDevice(0)");
    CheckAcl(aclrtCreateStream(&runtime.stream), "aclrtCreateStream");
    runtime.initialised = true;
  });
  return runtime.stream;
}

DeviceBuffer::DeviceBuffer(size_t bytes) {
  CheckAcl(aclrtMalloc(&data_, std::max(bytes, kMinAllocationBytes), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) CheckAcl(aclrtFree(data_), "aclrtFree");
}

// ---- Comparison ---------------------------------------------------------------------------------

namespace {

std::string ValueString(Value v) {
  std::ostringstream out;
  out.precision(10);
  if (v.imag() == 0.0) {
    out << v.real();
  } else {
    out << '(' << v.real() << (v.imag() < 0 ? "" : "+") << v.imag() << "i)";
  }
  return out.str();
}

// One real component: NaN matches only NaN, infinities only themselves.
bool ComponentMatches(double got, double want, double tolerance) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (got == want) return true;
  if (std::isinf(got) || std::isinf(want) || tolerance == 0.0 || std::isnan(tolerance)) return false;
  return std::fabs(got - want) <= tolerance;
}

}  // namespace

void ExpectNear(const Values& got, const Expected& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.values.size()) << what << ": element count";
  int mismatches = 0;
  std::ostringstream report;
  for (size_t i = 0; i < got.size(); ++i) {
    const Value g = got[i], w = want.values[i];
    const double tolerance = i < want.tolerance.size() ? want.tolerance[i] : 0.0;
    const bool match =
        ComponentMatches(g.real(), w.real(), tolerance) && ComponentMatches(g.imag(), w.imag(), tolerance);
    if (!match && mismatches++ < kMaxReportedMismatches) {
      report << "\n  [" << i << "] got " << ValueString(g) << " want " << ValueString(w) << " (tolerance " << tolerance
             << ")";
    }
  }
  EXPECT_EQ(mismatches, 0) << what << ": " << mismatches << " of " << got.size() << " elements differ" << report.str();
}

void ExpectExact(const Values& got, const Values& want, const std::string& what) {
  ExpectNear(got, Expected{want, std::vector<double>(want.size(), 0.0)}, what);
}

std::string SanitizeName(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out;
}

}  // namespace canopy_test
