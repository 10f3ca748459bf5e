// DivMod / DivMods / InplaceDivMod with rounding modes trunc (1) and floor (2)
// on integer tensors: exact integer division over each dtype's whole range
// (int64 beyond 2^53 included), against a 128-bit integer reference; a zero
// divisor and MIN / -1, whose result CANN leaves undefined, must not crash.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_div.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr int kTrunc = 1, kFloor = 2;

// The exact quotient, computed in 128 bits (MIN / -1 fits), then wrapped to
// the dtype as the integer result of a two's-complement machine is.
__int128 ReferenceQuotient(__int128 a, __int128 b, int mode) {
  if (b == 0) return 0;  // Canopy's choice for the undefined case: 0, as NumPy
  __int128 q = a / b;
  if (mode == kFloor && q * b != a && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

int64_t WrapTo(aclDataType dtype, __int128 value) {
  const auto u = static_cast<unsigned __int128>(value);
  switch (dtype) {
    case ACL_INT8:
      return static_cast<int8_t>(static_cast<uint8_t>(u));
    case ACL_UINT8:
      return static_cast<uint8_t>(u);
    case ACL_INT16:
      return static_cast<int16_t>(static_cast<uint16_t>(u));
    case ACL_INT32:
      return static_cast<int32_t>(static_cast<uint32_t>(u));
    default:
      return static_cast<int64_t>(static_cast<uint64_t>(u));
  }
}

// Host integers of any integer dtype, encoded little-endian in their width.
std::vector<uint8_t> Encode(aclDataType dtype, const std::vector<int64_t>& values) {
  const size_t width = ElementBytes(dtype);
  std::vector<uint8_t> bytes(values.size() * width);
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(&bytes[i * width], &values[i], width);
  return bytes;
}

std::vector<int64_t> Decode(aclDataType dtype, const std::vector<uint8_t>& bytes) {
  const size_t width = ElementBytes(dtype);
  std::vector<int64_t> values(bytes.size() / width);
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, &bytes[i * width], width);
    values[i] = WrapTo(dtype, static_cast<__int128>(raw));
  }
  return values;
}

// A contiguous device tensor holding `values`.
struct IntTensor {
  IntTensor(aclDataType dtype, const Shape& shape, const std::vector<int64_t>& values)
      : dtype(dtype), shape(shape), buffer(std::max<size_t>(1, values.size() * ElementBytes(dtype))) {
    const std::vector<uint8_t> bytes = Encode(dtype, values);
    if (!bytes.empty()) {
      EXPECT_EQ(aclrtMemcpy(buffer.get(), bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
    count = values.size();
  }
  aclTensor* Descriptor() const {
    const Shape strides = ContiguousStrides(shape);
    return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                           shape.size(), buffer.get());
  }
  std::vector<int64_t> Read() const {
    std::vector<uint8_t> bytes(count * ElementBytes(dtype));
    EXPECT_EQ(aclrtMemcpy(bytes.data(), bytes.size(), buffer.get(), bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return Decode(dtype, bytes);
  }
  aclDataType dtype;
  Shape shape;
  DeviceBuffer buffer;
  size_t count = 0;
};

// Uniform over the dtype's whole range; `nonZero` redraws zeros.
std::vector<int64_t> RandomIntegers(Rng& rng, aclDataType dtype, size_t count, bool nonZero) {
  std::vector<int64_t> values(count);
  std::mt19937_64 engine(rng.seed() ^ (static_cast<uint64_t>(dtype) << 32) ^ count);
  for (auto& v : values) {
    do {
      v = WrapTo(dtype, static_cast<__int128>(static_cast<int64_t>(engine())));
      // Small values too, so that quotients are not almost all 0 or +-1.
      if (engine() % 3 == 0) v = WrapTo(dtype, static_cast<int64_t>(engine() % 41) - (IsUnsigned(dtype) ? 0 : 20));
    } while (nonZero && v == 0);
  }
  return values;
}

aclnnStatus RunExecutor(uint64_t workspaceSize, aclOpExecutor* executor,
                        aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  void* workspace = nullptr;
  if (workspaceSize > 0) {
    EXPECT_EQ(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  const aclnnStatus status = phase2(workspace, workspaceSize, executor, TestStream());
  EXPECT_EQ(aclrtSynchronizeStream(TestStream()), ACL_SUCCESS);
  if (workspace != nullptr) aclrtFree(workspace);
  return status;
}

// out = DivMod(self, other, mode) with other of shape [1, N] broadcast over [M, N].
void CheckDivMod(aclDataType dtype, int mode, const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                 const Shape& shape, const Shape& otherShape) {
  IntTensor self(dtype, shape, a), other(dtype, otherShape, b);
  IntTensor out(dtype, shape, std::vector<int64_t>(a.size(), 0x5a));
  aclTensor* s = self.Descriptor();
  aclTensor* o = other.Descriptor();
  aclTensor* r = out.Descriptor();
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnDivModGetWorkspaceSize(s, o, mode, r, &workspaceSize, &executor), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  aclDestroyTensor(s);
  aclDestroyTensor(o);
  aclDestroyTensor(r);
  ASSERT_EQ(RunExecutor(workspaceSize, executor, aclnnDivMod), ACLNN_SUCCESS);
  const std::vector<int64_t> got = out.Read();
  const int64_t columns = otherShape.back();
  int mismatches = 0;
  for (size_t i = 0; i < a.size() && mismatches < 5; ++i) {
    const int64_t divisor = b.size() == a.size() ? b[i] : b[i % columns];
    const int64_t want = WrapTo(dtype, ReferenceQuotient(a[i], divisor, mode));
    if (got[i] != want) {
      ++mismatches;
      ADD_FAILURE() << Name(dtype) << " mode " << mode << ": " << a[i] << " / " << divisor << " gave " << got[i]
                    << ", expected " << want;
    }
  }
}

const std::vector<aclDataType>& IntegerDtypes() {
  static const std::vector<aclDataType> dtypes = {ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64};
  return dtypes;
}

TEST(DivModInteger, Int64BeyondTwoToThe53IsExact) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t big = (int64_t{1} << 53) + 1;
  const std::vector<int64_t> a = {big, max, -max, big, -big, max - 1, 9007199254740993, -9007199254740995};
  const std::vector<int64_t> b = {1, 2, 2, 3, 3, 7, -2, 2};
  for (int mode : {kTrunc, kFloor}) CheckDivMod(ACL_INT64, mode, a, b, {8}, {8});
}

TEST(DivModInteger, RandomOverEveryIntegerDtype) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {37, 29};
  for (aclDataType dtype : IntegerDtypes()) {
    const std::vector<int64_t> a = RandomIntegers(rng, dtype, 37 * 29, false);
    const std::vector<int64_t> b = RandomIntegers(rng, dtype, 37 * 29, true);
    const std::vector<int64_t> row = RandomIntegers(rng, dtype, 29, true);
    for (int mode : {kTrunc, kFloor}) {
      SCOPED_TRACE(std::string(Name(dtype)) + " mode " + std::to_string(mode));
      CheckDivMod(dtype, mode, a, b, shape, shape);
      CheckDivMod(dtype, mode, a, row, shape, {1, 29});  // broadcast divisor
    }
  }
}

TEST(DivModInteger, ZeroDivisorAndMinByMinusOneDoNotCrash) {
  for (aclDataType dtype : IntegerDtypes()) {
    const int64_t min =
        IsUnsigned(dtype) ? 0 : WrapTo(dtype, static_cast<__int128>(1) << (8 * ElementBytes(dtype) - 1));
    const std::vector<int64_t> a = {min, min, 7, -7, 0, min};
    const std::vector<int64_t> b = {-1, 0, 0, 0, 0, 1};
    for (int mode : {kTrunc, kFloor}) {
      SCOPED_TRACE(std::string(Name(dtype)) + " mode " + std::to_string(mode));
      std::vector<int64_t> wrapped(a.size()), divisors(b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        wrapped[i] = WrapTo(dtype, a[i]);
        divisors[i] = WrapTo(dtype, b[i]);
      }
      CheckDivMod(dtype, mode, wrapped, divisors, {6}, {6});
    }
  }
}

// DivMods and InplaceDivMod with an integer divisor keep the integer exactness.
TEST(DivModInteger, ScalarAndInPlaceFormsAreExact) {
  const int64_t big = (int64_t{1} << 60) + 3;
  const std::vector<int64_t> a = {big, -big, std::numeric_limits<int64_t>::max(), -5, 5, 0};
  for (int mode : {kTrunc, kFloor}) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    {
      IntTensor self(ACL_INT64, {6}, a), out(ACL_INT64, {6}, std::vector<int64_t>(6, 0x5a));
      const int64_t divisor = -3;
      aclScalar* scalar = aclCreateScalar(const_cast<int64_t*>(&divisor), ACL_INT64);
      aclTensor* s = self.Descriptor();
      aclTensor* r = out.Descriptor();
      uint64_t workspaceSize = 0;
      aclOpExecutor* executor = nullptr;
      ASSERT_EQ(aclnnDivModsGetWorkspaceSize(s, scalar, mode, r, &workspaceSize, &executor), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      aclDestroyTensor(s);
      aclDestroyTensor(r);
      aclDestroyScalar(scalar);
      ASSERT_EQ(RunExecutor(workspaceSize, executor, aclnnDivMods), ACLNN_SUCCESS);
      const std::vector<int64_t> got = out.Read();
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(got[i], WrapTo(ACL_INT64, ReferenceQuotient(a[i], divisor, mode))) << "DivMods " << a[i];
      }
    }
    {
      const std::vector<int64_t> b = {3, -7, 2, 2, -2, 9};
      IntTensor self(ACL_INT64, {6}, a), other(ACL_INT64, {6}, b);
      aclTensor* s = self.Descriptor();
      aclTensor* o = other.Descriptor();
      uint64_t workspaceSize = 0;
      aclOpExecutor* executor = nullptr;
      ASSERT_EQ(aclnnInplaceDivModGetWorkspaceSize(s, o, mode, &workspaceSize, &executor), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      aclDestroyTensor(s);
      aclDestroyTensor(o);
      ASSERT_EQ(RunExecutor(workspaceSize, executor, aclnnInplaceDivMod), ACLNN_SUCCESS);
      const std::vector<int64_t> got = self.Read();
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(got[i], WrapTo(ACL_INT64, ReferenceQuotient(a[i], b[i], mode))) << "InplaceDivMod " << a[i];
      }
    }
  }
}

}  // namespace
}  // namespace canopy_test
